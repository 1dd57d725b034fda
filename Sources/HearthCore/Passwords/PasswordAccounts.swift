public import HearthProtocol

/// Email and password accounts (PROTOCOL.md §3.1, §3.2, §3.6): sign-up, linking a password to the signed-in
/// user, sign-in, and changing the email or password. Hashing goes through ``PasswordHashing`` and never runs
/// inside a store transaction, so the writer is not held while a password is hashed.
public final class PasswordAccounts: Sendable {
    let project: ProjectConfiguration
    let store: any HearthStore
    let tokens: TokenService
    let mfa: MFAService
    let time: any TimeSource
    let hasher: any PasswordHashing
    let lockouts: PasswordLockouts
    let limiter: RateLimiter
    let report: @Sendable (SecurityEvent) -> Void
    let audit: AuditRecorder
    /// How often a user may try to give its account another email (by linking, or with `accounts:update`).
    let emailChanges: EmailChangeLimits

    /// The `sign_in_provider` of password sessions.
    static let providerID = "password"
    /// - Parameters:
    ///   - hasher: hashes new passwords (checking the policy) and checks presented ones.
    ///   - lockouts: the wrong-password counters per email and per client.
    ///   - limiter: the in-memory buckets (`accountCreationPerClient`, `signInPerAccount`).
    ///   - report: receives lockouts, after they are committed.
    ///   - audit: records sign-ups, sign-ins (refused ones too), links, lockouts and credential changes.
    ///   - emailChanges: the quotas on a signed-in user's attempts to change its email.
    public init(
        project: ProjectConfiguration, store: any HearthStore, tokens: TokenService, mfa: MFAService,
        time: any TimeSource, hasher: any PasswordHashing, lockouts: PasswordLockouts = PasswordLockouts(),
        limiter: RateLimiter = RateLimiter(), report: @escaping @Sendable (SecurityEvent) -> Void = { _ in },
        audit: AuditLog = AuditLog(), emailChanges: EmailChangeLimits = EmailChangeLimits()
    ) {
        self.emailChanges = emailChanges
        self.audit = AuditRecorder(audit, time: time)
        self.project = project
        self.store = store
        self.tokens = tokens
        self.mfa = mfa
        self.time = time
        self.hasher = hasher
        self.lockouts = lockouts
        self.limiter = limiter
        self.report = report
    }

    // MARK: - signUp

    /// `accounts:signUp` with an email and password: a new account (one per email, `EMAIL_EXISTS`) signed in with
    /// `sign_in_provider: password`; with `idToken`, the email and password are linked to that user instead
    /// (an anonymous user keeps its uid and stops being anonymous).
    ///
    /// - Throws: `UNEXPECTED_PARAMETER` for a `localId`, `MISSING_EMAIL`, `INVALID_EMAIL`, `MISSING_PASSWORD`,
    ///   `EMAIL_EXISTS`, the policy's `WEAK_PASSWORD` / `PASSWORD_DOES_NOT_MEET_REQUIREMENTS`,
    ///   `TOO_MANY_ATTEMPTS_TRY_LATER`.
    public func signUp(_ request: SignUpRequest, client: String? = nil) throws -> SignUpResponse {
        if request.localId != nil { throw WireError(.unexpectedParameter, "User ID") }
        let credentials = try Credentials(email: request.email, password: request.password)
        let displayName = request.displayName.flatMap { $0.isEmpty ? nil : $0 }
        _ = try ProfileChange(displayName: displayName, photoURL: nil)
        if let idToken = request.idToken, !idToken.isEmpty {
            return try link(
                credentials, displayName: displayName, to: tokens.authenticate(idToken: idToken), client: client)
        }
        guard limiter.take(.accountCreationPerClient, key: client) else {
            throw WireError(.tooManyAttemptsTryLater, "Too many sign-ups; try again later.")
        }
        try requireAvailable(credentials.email, for: nil, store)
        let hash = try hasher.hashNewPassword(credentials.password)
        let nowMillis = time.nowMillis
        var account = Account(
            localID: Identifiers.localID(), email: credentials.email, displayName: displayName, passwordHash: hash,
            createdAtMillis: nowMillis, validSinceMillis: nowMillis)
        account.recordSignIn(atMillis: nowMillis)
        let session = Session(signInProvider: Self.providerID, authTime: nowMillis / 1000)
        let refreshToken = try store.write { writer in
            try requireAvailable(credentials.email, for: nil, writer)
            try writer.insertAccount(account)
            try audit.record(.signUp, localID: account.localID, provider: Self.providerID, client: client, in: writer)
            return try tokens.newRefreshToken(for: account, session: session, writer: writer)
        }
        return SignUpResponse(
            idToken: try tokens.mintIDToken(for: account, session: session), refreshToken: refreshToken,
            expiresIn: tokens.expiresIn, localId: account.localID, email: account.email,
            displayName: account.displayName)
    }

    /// Links an email and password to `user`: the web SDK's `linkWithCredential(EmailAuthCredential)`. The
    /// email becomes the account's (unverified when it changes); a user that has a password already changes it
    /// with `accounts:update` (`PROVIDER_ALREADY_LINKED` here). It needs a recent sign-in (a guest's excepted), ends
    /// the account's other sessions (the caller gets a fresh one) and voids the codes issued before, as a change of
    /// password does.
    private func link(_ credentials: Credentials, displayName: String?, to user: AuthenticatedUser, client: String?)
        throws -> SignUpResponse
    {
        try tokens.requireRecentSignIn(user)
        let localID = user.account.localID
        try chargeEmailChange(to: credentials.email, of: user, client: client)
        try requireAvailable(credentials.email, for: localID, store)
        let hash = try hasher.hashNewPassword(credentials.password)
        let nowMillis = time.nowMillis
        let session = Session(signInProvider: Self.providerID, authTime: nowMillis / 1000)
        let (account, refreshToken) = try store.write { writer -> (Account, String) in
            guard var account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
            guard account.passwordHash == nil else {
                throw WireError(.providerAlreadyLinked, "The user already has a password; change it with accounts:update.")
            }
            try requireAvailable(credentials.email, for: localID, writer)
            if account.email != credentials.email {
                account.email = credentials.email
                account.emailVerified = false
            }
            account.passwordHash = hash
            account.isAnonymous = false
            account.displayName = displayName ?? account.displayName
            account.recordSignIn(atMillis: nowMillis)
            account.revokeSessions(atMillis: nowMillis)
            try writer.deleteOOBCodes(localID: localID, keeping: .recoverEmail)
            try writer.updateAccount(account)
            try audit.record(.link, localID: localID, provider: Self.providerID, client: client, in: writer)
            return (account, try tokens.newRefreshToken(for: account, session: session, writer: writer))
        }
        return SignUpResponse(
            idToken: try tokens.mintIDToken(for: account, session: session), refreshToken: refreshToken,
            expiresIn: tokens.expiresIn, localId: account.localID, email: account.email,
            displayName: account.displayName)
    }

    // MARK: - Helpers

    /// Counts an attempt of `user` to give its account `email`, before anything tells whether another account has it.
    func chargeEmailChange(to email: String, of user: AuthenticatedUser, client: String?) throws {
        guard email != user.account.email else { return }
        try emailChanges.charge(
            localID: user.account.localID, client: client, store: store, atMillis: time.nowMillis, report: report)
    }

    /// Refuses an email another account than `localID` has (`EMAIL_EXISTS`). Checked once before hashing, so a
    /// taken email costs no hash, and again inside the write that takes it.
    func requireAvailable(_ email: String, for localID: String?, _ reader: any StoreReader) throws {
        if let owner = try reader.account(email: email), owner.localID != localID {
            throw WireError(.emailExists, "The email address is already in use by another account.")
        }
    }

    func requireAvailable(_ email: String, for localID: String?, _ store: any HearthStore) throws {
        try store.read { try requireAvailable(email, for: localID, $0) }
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
