public import HearthProtocol

/// Email and password accounts (PROTOCOL.md §3.1, §3.2, §3.6): sign-up, linking a password to the signed-in
/// user, sign-in, and changing the email or password. Hashing goes through ``PasswordHashing`` and never runs
/// inside a store transaction, so the writer is not held while a password is hashed.
public final class PasswordAccounts: Sendable {
    let project: ProjectConfiguration
    let store: any HearthStore
    let tokens: TokenService
    let time: any TimeSource
    let hasher: any PasswordHashing
    /// The scope's password policy and email privacy.
    let scopeSettings: ScopeSettings
    let lockouts: PasswordLockouts
    let limiter: RateLimiter
    let report: @Sendable (SecurityEvent) -> Void
    let audit: AuditRecorder
    /// How often a user may try to give its account another email (by linking, or with `accounts:update`).
    let emailChanges: EmailChangeLimits
    /// Where sign-ups, sign-ins and links complete.
    let completion: SignInCompletion
    /// Issues and mails the `RECOVER_EMAIL` code a direct change of email sends to the old address (nil: none).
    let emailActions: EmailActionService?

    /// The `sign_in_provider` of password sessions.
    static let providerID = "password"
    /// - Parameters:
    ///   - context: the project, store and clock; its rate limiter's `accountCreationPerClient` and
    ///     `signInPerAccount` buckets; its security events receive lockouts once committed; its audit log records
    ///     sign-ups, sign-ins (refused ones too), links, lockouts and credential changes.
    ///   - hasher: hashes new passwords and checks presented ones.
    ///   - scopeSettings: the scope's password policy (new passwords meet it) and email privacy.
    ///   - lockouts: the wrong-password counters per email and per client.
    ///   - emailChanges: the quotas on a signed-in user's attempts to change its email.
    ///   - emailActions: issues the recovery code of a direct change of email.
    public init(
        context: ServiceContext, tokens: TokenService, mfa: MFAService, hasher: any PasswordHashing,
        scopeSettings: ScopeSettings, lockouts: PasswordLockouts, emailChanges: EmailChangeLimits, emailActions: EmailActionService? = nil
    ) {
        self.emailChanges = emailChanges
        self.emailActions = emailActions
        audit = context.auditRecorder
        completion = SignInCompletion(tokens: tokens, mfa: mfa, audit: audit)
        project = context.project
        store = context.store
        self.tokens = tokens
        time = context.time
        self.hasher = hasher
        self.scopeSettings = scopeSettings
        self.lockouts = lockouts
        limiter = context.rateLimiter
        report = context.securityEvents
    }

    // MARK: - signUp

    /// `accounts:signUp` with an email and password: a new account (one per email, `EMAIL_EXISTS`) signed in with
    /// `sign_in_provider: password`; with `idToken`, the email and password are linked to that user instead
    /// (an anonymous user keeps its uid and stops being anonymous).
    ///
    /// - Throws: `UNEXPECTED_PARAMETER` for a `localId`, `MISSING_EMAIL`, `INVALID_EMAIL`, `MISSING_PASSWORD`,
    ///   `EMAIL_EXISTS`, the policy's `WEAK_PASSWORD` / `PASSWORD_DOES_NOT_MEET_REQUIREMENTS`,
    ///   `TOO_MANY_ATTEMPTS_TRY_LATER`.
    public func signUp(_ request: SignUpRequest, by caller: Caller) throws -> SignUpResponse {
        if request.localId != nil { throw WireError(.unexpectedParameter, "User ID") }
        let credentials = try Credentials(email: request.email, password: request.password)
        let displayName = request.displayName.flatMap { $0.isEmpty ? nil : $0 }
        _ = try ProfileChange(displayName: displayName, photoURL: nil)
        if let idToken = request.idToken, !idToken.isEmpty {
            return try link(
                credentials, displayName: displayName, to: tokens.authenticate(idToken: idToken), by: caller)
        }
        guard limiter.take(.accountCreationPerClient, key: caller.client) else {
            throw WireError(.tooManyAttemptsTryLater, "Too many sign-ups; try again later.")
        }
        try requireAvailable(credentials.email, for: nil, store)
        let hash = try hasher.hashNewPassword(credentials.password, under: scopeSettings.current().passwordPolicy)
        let nowMillis = time.nowMillis
        var authentication = Authentication(
            .new(
                Account(
                    localID: Identifiers.localID(), email: credentials.email, displayName: displayName,
                    passwordHash: hash, createdAtMillis: nowMillis, validSinceMillis: nowMillis)),
            signInProvider: Self.providerID)
        authentication.takesRateLimit = false
        let takes = RateLimitTakes(limiter)
        let decision = try store.write { writer in
            try completion.requireAvailable(credentials.email, for: nil, writer)
            return try completion.signIn(
                authentication,
                SignInCompletion.Context(writer: writer, nowMillis: nowMillis, caller: caller, takes: takes))
        }
        return try signedUp(decision)
    }

    /// Links an email and password to `user`: the web SDK's `linkWithCredential(EmailAuthCredential)`. The
    /// email becomes the account's (unverified when it changes); a user that has a password already changes it
    /// with `accounts:update` (`PROVIDER_ALREADY_LINKED` here). It needs a recent sign-in (a guest's excepted), ends
    /// the account's other sessions (the caller gets a fresh one) and voids the codes issued before, as a change of
    /// password does.
    private func link(_ credentials: Credentials, displayName: String?, to user: AuthenticatedUser, by caller: Caller)
        throws -> SignUpResponse
    {
        try tokens.requireRecentSignIn(user)
        let localID = user.account.localID
        try chargeEmailChange(to: credentials.email, of: user, by: caller)
        try requireAvailable(credentials.email, for: localID, store)
        let hash = try hasher.hashNewPassword(credentials.password, under: scopeSettings.current().passwordPolicy)
        let nowMillis = time.nowMillis
        let takes = RateLimitTakes(limiter)
        let decision = try store.write { writer in
            try completion.link(
                .password(email: credentials.email, hash: hash, displayName: displayName), to: localID,
                SignInCompletion.Context(writer: writer, nowMillis: nowMillis, caller: caller, takes: takes))
        }
        return try signedUp(decision)
    }

    /// The answer of a sign-up or link, which always starts a session.
    private func signedUp(_ decision: SignInDecision) throws -> SignUpResponse {
        guard case .session(let signedIn) = decision else { throw WireError(.internalError) }
        return SignUpResponse(signedIn, try tokens.issue(signedIn))
    }

    // MARK: - Helpers

    /// Counts an attempt of `user` to give its account `email`, before anything tells whether another account has it.
    func chargeEmailChange(to email: String, of user: AuthenticatedUser, by caller: Caller) throws {
        guard email != user.account.email else { return }
        try emailChanges.charge(
            localID: user.account.localID, by: caller, store: store, atMillis: time.nowMillis, report: report)
    }

    /// Refuses an email another account than `localID` has (`EMAIL_EXISTS`). Checked once before hashing, so a
    /// taken email costs no hash, and again inside the write that takes it.
    func requireAvailable(_ email: String, for localID: String?, _ store: any HearthStore) throws {
        try store.read { try completion.requireAvailable(email, for: localID, $0) }
    }
}

/// An email (checked, lower-cased) and a non-empty password, as sign-up and sign-in require them.
struct Credentials {
    let email: String
    let password: String

    /// - Throws: `MISSING_EMAIL` (a password without an email), `INVALID_EMAIL`, `MISSING_PASSWORD`.
    init(email: String?, password: String?) throws {
        guard let email, !email.isEmpty else { throw WireError(.missingEmail) }
        self.email = try AccountFieldRules.checkedEmail(email)
        guard let password, !password.isEmpty else { throw WireError(.missingPassword) }
        self.password = password
    }
}
