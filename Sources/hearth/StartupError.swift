import Foundation

/// A reason the server cannot run (exit status 1): busy port, unusable data directory or database.
struct StartupError: Error {
    let message: String
    init(_ message: String) { self.message = message }

    /// A command other than `hearth serve` was pointed at a SQLite database that does not exist.
    static func noDatabase(at path: String, _ settings: Settings) -> StartupError {
        StartupError("no Hearth database at \(path): \(settings.missingDatabaseAdvice)")
    }
}

/// Writes one line to stderr: `hearth: <line>`.
func printNote(_ line: String) {
    FileHandle.standardError.write(Data("hearth: \(line)\n".utf8))
}
