public import Foundation
import HearthProtocol

/// Sign in with Apple from a desktop or terminal app, against an Apple-shaped OpenID provider: the web flow with
/// `response_type=code id_token` and `response_mode=form_post`, answered at a loopback listener.
///
/// Steps: a listener on `127.0.0.1` (ephemeral port); an authorization request to `<issuer>/auth/authorize` with
/// `client_id`, `redirect_uri=http://127.0.0.1:<port>/oauth2callback`, `scope=name email`, a 43-character `state`,
/// and `nonce` = lowercase hex SHA-256 of a fresh raw nonce; the browser; Apple's POST of the response to the
/// listener (state compared in constant time; the body bounded to 16 KiB); the ID token checked against
/// `<issuer>/auth/keys` (RS256) and for `iss`, `aud` = the client ID, `exp`, `iat` and `nonce`.
///
/// ```swift
/// let apple = AppleSignIn(configuration: AppleSignInConfiguration(
///     clientID: "dev.hearth.portfolio", issuer: URL(string: "http://127.0.0.1:9099/dev/apple")!))
/// let result = try await apple.signIn()
/// let credential = OAuthProvider.appleCredential(   // HearthAuth
///     withIDToken: result.idToken, rawNonce: result.rawNonce, fullName: result.fullName)
/// try await Auth.auth().signIn(with: credential)
/// ```
///
/// ## What a real app does
/// Real Apple redirects only to an HTTPS URL registered for the services ID (no `http://127.0.0.1`, no custom
/// scheme), so this loopback flow works only against a look-alike such as Hearth's dev Apple (`hearth serve --dev`,
/// `<hearth>/dev/apple`). A shipping app uses one of:
/// - on Apple platforms, AuthenticationServices (`ASAuthorizationAppleIDProvider`): set the request's `nonce` to the
///   hex SHA-256 of a raw nonce, then pass the credential's `identityToken`, the raw nonce and `fullName` to
///   `OAuthProvider.appleCredential(withIDToken:rawNonce:fullName:)`. No redirect is involved.
/// - elsewhere, a small HTTPS relay page registered as the services ID's return URL: Apple POSTs the form there;
///   the page checks nothing secret and hands the fields to the app (for example by redirecting to the app's
///   loopback listener or custom scheme with the same fields), and the app verifies `state` and the ID token as
///   this class does.
public final class AppleSignIn: Sendable {
    public let configuration: AppleSignInConfiguration

    private let browser: any BrowserOpener
    private let headlessBrowser: any BrowserOpener
    private let validator: IDTokenValidator

    /// Creates a Sign in with Apple instance.
    ///
    /// - Parameters:
    ///   - configuration: the client (services ID) and the Apple to use.
    ///   - transport: fetches the issuer's keys; `URLSession` by default.
    ///   - browser: shows the authorization page; the system browser by default.
    ///   - clock: the current time, for the ID token's `exp` and `iat`.
    ///   - signatureVerifier: checks ID token signatures; the platform's RS256 implementation by default.
    public convenience init(
        configuration: AppleSignInConfiguration, transport: any SignInTransport = URLSessionSignInTransport(),
        browser: any BrowserOpener = SystemBrowserOpener(), clock: @escaping @Sendable () -> Date = Date.init,
        signatureVerifier: any IDTokenSignatureVerifier = PlatformIDTokenSignatureVerifier()
    ) {
        self.init(
            configuration: configuration, transport: transport, browser: browser, headlessBrowser: HeadlessBrowserOpener(),
            clock: clock, signatureVerifier: signatureVerifier)
    }

    init(
        configuration: AppleSignInConfiguration, transport: any SignInTransport, browser: any BrowserOpener,
        headlessBrowser: any BrowserOpener, clock: @escaping @Sendable () -> Date,
        signatureVerifier: any IDTokenSignatureVerifier
    ) {
        self.configuration = configuration
        self.browser = browser
        self.headlessBrowser = headlessBrowser
        let http = HTTPExchange(transport: transport)
        let keysEndpoint = configuration.keysEndpoint
        validator = IDTokenValidator(
            issuer: configuration.issuerString, alsoAcceptedIssuer: nil, clientID: configuration.clientID,
            keySets: KeySetCache(clock: clock), verifier: signatureVerifier, clock: clock,
            fetchKeySet: { try await http.keySet(at: keysEndpoint) })
    }

    /// Signs a user in with Apple and returns Apple's tokens, verified.
    ///
    /// A request to the listener with a wrong or missing `state` is answered 400 and the flow keeps waiting, so a
    /// stale tab or a forged post can neither complete nor abort it.
    ///
    /// - Parameters:
    ///   - hint: the account to use (`login_hint`). Real Apple ignores it; Hearth's dev Apple signs this account in
    ///     without showing its page, which is what `headless` needs.
    ///   - hideMyEmail: asks the dev Apple for a private relay address (`hide_my_email=true`); real Apple lets the
    ///     user choose on its page instead.
    ///   - headless: fetch the URL without a browser (``HeadlessBrowserOpener``, which submits the dev Apple's
    ///     self-posting form). Needs a `hint`; for tests and demos against the dev Apple only.
    ///   - timeout: how long to wait for the response once the browser was opened.
    /// - Throws: ``SignInError``: `.canceled` when the user canceled (`user_cancelled_authorize`), the task was
    ///   canceled or nothing came within `timeout`; `.unknown` for everything else (other errors, state mismatch,
    ///   a response without a code or ID token, an ID token that fails verification).
    public func signIn(
        hint: String? = nil, hideMyEmail: Bool = false, headless: Bool = false, timeout: Duration = .seconds(300)
    ) async throws -> AppleSignInResult {
        if headless, (hint ?? "").isEmpty {
            throw SignInError(.unknown, "Headless Sign in with Apple needs a hint (login_hint) to pick the account.")
        }
        let listener = try LoopbackRedirectListener()
        defer { listener.stop() }
        let request = AppleAuthorizationRequest(
            configuration: configuration, redirectURI: "http://127.0.0.1:\(listener.port)/oauth2callback",
            loginHint: hint, hideMyEmail: hideMyEmail)
        let inbox = RedirectInbox()
        listener.start { received in AppleFormPost.answer(received, expectedState: request.state, inbox: inbox) }
        let parameters = try await inbox.response(
            afterOpening: request.url, with: headless ? headlessBrowser : browser, headless: headless, timeout: timeout)
        if let error = AppleFormPost.error(in: parameters) { throw error }
        let idToken = try await validator.validate(parameters["id_token"] ?? "", nonce: request.hashedNonce, subject: nil)
        return AppleSignInResult(
            idToken: idToken.token, authorizationCode: parameters["code"] ?? "", rawNonce: request.rawNonce,
            fullName: AppleFormPost.fullName(userJSON: parameters["user"]), userID: idToken.subject,
            email: idToken.string("email"))
    }
}
