import HearthCore
import HearthProtocol

/// Settings of the development Google look-alike (`hearth serve --dev`).
public struct DevIdPConfiguration: Sendable {
    /// `iss` of its ID tokens and the base of its endpoints, e.g. `http://127.0.0.1:9099/dev/google`.
    public var issuer: String
    /// The OAuth clients it knows. Unknown clients get an error page, never a redirect.
    public var clients: [DevIdPClient]
    public var codeLifetime: Int64
    public var accessTokenLifetime: Int64
    public var refreshTokenLifetime: Int64
    public var idTokenLifetime: Int64

    public init(
        issuer: String, clients: [DevIdPClient], codeLifetime: Int64 = 300, accessTokenLifetime: Int64 = 3599,
        refreshTokenLifetime: Int64 = 180 * 86400, idTokenLifetime: Int64 = 3600
    ) {
        self.issuer = issuer
        self.clients = clients
        self.codeLifetime = codeLifetime
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.idTokenLifetime = idTokenLifetime
    }

    public func client(_ clientID: String) -> DevIdPClient? {
        clients.first { $0.clientID == clientID }
    }
}

/// An OAuth client of the dev IdP and the redirect URIs it registered.
public struct DevIdPClient: Sendable, Equatable {
    public var clientID: String
    public var redirectURIs: [String]
    /// Whether any loopback redirect is accepted (`http://127.0.0.1`, `http://[::1]` or
    /// `http://localhost`, any port, any path), as Google does for desktop clients.
    public var acceptsAnyLoopbackRedirect: Bool

    public init(clientID: String, redirectURIs: [String], acceptsAnyLoopbackRedirect: Bool = false) {
        self.clientID = clientID
        self.redirectURIs = redirectURIs
        self.acceptsAnyLoopbackRedirect = acceptsAnyLoopbackRedirect
    }

    /// The default development client: any loopback redirect (RFC 8252 §7.3, as Google's desktop
    /// clients) and the reversed-client-ID scheme an iOS app registers.
    public static func development(clientID: String, extraRedirectURIs: [String] = []) -> DevIdPClient {
        let reversed = clientID.split(separator: ".").reversed().joined(separator: ".").lowercased()
        return DevIdPClient(
            clientID: clientID, redirectURIs: ["\(reversed):/oauth2callback"] + extraRedirectURIs,
            acceptsAnyLoopbackRedirect: true)
    }

    /// Exact match; a registered loopback URI (`127.0.0.1`, `[::1]`, `localhost`) matches on any port;
    /// with ``acceptsAnyLoopbackRedirect``, every loopback URI does.
    public func accepts(redirectURI: String) -> Bool {
        if redirectURIs.contains(redirectURI) { return true }
        guard let (host, rest) = Self.loopbackParts(redirectURI) else { return false }
        if acceptsAnyLoopbackRedirect { return true }
        return redirectURIs.contains { registered in
            guard let (registeredHost, registeredRest) = Self.loopbackParts(registered) else { return false }
            return host == registeredHost && rest == registeredRest
        }
    }

    /// What the error page tells a developer whose redirect URI was refused.
    public var acceptedRedirectsDescription: String {
        var accepted = redirectURIs
        if acceptsAnyLoopbackRedirect {
            accepted.insert("http://127.0.0.1, http://[::1] or http://localhost with any port and path", at: 0)
        }
        return accepted.joined(separator: "; ")
    }

    /// For `http://127.0.0.1:8765/cb?x` returns ("127.0.0.1", "/cb?x"); nil for anything but an `http` URL on a
    /// loopback host as browsers read it (``BrowserURL``: no user info, no `\`, no control characters, which would
    /// reach the `Location` header) and for URLs with a fragment.
    private static func loopbackParts(_ uri: String) -> (host: String, pathAndQuery: String)? {
        guard let url = try? BrowserURL(parsing: uri), url.scheme == .http, url.fragment == nil,
            ["127.0.0.1", "[::1]", "localhost"].contains(url.host)
        else { return nil }
        return (url.host, (url.path.isEmpty ? "/" : url.path) + (url.query.map { "?\($0)" } ?? ""))
    }
}
