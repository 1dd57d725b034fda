public import Foundation
import HearthProtocol

/// Signs users in with Google (or any OpenID provider, such as Hearth's dev IdP): the `GIDSignIn` counterpart,
/// for Linux and Apple platforms.
///
/// The flow is the authorization code flow with PKCE (RFC 7636) for native apps (RFC 8252): OpenID discovery, a
/// loopback redirect listener (or a custom-scheme redirect delivered to ``handle(_:)``), the system browser, the
/// code exchange, ID token verification (RS256 against the issuer's JWKS, `iss`, `aud`/`azp`, `exp`, `iat`,
/// `nonce`), and a saved session that ``restorePreviousSignIn()`` brings back.
///
/// ```swift
/// let signIn = GoogleSignIn(configuration: SignInConfiguration(clientID: clientID, clientSecret: desktopSecret))
/// let user: GoogleUser
/// if signIn.hasPreviousSignIn() {
///     user = try await signIn.restorePreviousSignIn()
/// } else {
///     user = try await signIn.signIn(hint: "jane@example.com").user
/// }
/// print(user.profile?.email ?? "")
/// ```
public final class GoogleSignIn: Sendable {
    /// The client and issuer this instance signs in with.
    public let configuration: SignInConfiguration

    private let slot: SessionSlot
    private let browser: any BrowserOpener
    private let headlessBrowser: any BrowserOpener
    private let client: OAuthClient
    private let user = Locked<GoogleUser?>(nil)
    private let pendingFlows = Locked<[PendingFlow]>([])

    private struct PendingFlow: Sendable {
        var redirectURI: String
        var state: String
        var inbox: RedirectInbox
    }

    /// Creates a sign-in instance.
    ///
    /// - Parameters:
    ///   - configuration: the client and issuer.
    ///   - sessionStore: where the session is saved; `~/.config/hearth/google-signin.json` by default.
    ///   - transport: sends the HTTP requests; `URLSession` by default.
    ///   - browser: shows the authorization page; the system browser by default.
    ///   - clock: the current time, for token expiry and ID token checks.
    ///   - signatureVerifier: checks ID token signatures; the platform's RS256 implementation by default.
    public convenience init(
        configuration: SignInConfiguration, sessionStore: any SignInSessionStore = FileSignInSessionStore.default(),
        transport: any SignInTransport = URLSessionSignInTransport(), browser: any BrowserOpener = SystemBrowserOpener(),
        clock: @escaping @Sendable () -> Date = Date.init,
        signatureVerifier: any IDTokenSignatureVerifier = PlatformIDTokenSignatureVerifier()
    ) {
        self.init(
            configuration: configuration, sessionStore: sessionStore, transport: transport, browser: browser,
            headlessBrowser: HeadlessBrowserOpener(), clock: clock, signatureVerifier: signatureVerifier)
    }

    init(
        configuration: SignInConfiguration, sessionStore: any SignInSessionStore, transport: any SignInTransport,
        browser: any BrowserOpener, headlessBrowser: any BrowserOpener, clock: @escaping @Sendable () -> Date,
        signatureVerifier: any IDTokenSignatureVerifier
    ) {
        self.configuration = configuration
        self.slot = SessionSlot(store: sessionStore)
        self.browser = browser
        self.headlessBrowser = headlessBrowser
        self.client = OAuthClient(
            configuration: configuration, transport: transport, verifier: signatureVerifier, clock: clock)
    }

    /// The signed-in user, or nil. Set by ``signIn(hint:additionalScopes:nonce:headless:timeout:)`` and
    /// ``restorePreviousSignIn()``, cleared by ``signOut()`` and ``disconnect()``.
    public var currentUser: GoogleUser? { user.current }

    // MARK: - Interactive sign-in

    /// Signs a user in interactively.
    ///
    /// Steps: discovery (cached); with the loopback method, a listener on `127.0.0.1` (ephemeral port) bound before
    /// the request is built; an authorization request with `response_type=code`, `client_id`,
    /// `redirect_uri=http://127.0.0.1:<port>/oauth2callback`, `scope=openid email profile` plus `additionalScopes`,
    /// 43-character `state` and `nonce`, PKCE S256, `include_granted_scopes=true`, and `login_hint`, `hd`,
    /// `audience` and `prompt=none` when they apply; the browser; the redirect; the code exchange; ID token
    /// verification; the profile (ID token claims, else the userinfo endpoint); saving the session.
    ///
    /// A request to the listener whose `state` is missing or wrong is answered 400 and the flow keeps waiting, so a
    /// stale tab or a forged request can neither complete nor abort it. If the wait ends without a matching
    /// response after such requests, the error is `.unknown` ("state mismatch").
    ///
    /// - Parameters:
    ///   - hint: the account to preselect (`login_hint`), usually an email address.
    ///   - additionalScopes: scopes beyond `openid email profile`.
    ///   - nonce: the `nonce` to send and to expect in the ID token; a random one when nil.
    ///   - headless: add `prompt=none` and fetch the URL without a browser (``HeadlessBrowserOpener``, whatever
    ///     browser was configured). Needs a `hint`. Only Hearth's dev IdP completes such a flow.
    ///   - timeout: how long to wait for the redirect once the browser was opened.
    /// - Returns: the signed-in user, who is now ``currentUser``, and Google's `server_code`, if any.
    /// - Throws: ``SignInError``: `.canceled` when the user denied access (`access_denied`), the task was
    ///   canceled, or no response came within `timeout`; `.keychain` when the session cannot be saved; `.unknown`
    ///   for everything else (other OAuth errors, state mismatch, network, token exchange, ID token verification).
    public func signIn(
        hint: String? = nil, additionalScopes: [String] = [], nonce: String? = nil, headless: Bool = false,
        timeout: Duration = .seconds(300)
    ) async throws -> SignInResult {
        if headless, (hint ?? "").isEmpty {
            throw SignInError(
                .unknown, "Headless sign-in needs a hint (login_hint): prompt=none cannot show an account chooser.")
        }
        let metadata = try await client.provider.providerMetadata()
        let listener: LoopbackRedirectListener?
        let redirectURI: String
        switch configuration.redirectMethod {
        case .loopback:
            let bound = try LoopbackRedirectListener()
            listener = bound
            redirectURI = "http://127.0.0.1:\(bound.port)/oauth2callback"
        case .customScheme:
            listener = nil
            redirectURI = configuration.customSchemeRedirectURI
        }
        defer { listener?.stop() }

        let request = AuthorizationRequest(
            configuration: configuration, endpoint: metadata.authorizationEndpoint, redirectURI: redirectURI, hint: hint,
            additionalScopes: additionalScopes, nonce: nonce, prompt: headless ? "none" : nil)
        let inbox = RedirectInbox()
        listener?.start { received in Self.answer(received, expectedState: request.state, inbox: inbox) }
        let flow = PendingFlow(redirectURI: redirectURI, state: request.state, inbox: inbox)
        pendingFlows.withLock { $0.append(flow) }
        defer { pendingFlows.withLock { $0.removeAll { $0.state == flow.state } } }

        let parameters = try await inbox.response(
            afterOpening: request.url, with: headless ? headlessBrowser : browser, headless: headless, timeout: timeout)
        if let error = AuthorizationResponse.error(in: parameters) { throw error }
        return try await complete(request, code: parameters["code"] ?? "")
    }

    /// The loopback listener's answer to one request.
    static func answer(_ request: LoopbackRequest, expectedState: String, inbox: RedirectInbox) -> LoopbackReply {
        let parts = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts[0] == "/oauth2callback" else {
            return LoopbackReply(status: 404, title: "Not found", message: "Nothing here.")
        }
        guard request.method == "GET" else {
            return LoopbackReply(status: 405, title: "Method not allowed", message: "Use GET.")
        }
        let parameters = AuthorizationResponse.parameters(query: parts.count > 1 ? String(parts[1]) : nil)
        return inbox.answer(parameters, expectedState: expectedState, error: AuthorizationResponse.error(in:))
    }

    /// Code exchange, ID token verification, profile, save.
    private func complete(_ request: AuthorizationRequest, code: String) async throws -> SignInResult {
        let tokens = try await client.exchangeCode(code, codeVerifier: request.codeVerifier, redirectURI: request.redirectURI)
        guard let idTokenString = tokens.idToken else {
            throw SignInError(.unknown, "The token response has no id_token although the openid scope was requested.")
        }
        let idToken = try await client.validateIDToken(idTokenString, nonce: request.nonce, subject: nil)
        let now = client.clock()
        var session = SessionState(
            clientID: configuration.clientID, serverClientID: configuration.serverClientID,
            issuer: configuration.issuerString, accessToken: tokens.accessToken,
            accessTokenExpiry: tokens.expiresIn.map { now.addingTimeInterval($0) }, refreshToken: tokens.refreshToken ?? "",
            refreshTokenExpiry: tokens.refreshTokenExpiresIn.map { now.addingTimeInterval($0) },
            grantedScopes: tokens.grantedScopes)
        session.apply(idToken)
        if session.profile == nil {
            // Not every profile claim is in the ID token: ask userinfo, and fall back to the claims it has.
            let userInfo = (try? await client.userInfo(accessToken: tokens.accessToken)) ?? [:]
            session.profile = SessionState.Profile(claims: idToken.claims, userInfo: userInfo)
        }
        let user = GoogleUser(state: session, client: client, slot: slot)
        try self.user.withLock { current in
            do {
                try slot.install(user.generation, saving: session, requireSave: true)
            } catch {
                throw SignInError(.keychain, "keychain error: the session could not be saved (\(SignInError.describe(error))).")
            }
            current = user
        }
        return SignInResult(user: user, serverAuthCode: tokens.serverCode)
    }

    // MARK: - Custom-scheme redirects

    /// Resumes a pending ``signIn(hint:additionalScopes:nonce:headless:timeout:)`` with the redirect the app
    /// received, such as `com.googleusercontent.apps.1234-abc:/oauth2callback?code=…&state=…` from `.onOpenURL`.
    ///
    /// The URL must match a pending flow's redirect URI (scheme case-insensitively; host, port and path
    /// `/oauth2callback` exactly; query ignored) and carry that flow's `state`.
    ///
    /// - Parameter url: the URL the app was opened with.
    /// - Returns: true when a pending flow took the URL; false when it is not for one (another path or scheme, no
    ///   flow pending, a wrong `state`, or the flow already finished).
    public func handle(_ url: URL) -> Bool {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
        let parameters = AuthorizationResponse.parameters(query: query)
        let candidates = pendingFlows.withLock { flows in
            flows.filter { AuthorizationResponse.matches(url, redirectURI: $0.redirectURI) }
        }
        guard let flow = candidates.first(where: { ConstantTime.equals(parameters["state"], $0.state) }) else {
            // Same redirect URI, wrong state: refused, as the loopback listener refuses it (see signIn's timeout error).
            for candidate in candidates { candidate.inbox.noteRefusedState() }
            return false
        }
        return flow.inbox.deliver(parameters)
    }

    // MARK: - Restore, sign-out, disconnect

    /// Whether a session is available: a current user, or a stored session for this client and issuer. No network.
    public func hasPreviousSignIn() -> Bool {
        if currentUser != nil { return true }
        return storedSession() != nil
    }

    /// Restores the previous session without any UI, refreshing its tokens when the access token expires within
    /// 600 seconds, and makes it the ``currentUser``.
    ///
    /// - Returns: the user.
    /// - Throws: ``SignInError`` `.hasNoAuthInKeychain` when nothing is stored for this client and issuer;
    ///   `.refreshTokenExpired` when the grant was revoked or expired; `.unknown` for other refresh failures.
    public func restorePreviousSignIn() async throws -> GoogleUser {
        if let current = currentUser {
            try await current.refreshIfNeeded(within: 600)
            return current
        }
        guard let session = storedSession() else {
            throw SignInError(.hasNoAuthInKeychain, "There is no stored sign-in for \(configuration.clientID).")
        }
        let restored = GoogleUser(state: session, client: client, slot: slot)
        try await restored.refreshIfNeeded(within: 600)
        return user.withLock { current -> GoogleUser in
            // A concurrent restore or sign-in got there first: keep that user.
            if let current { return current }
            let refreshed = restored.session
            try? slot.install(restored.generation, saving: refreshed == session ? nil : refreshed, requireSave: false)
            current = restored
            return restored
        }
    }

    private func storedSession() -> SessionState? {
        guard let data = try? slot.store.load(), let session = SessionState.decode(data), session.belongs(to: configuration),
            !session.accessToken.isEmpty || !session.refreshToken.isEmpty
        else { return nil }
        return session
    }

    /// Signs out locally: forgets ``currentUser`` and deletes the stored session. Google is not told; see
    /// ``disconnect()``.
    public func signOut() {
        user.withLock { current in
            current = nil
            slot.clear()
        }
    }

    /// Revokes the grant at the issuer's revocation endpoint (RFC 7009), then signs out.
    ///
    /// The access token is revoked (which revokes the whole grant at Google and the dev IdP); if the server
    /// answers that it is already invalid, the refresh token is tried. A grant the server no longer knows counts
    /// as revoked. Without a user or tokens it just signs out.
    ///
    /// - Throws: ``SignInError`` `.unknown` when the revocation fails; the session is then kept.
    public func disconnect() async throws {
        guard let session = currentUser?.session ?? storedSession() else {
            signOut()
            return
        }
        let tokens = [session.accessToken, session.refreshToken].filter { !$0.isEmpty }
        for token in tokens {
            if try await client.revoke(token) == .revoked { break }
        }
        signOut()
    }
}
