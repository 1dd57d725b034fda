import Foundation

/// The real outside clients (firebase-admin, google-auth, PyJWT), driven by the scripts in `Tests/Python` in the
/// virtual environment `scripts/python-env` makes (once per machine; remade when the requirements change).
enum PythonClients {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The environment's python, made on first use (once per test process).
    static let python: Result<URL, any Error> = Result {
        let made = try runProgramSplit(repository.appendingPathComponent("scripts/python-env"), [])
        let path = made.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard made.status == 0, FileManager.default.isExecutableFile(atPath: path) else {
            throw RawHTTP.Failure(description: "scripts/python-env failed (\(made.status)): \(made.stderr)")
        }
        return URL(fileURLWithPath: path)
    }

    /// Debian's chromium and chromium-driver, installed on first use (once per test process), for the scripts that
    /// drive a real browser with selenium.
    static let browser: Result<Void, any Error> = Result {
        let installed = try runProgramSplit(
            repository.appendingPathComponent("scripts/install-packages"), ["chromium", "chromium-driver"])
        guard installed.status == 0 else {
            throw RawHTTP.Failure(description: "installing chromium failed (\(installed.status)): \(installed.stderr)")
        }
    }

    /// `Tests/Python/<name>`.
    static func script(_ name: String) -> URL { repository.appendingPathComponent("Tests/Python/\(name)") }

    /// Runs `Tests/Python/<script>` with `arguments` and returns the JSON object it printed last.
    static func run(_ script: String, _ arguments: [String], environment: [String: String] = [:]) throws -> [String: Any] {
        let result = try runProgramSplit(try python.get(), [Self.script(script).path] + arguments, environment: environment)
        guard result.status == 0, let line = result.stdout.split(separator: "\n").last,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else {
            throw RawHTTP.Failure(description: "\(script) failed (\(result.status)): \(result.stderr)\(result.stdout)")
        }
        return object
    }
}
