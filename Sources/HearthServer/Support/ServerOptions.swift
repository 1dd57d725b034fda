public import HearthCore
public import HearthDevProviders
public import SAML

/// How the identity server presents itself over HTTP.
public struct ServerOptions: Sendable {
    /// The URL clients reach this server at, without a trailing slash (e.g. `http://127.0.0.1:9099`).
    public var publicURL: String
    /// Development mode: the dev IdP pages and the emulator's REST helpers are served.
    public var development: Bool
    /// `Cache-Control: max-age` of the key documents, in seconds.
    public var keyCacheMaxAge: Int
    /// In development, the SMS codes sent so far (oldest first), for `GET /emulator/v1/projects/{p}/verificationCodes`.
    public var sentVerificationCodes: (@Sendable () -> [DeliveredCode])?
    /// Proxies whose `X-Forwarded-For` names the client (for rate limits and lockouts).
    public var trustedProxies: TrustedProxies
    /// Who may call the admin endpoints: each verifier is asked in turn about a request's bearer token.
    /// Empty (the default) leaves every admin route refused.
    public var adminVerifiers: [any AdminTokenVerifier]
    /// In development, the Google look-alike served at `/dev/google` (with the playground, and the console's sign-in
    /// when `console` names no provider).
    public var devIdentityProvider: DevIdentityProvider?
    /// In development, the Sign in with Apple look-alike served at `/dev/apple`.
    public var devApple: DevAppleProvider?
    /// In development, the SAML identity provider served at `/dev/saml` (its accounts are the dev Google's).
    public var devSAML: SAMLResponseIssuer?
    /// `/metrics`, `/healthz` and `/readyz` on this listener, and the metrics requests are counted into; nil
    /// serves none of them and counts nothing.
    public var operations: OperatorEndpoints?
    /// Who may use the admin console at `/console` and how they sign in.
    public var console: ConsoleOptions

    public init(
        publicURL: String, development: Bool, keyCacheMaxAge: Int = 300,
        sentVerificationCodes: (@Sendable () -> [DeliveredCode])? = nil, trustedProxies: TrustedProxies = .none,
        adminVerifiers: [any AdminTokenVerifier] = [], devIdentityProvider: DevIdentityProvider? = nil,
        devApple: DevAppleProvider? = nil, devSAML: SAMLResponseIssuer? = nil,
        operations: OperatorEndpoints? = nil,
        console: ConsoleOptions = ConsoleOptions()
    ) {
        self.console = console
        self.operations = operations
        self.publicURL = publicURL
        self.development = development
        self.keyCacheMaxAge = keyCacheMaxAge
        self.sentVerificationCodes = sentVerificationCodes
        self.trustedProxies = trustedProxies
        self.adminVerifiers = adminVerifiers
        self.devIdentityProvider = devIdentityProvider
        self.devApple = devApple
        self.devSAML = devSAML
    }
}
