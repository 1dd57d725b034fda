/// Cross-origin resource sharing for `HTTPServer.CORSPolicy.reflectAnyOrigin`
/// (Fetch standard §3.2, https://fetch.spec.whatwg.org/#http-cors-protocol; Private Network
/// Access, https://wicg.github.io/private-network-access/).
///
/// Hearth's API is called from browser apps on any origin with bearer tokens in headers, never
/// with cookies, so the origin is reflected and credentials are not allowed.
enum CORS {
    static let allowedMethods = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
    /// How long a browser may cache a preflight answer, in seconds.
    static let maxAgeSeconds = "3600"

    /// The 204 answer to a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`),
    /// given before routing.
    static func preflightResponse(origin: String, request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        headers.add(name: "Access-Control-Allow-Origin", value: origin)
        headers.add(name: "Access-Control-Allow-Methods", value: allowedMethods)
        let requested = request.headers.values(for: "Access-Control-Request-Headers")
        if !requested.isEmpty {
            headers.add(name: "Access-Control-Allow-Headers", value: requested.joined(separator: ", "))
        }
        headers.add(name: "Access-Control-Max-Age", value: maxAgeSeconds)
        if let privateNetwork = request.headers["Access-Control-Request-Private-Network"],
           privateNetwork.equalsIgnoringASCIICase("true") {
            headers.add(name: "Access-Control-Allow-Private-Network", value: "true")
        }
        headers.add(name: "Vary", value: "Origin")
        return HTTPResponse(status: 204, headers: headers)
    }

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
