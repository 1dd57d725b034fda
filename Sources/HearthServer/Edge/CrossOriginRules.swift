import Foundation
public import HearthHTTP

/// Which web pages may call which of Hearth's paths from another origin (CORS), and which may reach
/// a server on a private network (Private Network Access), by the ``CrossOriginScope`` each route declares
/// (its middleware chain's: ``Edge``).
///
/// - Routes open to any origin (`.anyOrigin`: the Firebase client endpoints, the key documents, the action page)
///   answer every page, as Firebase's do: browser apps call them with keys and tokens in the request, never cookies.
/// - Routes for trusted origins only (`.trustedOrigins`: every admin route, the console, the service-account token
///   endpoint, `/metrics`, and in development the helpers `/emulator/…` and the dev IdPs `/dev/google/…`,
///   `/dev/apple/…`) answer only trusted origins: Hearth's own public URL, configured ones and, with `--dev`,
///   loopback pages (`http://localhost:3000`, `http://127.0.0.1:…`, `http://[::1]:…`). Any other page is refused
///   (403, no `Access-Control-Allow-Origin`) before the route runs, preflight or not, so a site an administrator or
///   developer happens to visit can neither read these answers nor trigger their effects.
/// - Private Network Access is granted only to trusted origins.
public struct CrossOriginRules: Sendable {
    private let trustedOrigins: Set<String>
    private let trustsLoopback: Bool

    /// - Parameters:
    ///   - publicURL: Hearth's own URL; its origin is trusted.
    ///   - development: whether loopback origins are trusted (they are, with `--dev`).
    ///   - trustedOrigins: further origins to trust, as `scheme://host[:port]`.
    public init(publicURL: String, development: Bool, trustedOrigins: [String] = []) {
        var origins = Set(trustedOrigins.compactMap(Self.normalizedOrigin))
        if let own = Self.normalizedOrigin(publicURL) { origins.insert(own) }
        self.trustedOrigins = origins
        trustsLoopback = development
    }

    /// The answer for a request to a route of `scope` from a page at `origin`.
    public func access(to scope: CrossOriginScope, origin: String) -> CORSAccess {
        let trusted = isTrusted(origin)
        switch scope {
        case .anyOrigin: return .allow(privateNetwork: trusted)
        case .trustedOrigins: return trusted ? .allow(privateNetwork: true) : .refuse
        }
    }

    /// As a policy for `HTTPServer.Configuration.cors` in front of `server`: each path gets the scope of the routes
    /// that match it (a path no route matches is answered 404 by any origin).
    public func policy(for server: IdentityServer) -> CORSPolicy {
        CORSPolicy { path, origin in access(to: server.crossOriginScope(ofPath: path) ?? .anyOrigin, origin: origin) }
    }

    /// Whether a page at `origin` is trusted (the dev Apple accepts `https` redirect URIs on these origins).
    public func trusts(origin: String) -> Bool { isTrusted(origin) }

    func isTrusted(_ origin: String) -> Bool {
        guard let normalized = Self.normalizedOrigin(origin) else { return false }
        if trustedOrigins.contains(normalized) { return true }
        guard trustsLoopback, let url = URL(string: normalized), let host = url.host?.lowercased() else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || (IPAddress(host)?.isLoopback ?? false)
    }

    /// Whether `text` is a web origin (`scheme://host[:port]`, http or https) that can be trusted.
    public static func isOrigin(_ text: String) -> Bool { normalizedOrigin(text) != nil }

    /// `scheme://host[:port]`, lower-cased, without a default port or a path; nil for anything else
    /// (including `null`, the origin of sandboxed and file pages).
    static func normalizedOrigin(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil
        else { return nil }
        let defaultPort = scheme == "http" ? 80 : 443
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = components.port, port != defaultPort else { return "\(scheme)://\(hostPart)" }
        return "\(scheme)://\(hostPart):\(port)"
    }
}

extension IPAddress {
    /// 127.0.0.0/8 or ::1.
    var isLoopback: Bool {
        bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
    }
}
