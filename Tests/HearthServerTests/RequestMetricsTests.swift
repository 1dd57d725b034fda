import HearthCore
import HearthHTTP
import HearthServer
import Testing

@Suite("Request metrics")
struct RequestMetricsTests {
    @Test("requests are counted by the pattern that matched; unknown paths and wrong methods as 'unmatched', odd methods as OTHER")
    func routeLabels() throws {
        let fixture = try ServerFixture()
        let metrics = ServerMetrics(workerThreads: 3)
        let server = IdentityServer(
            platform: fixture.platform,
            options: ServerOptions(
                publicURL: ServerFixture.publicURL, development: true,
                operations: OperatorEndpoints(
                    metrics: metrics, readiness: Readiness(store: fixture.platform.store, signingKeys: fixture.platform.sessionKeys),
                    access: MetricsAccess(served: true))))
        for (method, path) in [
            (HTTPMethod.delete, "/emulator/v1/projects/demo-hearth/accounts"),
            (.delete, "/emulator/v1/projects/secret-project-name/accounts"),
            (.get, "/nowhere/secret-path"),
            (.put, "/healthz"),
            (HTTPMethod(rawValue: "BREW"), "/healthz"),
            (.head, "/healthz"),
        ] {
            _ = server.handle(HTTPRequest(method: method, path: path))
        }
        let text = String(decoding: server.handle(HTTPRequest(method: .get, path: "/metrics")).body, as: UTF8.self)
        for line in [
            #"hearth_http_requests_total{route="/emulator/v1/projects/{project}/accounts",method="DELETE",status_class="2xx"} 1"#,
            #"hearth_http_requests_total{route="/emulator/v1/projects/{project}/accounts",method="DELETE",status_class="4xx"} 1"#,
            #"hearth_http_requests_total{route="unmatched",method="GET",status_class="4xx"} 1"#,
            #"hearth_http_requests_total{route="unmatched",method="PUT",status_class="4xx"} 1"#,
            #"hearth_http_requests_total{route="unmatched",method="OTHER",status_class="4xx"} 1"#,
            #"hearth_http_requests_total{route="/healthz",method="HEAD",status_class="2xx"} 1"#,
            #"hearth_http_worker_threads 3"#,
        ] {
            #expect(text.contains(line + "\n"), "\(line)")
        }
        #expect(!text.contains("secret"))
        // Routes resolved in advance are exposed only once called.
        #expect(!text.contains(#"route="/v1/accounts:lookup""#))
        #expect(!text.contains(#"route="/healthz",method="GET""#))
        #expect(text.contains(#"hearth_http_request_duration_seconds_count{route="/healthz",method="HEAD"} 1"# + "\n"))
    }
}
