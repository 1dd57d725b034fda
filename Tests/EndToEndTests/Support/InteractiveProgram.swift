import Foundation

/// A program the test talks to through its standard input, reading its output as it comes (for prompts).
final class InteractiveProgram: @unchecked Sendable {
    // @unchecked: `process` and the pipes are used only by the owning test; output goes through locks.
    private let process = Process()
    private let input = Pipe()
    private let stdout = Locked(Data())
    private let stderr = Locked(Data())

    init(_ executable: URL, _ arguments: [String], environment: [String: String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = childEnvironment(environment)
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        for (pipe, buffer) in [(output, stdout), (errors, stderr)] {
            readToEnd(pipe.fileHandleForReading, onChunk: { chunk in buffer.withLock { $0.append(chunk) } })
        }
        try process.run()
    }

    var output: String { String(decoding: stdout.value, as: UTF8.self) }

    /// Waits until stdout contains `text` (or the program ends); returns stdout so far.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 30) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if output.contains(text) { return output }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        guard output.contains(text) else {
            throw RawHTTP.Failure(description: "no '\(text)' in output:\n\(output)\nstderr:\n\(String(decoding: stderr.value, as: UTF8.self))")
        }
        return output
    }

    /// Types a line.
    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes stdin and waits for the end.
    func finish() -> ProgramResult {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.05)
        return ProgramResult(
            status: process.terminationStatus, stdout: output, stderr: String(decoding: stderr.value, as: UTF8.self))
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
