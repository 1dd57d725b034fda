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
    public func signInWithEmailLink(_ request: SignInWithEmailLinkRequest, by caller: Caller) throws
        -> SignInWithEmailLinkResponse
    {
        let email = try Self.requiredEmail(request.email)
        guard let oobCode = request.oobCode, !oobCode.isEmpty else { throw WireError(.missingOOBCode) }
        let linkingUser = try request.idToken.flatMap { $0.isEmpty ? nil : try tokens.authenticate(idToken: $0) }
        if let linkingUser { try tokens.requireRecentSignIn(linkingUser) }
        let now = time.nowMillis
        let takes = RateLimitTakes(limiter)
        let authentication = Authentication(
            .provenEmail(email), signInProvider: "password", recordedProvider: Self.emailLinkProvider)
        let decision = try store.write { writer -> SignInDecision in
            let record = try liveCode(oobCode, kinds: [.emailSignIn], reader: writer)
            guard record.email == email else {
                throw WireError(.invalidEmail, "The email provided does not match the sign-in email address.")
            }
            let context = SignInCompletion.Context(writer: writer, nowMillis: now, caller: caller, takes: takes)
            let decision = if let linkingUser {
                try completion.link(.provenEmail(email), to: linkingUser.account.localID, context)
            } else {
                try completion.signIn(authentication, context)
            }
            // A refused sign-in (a disabled account) leaves the code unused; anything else uses it. A takeover also
            // voided it already, as every code of the account: the link that proved the address counts as used.
            if case .refused = decision { return decision }
            if try writer.oobCode(hash: record.codeHash) != nil { try consume(record, writer: writer) }
            return decision
        }
        switch decision {
        case .refused(let error):
            throw error
        case .secondFactor(let account, let credential, let factors):
            var response = SignInWithEmailLinkResponse(localId: account.localID, email: email)
            response.mfaPendingCredential = credential
            response.mfaInfo = factors
            return response
        case .needsConfirmation:
            throw WireError(.internalError)
        case .session(let signedIn):
            return SignInWithEmailLinkResponse(signedIn, try tokens.issue(signedIn), email: email)
        }
    }

    /// The provider email-link sign-ins are recorded under in the audit log (their sessions say `password`).
    static let emailLinkProvider = "emailLink"

    /// `accounts:createAuthUri` for an email (PROTOCOL.md §3.10): whether an account has it and how it signs in
    /// (`password`, `emailLink`, identity providers). With enumeration protection on, only a session id.
    ///
    /// With a `providerId` of a SAML provider (`saml.*`), the SP-initiated start instead (``SAMLSignIn/start(providerID:)``):
    /// no identifier is needed.
    public func createAuthUri(_ request: CreateAuthUriRequest) throws -> CreateAuthUriResponse {
        if let providerID = request.providerId, providerID.hasPrefix("saml."), let saml {
            return try saml.start(providerID: providerID)
        }
        guard let identifier = request.identifier, !identifier.isEmpty else { throw WireError(.missingIdentifier) }
        guard let email = try? AccountFieldRules.checkedEmail(identifier) else { throw WireError(.invalidIdentifier) }
        guard let continueURI = request.continueUri, !continueURI.isEmpty else { throw WireError(.missingContinueURI) }
        _ = try ActionLink.continueURL(continueURI)
        if let providerID = request.providerId, !providerID.isEmpty {
            throw WireError(.notImplemented, "createAuthUri with a providerId is not implemented by this Hearth server.")
        }
        let sessionID = Identifiers.secret()
        guard try !scopeSettings.current().emailEnumerationProtection else { return CreateAuthUriResponse(sessionId: sessionID) }
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
