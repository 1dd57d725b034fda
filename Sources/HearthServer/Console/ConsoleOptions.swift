/// Who may use the admin console at `<public-url>/console` and how they sign in (docs/CONFIGURATION.md, "Admin
/// console").
public struct ConsoleOptions: Sendable {
    /// In development, whether visitors from loopback must sign in too (outside development everyone must).
    public var requiresSignIn: Bool
    /// The provider administrators sign in with; nil in development means the dev Google (`/dev/google`), and
    /// outside development that sign-in is not configured (the console then refuses everyone).
    public var signIn: ConsoleSignInProvider?
    /// How long a console session lasts, in seconds (5 minutes to 14 days: a Firebase session cookie's range).
    public var sessionLifetime: Int64

    public init(requiresSignIn: Bool = false, signIn: ConsoleSignInProvider? = nil, sessionLifetime: Int64 = 8 * 3600) {
        self.requiresSignIn = requiresSignIn
        self.signIn = signIn
        self.sessionLifetime = sessionLifetime
    }
}

/// An OAuth provider the console signs administrators in with: the authorization-code flow (state, nonce, PKCE) as
/// the console's own client there, then `signInWithIdp` with the ID token the code is exchanged for, as an app does.
public struct ConsoleSignInProvider: Sendable {
    /// `google.com` or a configured `oidc.*` provider: the provider `signInWithIdp` is called with.
    public var providerID: String
    /// The console's client ID there; it must be one of the client IDs Hearth accepts for the provider.
    public var clientID: String
    /// Where the browser is sent to sign in (`https://accounts.google.com/o/oauth2/v2/auth`).
    public var authorizationEndpoint: String
    /// Exchanges an authorization code for the provider's ID token: `(code, redirectURI, codeVerifier)`.
    public var exchange: @Sendable (_ code: String, _ redirectURI: String, _ codeVerifier: String) throws -> String
    /// Shown on the sign-in button (`Google`).
    public var displayName: String

    public init(
        providerID: String, clientID: String, authorizationEndpoint: String, displayName: String,
        exchange: @escaping @Sendable (_ code: String, _ redirectURI: String, _ codeVerifier: String) throws -> String
    ) {
        self.providerID = providerID
        self.clientID = clientID
        self.authorizationEndpoint = authorizationEndpoint
        self.displayName = displayName
        self.exchange = exchange
    }
}
