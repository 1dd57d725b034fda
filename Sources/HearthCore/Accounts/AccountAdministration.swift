public import HearthProtocol

/// Operator actions on one account (the `hearth users` command). Each is recorded in the audit log as done by
/// `actor` (`command-line` unless said otherwise).
extension AccountService {
    /// The account's wire record, or `USER_NOT_FOUND`.
    public func userRecord(localID: String) throws -> UserRecord {
        guard let account = try store.read({ try $0.account(localID: localID) }) else {
            throw WireError(.userNotFound)
        }
        return UserRecord(account)
    }

    /// Disables or enables sign-in; a disabled account cannot sign in or refresh (`USER_DISABLED`).
    public func setDisabled(localID: String, _ disabled: Bool, by actor: AuditActor) throws {
        try modify(localID: localID, by: actor) { $0.disabled = disabled }
    }

    /// Revokes every session that exists now: their refresh tokens answer `TOKEN_EXPIRED`, and ID
    /// tokens issued before now stop being accepted.
    public func revokeSessions(localID: String, by actor: AuditActor) throws {
        let now = time.nowMillis
        try modify(localID: localID, by: actor) { $0.revokeSessions(atMillis: now) }
    }

    /// Removes one second factor, in one write: a factor enrolled meanwhile is kept. Returns the removed factor and
    /// how many remain.
    ///
    /// - Throws: `USER_NOT_FOUND`, or `MFA_ENROLLMENT_NOT_FOUND` naming the account's factors.
    public func removeSecondFactor(localID: String, enrollmentID: String, by actor: AuditActor) throws
        -> (removed: MFAEnrollment, remaining: Int)
    {
        try store.write { writer in
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
            try audit.recordChanges(from: before, to: account, actor: actor, in: writer)
            return (removed, account.mfaEnrollments.count)
        }
    }

    /// Deletes the account (queueing the revocation of its provider tokens); its sessions then answer
    /// `USER_NOT_FOUND`.
    public func deleteAccount(localID: String, by actor: AuditActor) throws {
        let now = time.nowMillis
        let existed = try store.write { writer in
            guard try writer.deleteAccount(localID: localID, queueingRevocationsAtMillis: now) else { return false }
            try audit.record(.accountDeleted, localID: localID, actor: actor, in: writer)
            return true
        }
        guard existed else { throw WireError(.userNotFound) }
    }

    private func modify(localID: String, by actor: AuditActor, _ change: @escaping (inout Account) -> Void) throws {
        try store.write { writer in
            guard var account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
            let before = account
            change(&account)
            try writer.updateAccount(account)
            try audit.recordChanges(from: before, to: account, actor: actor, in: writer)
        }
    }
}
