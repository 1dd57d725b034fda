import Foundation
public import HearthProtocol

/// The Identity Toolkit operations on accounts: federated sign-in and linking, lookup, profile
/// update and deletion. Every operation is one store transaction, so concurrent requests never
/// leave half-made accounts; tokens are signed after the transaction commits.
public final class AccountService: Sendable {
    private let project: ProjectConfiguration
    let store: any HearthStore
    let tokens: TokenService
    let providers: IdentityProviderRegistry
    /// Where every sign-in and link completes.
    let completion: SignInCompletion
    let limiter: RateLimiter
    let time: any TimeSource
    let providerTokens: ProviderTokenHandling
    let emailActions: EmailActionService
    /// Email and password sign-up, linking and changes, which `signUp` and `update` hand over.
    let passwords: PasswordAccounts
    /// Checks the SAML responses of `saml.*` providers; nil: they are not enabled.
    let saml: SAMLSignIn?
    /// Counts sign-ins by provider and outcome.
    private let metrics: any MetricsRecording
    /// Records sign-ins, sign-ups, links and the account's changes.
    let audit: AuditRecorder

    /// - Parameters:
    ///   - context: the project, store and clock; its rate limiter's `signInPerAccount` and
    ///     `accountCreationPerClient` buckets; its metrics receive each `signInWithIdp`'s provider and outcome; its
    ///     audit log records sign-ins (refused ones too), sign-ups, links, unlinks, credential changes and deletions.
    ///   - providers: the identity providers `signInWithIdp` accepts.
    ///   - providerTokens: Apple's code exchange, and the wake-up after deletions queued revocations.
    ///   - emailActions: applies the action codes `update` receives.
    ///   - passwords: email and password accounts.
    ///   - saml: checks the responses of the scope's `saml.*` providers.
    public init(
        context: ServiceContext, tokens: TokenService, providers: IdentityProviderRegistry, mfa: MFAService,
        providerTokens: ProviderTokenHandling, emailActions: EmailActionService, passwords: PasswordAccounts,
        saml: SAMLSignIn? = nil
    ) {
        self.saml = saml
        audit = context.auditRecorder
        metrics = context.metrics
        self.emailActions = emailActions
        completion = SignInCompletion(tokens: tokens, mfa: mfa, audit: audit)
        self.passwords = passwords
        self.providerTokens = providerTokens
        limiter = context.rateLimiter
        project = context.project
        store = context.store
        self.tokens = tokens
        self.providers = providers
        time = context.time
    }

    // MARK: - signInWithIdp

    /// `accounts:signInWithIdp` for the registry's providers (PROTOCOL.md §4): one path for Google, Apple and
    /// `oidc.*` from the verified profile on. An `oidc.*` authorization code sent without an ID token is first
    /// exchanged for one (``IdentityProviderRegistry/redeemingCode(_:providerID:in:clientAddress:)``).
    /// - Parameter caller: who signs in; its address is limited and recorded.
    public func signInWithIdp(_ request: SignInWithIdpRequest, by caller: Caller) throws -> SignInWithIdpResponse {
        var provider = MetricsOutcome.unknownProvider
        do {
            let (response, outcome) = try federatedSignIn(request, by: caller, enabledProvider: &provider)
            metrics.signIn(provider: provider, outcome: outcome)
            if let code = response.errorMessage { recordRefusal(ErrorCode(rawValue: code), provider: provider, by: caller) }
            return response
        } catch let refusal as RecordedRefusal {
            metrics.signIn(provider: provider, outcome: MetricsOutcome.failure(refusal.error))
            throw refusal.error
        } catch {
            metrics.signIn(provider: provider, outcome: MetricsOutcome.failure(error))
            if let error = error as? WireError { recordRefusal(error.code, provider: provider, by: caller) }
            throw error
        }
    }

    /// A refusal the sign-in's write recorded already (a disabled account).
    private struct RecordedRefusal: Error {
        let error: WireError
    }

    /// Records a refused `signInWithIdp` of an enabled provider (nothing of the credential, no account), in a
    /// write of its own: the refusal wrote nothing. Throttled requests are not recorded, so a flood writes nothing.
    private func recordRefusal(_ code: ErrorCode, provider: String, by caller: Caller) {
        guard provider != MetricsOutcome.unknownProvider, code != .tooManyAttemptsTryLater else { return }
        audit.recordRefusal(.signInFailed, provider: provider, by: caller, code: code, in: store)
    }

    /// `signInWithIdp` itself, and the outcome for the metric; `enabledProvider` is set to the provider once it is
    /// known to be enabled (so the metric's labels stay the configured providers).
    private func federatedSignIn(
        _ request: SignInWithIdpRequest, by caller: Caller, enabledProvider: inout String
    ) throws -> (SignInWithIdpResponse, outcome: String) {
        let parameters = try IdpParameters(request)
        // A SAML response posted without a provider id continues the sign-in its sessionId started.
        let samlSession = parameters["SAMLResponse"] == nil ? nil : saml?.sessionProvider(request.sessionId)
        guard let providerID = parameters["providerId"] ?? request.providerId ?? samlSession, !providerID.isEmpty else {
            throw WireError(.invalidCredentialOrProviderID, "Invalid IdP response/credential: providerId is missing.")
        }
        let linkingUser: AuthenticatedUser?
        let profile: FederatedProfile
        let email: EmailProof
        let credential: IdpCredential?
        if providerID.hasPrefix("saml."), let saml {
            // A SAML response: checked by SAMLSignIn against the scope's configuration; its emails are never verified.
            let settings = try saml.enabledSettings(providerID)
            credential = nil
            enabledProvider = providerID
            if request.pendingToken != nil {
                throw WireError(.invalidPendingToken, "Pending tokens are not supported; send the IdP credential again.")
            }
            linkingUser = try userLinking(request)
            profile = try saml.verify(
                parameters["SAMLResponse"], providerID: providerID, settings: settings, sessionID: request.sessionId,
                redirectURI: parameters.redirectURI)
            email = EmailProof(profile, trust: .none)
        } else {
            // The file's providers, then those this scope made through the admin API.
            let scope = store.scope
            guard let enabled = try providers.provider(providerID, in: scope) else {
                throw WireError(.operationNotAllowed, "The identity provider \(providerID) is not enabled for this project.")
            }
            enabledProvider = providerID
            if request.pendingToken != nil {
                throw WireError(.invalidPendingToken, "Pending tokens are not supported; send the IdP credential again.")
            }
            let redeemed = try providers.redeemingCode(
                IdpCredential(parameters), providerID: providerID, in: scope, clientAddress: caller.client)
            credential = redeemed
            linkingUser = try userLinking(request)
            var verified = try providers.verify(redeemed, providerID: providerID, in: scope, clientAddress: caller.client)
            verified.providerRefreshToken = try appleRefreshToken(for: verified, redirectURI: redeemed.redirectURI)
            profile = verified
            email = EmailProof(verified, trust: enabled.emailTrust)
        }
        var authentication = Authentication(.identity(profile, email), signInProvider: providerID)
        authentication.createsAccount = request.autoCreate ?? true

        var response = Self.credentialEcho(profile: profile, idToken: credential?.idToken, accessToken: credential?.accessToken)
        let now = time.nowMillis
        let takes = RateLimitTakes(limiter)
        let decision: SignInDecision
        do {
            // Row locks: the completion reads the account (by identity, email or uid) before anything it decides,
            // so sign-ins of one account wait for each other, and two first sign-ins of one identity or email meet
            // at a unique key (and the loser runs again, finding the winner's account).
            decision = try store.writeRetryingUniqueness(.rowLocks) { writer in
                let context = SignInCompletion.Context(writer: writer, nowMillis: now, caller: caller, takes: takes)
                if let linkingUser {
                    return try completion.link(.identity(profile, email), to: linkingUser.account.localID, context)
                }
                return try completion.signIn(authentication, context)
            }
        } catch let error as WireError
            where request.returnIdpCredential == true
            && (error.code == .federatedUserIDAlreadyLinked || error.code == .emailExists)
        {
            // iOS turns these into credentialAlreadyInUse / emailAlreadyInUse carrying the credential.
            response.errorMessage = error.code.rawValue
            return (response, error.code.rawValue)
        }
        // A new Apple refresh token replaced (and queued the revocation of) any older one of the identity.
        if profile.providerRefreshToken != nil { providerTokens.revocationsQueued() }

        switch decision {
        case .refused(let error):
            throw RecordedRefusal(error: error)
        case .secondFactor(let account, let credential, let factors):
            response.localId = account.localID
            response.email = account.email ?? profile.email
            response.mfaPendingCredential = credential
            response.mfaInfo = factors
        case .needsConfirmation(let existing):
            response.needConfirmation = true
            response.localId = existing.localID
            response.verifiedProvider = existing.providers.map(\.providerID).filter { $0 != "password" && $0 != "phone" }
        case .session(let signedIn):
            response.fill(signedIn, try tokens.issue(signedIn))
        }
        return (response, decision.metricsOutcome)
    }

    /// The signed-in user a `signInWithIdp` links to (its `idToken`), who must have signed in recently; nil to sign in.
    private func userLinking(_ request: SignInWithIdpRequest) throws -> AuthenticatedUser? {
        let linkingUser = try request.idToken.flatMap { $0.isEmpty ? nil : try tokens.authenticate(idToken: $0) }
        if let linkingUser { try tokens.requireRecentSignIn(linkingUser) }
        return linkingUser
    }

    /// The IdP fields every `signInWithIdp` response echoes.
    private static func credentialEcho(profile: FederatedProfile, idToken: String?, accessToken: String?) -> SignInWithIdpResponse {
        var response = SignInWithIdpResponse()
        response.providerId = profile.providerID
        response.federatedId = profile.federatedID
        response.email = profile.email
        response.emailVerified = profile.emailVerified
        response.displayName = profile.displayName
        response.fullName = profile.displayName
        response.firstName = profile.givenName
        response.lastName = profile.familyName
        response.photoUrl = profile.photoURL
        response.oauthIdToken = idToken
        response.oauthAccessToken = accessToken
        response.rawUserInfo = String(decoding: JSONValue.object(profile.rawUserInfo).jsonData(sortedKeys: true), as: UTF8.self)
        return response
    }

    // MARK: - lookup, update, delete

    /// `accounts:lookup` for the signed-in user.
    public func lookup(_ request: LookupRequest) throws -> LookupResponse {
        let user = try tokens.authenticate(idToken: request.idToken)
        return LookupResponse(users: [UserRecord(user.account, in: store.scope)])
    }

    /// `accounts:update` by the signed-in user: display name, photo, `deleteAttribute`, `deleteProvider`, and
    /// email and password (``PasswordAccounts/changeCredentials(email:password:profile:of:by:)``).
    ///
    /// Removing a way in (`deleteProvider`, or `deleteAttribute` `EMAIL` / `PASSWORD`) needs a recent sign-in, as
    /// setting one does. Under email enumeration protection a client cannot set its email directly, as with Firebase
    /// (`OPERATION_NOT_ALLOWED`): the change goes through a code sent to the new address (`VERIFY_AND_CHANGE_EMAIL`), so
    /// the answer never tells whether another account has the address.
    /// - Parameter caller: who updates, recorded with the changes.
    public func update(_ request: UpdateAccountRequest, by caller: Caller) throws -> UpdateAccountResponse {
        if request.oobCode != nil && request.idToken == nil {
            return try emailActions.apply(oobCode: request.oobCode, by: caller)
        }
        guard request.idToken != nil else {
            throw WireError(.invalidReqType, "Unsupported request parameters.")
        }
        if request.customAttributes != nil || request.localId != nil || request.emailVerified != nil
            || request.validSince != nil
        {
            throw WireError(.insufficientPermission, "Only administrators can set these fields.")
        }
        if request.disableUser != nil {
            throw WireError(.operationNotAllowed, "A user cannot disable their own account.")
        }
        let change = try ProfileChange(
            displayName: request.displayName, photoURL: request.photoUrl, deleteAttribute: request.deleteAttribute ?? [],
            deleteProvider: request.deleteProvider ?? [])
        let user = try tokens.authenticate(idToken: request.idToken)
        if request.email != nil, try passwords.scopeSettings.current().emailEnumerationProtection {
            throw WireError(.operationNotAllowed, "Please verify the new email before changing email.")
        }
        if change.removesWayIn { try tokens.requireRecentSignIn(user) }
        let response: UpdateAccountResponse
        if request.email != nil || request.password != nil {
            response = try passwords.changeCredentials(
                email: request.email, password: request.password, profile: change, of: user, by: caller)
        } else {
            let now = time.nowMillis
            // Row locks: the body reads the account first and changes nothing another account's write can collide with.
            response = UpdateAccountResponse(try store.write(.rowLocks) { writer -> Account in
                guard var account = try writer.account(localID: user.account.localID) else {
                    throw WireError(.userNotFound)
                }
                let before = account
                change.apply(to: &account)
                try writer.updateAccount(account, queueingRevocationsOfDroppedTokensAtMillis: now)
                try audit.recordChanges(from: before, to: account, by: caller, in: writer)
                return account
            })
        }
        if !(request.deleteProvider ?? []).isEmpty { providerTokens.revocationsQueued() }
        return response
    }

    /// `accounts:delete` of the signed-in user; its sessions end with it, and its provider tokens are queued
    /// for revocation in the same write. It needs a recent sign-in (a guest's excepted), as with Firebase.
    /// - Parameter caller: who deletes, recorded with the deletion.
    public func delete(_ request: DeleteAccountRequest, by caller: Caller) throws -> DeleteAccountResponse {
        let user = try tokens.authenticate(idToken: request.idToken)
        if let localID = request.localId, !localID.isEmpty, localID != user.account.localID {
            throw WireError(.invalidIDToken, "The ID token does not belong to the given localId.")
        }
        try tokens.requireRecentSignIn(user)
        let now = time.nowMillis
        let localID = user.account.localID
        let existed = try store.write { writer in
            guard try writer.deleteAccount(localID: localID, queueingRevocationsAtMillis: now) else { return false }
            try audit.record(.accountDeleted, localID: localID, by: caller, in: writer)
            return true
        }
        guard existed else { throw WireError(.userNotFound) }
        providerTokens.revocationsQueued()
        return DeleteAccountResponse()
    }

    /// Deletes every account (the emulator's `DELETE /emulator/v1/projects/{p}/accounts`), queueing the
    /// revocation of their provider tokens.
    @discardableResult
    public func deleteAllAccounts() throws -> Int {
        let now = time.nowMillis
        let deleted = try store.write { try $0.deleteAllAccounts(queueingRevocationsAtMillis: now) }
        providerTokens.revocationsQueued()
        return deleted
    }

    // MARK: - Helpers

    /// Whether `text` starts with a URI scheme (`http:`, `com.example.app:`) followed by something.
    package static func isAbsoluteURL(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex, text.index(after: colon) != text.endIndex
        else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "." || $0 == "-") }
    }
}

extension FederatedProfile {
    var linkedIdentity: LinkedIdentity {
        LinkedIdentity(
            providerID: providerID, rawID: rawID, email: email?.lowercased(), displayName: displayName,
            photoURL: photoURL, providerRefreshToken: providerRefreshToken)
    }
}

extension Account {
    /// Refreshes the linked identity from a new sign-in, and fills empty profile fields. What the provider did not
    /// say this time is kept (Apple gives the name only on the first sign-in), and so is its provider
    /// refresh token unless the sign-in brought a new one (the old one is then queued for revocation by
    /// `updateAccount(_:queueingRevocationsOfDroppedTokensAtMillis:)`).
    mutating func refresh(from profile: FederatedProfile, email proof: EmailProof) {
        if let index = providers.firstIndex(where: { $0.providerID == profile.providerID && $0.rawID == profile.rawID }) {
            let fresh = profile.linkedIdentity
            providers[index].email = fresh.email ?? providers[index].email
            providers[index].displayName = fresh.displayName ?? providers[index].displayName
            providers[index].photoURL = fresh.photoURL ?? providers[index].photoURL
            providers[index].providerRefreshToken = fresh.providerRefreshToken ?? providers[index].providerRefreshToken
        }
        if displayName == nil { displayName = profile.displayName }
        if photoURL == nil { photoURL = profile.photoURL }
        if let email, email == profile.email?.lowercased(), proof.verified { emailVerified = true }
    }
}

extension UserRecord {
    /// The wire form of an account of `scope`: with `tenantId` for a tenant's.
    init(_ account: Account, in scope: StoreScope) {
        self.init(account)
        tenantId = scope.tenant
    }

    /// The wire form of an account (PROTOCOL.md §3.5). Password hashes are redacted as Firebase does.
    init(_ account: Account) {
        self.init(localId: account.localID)
        email = account.email
        emailVerified = account.emailVerified
        displayName = account.displayName
        photoUrl = account.photoURL
        phoneNumber = account.phoneNumber
        disabled = account.disabled ? true : nil
        passwordHash = account.passwordHash == nil ? nil : "UkVEQUNURUQ="
        passwordUpdatedAt = account.passwordUpdatedAtMillis.map(Double.init)
        initialEmail = account.initialEmail
        emailLinkSignin = account.emailLinkSignIn ? true : nil
        validSince = String(account.validSinceMillis / 1000)
        createdAt = String(account.createdAtMillis)
        lastLoginAt = account.lastLoginAtMillis.map(String.init)
        lastRefreshAt = account.lastRefreshAtMillis.map(Timestamps.rfc3339(millis:))
        customAttributes = account.customAttributes
        var providers = account.providers.map {
            ProviderUserInfo(
                providerId: $0.providerID, rawId: $0.rawID, federatedId: $0.rawID, email: $0.email,
                displayName: $0.displayName, photoUrl: $0.photoURL, screenName: $0.screenName)
        }
        if let email = account.email, account.passwordHash != nil || account.emailLinkSignIn {
            providers.append(ProviderUserInfo(providerId: "password", rawId: email, federatedId: email, email: email))
        }
        if let phone = account.phoneNumber {
            providers.append(ProviderUserInfo(providerId: "phone", rawId: phone, federatedId: phone, phoneNumber: phone))
        }
        providerUserInfo = providers
        mfaInfo = account.mfaEnrollments.isEmpty ? nil : account.mfaEnrollments.map { $0.wireInfo(masked: false) }
    }
}
