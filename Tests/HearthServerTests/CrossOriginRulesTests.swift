import HearthCore
import HearthHTTP
import HearthServer
import Testing

@Suite("Cross-origin rules")
struct CrossOriginRulesTests {
    let development = CrossOriginRules(
        publicURL: "http://devbox.lan:9099", development: true, trustedOrigins: ["https://Tools.Example.com:443"])
    let production = CrossOriginRules(publicURL: "https://auth.example.com", development: false)

    @Test("routes open to any origin answer every page; only trusted ones get Private Network Access")
    func openRoutes() {
        #expect(development.access(to: .anyOrigin, origin: "https://evil.example") == .allow(privateNetwork: false))
        #expect(development.access(to: .anyOrigin, origin: "http://localhost:5173") == .allow(privateNetwork: true))
        #expect(production.access(to: .anyOrigin, origin: "https://app.example") == .allow(privateNetwork: false))
    }

    @Test("routes for trusted origins answer loopback (in development), own and configured origins only")
    func trustedOriginsOnly() {
        for trusted in ["http://localhost:3000", "http://127.0.0.1:9099", "http://127.1.2.3", "http://[::1]:8080",
                        "http://devbox.lan:9099", "https://tools.example.com"] {
            #expect(development.access(to: .trustedOrigins, origin: trusted) == .allow(privateNetwork: true), "\(trusted)")
        }
        for foreign in ["https://evil.example", "null", "http://localhost.evil.example", "http://127.0.0.1.evil.example",
                        "https://tools.example.com:8443", "file://", "http://devbox.lan:9100"] {
            #expect(development.access(to: .trustedOrigins, origin: foreign) == .refuse, "\(foreign)")
        }
        // Loopback pages are trusted only in development.
        #expect(production.access(to: .trustedOrigins, origin: "http://localhost:3000") == .refuse)
        #expect(production.access(to: .trustedOrigins, origin: "https://app.example") == .refuse)
        #expect(production.access(to: .trustedOrigins, origin: "https://auth.example.com") == .allow(privateNetwork: true))
        #expect(CrossOriginRules.isOrigin("https://a.example:8443"))
        #expect(!CrossOriginRules.isOrigin("a.example"))
        #expect(!CrossOriginRules.isOrigin("ftp://a.example"))
    }

    /// What a route is for, found from its pattern and its answer rather than from the scope it declares: an admin
    /// route refuses a request without credentials as ``RequireAdmin`` does.
    static func isAdmin(_ route: RegisteredRoute, in fixture: ServerFixture) -> Bool {
        let answer = fixture.call(route.method, Self.path(of: route.pattern), headers: ["Content-Type": "application/json"], body: "{}")
        return answer.status == 401 && (answer.error["message"] as? String)?.hasPrefix("Request is missing required authentication credential.") == true
    }

    /// A concrete path for `pattern`: each `{name}` becomes `demo-hearth` for the project, `x` otherwise.
    static func path(of pattern: String) -> String {
        pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix("{"), let close = segment.firstIndex(of: "}") else { return String(segment) }
            let name = segment[segment.index(after: segment.startIndex)..<close]
            return (name == "project" ? "demo-hearth" : "x") + segment[segment.index(after: close)...]
        }.joined(separator: "/")
    }

    @Test("every admin route, every console route, the development helpers, the dev IdPs, /metrics and the service-account token endpoint declare trusted origins only; every other route is open")
    func everyRoute() throws {
        let fixture = try ServerFixture(console: ConsoleOptions(requiresSignIn: true))
        let routes = fixture.server.routes
        var admin: [String] = []
        for route in routes {
            let isAdmin = Self.isAdmin(route, in: fixture)
            if isAdmin { admin.append(route.pattern) }
            let restricted = isAdmin || route.pattern.hasPrefix("/console") || route.pattern.hasPrefix("/emulator/")
                || route.pattern.hasPrefix("/dev/") || ["/metrics", "/oauth2/token"].contains(route.pattern)
            #expect(route.crossOrigin == (restricted ? .trustedOrigins : .anyOrigin), "\(route.method) \(route.pattern)")
            #expect(fixture.server.crossOriginScope(ofPath: Self.path(of: route.pattern)) == route.crossOrigin, "\(route.pattern)")
        }
        // The admin routes the issue names were found by their answers, and the listing holds the console.
        let base = "/identitytoolkit.googleapis.com/v1/projects/{project}"
        for pattern in ["\(base)/auditEvents", "\(base):createSessionCookie", "\(base)/accounts:lookup", "\(base)/accounts:sendOobCode"] {
            #expect(admin.contains(pattern), "\(pattern)")
        }
        #expect(routes.contains { $0.pattern == "/console/users/{uid}/delete" && $0.method == .post })
        #expect(routes.contains { $0.pattern == "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp" && $0.crossOrigin == .anyOrigin })
        // A path no route matches has no scope; a method no route has still gets the path's.
        #expect(fixture.server.crossOriginScope(ofPath: "/nowhere") == nil)
        #expect(fixture.server.crossOriginScope(ofPath: "/console/keys/rotate") == .trustedOrigins)
    }
}
