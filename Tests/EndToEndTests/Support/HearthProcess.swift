import Foundation
import Synchronization

/// The built `hearth` binary, started on an ephemeral port with a temporary data directory.
final class HearthProcess: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns this object; output goes through a Mutex.
    let dataDirectory: URL
    private(set) var port: UInt16 = 0
    private var process: Process?
    private let output = Locked<[String]>([])
    private let extraArguments: [String]
    private let environment: [String: String]

    /// The `hearth` executable next to the test bundle (SwiftPM builds it first: the test target depends on it).
    static var executable: URL {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ].compactMap { $0 }
        for directory in candidates {
            let url = directory.appendingPathComponent("hearth")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/hearth")
    }

    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    init(arguments: [String] = ["--dev"], environment: [String: String] = [:], dataDirectory: URL? = nil) {
        self.dataDirectory = dataDirectory ?? Self.temporaryDirectory()
        extraArguments = arguments
        self.environment = environment
    }

    /// Starts `hearth serve` and waits for its banner. Throws with the process output if it does not come up.
    /// - Parameter port: 0 for an ephemeral port.
    func start(port requestedPort: UInt16 = 0) throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["serve", "--port", String(requestedPort), "--data-dir", dataDirectory.path] + extraArguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") }
        env.merge(environment, uniquingKeysWith: { _, new in new })
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let portFound = DispatchSemaphore(value: 0)
        let found = Locked<UInt16?>(nil)
        let pending = Locked(Data())
        pipe.fileHandleForReading.readabilityHandler = { [output] handle in
            let chunk = handle.availableData
            if chunk.isEmpty {
                handle.readabilityHandler = nil
                portFound.signal()
                return
            }
            let lines = pending.withLock { buffer -> [String] in
                buffer.append(chunk)
                var lines: [String] = []
                while let newline = buffer.firstIndex(of: 0x0A) {
                    lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
                return lines
            }
            output.withLock { $0.append(contentsOf: lines) }
            for line in lines where line.hasPrefix("Hearth is listening on http://127.0.0.1:") {
                let rest = line.dropFirst("Hearth is listening on http://127.0.0.1:".count)
                if let port = UInt16(rest.prefix(while: \.isNumber)) {
                    found.withLock { $0 = port }
                    portFound.signal()
                }
            }
        }
        try process.run()
        self.process = process
        _ = portFound.wait(timeout: .now() + 60)
        guard let port = found.value else {
            process.terminate()
            throw RawHTTP.Failure(description: "hearth did not start:\n" + lines.joined(separator: "\n"))
        }
        self.port = port
    }

    /// Everything the process printed so far.
    var lines: [String] { output.value }

    /// Sends SIGTERM and waits; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard let process, process.isRunning else { return process?.terminationStatus ?? 0 }
        process.terminate()
        process.waitUntilExit()
        self.process = nil
        return process.terminationStatus
    }

    /// Stops and starts again on the same port (the issuer, and so existing tokens, depend on it).
    func restart() throws {
        let previous = port
        stop()
        try start(port: previous)
    }

    deinit {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: Data = Data()) throws -> HTTPResult {
        try RawHTTP.send(port: port, method: method, path: path, headers: headers, body: body)
    }

    /// POSTs JSON as the Firebase SDKs do.
    func postJSON(_ path: String, _ object: [String: Any], headers: [(String, String)] = []) throws -> HTTPResult {
        let body = try JSONSerialization.data(withJSONObject: object)
        return try request("POST", path, headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    /// Runs another `hearth` command (keys, users) against this server's data directory.
    func runCommand(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try Self.run(arguments + ["--data-dir", dataDirectory.path])
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") }
        env.merge(environment, uniquingKeysWith: { _, new in new })
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
