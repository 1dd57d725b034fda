/// How the server answers a request from a page at another origin (see ``CORSPolicy``).
public enum CORSAccess: Sendable, Equatable {
    /// Reflect the origin; `privateNetwork` also grants Private Network Access preflights.
    case allow(privateNetwork: Bool)
    /// Answer without CORS headers: the browser keeps the response from the page.
    case omit
    /// Answer 403 before the handler runs, preflight or not, so a page cannot even trigger the
    /// request's effect.
    case refuse
}

/// Who may call a route from a page at another origin, as the route declares it (through its
/// ``MiddlewareChain``); a ``CORSPolicy`` decides what each scope allows, reading it with
/// ``Router/crossOriginScope(ofPath:)``. Ordered from the most open to the strictest.
public enum CrossOriginScope: Int, Sendable, Comparable {
    /// Public endpoints that pages anywhere call with credentials in the request (never cookies).
    case anyOrigin
    /// Endpoints only pages the server trusts may call: admin, console, development and operator paths.
    case trustedOrigins

    public static func < (lhs: CrossOriginScope, rhs: CrossOriginScope) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Whether and how the server answers cross-origin requests (requests with an `Origin` header),
/// decided per request from its decoded path and origin.
///
/// ```swift
/// let cors = CORSPolicy { path, origin in
///     path.hasPrefix("/admin/") ? .refuse : .allow(privateNetwork: false)
/// }
/// ```
public struct CORSPolicy: Sendable {
    let access: (@Sendable (_ path: String, _ origin: String) -> CORSAccess)?

    /// Decides with `access` for every request that carries `Origin`.
    public init(_ access: @escaping @Sendable (_ path: String, _ origin: String) -> CORSAccess) {
        self.access = access
    }

    private init() { access = nil }

    /// No CORS headers; `OPTIONS` goes to the handler like any method.
    public static let disabled = CORSPolicy()
    /// Every origin allowed, Private Network Access granted.
    public static let reflectAnyOrigin = CORSPolicy { _, _ in .allow(privateNetwork: true) }
}

/// Cross-origin resource sharing (Fetch standard §3.2, https://fetch.spec.whatwg.org/#http-cors-protocol;
/// Private Network Access, https://wicg.github.io/private-network-access/).
///
/// Hearth's API is called from browser apps with bearer tokens in headers, never with cookies, so an
/// allowed origin is reflected and credentials are not allowed.
enum CORS {
    static let allowedMethods = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
    /// How long a browser may cache a preflight answer, in seconds.
    static let maxAgeSeconds = "3600"

    /// The 204 answer to a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`),
    /// given before routing.
    static func preflightResponse(origin: String, request: HTTPRequest, privateNetwork: Bool) -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        headers.add(name: "Access-Control-Allow-Origin", value: origin)
        headers.add(name: "Access-Control-Allow-Methods", value: allowedMethods)
        let requested = request.headers.values(for: "Access-Control-Request-Headers")
        if !requested.isEmpty {
            headers.add(name: "Access-Control-Allow-Headers", value: requested.joined(separator: ", "))
        }
        headers.add(name: "Access-Control-Max-Age", value: maxAgeSeconds)
        if privateNetwork, let asked = request.headers["Access-Control-Request-Private-Network"],
           asked.equalsIgnoringASCIICase("true") {
            headers.add(name: "Access-Control-Allow-Private-Network", value: "true")
        }
        headers.add(name: "Vary", value: "Origin")
        return HTTPResponse(status: 204, headers: headers)
    }

    /// The refusal of a request (or preflight) from an origin the policy refuses.
    static let refused = HTTPStatusError(status: 403, reason: "Cross-origin requests from this origin are not allowed here")

    /// Adds `Access-Control-Allow-Origin: <origin>` and `Vary: Origin` to an ordinary response.
    static func decorate(_ response: inout HTTPResponse, origin: String) {
        response.headers["Access-Control-Allow-Origin"] = origin
        if let vary = response.headers["Vary"] {
            let names = vary.split(separator: ",").map { $0.trimmingSpaces }
            if !names.contains(where: { $0 == "*" || $0.equalsIgnoringASCIICase("Origin") }) {
                response.headers["Vary"] = vary + ", Origin"
            }
        } else {
            response.headers.add(name: "Vary", value: "Origin")
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
