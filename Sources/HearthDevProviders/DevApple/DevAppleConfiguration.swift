import HearthCore
import HearthProtocol

/// Settings of the development Sign in with Apple look-alike (`hearth serve --dev`, at `<public-url>/dev/apple`).
public struct DevAppleConfiguration: Sendable {
    /// The dev Apple client ID (bundle ID / services ID) every `--dev` server knows.
    public static let developmentClientID = "dev.hearth.portfolio"
    /// The team ID of Hearth's own client secrets in `--dev`.
    public static let developmentTeamID = "HEARTHDEVTM"

    /// `iss` of its ID tokens and the base of its endpoints, e.g. `http://127.0.0.1:9099/dev/apple`.
    public var issuer: String
    /// The client IDs it issues tokens to.
    public var clientIDs: Set<String>
    /// The team IDs a client secret's `iss` may name.
    public var teamIDs: Set<String>
    /// Whether an `https` redirect URI's origin (`https://host[:port]`) is trusted; loopback `http` redirects
    /// are always accepted.
    public var trustsOrigin: @Sendable (String) -> Bool
    public var codeLifetime: Int64
    public var accessTokenLifetime: Int64
    public var idTokenLifetime: Int64
    /// Allowed clock difference for a client secret's `iat`.
    public var clockSkew: Int64

    public init(
        issuer: String, clientIDs: Set<String> = [developmentClientID], teamIDs: Set<String> = [developmentTeamID],
        trustsOrigin: @escaping @Sendable (String) -> Bool = { _ in false }, codeLifetime: Int64 = 300,
        accessTokenLifetime: Int64 = 3600, idTokenLifetime: Int64 = 600, clockSkew: Int64 = 300
    ) {
        self.issuer = issuer
        self.clientIDs = clientIDs
        self.teamIDs = teamIDs
        self.trustsOrigin = trustsOrigin
        self.codeLifetime = codeLifetime
        self.accessTokenLifetime = accessTokenLifetime
        self.idTokenLifetime = idTokenLifetime
        self.clockSkew = clockSkew
    }

    /// Loopback `http` URIs (the dev Google's rule: `127.0.0.1`, `[::1]`, `localhost`, any port and path) and
    /// `https` URIs whose origin, as browsers read it (``BrowserURL``: no user info, no `\`, no control
    /// characters), is trusted; never with a fragment.
    public func accepts(redirectURI: String) -> Bool {
        let loopback = DevIdPClient(clientID: "", redirectURIs: [], acceptsAnyLoopbackRedirect: true)
        if loopback.accepts(redirectURI: redirectURI) { return true }
        guard let url = try? BrowserURL(parsing: redirectURI), url.scheme == .https, url.fragment == nil else { return false }
        return trustsOrigin(url.origin)
    }
}
