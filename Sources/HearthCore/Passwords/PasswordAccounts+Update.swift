import HearthProtocol

extension PasswordAccounts {
    /// `accounts:update` with `email` and/or `password` by the signed-in `user` (PROTOCOL.md §3.6), together with
    /// the request's profile changes. The account's sessions all end (`validSince` moves to now, so their refresh
    /// tokens answer `TOKEN_EXPIRED`), and the caller gets a fresh session whose tokens say `sign_in_provider:
    /// password` when a password was set (else the old provider), and `newEmail` when an email was. A new email
    /// replacing an old one (not an anonymous account's) mails the old address a `RECOVER_EMAIL` code, as Firebase.
    ///
    /// - Throws: `INVALID_EMAIL`, `CREDENTIAL_TOO_OLD_LOGIN_AGAIN` (the session signed in over five minutes ago, as
    ///   Firebase requires a recent sign-in for these changes; not for an anonymous account, which has no
    ///   credential to protect and upgrades this way with older iOS SDKs), `EMAIL_EXISTS`, the policy's errors.
    func changeCredentials(
        email requestedEmail: String?, password: String?, profile: ProfileChange, of user: AuthenticatedUser,
        by caller: Caller
    ) throws -> UpdateAccountResponse {
        let email = try requestedEmail.map(AccountFieldRules.checkedEmail)
        try tokens.requireRecentSignIn(user)
        let localID = user.account.localID
        if let email {
            try chargeEmailChange(to: email, of: user, by: caller)
            try requireAvailable(email, for: localID, store)
        }
        let policy = try scopeSettings.current().passwordPolicy
        let hash = try password.map { try hasher.hashNewPassword($0, under: policy) }
        let nowMillis = time.nowMillis
        var session = user.session
        if hash != nil { session.signInProvider = Self.providerID }
        // Row locks: the body reads the account first; a new email taken meanwhile meets the unique key, and the body
        // runs again and answers EMAIL_EXISTS.
        let (account, refreshToken, recovery) = try store.writeRetryingUniqueness(.rowLocks) {
            writer -> (Account, String, (code: String, old: String, new: String)?) in
            guard var account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
            let before = account
            profile.apply(to: &account)
            var recovery: (code: String, old: String, new: String)?
            if let email {
                try completion.requireAvailable(email, for: localID, writer)
                if account.email != email {
                    // As Firebase: the old address (of an account that is not anonymous) gets a code that undoes it.
                    if let old = account.email, !old.isEmpty, !account.isAnonymous, let emailActions {
                        account.initialEmail = account.initialEmail ?? old
                        let code = try emailActions.issue(
                            .recoverEmail, localID: localID, email: old, newEmail: email, continueURL: nil, writer: writer)
                        recovery = (code, old, email)
                    }
                    account.email = email
                    account.emailVerified = false
                }
            }
            if let hash { account.passwordHash = hash }
            account.isAnonymous = false
            account.revokeSessions(atMillis: nowMillis)
            // A code issued before the change (a password reset, a change of email) must not undo it; a recovery
            // code stays, for the earlier owner of a changed address.
            try writer.deleteOOBCodes(localID: localID, keeping: .recoverEmail)
            try writer.updateAccount(account, queueingRevocationsOfDroppedTokensAtMillis: nowMillis)
            try audit.recordChanges(from: before, to: account, by: caller, in: writer)
            return (account, try tokens.newRefreshToken(for: account, session: session, writer: writer), recovery)
        }
        if let recovery, let emailActions {
            // After the commit; a failed delivery is the operator's to see (the change is done).
            _ = emailActions.deliver(
                .recoverEmail, code: recovery.code, to: recovery.old, email: recovery.old, newEmail: recovery.new,
                displayName: account.displayName, continueURL: nil)
        }
        var response = UpdateAccountResponse(account)
        response.newEmail = email
        response.idToken = try tokens.mintIDToken(for: account, session: session)
        response.refreshToken = refreshToken
        response.expiresIn = tokens.expiresIn
        return response
    }
}
