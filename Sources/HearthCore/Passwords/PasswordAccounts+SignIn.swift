public import HearthProtocol

extension PasswordAccounts {
    /// `accounts:signInWithPassword` (iOS `verifyPassword`).
    ///
    /// The attempt is counted against the email and the client before the password is checked, in the write
    /// that sees whether either is locked (see ``PasswordAttempt``), and given back when the password is right.
    /// A locked email or client is answered `TOO_MANY_ATTEMPTS_TRY_LATER` without checking the password, whether
    /// or not the email has an account. An unknown email, or an account without a password, still spends one
    /// verification (``PasswordHashing/verifyNothing(_:)``). With email enumeration protection (the default),
    /// every credential failure is `INVALID_LOGIN_CREDENTIALS`; without it, `EMAIL_NOT_FOUND` / `INVALID_PASSWORD`.
    /// `USER_DISABLED` only after the right password. A second factor enrolled answers `mfaPendingCredential` and
    /// the masked factors instead of tokens. A rehash the hasher asks for is stored in the sign-in's write. Under
    /// an enforced password policy with `forceUpgradeOnSignin`, a right password the policy refuses is refused with
    /// the policy's `PASSWORD_DOES_NOT_MEET_REQUIREMENTS` (the attempt given back: it was not a wrong password).
    public func signIn(_ request: SignInWithPasswordRequest, by caller: Caller) throws -> SignInWithPasswordResponse {
        guard let email = request.email, !email.isEmpty else { throw WireError(.invalidEmail) }
        let credentials = try Credentials(email: email, password: request.password)
        let attempt = PasswordAttempt(email: credentials.email, client: caller.client, lockouts: lockouts)
        // A full hashing gate checks no password, so the attempt need not count: the store is spared a write for
        // each request of a flood.
        guard !hasher.isBusy else { throw HashingGate.busy }
        let account = try store.transaction(atMillis: time.nowMillis, report: report, audit: audit, caller: caller) {
            writer, ledger in
            try attempt.reserve(&ledger)
            return .commit(try writer.account(email: credentials.email))
        }
        let check: PasswordCheck
        if let stored = account?.passwordHash {
            check = try hasher.verify(credentials.password, against: stored)
        } else {
            try hasher.verifyNothing(credentials.password)
            check = .mismatch
        }
        guard case .match(let rehash) = check, let account, let stored = account.passwordHash else {
            let failure = credentialFailure(emailKnown: account != nil)
            // An unknown email is recorded without it: no localID, nothing of what was submitted.
            audit.recordRefusal(
                .signInFailed, localID: account?.localID, provider: Self.providerID, by: caller, code: failure.code,
                in: store)
            throw failure
        }
        let upgrade = try scopeSettings.current().passwordPolicy.upgradeRefusal(for: credentials.password)
        return try finishSignIn(
            account, verifiedHash: stored, rehash: rehash, upgrade: upgrade, attempt: attempt, by: caller)
    }

    /// The error for a wrong password or an unknown email: the same for both under email enumeration protection
    /// (also when the settings cannot be read: the answer that tells nothing).
    func credentialFailure(emailKnown: Bool) -> WireError {
        if (try? scopeSettings.current().emailEnumerationProtection) ?? true { return WireError(.invalidLoginCredentials) }
        return emailKnown
            ? WireError(.invalidPassword, "The password is invalid or the user does not have a password.")
            : WireError(.emailNotFound, "There is no user record corresponding to this identifier.")
    }

    /// After the right password for `account` (whose hash was `verifiedHash`): gives the attempt back, stores a
    /// rehash, and completes the sign-in, all in one write. A password changed (or an account deleted) since it was
    /// checked, or a disabled account, is refused in that write, the attempt given back all the same; so is a
    /// password the policy asks to `upgrade`.
    private func finishSignIn(
        _ account: Account, verifiedHash: String, rehash: String?, upgrade: WireError?, attempt: PasswordAttempt,
        by caller: Caller
    ) throws -> SignInWithPasswordResponse {
        let nowMillis = time.nowMillis
        let failure = credentialFailure(emailKnown: true)
        var authentication = Authentication(
            .existing(localID: account.localID, ifGone: failure), signInProvider: Self.providerID)
        authentication.prepare = { current in
            guard current.passwordHash == verifiedHash else { return failure }
            if let upgrade { return upgrade }
            if let rehash { current.passwordHash = rehash }
            return nil
        }
        let takes = RateLimitTakes(limiter)
        let decision = try store.transaction(atMillis: nowMillis, report: report, audit: nil, caller: caller) {
            writer, ledger -> WriteOutcome<SignInDecision> in
            try attempt.succeeded(&ledger)
            let context = SignInCompletion.Context(writer: writer, nowMillis: nowMillis, caller: caller, takes: takes)
            return .commit(try completion.signIn(authentication, context))
        }
        switch decision {
        case .refused(let error):
            throw error
        case .secondFactor(let account, let credential, let factors):
            var response = SignInWithPasswordResponse(localId: account.localID, email: account.email)
            response.mfaPendingCredential = credential
            response.mfaInfo = factors
            return response
        case .needsConfirmation:
            throw WireError(.internalError)
        case .session(let signedIn):
            return SignInWithPasswordResponse(signedIn, try tokens.issue(signedIn))
        }
    }
}
