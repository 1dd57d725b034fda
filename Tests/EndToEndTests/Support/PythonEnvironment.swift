import Foundation
import Synchronization

/// A Python virtual environment with packages from PyPI, made once per test run (per package set) in a
/// temporary folder that is removed when the test process exits.
enum PythonEnvironment {
    private static let made = Mutex<[String: URL]>([:])
    private static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-python-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: PythonEnvironment.root) }
        return url
    }()

    /// The `python` of a virtual environment with `packages` installed.
    static func python(with packages: [String]) throws -> URL {
        let key = packages.sorted().joined(separator: " ")
        return try made.withLock { made in
            if let python = made[key] { return python }
            let directory = root.appendingPathComponent(String(made.count))
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let create = try runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-m", "venv", directory.path])
            guard create.status == 0 else { throw RawHTTP.Failure(description: "python3 -m venv failed: \(create.output)") }
            let python = directory.appendingPathComponent("bin/python")
            let install = try runProgram(
                python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + packages)
            guard install.status == 0 else { throw RawHTTP.Failure(description: "pip install failed: \(install.output)") }
            made[key] = python
            return python
        }
    }

    /// A script in `Tests/EndToEndTests/Python/`.
    static func script(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Python").appendingPathComponent(name)
    }
}
