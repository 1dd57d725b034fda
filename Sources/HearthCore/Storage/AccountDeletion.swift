extension StoreWriter {
    /// Deletes the account as `deleteAccount(localID:)` does and, in the same write, queues the revocation of
    /// every provider refresh token its identities hold (due at `millis`), so that no token is forgotten
    /// unrevoked. Every deletion of an account goes through here (client and admin deletes, `hearth users
    /// delete`, the maintenance task's purge of stale guests). Returns whether the account existed.
    @discardableResult
    public func deleteAccount(localID: String, queueingRevocationsAtMillis millis: Int64) throws -> Bool {
        guard let account = try account(localID: localID) else { return false }
        for identity in account.providers {
            guard let token = identity.providerRefreshToken else { continue }
            try enqueueProviderTokenRevocation(
                ProviderTokenRevocation(revoking: token, of: identity, localID: localID, atMillis: millis))
        }
        return try deleteAccount(localID: localID)
    }
}
