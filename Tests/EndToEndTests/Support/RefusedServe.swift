import Foundation

/// `hearth serve --dev` on a fresh data directory, with `environment` and `config` (if given) as its config file; for
/// settings it refuses, so it exits at once.
func refusedServe(environment: [String: String] = [:], config json: String? = nil) throws -> (status: Int32, output: String) {
    let directory = HearthProcess.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var arguments = ["serve", "--dev", "--port", "0", "--data-dir", directory.path]
    if let json {
        let file = directory.appendingPathComponent("hearth.json")
        try Data(json.utf8).write(to: file)
        arguments += ["--config", file.path]
    }
    return try HearthProcess.run(arguments, environment: environment)
}
