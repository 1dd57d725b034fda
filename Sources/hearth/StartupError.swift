import Foundation
import HearthCore
import HearthSQLite

/// A reason the server cannot run (exit status 1): busy port, unusable data directory or database.
struct StartupError: Error {
    let message: String
    init(_ message: String) { self.message = message }

    /// A command other than `hearth serve` was pointed at a data directory without a database.
    static func noDatabase(at path: String) -> StartupError {
        StartupError(
            "no Hearth database at \(path): give the data directory `hearth serve` uses "
                + "(--data-dir or HEARTH_DATA_DIR; the default is ./.hearth in the current folder)")
    }
}

/// Opens the SQLite store in the data directory, never truncating or rewriting a file it cannot use. The
/// directory and the database files are made owner-only first (`DataDirectory`), and every sealed secret must
/// open with the configured encryption keys.
///
/// - Parameters:
///   - creating: whether a missing database (and data directory) is created, as `hearth serve` does. Other
///     commands pass false: run from the wrong folder, they say where they looked instead of making an empty
///     database there.
///   - log: told of changed file modes and of secrets that `hearth keys reencrypt` should rewrite; by default
///     as notes on stderr (the commands' output stays on stdout).
func openStore(_ settings: Settings, creating: Bool = false, log: (String) -> Void = { note in printNote(note) }) throws
    -> SQLiteStore
{
    let directory = settings.dataDirectory
    let sealer = try settings.secretSealer()
    guard creating || FileManager.default.fileExists(atPath: settings.databasePath) else {
        throw StartupError.noDatabase(at: settings.databasePath)
    }
    try DataDirectory.prepare(directory, databasePath: settings.databasePath, log: log)
    guard FileManager.default.isWritableFile(atPath: directory) else {
        throw StartupError("data directory \(directory) is not writable")
    }
    let store: SQLiteStore
    do {
        store = try SQLiteStore(path: settings.databasePath, sealer: sealer)
    } catch let error as StoreError {
        throw StartupError("cannot open database \(settings.databasePath): \(error.detail.isEmpty ? "\(error.code)" : error.detail)")
    }
    do {
        let inventory = try store.secretInventory()
        if sealer.encrypts, inventory.plain + inventory.sealedWithOtherKey > 0 {
            log(
                "event=secrets_not_under_current_key plain=\(inventory.plain) previous_key=\(inventory.sealedWithOtherKey) "
                    + "hint=\"run 'hearth keys reencrypt'\"")
        }
    } catch let error as StoreError {
        store.close()
        let advice = error.code == .unavailable
            ? "configure the key that encrypted them (HEARTH_ENCRYPTION_KEY or --encryption-key-file; during a "
                + "rotation the old key in HEARTH_ENCRYPTION_KEY_PREVIOUS), see docs/DEPLOYMENT.md, \"Secrets at rest\""
            : "the database was changed outside Hearth; restore it from a backup"
        throw StartupError("cannot read the secrets in \(settings.databasePath): \(error.detail); \(advice)")
    }
    return store
}

/// Writes one line to stderr: `hearth: <line>`.
func printNote(_ line: String) {
    FileHandle.standardError.write(Data("hearth: \(line)\n".utf8))
}
