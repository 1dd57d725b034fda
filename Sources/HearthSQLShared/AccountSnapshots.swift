public import HearthCore

/// The accounts one write transaction has read or written, as they are stored at that point of the transaction.
///
/// Both SQL writers keep one, so that a body reads an account once (a second `account(localID:)` is answered from
/// here) and an update writes only what changed: the account row always, its identities and its MFA enrolments only
/// when they differ from the stored copy. Every writer method that changes account rows keeps it true: an insert
/// or update remembers the new value once its statements succeeded, `recordRefresh` patches it, a delete forgets it.
/// A new transaction (a rerun of the body included) starts with none.
public struct AccountSnapshots {
    private var stored: [String: Account] = [:]

    public init() {}

    /// The stored copy of `localID`, if this transaction has it.
    public subscript(localID: String) -> Account? { stored[localID] }

    /// Records `account` as stored now (its email lower-cased, as both stores keep it).
    public mutating func remember(_ account: Account) {
        var stored = account
        stored.email = account.email?.lowercased()
        self.stored[account.localID] = stored
    }

    /// Records that `localID`'s last refresh is now `millis`.
    public mutating func recordRefresh(localID: String, atMillis millis: Int64) {
        stored[localID]?.lastRefreshAtMillis = millis
    }

    public mutating func forget(localID: String) { stored[localID] = nil }

    public mutating func forgetAll() { stored = [:] }

    /// The rows an update to `account` must rewrite: each family that differs from the stored copy, or both when
    /// the transaction has none.
    public func rewrites(_ account: Account) -> (identities: Bool, enrollments: Bool) {
        guard let before = stored[account.localID] else { return (true, true) }
        return (before.providers != account.providers, before.mfaEnrollments != account.mfaEnrollments)
    }
}
