import Foundation
import Synchronization
import Testing

/// A built executable of this package (SwiftPM builds them first: the test target depends on them).
func builtExecutable(_ name: String) -> URL {
    let candidates = [
        Bundle.main.executableURL?.deletingLastPathComponent(),
        Bundle.main.bundleURL.deletingLastPathComponent(),
        Bundle.main.bundleURL,
    ].compactMap { $0 }
    for directory in candidates {
        let url = directory.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/\(name)")
}

/// A server program started on an ephemeral port with a temporary data directory; it is ready when it
/// prints a line starting with one of `readyPrefixes` followed by the port.
class ServiceProcess: @unchecked Sendable {
    // @unchecked: `process` is only touched by the test that owns this object; output goes through a lock.
    let dataDirectory: URL
    private(set) var port: UInt16 = 0
    private var process: Process?
    private let output = Locked<[String]>([])
    private let executable: URL
    private let launchArguments: @Sendable (_ port: UInt16, _ dataDirectory: URL) -> [String]
    private let readyPrefixes: [String]
    private let environment: [String: String]

    init(
        executable: URL, environment: [String: String] = [:], dataDirectory: URL? = nil, readyPrefixes: [String],
        launchArguments: @escaping @Sendable (_ port: UInt16, _ dataDirectory: URL) -> [String]
    ) {
        self.executable = executable
        self.dataDirectory = dataDirectory ?? Self.temporaryDirectory()
        self.environment = environment
        self.readyPrefixes = readyPrefixes
        self.launchArguments = launchArguments
    }

    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Starts the program and waits for its ready line. Throws with the process output if it does not come up.
    /// - Parameter port: 0 for an ephemeral port.
    func start(port requestedPort: UInt16 = 0) throws {
        // A test's own task on the shared pool (threads a test starts itself are no task, and block nobody's pool).
        if Test.current != nil && !BlockingTestExecutor.shared.isCurrent {
            Issue.record("a program is started off the blocking threads: mark the suite `.blocking` (BlockingTests.swift)")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = launchArguments(requestedPort, dataDirectory)
        process.environment = childEnvironment(environment)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let portFound = DispatchSemaphore(value: 0)
        let found = Locked<UInt16?>(nil)
        let pending = Locked(Data())
        let readyPrefixes = self.readyPrefixes
        readToEnd(pipe.fileHandleForReading, onChunk: { [output] chunk in
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
            for line in lines {
                guard let prefix = readyPrefixes.first(where: line.hasPrefix) else { continue }
                let rest = line.dropFirst(prefix.count)
                if let port = UInt16(rest.prefix(while: \.isNumber)) {
                    found.withLock { $0 = port }
                    portFound.signal()
                }
            }
        }, onEnd: { portFound.signal() })
        try process.run()
        self.process = process
        _ = portFound.wait(timeout: .now() + 60)
        guard let port = found.value else {
            process.terminate()
            throw RawHTTP.Failure(description: "\(executable.lastPathComponent) did not start:\n" + lines.joined(separator: "\n"))
        }
        // The ready line names the public URL's port; a server asked for a port listens on that one.
        self.port = requestedPort == 0 ? port : requestedPort
    }

    /// Everything the process printed so far.
    var lines: [String] { output.value }

    /// Whether a line matching `predicate` arrives within `timeout` seconds (output is read
    /// asynchronously, so a line the server already wrote may not be here yet): a bound against
    /// hangs, not a timing assertion.
    func waitForLine(timeout: TimeInterval = 30, _ predicate: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lines.contains(where: predicate) { return true }
            usleep(10_000)
        }
        return lines.contains(where: predicate)
    }

    /// The running process's id (for reading its `/proc` entries), nil when not running.
    var processIdentifier: Int32? { process.map(\.processIdentifier) }

    /// Sends SIGTERM and waits (at most a minute); returns the exit status, or -1 when Foundation never saw the process
    /// end. Foundation's `waitUntilExit` can wait forever for a child that already died (seen once after a SIGKILL, in
    /// a CI run that then hung), so this polls with a deadline instead.
    @discardableResult
    func stop() -> Int32 {
        guard let process, process.isRunning else { return process?.terminationStatus ?? 0 }
        process.terminate()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        self.process = nil
        return process.isRunning ? -1 : process.terminationStatus
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

}

/// The built `hearth` binary: `hearth serve --port P --data-dir D <arguments>`.
final class HearthProcess: ServiceProcess, @unchecked Sendable {
    static var executable: URL { builtExecutable("hearth") }

    init(arguments: [String] = ["--dev"], environment: [String: String] = [:], dataDirectory: URL? = nil) {
        super.init(
            executable: Self.executable, environment: environment, dataDirectory: dataDirectory,
            // The text line, or the same event as JSON (`--log-format json`).
            readyPrefixes: ["event=listening address=127.0.0.1:", #"{"event":"listening","address":"127.0.0.1:"#]
        ) { port, directory in
            ["serve", "--port", String(port), "--data-dir", directory.path] + arguments
        }
    }

    /// Runs another `hearth` command (keys, users) against this server's data directory.
    func runCommand(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try Self.run(arguments + ["--data-dir", dataDirectory.path])
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        try runProgram(executable, arguments, environment: environment)
    }
}

/// What a finished program printed, stdout and stderr apart.
struct ProgramResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program to completion; returns its exit status and everything it printed (stdout and stderr).
func runProgram(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let result = try runProgramSplit(executable, arguments, environment: environment)
    return (result.status, result.stdout + result.stderr)
}

/// The test process's environment without its `HEARTH_*` and `PORTFOLIO_*` variables, plus `extra`: a child
/// program is configured only by what the test passes.
func childEnvironment(_ extra: [String: String]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter {
        !$0.key.hasPrefix("HEARTH_") && !$0.key.hasPrefix("PORTFOLIO_")
    }
    environment.merge(extra, uniquingKeysWith: { _, new in new })
    return environment
}

/// Runs a program to completion with stdin closed. `HEARTH_*` variables of the test process are not
/// passed on, so only `environment` configures it.
func runProgramSplit(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws -> ProgramResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = childEnvironment(environment)
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let errors = Locked(Data())
    let errorReader = Thread { errors.withLock { $0 = stderr.fileHandleForReading.readDataToEndOfFile() } }
    errorReader.start()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while errorReader.isExecuting || !errorReader.isFinished { Thread.sleep(forTimeInterval: 0.005) }
    return ProgramResult(
        status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
        stderr: String(decoding: errors.value, as: UTF8.self))
}
