import Foundation
import HearthCommandLine
import HearthCore
import JOSE

/// `hearth keys list|rotate|reencrypt`: manages the token signing keys in the data directory's store, and the
/// encryption of the secrets in it.
enum KeysCommand {
    static func run(_ arguments: [String]) throws {
        let options = try ParsedOptions(arguments, valued: Settings.storeOptions, switches: ["help"])
        if options.flags.contains("help") || options.positionals.isEmpty {
            print(Help.keys)
            return
        }
        guard options.positionals.count == 1 else { throw UsageError("unexpected argument '\(options.positionals[1])'") }
        let settings = try Settings(options: options, environment: ProcessInfo.processInfo.environment)
        let subcommand = options.positionals[0]
        guard ["list", "rotate", "reencrypt"].contains(subcommand) else {
            throw UsageError("unknown keys command '\(subcommand)' (list, rotate or reencrypt)")
        }
        if subcommand == "reencrypt", settings.encryptionKey == nil { throw Self.reencryptNeedsKey }
        let store = try openStore(settings)
        defer { store.close() }
        if subcommand == "reencrypt" {
            try reencrypt(store)
            return
        }
        let time = SystemTimeSource()
        let ring = SigningKeyRing(store: store, time: time, owner: .sessions, audit: settings.audit)
        let keys = try ring.loadOrCreate()
        if subcommand == "rotate" {
            let previous = keys.signer.keyID
            let record = try ring.rotate(by: .commandLine)
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

    private static let reencryptNeedsKey = UsageError(
        "keys reencrypt needs the encryption key: set HEARTH_ENCRYPTION_KEY or --encryption-key-file "
            + "(and the key it replaces in HEARTH_ENCRYPTION_KEY_PREVIOUS)")

    /// Rewrites every secret in the store under the current encryption key, in one transaction.
    private static func reencrypt(_ store: any ConfiguredStore) throws {
        guard let sealer = store.sealer as? KeyringSecretSealer else { throw Self.reencryptNeedsKey }
        let before = try store.resealSecrets()
        let rewritten = before.plain + before.sealedWithOtherKey
        print(
            "Encrypted \(rewritten) secret\(rewritten == 1 ? "" : "s") under key \(sealer.currentKeyID) "
                + "(\(before.sealedWithOtherKey) under a previous key, \(before.plain) not encrypted); "
                + "\(before.sealedWithCurrentKey) already were.")
        print("Previous keys are no longer needed for this database once every server runs without them.")
    }
}
