import Foundation
import HearthCommandLine
import HearthCore

/// `hearth db copy --from SRC --to DST`: copies a store into a new, empty one of either kind (SQLite to PostgreSQL
/// to move to several instances, or back), through `StoreCopy`.
enum DatabaseCopyCommand {
    static func run(_ arguments: [String]) throws {
        let options = try ParsedOptions(
            arguments, valued: ["from", "to", "config", "encryption-key-file", "encryption-key-previous-file"],
            switches: ["help"])
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
        let targetStore = try openStore(
            at: target, sealer: sealer, creating: true, connections: 1, missingAdvice: "check --to", log: printNote)
        defer { targetStore.close() }
        printNote("copying \(source.bannerDescription) to \(target.bannerDescription)")
        let copy = StoreCopy(from: sourceStore, to: targetStore)
        let counts: StoreCopy.Counts
        do {
            counts = try copy.run { progress in printNote("copied \(progress)") }
        } catch let failure as StoreCopy.Failure {
            throw StartupError("db copy: \(failure)")
        }
        print("Copied and verified: \(counts)")
    }
}
