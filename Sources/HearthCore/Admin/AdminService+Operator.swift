public import HearthProtocol

/// The operator's actions on one account that Firebase's admin API has no call for (`hearth users`, the console).
/// Each is recorded in the audit log as done by its caller.
extension AdminService {
    /// The account's wire record, or `USER_NOT_FOUND`.
    public func userRecord(localID: String) throws -> UserRecord {
        guard let account = try store.read({ try $0.account(localID: localID) }) else {
            throw WireError(.userNotFound)
        }
        return UserRecord(account)
    }

    /// Disables or enables sign-in; a disabled account cannot sign in or refresh (`USER_DISABLED`).
    public func setDisabled(localID: String, _ disabled: Bool, by caller: Caller) throws {
        try modify(localID: localID, by: caller) { $0.disabled = disabled }
    }

    /// Revokes every session that exists now, to the millisecond: their refresh tokens answer `TOKEN_EXPIRED`, and
    /// ID tokens issued before now stop being accepted.
    public func revokeSessions(localID: String, by caller: Caller) throws {
        let now = time.nowMillis
        try modify(localID: localID, by: caller) { $0.revokeSessions(atMillis: now) }
    }

    /// Removes one second factor, in one write: a factor enrolled meanwhile is kept. Returns the removed factor and
    /// how many remain.
    ///
    /// - Throws: `USER_NOT_FOUND`, or `MFA_ENROLLMENT_NOT_FOUND` naming the account's factors.
    public func removeSecondFactor(localID: String, enrollmentID: String, by caller: Caller) throws
        -> (removed: MFAEnrollment, remaining: Int)
    {
        try store.write(.rowLocks) { writer in
            guard var account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
            let before = account
            guard let index = account.mfaEnrollments.firstIndex(where: { $0.enrollmentID == enrollmentID }) else {
                let known = account.mfaEnrollments.map(\.enrollmentID)
                throw WireError(
                    .mfaEnrollmentNotFound,
                    "user \(localID) has no second factor \(enrollmentID)"
                        + (known.isEmpty ? " (it has none)" : " (it has: \(known.joined(separator: ", ")))"))
            }
            let removed = account.mfaEnrollments.remove(at: index)
            try writer.updateAccount(account)
            try audit.recordChanges(from: before, to: account, by: caller, in: writer)
            return (removed, account.mfaEnrollments.count)
        }
    }

    /// A change of one account's own fields: the body reads the account first, so it runs with row locks.
    private func modify(localID: String, by caller: Caller, _ change: @escaping (inout Account) -> Void) throws {
        try store.write(.rowLocks) { writer in
            guard var account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
            let before = account
            change(&account)
            try writer.updateAccount(account)
            try audit.recordChanges(from: before, to: account, by: caller, in: writer)
        }
    }
}
