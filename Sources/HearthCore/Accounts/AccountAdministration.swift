public import HearthProtocol

/// Operator actions on one account (the `hearth users` command).
extension AccountService {
    /// The account's wire record, or `USER_NOT_FOUND`.
    public func userRecord(localID: String) throws -> UserRecord {
        guard let account = try store.read({ try $0.account(localID: localID) }) else {
            throw WireError(.userNotFound)
        }
        return UserRecord(account)
    }

    /// Disables or enables sign-in; a disabled account cannot sign in or refresh (`USER_DISABLED`).
    public func setDisabled(localID: String, _ disabled: Bool) throws {
        try modify(localID: localID) { $0.disabled = disabled }
    }

    /// Revokes every session that exists now: their refresh tokens answer `TOKEN_EXPIRED`, and ID
    /// tokens issued before now stop being accepted.
    public func revokeSessions(localID: String) throws {
        let now = time.nowMillis
        try modify(localID: localID) { $0.revokeSessions(atMillis: now) }
    }

    /// Removes one second factor, in one write: a factor enrolled meanwhile is kept. Returns the removed factor and
    /// how many remain.
    ///
    /// - Throws: `USER_NOT_FOUND`, or `MFA_ENROLLMENT_NOT_FOUND` naming the account's factors.
    public func removeSecondFactor(localID: String, enrollmentID: String) throws -> (removed: MFAEnrollment, remaining: Int) {
        try store.write { writer in
            guard var account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
            guard let index = account.mfaEnrollments.firstIndex(where: { $0.enrollmentID == enrollmentID }) else {
                let known = account.mfaEnrollments.map(\.enrollmentID)
                throw WireError(
                    .mfaEnrollmentNotFound,
                    "user \(localID) has no second factor \(enrollmentID)"
                        + (known.isEmpty ? " (it has none)" : " (it has: \(known.joined(separator: ", ")))"))
            }
            let removed = account.mfaEnrollments.remove(at: index)
            try writer.updateAccount(account)
            return (removed, account.mfaEnrollments.count)
        }
    }

    /// Deletes the account (queueing the revocation of its provider tokens); its sessions then answer
    /// `USER_NOT_FOUND`.
    public func deleteAccount(localID: String) throws {
        let now = time.nowMillis
        let existed = try store.write { try $0.deleteAccount(localID: localID, queueingRevocationsAtMillis: now) }
        guard existed else { throw WireError(.userNotFound) }
    }

    private func modify(localID: String, _ change: @escaping (inout Account) -> Void) throws {
        try store.write { writer in
            guard var account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
            change(&account)
            try writer.updateAccount(account)
        }
    }
}
