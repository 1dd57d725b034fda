import Foundation
import HearthCommandLine
import HearthCore
import HearthPostgres
import HearthSQLite

/// `hearth db copy --from SRC --to DST`: copies a store into a new, empty one of either kind (SQLite to PostgreSQL
/// to move to several instances, or back), through `StoreCopy`: one snapshot of the source, verified by counts. A
/// source that another process uses is refused unless `--allow-live-source` says a snapshot of it will do.
enum DatabaseCopyCommand {
    static func run(_ arguments: [String]) throws {
        let options = try ParsedOptions(
            arguments, valued: ["from", "to", "config", "encryption-key-file", "encryption-key-previous-file"],
            switches: ["help", "allow-live-source"])
        if options.flags.contains("help") {
            print(Help.db)
            return
        }
        if let extra = options.positionals.first { throw UsageError("unexpected argument '\(extra)'") }
        guard let from = options.values["from"], let to = options.values["to"] else {
            throw UsageError("db copy needs --from and --to (sqlite:PATH or postgres://…)")
        }
        let source = try DatabaseLocation(parsing: from, source: "--from")
        let target = try DatabaseLocation(parsing: to, source: "--to")
        guard !source.isSame(as: target) else { throw UsageError("--from and --to name the same database") }
        let settings = try Settings(options: options, environment: ProcessInfo.processInfo.environment)
        let sealer = try settings.secretSealer()
        let sourceStore = try openStore(
            at: source, sealer: sealer, creating: false, connections: 1, missingAdvice: "check --from", log: printNote)
        defer { sourceStore.close() }
        if let use = try liveUse(of: sourceStore) {
            guard options.flags.contains("allow-live-source") else {
                throw StartupError(
                    "db copy: the source is in use (\(use)); stop the servers that use it first, or pass "
                        + "--allow-live-source to copy a snapshot of it (what is written after the snapshot is not in the copy)")
            }
            printNote("the source is in use (\(use)): copying a snapshot of it; what is written after it is not in the copy")
        }
        let targetStore = try openStore(
            at: target, sealer: sealer, creating: true, connections: 1, missingAdvice: "check --to", log: printNote)
        defer { targetStore.close() }
        printNote("copying \(source.bannerDescription) to \(target.bannerDescription)")
        let copy = StoreCopy(from: sourceStore, to: targetStore)
        let report: StoreCopy.Report
        do {
            report = try copy.run { progress in printNote("copied \(progress)") }
        } catch let failure as StoreCopy.Failure {
            throw StartupError("db copy: \(failure)")
        }
        let snapshotTime = Date(timeIntervalSince1970: Double(report.snapshotAtMillis) / 1000)
            .formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        print(
            "Copied a snapshot of the source taken at \(snapshotTime), and verified that the target holds exactly "
                + "its counts: \(report.counts). Writes to the source after the snapshot are not in the copy.")
    }

    /// Who else uses the store, when anyone does: another process that has the SQLite file open, or other sessions
    /// connected to the PostgreSQL database (the store was opened with one connection, the one that asks).
    private static func liveUse(of store: any ConfiguredStore) throws -> String? {
        switch store {
        case let sqlite as SQLiteStore:
            return sqlite.isOpenInAnotherProcess ? "another process has the SQLite database open" : nil
        case let postgres as PostgresStore:
            let sessions = try postgres.otherSessionCount()
            return sessions > 0 ? "\(sessions) other session\(sessions == 1 ? " is" : "s are") connected to the database" : nil
        default:
            return nil
        }
    }
}
