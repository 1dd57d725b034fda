/// A provider refresh token leaves the store only through the revocation queue: every write that deletes an
/// account, or takes a token off an identity, queues the token's revocation in the same transaction (due at
/// once), so no token is ever forgotten unrevoked.
extension StoreWriter {
    /// Deletes the account as `deleteAccount(localID:)` does and queues the revocation of every provider refresh
    /// token its identities hold. Every deletion of an account goes through here (client and admin deletes,
    /// `hearth users delete`, the maintenance task's purge of stale guests). Returns whether the account existed.
    @discardableResult
    public func deleteAccount(localID: String, queueingRevocationsAtMillis millis: Int64) throws -> Bool {
        guard let account = try account(localID: localID) else { return false }
        try queueRevocations(of: account.providers, localID: localID, atMillis: millis)
        return try deleteAccount(localID: localID)
    }

    /// Deletes every account as `deleteAllAccounts()` does (the emulator's wipe, in development) and queues the
    /// revocation of every provider refresh token they hold. Returns how many accounts it deleted.
    @discardableResult
    public func deleteAllAccounts(queueingRevocationsAtMillis millis: Int64) throws -> Int {
        var after: String?
        repeat {
            let page = try accounts(after: after, limit: 500)
            for account in page { try queueRevocations(of: account.providers, localID: account.localID, atMillis: millis) }
            after = page.count == 500 ? page.last?.localID : nil
        } while after != nil
        return try deleteAllAccounts()
    }

    /// Saves `account` as `updateAccount(_:)` does and queues the revocation of every provider refresh token the
    /// stored account holds that `account` no longer does: its identity unlinked or replaced, or the token
    /// replaced by a new one. Use it for every update that may change identities. Throws as `updateAccount(_:)`.
    public func updateAccount(_ account: Account, queueingRevocationsOfDroppedTokensAtMillis millis: Int64) throws {
        if let stored = try self.account(localID: account.localID) {
            let kept = account.providers.compactMap(\.providerRefreshToken)
            let dropped = stored.providers.filter { identity in
                identity.providerRefreshToken.map { !kept.contains($0) } ?? false
            }
            try queueRevocations(of: dropped, localID: account.localID, atMillis: millis)
        }
        try updateAccount(account)
    }

    private func queueRevocations(of identities: [LinkedIdentity], localID: String, atMillis millis: Int64) throws {
        for identity in identities {
            guard let token = identity.providerRefreshToken else { continue }
            try enqueueProviderTokenRevocation(
                ProviderTokenRevocation(revoking: token, of: identity, localID: localID, atMillis: millis))
        }
    }
}
