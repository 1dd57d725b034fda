import Foundation
import HearthCore
import HearthSQLite

/// A store the commands open: the store contract, plus the sealed-secret inventory that `hearth keys reencrypt` and
/// the startup check need (`SQLiteStore`, `PostgresStore`).
typealias ConfiguredStore = HearthStore & SecretResealing

/// Opens the store the settings name (`database`, else the SQLite file in the data directory), with the configured
/// encryption keys, and checks that every sealed secret opens.
///
/// - Parameters:
///   - creating: whether a missing SQLite database (and its directory) is created, as `hearth serve` does. Other
///     commands pass false: run from the wrong folder, they say where they looked instead of making an empty
///     database there. A PostgreSQL database must exist; Hearth makes its tables.
///   - connections: how many connections to PostgreSQL the store may hold (threads that use it at once).
///   - onWriteRetry: told of each PostgreSQL write run again after losing a race (metrics).
///   - log: told of changed file modes and of secrets that `hearth keys reencrypt` should rewrite; by default
///     as notes on stderr (the commands' output stays on stdout).
func openStore(
    _ settings: Settings, creating: Bool = false, connections: Int = 2,
    onWriteRetry: @escaping @Sendable () -> Void = {}, log: (String) -> Void = { note in printNote(note) }
) throws -> any ConfiguredStore {
    let location = settings.databaseLocation
    if settings.database != nil, creating, settings.development {
        // The database is elsewhere, but `hearth serve --dev` keeps a file in the data directory even so (the dev
        // Apple's client key).
        try DataDirectory.prepare(settings.dataDirectory, databasePath: settings.databasePath, log: log)
    }
    return try openStore(
        at: location, sealer: settings.secretSealer(), creating: creating, connections: connections,
        onWriteRetry: onWriteRetry, missingAdvice: settings.missingDatabaseAdvice,
        inDataDirectory: settings.database == nil, log: log)
}

extension Settings {
    /// What to check when a command finds no database where the settings point.
    var missingDatabaseAdvice: String {
        database == nil
            ? "give the data directory `hearth serve` uses (--data-dir or HEARTH_DATA_DIR; the default is ./.hearth in "
                + "the current folder), or the database (--database or HEARTH_DATABASE_URL)"
            : "check --database (HEARTH_DATABASE_URL)"
    }
}

/// Opens the store at `location` with `sealer` and checks that every sealed secret opens (see above). A SQLite file
/// is kept to its owner, and so is its directory when it is the data directory (`DataDirectory`).
func openStore(
    at location: DatabaseLocation, sealer: any SecretSealer, creating: Bool, connections: Int,
    onWriteRetry: @escaping @Sendable () -> Void = {}, missingAdvice: String, inDataDirectory: Bool = false,
    log: (String) -> Void
) throws -> any ConfiguredStore {
    let store: any ConfiguredStore
    switch location {
    case .sqlite(let path):
        store = try openSQLite(
            path: path, sealer: sealer, creating: creating, missingAdvice: missingAdvice,
            restrictsDirectory: inDataDirectory, log: log)
    case .postgres(let url):
        store = try openPostgres(url: url, sealer: sealer, connections: connections, onWriteRetry: onWriteRetry)
    }
    try checkSecrets(of: store, at: location, log: log)
    return store
}

private func openSQLite(
    path: String, sealer: any SecretSealer, creating: Bool, missingAdvice: String, restrictsDirectory: Bool,
    log: (String) -> Void
) throws -> SQLiteStore {
    guard creating || FileManager.default.fileExists(atPath: path) else {
        throw StartupError("no Hearth database at \(path): \(missingAdvice)")
    }
    let directory = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
    try DataDirectory.prepare(directory, databasePath: path, restrictsDirectory: restrictsDirectory, log: log)
    guard FileManager.default.isWritableFile(atPath: directory) else {
        throw StartupError("data directory \(directory) is not writable")
    }
    do {
        return try SQLiteStore(path: path, sealer: sealer)
    } catch let error as StoreError {
        throw StartupError("cannot open database \(path): \(error.detail.isEmpty ? "\(error.code)" : error.detail)")
    }
}

/// Every sealed secret must open with the configured keys; secrets not under the current key are logged.
private func checkSecrets(of store: any ConfiguredStore, at location: DatabaseLocation, log: (String) -> Void) throws {
    do {
        let inventory = try store.secretInventory()
        if store.sealer.encrypts, inventory.plain + inventory.sealedWithOtherKey > 0 {
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
        throw StartupError("cannot read the secrets in \(location.redacted): \(error.detail); \(advice)")
    }
}
