import Foundation
import HearthCore
import HearthHTTP
import HearthServer
import Testing

/// Every route of a production server, asked from a foreign page: admin and console routes never answer it, client
/// routes answer every page (issue 18 §7). The routes come from the router of an in-process server configured as the
/// binary is; the requests go to the built `hearth` in production mode.
@Suite("Cross-origin answers of every route (e2e)", .blocking)
struct CrossOriginRouteTests {
    static let projectID = "cors-prod"
    static let consoleClientID = "console.apps.googleusercontent.com"
    static let foreign = "https://evil.example"

    /// The routes a production `hearth serve` with a console sign-in registers, as its router lists them.
    static func productionRoutes() throws -> [RegisteredRoute] {
        let project = ProjectConfiguration(
            projectID: projectID, issuer: "http://127.0.0.1/\(projectID)", apiKeys: .only(["k"]),
            googleClientIDs: [consoleClientID])
        let store = InMemoryStore()
        let platform = try IdentityPlatform(
            IdentityPlatform.Configuration(
                project: project, passwords: try Argon2PasswordHasher(parameters: Argon2Parameters(memoryKiB: 1_024, iterations: 1))),
            store: store)
        let signIn = ConsoleSignInProvider(
            providerID: "google.com", clientID: consoleClientID, authorizationEndpoint: "https://accounts.google.com/o/oauth2/v2/auth",
            displayName: "Google") { _, _, _ in "" }
        let server = IdentityServer(
            platform: platform,
            options: ServerOptions(
                publicURL: "http://127.0.0.1", development: false,
                operations: OperatorEndpoints(
                    metrics: nil, readiness: Readiness(store: store, signingKeys: platform.sessionKeys),
                    access: MetricsAccess(served: false)),
                console: ConsoleOptions(signIn: signIn)))
        return server.routes
    }

    /// A concrete path for `pattern`: `{project}` is the server's project, any other `{name}` is `x`.
    static func path(of pattern: String) -> String {
        pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            guard segment.hasPrefix("{"), let close = segment.firstIndex(of: "}") else { return String(segment) }
            let name = segment[segment.index(after: segment.startIndex)..<close]
            return (name == "project" ? projectID : "x") + segment[segment.index(after: close)...]
        }.joined(separator: "/")
    }

    @Test("a foreign page's preflight and simple request to every admin and console route get 403 and no Access-Control-Allow-Origin; client routes answer any origin")
    func everyRoute() throws {
        let server = HearthProcess(
            arguments: ["--project-id", Self.projectID],
            environment: [
                "HEARTH_API_KEYS": "k", "HEARTH_GOOGLE_CLIENT_IDS": Self.consoleClientID,
                "HEARTH_CONFIG": try ConsoleSettingsTests.writeConfig(#"{"console": {"clientId": "\#(Self.consoleClientID)"}}"#),
                "HEARTH_CONSOLE_CLIENT_SECRET": "shh", "HEARTH_METRICS_TOKEN": "metrics-token",
            ])
        try server.start()
        let routes = try Self.productionRoutes()
        var restrictedPatterns: Set<String> = []
        var openPatterns: Set<String> = []
        for route in routes {
            let path = Self.path(of: route.pattern)
            let method = route.method.rawValue
            let body = method == "GET" || method == "DELETE" ? Data() : Data("{}".utf8)
            // Without Origin: the binary serves the route, and an admin route asks for credentials (what makes it one).
            let plain = try server.request(method, path, headers: [("Content-Type", "application/json")], body: body)
            #expect(plain.errorMessage?.hasPrefix("Not found:") != true, "\(method) \(path) is served")
            let isAdmin = plain.status == 401
                && plain.errorMessage?.hasPrefix("Request is missing required authentication credential.") == true
            let restricted = isAdmin || route.pattern.hasPrefix("/console")
                || ["/metrics", "/oauth2/token"].contains(route.pattern)
            if restricted { restrictedPatterns.insert(route.pattern) } else { openPatterns.insert(route.pattern) }

            let preflight = try server.request(
                "OPTIONS", path,
                headers: [("Origin", Self.foreign), ("Access-Control-Request-Method", method),
                          ("Access-Control-Request-Headers", "authorization, content-type")])
            let simple = try server.request(
                method, path, headers: [("Origin", Self.foreign), ("Content-Type", "text/plain")], body: body)
            if restricted {
                #expect(preflight.status == 403 && preflight.header("Access-Control-Allow-Origin") == nil, "preflight \(method) \(path)")
                #expect(simple.status == 403 && simple.header("Access-Control-Allow-Origin") == nil, "\(method) \(path)")
                let own = try server.request(
                    "OPTIONS", path, headers: [("Origin", server.baseURL), ("Access-Control-Request-Method", method)])
                #expect(own.status == 204 && own.header("Access-Control-Allow-Origin") == server.baseURL, "own origin \(method) \(path)")
            } else {
                #expect(preflight.status == 204 && preflight.header("Access-Control-Allow-Origin") == Self.foreign, "preflight \(method) \(path)")
                #expect(simple.header("Access-Control-Allow-Origin") == Self.foreign, "\(method) \(path)")
            }
        }
        let base = "/identitytoolkit.googleapis.com/v1/projects/{project}"
        for pattern in ["\(base)/auditEvents", "\(base):createSessionCookie", "\(base)/accounts:lookup", "/console/users",
                        "/console/keys/rotate", "/console/callback"] {
            #expect(restrictedPatterns.contains(pattern), "\(pattern)")
        }
        for pattern in ["/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp", "/securetoken.googleapis.com/v1/token",
                        "/.well-known/jwks.json", "/__/auth/action"] {
            #expect(openPatterns.contains(pattern), "\(pattern)")
        }
    }
}
