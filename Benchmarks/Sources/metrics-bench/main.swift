import BenchSupport
import Foundation
import HearthCore
import HearthHTTP
import HearthServer

// What metrics cost one request, in CPU time and in process (so the machine's other load hardly matters): a
// request through `IdentityServer.handle` with and without metrics (`GET /healthz`, whose own work is tiny, so the
// difference is the request metrics), and the counts a refresh adds (its outcome and two store transactions).
// Then the same request from four threads at once (the series are shared, as when a route is busy): what the
// metrics cost when threads update the same series concurrently.
// Prints `request_metrics_ns=…`, `refresh_metrics_ns=…`, `contended_request_metrics_ns=…` for
// Benchmarks/scripts/switches.sh.
//
// Usage: metrics-bench [seconds per measurement]

let seconds = Double(CommandLine.arguments.dropFirst().first ?? "2") ?? 2
let project = ProjectConfiguration(
    projectID: "bench", projectNumber: "1", issuer: "http://127.0.0.1/bench", apiKeys: .anyNonEmpty, googleClientIDs: [])
let store = InMemoryStore()
let platform = try IdentityPlatform(
    IdentityPlatform.Configuration(
        project: project, passwords: try Argon2PasswordHasher(parameters: Argon2Parameters(memoryKiB: 1_024, iterations: 1))),
    store: store)
let metrics = ServerMetrics(workerThreads: 6)
let readiness = Readiness(store: store, signingKeys: platform.sessionKeys)

func server(metrics: ServerMetrics?) -> IdentityServer {
    IdentityServer(
        platform: platform,
        options: ServerOptions(
            publicURL: "http://127.0.0.1", development: false,
            operations: OperatorEndpoints(metrics: metrics, readiness: readiness, access: .closed)))
}

let request = HTTPRequest(method: .get, path: "/healthz", remoteAddress: "127.0.0.1")
let measured = server(metrics: metrics)
let plain = server(metrics: nil)
var on: [Double] = []
var off: [Double] = []
for _ in 0..<3 {
    on.append(rate(seconds: seconds) { _ = measured.handle(request) })
    off.append(rate(seconds: seconds) { _ = plain.handle(request) })
}
let requestNanoseconds = max(0, 1e9 / on.sorted()[1] - 1e9 / off.sorted()[1])
// Four threads, 1,000 requests each per call: nanoseconds of CPU per request.
func contended(_ server: IdentityServer) -> Double {
    1e9 / (4_000 * rate(seconds: seconds) {
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<1_000 { _ = server.handle(request) }
        }
    })
}
var contendedOn: [Double] = []
var contendedOff: [Double] = []
for _ in 0..<3 {
    contendedOn.append(contended(measured))
    contendedOff.append(contended(plain))
}
let outcome = rate(seconds: seconds) { metrics.refresh(outcome: MetricsOutcome.success) }
let transaction = rate(seconds: seconds) { metrics.storeTransaction(.write, seconds: 0.0004, succeeded: true) }
print("request_metrics_ns=\(String(format: "%.0f", requestNanoseconds))")
print("refresh_metrics_ns=\(String(format: "%.0f", requestNanoseconds + 1e9 / outcome + 2e9 / transaction))")
print("contended_request_metrics_ns=\(String(format: "%.0f", max(0, contendedOn.sorted()[1] - contendedOff.sorted()[1]))))")
