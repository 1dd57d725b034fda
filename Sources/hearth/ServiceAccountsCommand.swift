import Foundation
import HearthCommandLine
import HearthCore

/// `hearth service-accounts create|list|revoke`: the service accounts whose signed assertions Hearth's token
/// endpoint exchanges for admin access tokens. `create` writes the only copy of the private key to an
/// owner-only key file and keeps the public key in the data directory's store.
enum ServiceAccountsCommand {
    static func run(_ arguments: [String]) throws {
        let options = try ParsedOptions(
            arguments, valued: Settings.storeOptions.union(["out", "public-url", "project-id", "host", "port"]),
            switches: ["help", "dev"])
        if options.flags.contains("help") || options.positionals.isEmpty {
            print(Help.serviceAccounts)
            return
        }
        let subcommand = options.positionals[0]
        let expected = subcommand == "list" ? 1 : 2
        guard ["create", "list", "revoke"].contains(subcommand) else {
            throw UsageError("unknown service-accounts command '\(subcommand)' (create, list or revoke)")
        }
        guard options.positionals.count == expected else {
            throw UsageError("usage: hearth service-accounts \(subcommand)\(expected == 2 ? " NAME" : "")")
        }
        if subcommand != "create", options.values["out"] != nil { throw UsageError("--out is only for create") }
        let settings = try Settings(options: options, environment: ProcessInfo.processInfo.environment)
        switch subcommand {
        case "create": try create(name: options.positionals[1], out: options.values["out"], settings)
        case "list": try list(settings)
        default: try revoke(options.positionals[1], settings)
        }
    }

    private static func create(name: String, out: String?, _ settings: Settings) throws {
        guard NewServiceAccount.isValidName(name) else {
            throw UsageError(
                "service-account name '\(name)' must be 6 to 30 lower-case letters, digits or hyphens, "
                    + "start with a letter and not end with a hyphen")
        }
        let projectID = try settings.resolvedProjectID()
        let publicURL = (settings.publicURL ?? "http://\(settings.host):\(settings.port)").trimmingSuffix("/")
        let path = out ?? "\(name).json"
        let store = try openStore(settings)
        defer { store.close() }
        let email = NewServiceAccount.email(name: name, projectID: projectID)
        if try store.read({ try $0.serviceAccount(email: email) }) != nil {
            throw StartupError("service account \(email) exists; revoke it first to make a new key")
        }
        let account = try NewServiceAccount.make(
            name: name, projectID: projectID, tokenURI: publicURL + "/oauth2/token",
            createdAt: SystemTimeSource().nowSeconds)
        try writeOwnerOnly(account.keyFile, to: path)
        do {
            try store.write { try $0.insertServiceAccount(account.record) }
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            if let error = error as? StoreError, error.code == .duplicateEmail {
                throw StartupError("service account \(email) exists; revoke it first to make a new key")
            }
            throw error
        }
        print("Created service account \(email) (key \(account.record.keyID)).")
        print("Its private key is in \(path) (mode 0600), the only copy: Hearth keeps the public key alone.")
        print("Token endpoint: \(publicURL)/oauth2/token")
    }

    private static func list(_ settings: Settings) throws {
        let store = try openStore(settings)
        defer { store.close() }
        let accounts = try store.read { try $0.serviceAccounts() }
        // Columns as wide as their longest entry: emails are never cut short.
        let width = accounts.map(\.email.count).max().map { max($0, 5) + 2 } ?? 7
        func column(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        print(column("EMAIL", width) + column("KEY ID", 42) + column("CREATED (UTC)", 23) + "STATE")
        for account in accounts {
            let state = account.revokedAt.map { "revoked \(timestamp($0))" } ?? "live"
            print(column(account.email, width) + column(account.keyID, 42) + column(timestamp(account.createdAt), 23) + state)
        }
    }

    /// Revokes the live account named `nameOrEmail` (its name, its email, or its key id).
    private static func revoke(_ nameOrEmail: String, _ settings: Settings) throws {
        let store = try openStore(settings)
        defer { store.close() }
        let wanted = nameOrEmail.lowercased()
        let account = try store.read { reader in
            try reader.serviceAccounts().first { account in
                account.revokedAt == nil
                    && (account.email == wanted || account.keyID == wanted || account.email.hasPrefix(wanted + "@"))
            }
        }
        guard let account, try store.write({ try $0.revokeServiceAccount(keyID: account.keyID, at: SystemTimeSource().nowSeconds) })
        else { throw StartupError("no live service account \(nameOrEmail)") }
        print("Revoked \(account.email) (key \(account.keyID)): its access tokens are refused from now on.")
    }

    /// Writes `data` to a new file at `path` that only its owner may read, refusing to replace anything.
    private static func writeOwnerOnly(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
        guard descriptor >= 0 else {
            throw StartupError("cannot create key file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count else {
            unlink(path)
            throw StartupError("cannot write key file \(path): \(String(cString: strerror(errno)))")
        }
    }

    private static func timestamp(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds))
            .formatted(Date.ISO8601FormatStyle().year().month().day().time(includingFractionalSeconds: false))
    }
}
