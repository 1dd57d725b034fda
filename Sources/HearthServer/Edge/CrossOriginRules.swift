import Foundation
public import HearthHTTP

/// Which web pages may call which of Hearth's paths from another origin (CORS), and which may reach
/// a server on a private network (Private Network Access).
///
/// - The Firebase client endpoints and the key documents are open to every origin, as Firebase's
///   are: browser apps call them with keys and tokens in the request, never cookies.
/// - The development helpers (`/emulator/…`) and the dev IdPs (`/dev/google/…`, `/dev/apple/…`) answer only trusted
///   origins: loopback pages (`http://localhost:3000`, `http://127.0.0.1:…`, `http://[::1]:…`),
///   Hearth's own public URL and configured ones. Any other page is refused before the route runs,
///   so a site a developer happens to visit cannot wipe accounts or read SMS codes.
/// - Admin paths (`…/v1/projects/…/accounts…`) never answer cross-origin, nor does `/metrics` (operational data).
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

    /// The answer for a request to `path` from a page at `origin`.
    public func access(path: String, origin: String) -> CORSAccess {
        let trusted = isTrusted(origin)
        if Self.isRestricted(path) { return trusted ? .allow(privateNetwork: true) : .refuse }
        return .allow(privateNetwork: trusted)
    }

    /// As a policy for `HTTPServer.Configuration.cors`.
    public var policy: CORSPolicy { CORSPolicy { path, origin in access(path: path, origin: origin) } }

    /// Whether a page at `origin` is trusted (the dev Apple accepts `https` redirect URIs on these origins).
    public func trusts(origin: String) -> Bool { isTrusted(origin) }

    func isTrusted(_ origin: String) -> Bool {
        guard let normalized = Self.normalizedOrigin(origin) else { return false }
        if trustedOrigins.contains(normalized) { return true }
        guard trustsLoopback, let url = URL(string: normalized), let host = url.host?.lowercased() else { return false }
        return host == "localhost" || host == "::1" || host == "[::1]" || (IPAddress(host)?.isLoopback ?? false)
    }

    private static func isRestricted(_ path: String) -> Bool {
        path == "/metrics" || path.hasPrefix("/emulator/") || path.hasPrefix(DevIdPRoutes.base + "/") || path.hasPrefix(DevAppleRoutes.base + "/")
            || (path.hasPrefix(IdentityToolkitRoutes.v1 + "/projects/") && path.contains("/accounts"))
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
