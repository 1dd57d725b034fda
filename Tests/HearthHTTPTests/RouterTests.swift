import Testing
@testable import HearthHTTP

@Suite("Router")
struct RouterTests {
    /// A handler that answers with a fixed tag, so tests can see which route matched.
    private func tag(_ name: String) -> HTTPHandler {
        { _ in .text(name) }
    }

    private func call(_ router: Router, _ method: HTTPMethod, _ path: String) -> (tag: String?, parameters: [String: String])? {
        switch router.route(HTTPRequest(method: method, path: path)) {
        case .found(let handler, let parameters, _):
            let response = handler(HTTPRequest(method: method, path: path))
            return (String(decoding: response.body, as: UTF8.self), parameters)
        default:
            return nil
        }
    }

    @Test("literal segments match exactly, others are 404")
    func literals() {
        var router = Router()
        router.add(.get, "/", tag("root"))
        router.add(.get, "/v1/keys", tag("keys"))
        router.add(.post, "/v1/accounts:lookup", tag("lookup"))
        router.add(.post, "/v1/accounts:signUp", tag("signUp"))

        #expect(call(router, .get, "/")?.tag == "root")
        #expect(call(router, .get, "/v1/keys")?.tag == "keys")
        #expect(call(router, .post, "/v1/accounts:lookup")?.tag == "lookup")
        #expect(call(router, .post, "/v1/accounts:signUp")?.tag == "signUp")
        for path in ["/v1", "/v1/keys/extra", "/v1/accounts:update", "/v1/accounts", "/V1/keys", ""] {
            guard case .notFound = router.route(HTTPRequest(method: .get, path: path)) else {
                Issue.record("\(path) should be 404")
                continue
            }
        }
    }

    @Test("{name} captures one segment")
    func parameters() {
        var router = Router()
        router.add(.get, "/v1/projects/{project}/accounts/{uid}", tag("account"))
        let match = call(router, .get, "/v1/projects/demo-1/accounts/u:42")
        #expect(match?.tag == "account")
        #expect(match?.parameters == ["project": "demo-1", "uid": "u:42"])
        // A capture never matches an empty segment.
        #expect(call(router, .get, "/v1/projects//accounts/u") == nil)
    }

    @Test("a match names the pattern it was registered with, never the request's values; HEAD names GET's")
    func matchedPattern() {
        var router = Router()
        router.add(.get, "/v1/projects/{project}/accounts/{uid}", tag("account"))
        router.add(.post, "/v1/projects/{project}:query", tag("query"))
        for (method, path, pattern) in [
            (HTTPMethod.get, "/v1/projects/p/accounts/secret-uid", "/v1/projects/{project}/accounts/{uid}"),
            (.head, "/v1/projects/p/accounts/u", "/v1/projects/{project}/accounts/{uid}"),
            (.post, "/v1/projects/other:query", "/v1/projects/{project}:query"),
        ] {
            guard case .found(_, _, let matched) = router.route(HTTPRequest(method: method, path: path)) else {
                Issue.record("\(method) \(path) should match")
                continue
            }
            #expect(matched == pattern)
        }
    }

    @Test("{name}:verb captures the part before the colon verb")
    func colonVerbCapture() {
        var router = Router()
        router.add(.post, "/v1/projects/{project}:createSessionCookie", tag("cookie"))
        router.add(.post, "/v1/projects/{project}:queryAccounts", tag("query"))
        router.add(.get, "/v1/projects/{project}", tag("project"))

        let cookie = call(router, .post, "/v1/projects/demo:createSessionCookie")
        #expect(cookie?.tag == "cookie")
        #expect(cookie?.parameters == ["project": "demo"])
        #expect(call(router, .post, "/v1/projects/demo:queryAccounts")?.tag == "query")
        #expect(call(router, .get, "/v1/projects/demo")?.parameters == ["project": "demo"])
        // Just the verb, with nothing to capture, does not match the verb route.
        #expect(call(router, .post, "/v1/projects/:createSessionCookie") == nil)
    }

    @Test("literal beats {name}:verb beats {name}, with backtracking")
    func precedence() {
        var router = Router()
        router.add(.get, "/a/{x}", tag("plain"))
        router.add(.get, "/a/{x}:run", tag("verb"))
        router.add(.get, "/a/fixed:run", tag("literal"))
        router.add(.get, "/b/special/end", tag("special-end"))
        router.add(.get, "/b/{x}/other", tag("capture-other"))

        #expect(call(router, .get, "/a/fixed:run")?.tag == "literal")
        #expect(call(router, .get, "/a/job:run")?.tag == "verb")
        #expect(call(router, .get, "/a/job")?.tag == "plain")
        // "special" matches the literal branch first, which dead-ends; the capture branch must still win.
        let backtracked = call(router, .get, "/b/special/other")
        #expect(backtracked?.tag == "capture-other")
        #expect(backtracked?.parameters == ["x": "special"])
    }

    @Test("405 lists the allowed methods; 404 when no route has the path")
    func methodNotAllowed() {
        var router = Router()
        router.add(.get, "/v1/keys", tag("get"))
        router.add(.post, "/v1/keys", tag("post"))

        guard case .methodNotAllowed(let allowed) = router.route(HTTPRequest(method: .delete, path: "/v1/keys")) else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == [.get, .head, .post])
        guard case .notFound = router.route(HTTPRequest(method: .delete, path: "/v1/other")) else {
            Issue.record("expected 404")
            return
        }
    }

    @Test("trailing slashes are significant")
    func trailingSlash() {
        var router = Router()
        router.add(.get, "/v1/keys", tag("keys"))
        router.add(.get, "/docs/", tag("docs"))
        #expect(call(router, .get, "/v1/keys")?.tag == "keys")
        #expect(call(router, .get, "/v1/keys/") == nil)
        #expect(call(router, .get, "/docs/")?.tag == "docs")
        #expect(call(router, .get, "/docs") == nil)
    }

    @Test("HEAD uses the GET handler unless HEAD is registered")
    func headFallsBackToGet() {
        var router = Router()
        router.add(.get, "/page", tag("get"))
        router.add(.get, "/both", tag("get"))
        router.add(.head, "/both", tag("head"))
        #expect(call(router, .head, "/page")?.tag == "get")
        #expect(call(router, .head, "/both")?.tag == "head")
    }

    @Test("handler() fills pathParameters and renders 404/405 through the renderer")
    func routerHandler() {
        var router = Router()
        router.add(.get, "/users/{id}") { request in .text(request.pathParameters["id"] ?? "?") }
        let handler = router.handler(errorRenderer: { error in .text("custom \(error.status)", status: error.status) })

        let found = handler(HTTPRequest(method: .get, path: "/users/7"))
        #expect(found.status == 200)
        #expect(found.body == Array("7".utf8))

        let missing = handler(HTTPRequest(method: .get, path: "/nope"))
        #expect(missing.status == 404)
        #expect(missing.body == Array("custom 404".utf8))

        let wrongMethod = handler(HTTPRequest(method: .post, path: "/users/7"))
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["Allow"] == "GET, HEAD")
        #expect(wrongMethod.body == Array("custom 405".utf8))
    }

    @Test("a route takes its chain's cross-origin scope; a path gets the strictest scope of the routes matching it, any method")
    func crossOriginScopes() {
        let open = MiddlewareChain([])
        let restricted = open.crossOrigin(.trustedOrigins)
        #expect(restricted.appending(MiddlewareTests.Refuse()).crossOrigin == .trustedOrigins, "appending keeps the scope")
        var router = Router()
        router.add(.post, "/v1/accounts:lookup", open.handler { _ in .text("client") })
        router.add(.get, "/v1/projects/{project}/accounts", restricted.handler { _ in .text("admin") })
        router.add(.post, "/v1/projects/{project}:createSessionCookie", restricted.handler { _ in .text("cookie") })
        router.add(.get, "/v1/projects/{project}/config", tag("config"))
        router.add(.get, "/metrics", crossOrigin: .trustedOrigins, tag("metrics"))
        // One path, two routes: GET open, POST restricted; a preflight for it (any method) gets the restricted one.
        router.add(.get, "/shared", tag("shared"))
        router.add(.post, "/shared", restricted.handler { _ in .text("shared post") })

        #expect(router.crossOriginScope(ofPath: "/v1/accounts:lookup") == .anyOrigin)
        #expect(router.crossOriginScope(ofPath: "/v1/projects/p/accounts") == .trustedOrigins)
        #expect(router.crossOriginScope(ofPath: "/v1/projects/p:createSessionCookie") == .trustedOrigins)
        #expect(router.crossOriginScope(ofPath: "/v1/projects/p/config") == .anyOrigin)
        #expect(router.crossOriginScope(ofPath: "/metrics") == .trustedOrigins)
        #expect(router.crossOriginScope(ofPath: "/shared") == .trustedOrigins)
        for unmatched in ["/v1/projects/p", "/v1/projects/:createSessionCookie", "/v1/projects//accounts", "/nope", ""] {
            #expect(router.crossOriginScope(ofPath: unmatched) == nil, "\(unmatched)")
        }
        #expect(call(router, .post, "/v1/projects/p:createSessionCookie")?.tag == "cookie")
        #expect(router.routes.map { "\($0.method) \($0.pattern) \($0.crossOrigin)" } == [
            "GET /metrics trustedOrigins", "GET /shared anyOrigin", "POST /shared trustedOrigins",
            "POST /v1/accounts:lookup anyOrigin", "GET /v1/projects/{project}/accounts trustedOrigins",
            "GET /v1/projects/{project}/config anyOrigin", "POST /v1/projects/{project}:createSessionCookie trustedOrigins",
        ])
    }

    @Test("pattern parsing")
    func patternParsing() {
        #expect(Router.parse("/v1/projects/{p}:run/x") == [.literal("v1"), .literal("projects"), .capture(name: "p", verb: ":run"), .literal("x")])
        #expect(Router.parse("/") == [.literal("")])
        #expect(Router.parse("/v1/accounts:lookup") == [.literal("v1"), .literal("accounts:lookup")])
    }
}
