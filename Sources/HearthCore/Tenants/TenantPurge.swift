/// Deletes what a deleted tenant leaves in its scope: first its refresh sessions, email action codes, verification
/// sessions and limit counters, then its accounts (queueing the revocation of their provider tokens), at most
/// `batchSize` records per write transaction so the store's writer is never held for long. Audit events stay for
/// the audit log's retention.
///
/// Accounts go last because a scope is found again by its accounts (`StoreReader.scopes()`): a purge that a crash
/// interrupted still has accounts left, and the maintenance task finds the scope without a tenant record and
/// finishes it (`orphanedScopes`).
struct TenantPurge {
    /// Any view of the store: the purge acts in the scope it is given.
    let store: any HearthStore
    let time: any TimeSource
    let batchSize: Int

    /// Purges `scope` (never the project's) a batch per transaction; `pause` runs between two transactions and
    /// returns true to stop. Returns how many records were deleted and whether the scope is now empty.
    func purge(_ scope: StoreScope, pause: () -> Bool) throws -> (deleted: Int, finished: Bool) {
        precondition(!scope.isProject, "the project's records are never purged")
        let scoped = store.scope == scope ? store : store.scoped(to: scope)
        let batch = max(1, batchSize)
        var deleted = 0
        var stateLeft = true
        while true {
            // What the transaction changed is only taken once it committed: a rerun starts from the same values.
            let (count, stateStillLeft, accountsLeft) = try scoped.write { [stateLeft] writer -> (Int, Bool, Bool) in
                var count = 0
                if stateLeft {
                    count = try writer.deleteScopeState(limit: batch)
                    if count == batch { return (count, true, true) }
                }
                let now = time.nowMillis
                let room = batch - count
                let page = try writer.accounts(after: nil, limit: room)
                for account in page where try writer.deleteAccount(localID: account.localID, queueingRevocationsAtMillis: now) {
                    count += 1
                }
                return (count, false, page.count == room)
            }
            stateLeft = stateStillLeft
            deleted += count
            if !accountsLeft { return (deleted, true) }
            if pause() { return (deleted, false) }
        }
    }

    /// The scopes that hold accounts but whose tenant no longer exists: tenants deleted before their purge ended.
    func orphanedScopes() throws -> [StoreScope] {
        try store.read { reader in
            try reader.scopes().filter { scope in try !scope.isProject && reader.tenant(id: scope.tenantID) == nil }
        }
    }
}
