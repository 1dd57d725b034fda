public import HearthProtocol

extension EmailActionService {
    /// `accounts:signInWithEmailLink` (PROTOCOL.md §3.11): consumes an `EMAIL_SIGNIN` code sent to `email` and signs
    /// in the account with that email (made, verified, if there is none), or with an `idToken` links the email to
    /// that user. The session's `sign_in_provider` is `password`, as Firebase's is for email links.
    ///
    /// The link proves the address: an existing account whose email was not verified is taken over by it, losing
    /// every other way in (password, phone, linked identities, second factors) and its sessions, as a verified
    /// federated sign-in does (§4.3 step 3c), so whoever registered the address before cannot stay signed in.
    /// A user with second factors gets the pending-MFA answer (§6.1) instead of tokens; the code is used either way.
    public func signInWithEmailLink(_ request: SignInWithEmailLinkRequest, client: String? = nil) throws
        -> SignInWithEmailLinkResponse
    {
        let email = try Self.requiredEmail(request.email)
        guard let oobCode = request.oobCode, !oobCode.isEmpty else { throw WireError(.missingOOBCode) }
        let linkingUser = try request.idToken.flatMap { $0.isEmpty ? nil : try tokens.authenticate(idToken: $0) }
        if let linkingUser { try tokens.requireRecentSignIn(linkingUser) }
        let now = time.nowMillis
        let session = Session(signInProvider: "password", authTime: now / 1000)
        let takes = RateLimitTakes(limiter)
        let outcome = try store.write { writer -> Outcome in
            let record = try liveCode(oobCode, kinds: [.emailSignIn], reader: writer)
            guard record.email == email else {
                throw WireError(.invalidEmail, "The email provided does not match the sign-in email address.")
            }
            if let owner = try writer.account(email: email), owner.localID != (linkingUser?.account.localID ?? owner.localID) {
                throw WireError(.emailExists, "The email address is already in use by another account.")
            }
            let existing = try linkingUser.map { try writer.account(localID: $0.account.localID) }
                ?? writer.account(email: email)
            if linkingUser != nil, existing == nil { throw WireError(.userNotFound) }
            guard !(existing?.disabled ?? false) else { throw WireError(.userDisabled) }
            try consume(record, writer: writer)

            let isNewUser = existing == nil
            let bucket: RateLimiter.Bucket = isNewUser ? .accountCreationPerClient : .signInPerAccount
            guard takes.take(bucket, key: isNewUser ? client : existing?.localID) else {
                throw WireError(.tooManyAttemptsTryLater, "Too many sign-ins; try again later.")
            }
            var account = existing ?? Account(
                localID: Identifiers.localID(), email: email, createdAtMillis: now, validSinceMillis: now)
            if linkingUser == nil, !isNewUser, !account.emailVerified {
                try writer.takeOver(&account, atMillis: now)
            }
            account.email = email
            account.emailVerified = true
            account.emailLinkSignIn = true
            account.isAnonymous = false
            if linkingUser == nil, let existing {
                // A takeover drops every other way in and ends the sessions.
                try audit.recordChanges(from: existing, to: account, client: client, in: writer)
            }
            if linkingUser == nil, !mfa.requiredFactors(of: account).isEmpty {
                try writer.updateAccount(account)
                try audit.record(
                    .signIn, localID: account.localID, provider: Self.emailLinkProvider, client: client,
                    detail: AuditRecorder.mfaRequired, in: writer)
                let pending = try mfa.startPendingSignIn(for: account, signInProvider: "password", writer: writer)
                return .secondFactorRequired(account, credential: pending.credential, mfaInfo: pending.mfaInfo)
            }
            account.recordSignIn(atMillis: now)
            isNewUser ? try writer.insertAccount(account) : try writer.updateAccount(account)
            let kind: AuditEventKind = isNewUser ? .signUp : linkingUser != nil ? .link : .signIn
            try audit.record(kind, localID: account.localID, provider: Self.emailLinkProvider, client: client, in: writer)
            let refreshToken = try tokens.newRefreshToken(for: account, session: session, writer: writer)
            return .signedIn(account, refreshToken: refreshToken, isNewUser: isNewUser)
        }
        switch outcome {
        case .secondFactorRequired(let account, let credential, let mfaInfo):
            var response = SignInWithEmailLinkResponse(localId: account.localID, email: email)
            response.mfaPendingCredential = credential
            response.mfaInfo = mfaInfo
            return response
        case .signedIn(let account, let refreshToken, let isNewUser):
            var response = SignInWithEmailLinkResponse(localId: account.localID, email: email)
            response.isNewUser = isNewUser
            response.idToken = try tokens.mintIDToken(for: account, session: session)
            response.refreshToken = refreshToken
            response.expiresIn = tokens.expiresIn
            return response
        }
    }

    /// The provider email-link sign-ins are recorded under in the audit log (their sessions say `password`).
    static let emailLinkProvider = "emailLink"

    private enum Outcome {
        case signedIn(Account, refreshToken: String, isNewUser: Bool)
        case secondFactorRequired(Account, credential: String, mfaInfo: [MFAEnrollmentInfo])
    }

    /// `accounts:createAuthUri` for an email (PROTOCOL.md §3.10): whether an account has it and how it signs in
    /// (`password`, `emailLink`, identity providers). With enumeration protection on, only a session id.
    public func createAuthUri(_ request: CreateAuthUriRequest) throws -> CreateAuthUriResponse {
        guard let identifier = request.identifier, !identifier.isEmpty else { throw WireError(.missingIdentifier) }
        guard let email = try? AccountFieldRules.checkedEmail(identifier) else { throw WireError(.invalidIdentifier) }
        guard let continueURI = request.continueUri, !continueURI.isEmpty else { throw WireError(.missingContinueURI) }
        _ = try ActionLink.continueURL(continueURI)
        if let providerID = request.providerId, !providerID.isEmpty {
            throw WireError(.notImplemented, "createAuthUri with a providerId is not implemented by this Hearth server.")
        }
        let sessionID = Identifiers.secret()
        guard !project.emailEnumerationProtection else { return CreateAuthUriResponse(sessionId: sessionID) }
        guard let account = try store.read({ try $0.account(email: email) }) else {
            return CreateAuthUriResponse(sessionId: sessionID, registered: false)
        }
        let federated = account.providers.map(\.providerID)
        var methods: [String] = []
        if account.passwordHash != nil { methods.append("password") }
        if account.emailLinkSignIn { methods.append("emailLink") }
        let passwordProvider = account.passwordHash != nil || account.emailLinkSignIn ? ["password"] : []
        return CreateAuthUriResponse(
            sessionId: sessionID, registered: true, allProviders: passwordProvider + federated,
            signinMethods: methods + federated)
    }
}
