import Foundation
import HearthCommandLine
import HearthCore
import HearthSQLite
import JOSE

/// `hearth keys list|rotate`: manages the token signing keys in the data directory's store.
enum KeysCommand {
    static func run(_ arguments: [String]) throws {
        let options = try ParsedOptions(arguments, valued: ["data-dir", "config"], switches: ["help"])
        if options.flags.contains("help") || options.positionals.isEmpty {
            print(Help.keys)
            return
        }
        guard options.positionals.count == 1 else { throw UsageError("unexpected argument '\(options.positionals[1])'") }
        let settings = try Settings(options: options, environment: ProcessInfo.processInfo.environment)
        let subcommand = options.positionals[0]
        guard subcommand == "list" || subcommand == "rotate" else {
            throw UsageError("unknown keys command '\(subcommand)' (list or rotate)")
        }
        let store = try openStore(settings)
        defer { store.close() }
        let time = SystemTimeSource()
        let ring = SigningKeyRing(store: store, time: time, owner: .sessions)
        let keys = try ring.loadOrCreate()
        if subcommand == "rotate" {
            let previous = keys.signer.keyID
            let record = try ring.rotate()
            print("New signing key \(record.keyID) (RS256); previous key \(previous) stays published until its tokens expire.")
            return
        }
        let published = Set(try ring.current().published.keys.compactMap(\.kid))
        print("KEY ID                                    ALG    CREATED (UTC)          STATE")
        for record in keys.records {
            let created = Date(timeIntervalSince1970: TimeInterval(record.createdAt))
                .formatted(Date.ISO8601FormatStyle().year().month().day().time(includingFractionalSeconds: false))
            let state = record.retiredAt == nil ? "current" : published.contains(record.keyID) ? "published" : "expired"
            print("\(record.keyID.padding(toLength: 42, withPad: " ", startingAt: 0))\(record.algorithm.padding(toLength: 7, withPad: " ", startingAt: 0))\(created.padding(toLength: 23, withPad: " ", startingAt: 0))\(state)")
        }
    }
}
