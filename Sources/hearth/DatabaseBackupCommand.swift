import Foundation
import HearthCommandLine
import HearthSQLite

/// `hearth db backup --out FILE`: a consistent copy of the data directory's SQLite database, made while servers
/// keep running on it (`SQLiteStoreBackup`). A PostgreSQL database is backed up with PostgreSQL's own tools.
enum DatabaseBackupCommand {
    static func run(_ arguments: [String]) throws {
        let options = try ParsedOptions(arguments, valued: Settings.storeOptions.union(["out"]), switches: ["help"])
        if options.flags.contains("help") {
            print(Help.db)
            return
        }
        if let extra = options.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        guard let out = options.values["out"], !out.isEmpty else {
            throw UsageError("db backup needs --out FILE, the new backup file")
        }
        let settings = try Settings(options: options, environment: ProcessInfo.processInfo.environment)
        guard case .sqlite(let databasePath) = settings.databaseLocation else {
            // A PostgreSQL database is not copied by Hearth: `pg_dump` makes a consistent copy of a running one.
            throw UsageError(
                "db backup copies a SQLite database; back up PostgreSQL with pg_dump (pg_dump --format=custom), "
                    + "see docs/DEPLOYMENT.md, \"Backups\"")
        }
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw StartupError.noDatabase(at: databasePath, settings)
        }
        let summary: SQLiteStoreBackup.Summary
        do {
            summary = try SQLiteStoreBackup.write(databasePath: databasePath, to: out)
        } catch let error as SQLiteBackupError {
            throw StartupError("no backup made: \(error)")
        }
        print("Backed up \(databasePath) to \(out) (schema version \(summary.schemaVersion), \(summary.bytes) bytes, mode 0600).")
    }
}
