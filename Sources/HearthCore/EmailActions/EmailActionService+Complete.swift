public import HearthProtocol

extension EmailActionService {
    /// `accounts:resetPassword` (PROTOCOL.md §3.9). Without `newPassword` it tells what a code is for and leaves it
    /// unused (`checkActionCode`, `verifyPasswordResetCode`). With one it consumes a `PASSWORD_RESET` code and sets
    /// the password (hashed before the transaction, so the store's writer never waits for the hash), marks the email
    /// verified and ends every existing session. The code proves the address: an account whose email was never
    /// verified is taken over first (every other way in drops, as with an email link), and the other codes of the
    /// account are void (all of them after a takeover, else all but the recovery codes).
    /// - Parameter caller: who resets, recorded with the change.
    public func resetPassword(_ request: ResetPasswordRequest, by caller: Caller) throws -> ResetPasswordResponse {
        let record = try store.read { try liveCode(request.oobCode, reader: $0) }
        guard let newPassword = request.newPassword else {
            return ResetPasswordResponse(
                requestType: record.kind.rawValue, email: record.kind == .emailSignIn ? nil : record.email,
                newEmail: record.newEmail)
        }
        guard record.kind == .passwordReset else { throw Self.invalidCode }
        guard let passwords else {
            throw WireError(.operationNotAllowed, "Password sign-in is not enabled on this server.")
        }
        let hash = try passwords.hashNewPassword(newPassword, under: scopeSettings.current().passwordPolicy)
        let now = time.nowMillis
        try store.write { writer in
            let record = try liveCode(request.oobCode, kinds: [.passwordReset], reader: writer)
            var account = try self.account(of: record, reader: writer)
            let before = account
            try consume(record, writer: writer)
            if account.emailVerified {
                try writer.endSessions(of: &account, atMillis: now)
                try writer.deleteOOBCodes(localID: account.localID, keeping: .recoverEmail)
            } else {
                try writer.takeOver(&account, atMillis: now)
            }
            account.passwordHash = hash
            account.passwordUpdatedAtMillis = now
            account.emailVerified = true
            account.isAnonymous = false
            try writer.updateAccount(account, queueingRevocationsOfDroppedTokensAtMillis: now)
            try audit.recordChanges(from: before, to: account, by: caller, in: writer)
        }
        return ResetPasswordResponse(requestType: record.kind.rawValue, email: record.email, newEmail: nil)
    }

    /// `accounts:update` with an `oobCode` (applying an action code, PROTOCOL.md §3.6): `VERIFY_EMAIL` marks the
    /// email verified; `VERIFY_AND_CHANGE_EMAIL` makes the new email the account's (verified), records the first
    /// email as `initialEmail`, and mails the old address a `RECOVER_EMAIL` code; `RECOVER_EMAIL` restores the old
    /// email and, since whoever changed it may also know the password, removes the password (the owner sets a new one
    /// with a password reset). A change of email and a recovery end every session; a recovery voids every other code
    /// of the account, a change of email every code but the recovery codes (those undo changes for the earlier owner
    /// of an address, so nothing the new address's holder does may void them). No tokens are issued. The recovery email goes out after the change has committed; a failure to send
    /// it is reported to the operator, not the client (the change is done and the code used: nothing to retry).
    /// - Parameter caller: who applies the code, recorded with an email change.
    public func apply(oobCode: String?, by caller: Caller) throws -> UpdateAccountResponse {
        let now = time.nowMillis
        let (account, recovery) = try store.write { writer -> (Account, (code: String, old: String, new: String)?) in
            let record = try liveCode(oobCode, kinds: [.verifyEmail, .verifyAndChangeEmail, .recoverEmail], reader: writer)
            var account = try self.account(of: record, email: record.kind == .recoverEmail ? record.newEmail : nil, reader: writer)
            let before = account
            try consume(record, writer: writer)
            var recovery: (code: String, old: String, new: String)?
            switch record.kind {
            case .verifyAndChangeEmail:
                guard let newEmail = record.newEmail else { throw Self.invalidCode }
                try requireFree(newEmail, for: account, writer)
                let old = account.email
                account.initialEmail = account.initialEmail ?? old
                account.email = newEmail
                try writer.endSessions(of: &account, atMillis: now)
                try writer.deleteOOBCodes(localID: account.localID, keeping: .recoverEmail)
                if let old, !old.isEmpty {
                    let code = try issue(.recoverEmail, localID: account.localID, email: old, newEmail: newEmail,
                                         continueURL: record.continueURL, writer: writer)
                    recovery = (code, old, newEmail)
                }
            case .recoverEmail:
                try requireFree(record.email, for: account, writer)
                account.email = record.email
                account.passwordHash = nil
                account.passwordUpdatedAtMillis = nil
                try writer.endSessions(of: &account, atMillis: now)
                try writer.deleteOOBCodes(localID: account.localID, keeping: nil)
            default:
                break
            }
            account.emailVerified = true
            try writer.updateAccount(account)
            try audit.recordChanges(from: before, to: account, by: caller, in: writer)
            return (account, recovery)
        }
        if let recovery {
            deliver(
                .recoverEmail, code: recovery.code, to: recovery.old, email: recovery.old, newEmail: recovery.new,
                displayName: account.displayName, continueURL: nil)
        }
        return UpdateAccountResponse(account)
    }

    /// `EMAIL_EXISTS` when another account has taken `email` meanwhile.
    private func requireFree(_ email: String, for account: Account, _ reader: any StoreReader) throws {
        if let owner = try reader.account(email: email), owner.localID != account.localID {
            throw WireError(.emailExists, "The email address is already in use by another account.")
        }
    }
}
