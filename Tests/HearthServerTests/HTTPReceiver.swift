import Foundation
import HearthHTTP
import Synchronization

// Shared by the SMS and email sender tests.

/// A thread-safe list, for log lines, sleeps and requests recorded from other threads.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    /// Appends and returns how many values there are now.
    @discardableResult func append(_ value: Value) -> Int { storage.withLock { $0.append(value); return $0.count } }
    var values: [Value] { storage.withLock { $0 } }
}

/// A real HTTP receiver on an ephemeral port that answers with a script of responses (the last one repeats)
/// and records every request.
final class Receiver: Sendable {
    let server: HTTPServer
    let requests = Recorder<HTTPRequest>()

    init(_ script: [HTTPResponse]) throws {
        precondition(!script.isEmpty)
        let requests = self.requests
        server = HTTPServer(configuration: .init(port: 0)) { request in
            let count = requests.append(request)
            return script[min(count, script.count) - 1]
        }
        try server.start()
    }

    convenience init(statuses: [Int]) throws {
        try self.init(statuses.map { HTTPResponse(status: $0) })
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(server.port)\(path)")! }

    deinit { server.shutdown(gracePeriod: .seconds(1)) }
}

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
