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
    /// the masked factors instead of tokens. A rehash the hasher asks for is stored in the sign-in's write.
    public func signIn(_ request: SignInWithPasswordRequest, client: String? = nil) throws -> SignInWithPasswordResponse {
        guard let email = request.email, !email.isEmpty else { throw WireError(.invalidEmail) }
        let credentials = try Credentials(email: email, password: request.password)
        let attempt = PasswordAttempt(email: credentials.email, client: client, lockouts: lockouts)
        // A full hashing gate checks no password, so the attempt need not count: the store is spared a write for
        // each request of a flood.
        guard !hasher.isBusy else { throw HashingGate.busy }
        let account = try store.transaction(atMillis: time.nowMillis, report: report, audit: audit, client: client) {
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
                .signInFailed, localID: account?.localID, provider: Self.providerID, client: client, code: failure.code,
                in: store)
            throw failure
        }
        guard limiter.take(.signInPerAccount, key: account.localID) else {
            throw WireError(.tooManyAttemptsTryLater, "Too many sign-ins; try again later.")
        }
        return try finishSignIn(account, verifiedHash: stored, rehash: rehash, attempt: attempt, client: client)
    }

    /// The error for a wrong password or an unknown email: the same for both under email enumeration protection.
    func credentialFailure(emailKnown: Bool) -> WireError {
        if project.emailEnumerationProtection { return WireError(.invalidLoginCredentials) }
        return emailKnown
            ? WireError(.invalidPassword, "The password is invalid or the user does not have a password.")
            : WireError(.emailNotFound, "There is no user record corresponding to this identifier.")
    }

    private enum SignInOutcome {
        case signedIn(Account, refreshToken: String)
        case secondFactorRequired(Account, credential: String, mfaInfo: [MFAEnrollmentInfo])
    }

    /// After the right password for `account` (whose hash was `verifiedHash`): gives the attempt back, stores
    /// a rehash, and starts the session (or the pending second-factor sign-in), all in one write.
    private func finishSignIn(
        _ account: Account, verifiedHash: String, rehash: String?, attempt: PasswordAttempt, client: String?
    ) throws -> SignInWithPasswordResponse {
        let nowMillis = time.nowMillis
        let session = Session(signInProvider: Self.providerID, authTime: nowMillis / 1000)
        let outcome = try store.transaction(atMillis: nowMillis, report: report) { writer, ledger -> WriteOutcome<SignInOutcome> in
            try attempt.succeeded(&ledger)
            /// Answers `error` once the returned attempt is kept, recording the refusal with it.
            func refuse(_ error: WireError) throws -> WriteOutcome<SignInOutcome> {
                try audit.record(
                    .signInFailed, localID: account.localID, provider: Self.providerID, client: client,
                    detail: AuditRecorder.detail(of: error.code), in: writer)
                return .commitThenFail(error)
            }
            // The password checked must still be the account's (not changed, the account not deleted, meanwhile).
            guard var current = try writer.account(localID: account.localID), current.passwordHash == verifiedHash else {
                return try refuse(credentialFailure(emailKnown: true))
            }
            guard !current.disabled else { return try refuse(WireError(.userDisabled)) }
            if let rehash { current.passwordHash = rehash }
            if !mfa.requiredFactors(of: current).isEmpty {
                try writer.updateAccount(current)
                try audit.record(
                    .signIn, localID: current.localID, provider: Self.providerID, client: client,
                    detail: AuditRecorder.mfaRequired, in: writer)
                let pending = try mfa.startPendingSignIn(for: current, signInProvider: Self.providerID, writer: writer)
                return .commit(.secondFactorRequired(current, credential: pending.credential, mfaInfo: pending.mfaInfo))
            }
            current.recordSignIn(atMillis: nowMillis)
            try writer.updateAccount(current)
            try audit.record(.signIn, localID: current.localID, provider: Self.providerID, client: client, in: writer)
            return .commit(.signedIn(current, refreshToken: try tokens.newRefreshToken(for: current, session: session, writer: writer)))
        }
        switch outcome {
        case .secondFactorRequired(let account, let credential, let mfaInfo):
            var response = SignInWithPasswordResponse(localId: account.localID, email: account.email)
            response.mfaPendingCredential = credential
            response.mfaInfo = mfaInfo
            return response
        case .signedIn(let account, let refreshToken):
            var response = SignInWithPasswordResponse(localId: account.localID, email: account.email)
            response.displayName = account.displayName
            response.profilePicture = account.photoURL
            response.registered = true
            response.idToken = try tokens.mintIDToken(for: account, session: session)
            response.refreshToken = refreshToken
            response.expiresIn = tokens.expiresIn
            return response
        }
    }
}
