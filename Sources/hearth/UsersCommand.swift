import Foundation
import HearthCommandLine
import HearthCore
import HearthProtocol

/// `hearth users …`: operator actions on the accounts of the data directory's store, through the admin
/// service's rules (a running server sees the changes on its next request).
enum UsersCommand {
    /// One `users` action: the positional arguments it takes after its name and the options it accepts.
    enum Action: String, CaseIterable {
        case show, disable, enable, revoke, delete, list, find, create
        case setClaims = "set-claims"
        case removeFactor = "remove-factor"
        case `import`, export

        var arguments: [String] {
            switch self {
            case .show, .disable, .enable, .revoke, .delete: ["UID"]
            case .list, .find, .create, .export: []
            case .setClaims: ["UID", "CLAIMS-JSON"]
            case .removeFactor: ["UID", "ENROLLMENT-ID"]
            case .import: ["FILE.json"]
            }
        }

        var options: Set<String> {
            switch self {
            case .list: ["limit", "json"]
            case .find: ["email", "phone"]
            case .create: ["uid", "email", "phone", "name", "photo", "email-verified", "disabled"]
            case .export: ["out"]
            case .import: UsersImport.hashOptionNames
            default: []
            }
        }

        /// Refuses option values the action cannot use (usage errors, before the data directory is opened).
        func checkValues(_ options: ParsedOptions) throws {
            switch self {
            case .list:
                if let limit = options.values["limit"], (Int(limit) ?? 0) <= 0 {
                    throw UsageError("--limit must be a positive whole number")
                }
            case .find:
                guard (options.values["email"] == nil) != (options.values["phone"] == nil) else {
                    throw UsageError("usage: hearth users find --email E | --phone P")
                }
            case .import:
                _ = try UsersImport.hashOptions(from: options)
            default: break
            }
        }

        static let valuedOptions = Set(["limit", "email", "phone", "uid", "name", "photo", "out", "tenant"])
            .union(UsersImport.hashOptionNames)
        static let switches: Set<String> = ["json", "email-verified", "disabled"]
    }

    static func run(_ arguments: [String]) throws {
        let options = try ParsedOptions(
            arguments, valued: Settings.storeOptions.union(Action.valuedOptions),
            switches: Action.switches.union(["help"]))
        if options.flags.contains("help") || options.positionals.isEmpty {
            print(Help.users)
            return
        }
        guard let action = Action(rawValue: options.positionals[0]) else {
            let names = Action.allCases.map(\.rawValue).joined(separator: ", ")
            throw UsageError("unknown users action '\(options.positionals[0])' (\(names))")
        }
        let given = options.positionals.dropFirst()
        guard given.count == action.arguments.count else {
            throw UsageError("usage: hearth users \(([action.rawValue] + action.arguments).joined(separator: " "))")
        }
        if let stray = Set(options.values.keys).union(options.flags).subtracting(Settings.storeOptions)
            .subtracting(action.options).subtracting(["tenant"]).sorted().first
        {
            throw UsageError("option '--\(stray)' is not for 'users \(action.rawValue)'")
        }
        try action.checkValues(options)
        let settings = try Settings(options: options, environment: ProcessInfo.processInfo.environment)
        let store = try openStore(settings)
        defer { store.close() }
        let platform = try settings.commandLinePlatform(store: try tenantStore(store, options.values["tenant"], settings))
        let users = UserAdministration(platform: platform, options: options)
        let uid = given.first ?? ""
        switch action {
        case .show, .disable, .enable, .revoke, .delete: try users.accountAction(action, localID: uid)
        case .list: try users.list()
        case .find: try users.find()
        case .create: try users.create()
        case .setClaims: try users.setClaims(localID: uid, claims: given.last ?? "")
        case .removeFactor: try users.removeFactor(localID: uid, enrollmentID: given.last ?? "")
        case .import: try UsersImport(admin: platform.admin, hashOptions: try UsersImport.hashOptions(from: options)).run(path: uid)
        case .export: try UsersExport(admin: platform.admin).run(out: options.values["out"])
        }
    }
}

extension UsersCommand {
    /// `store` in the scope of `--tenant`, which must name an existing tenant; `store` itself without the option.
    static func tenantStore(_ store: any HearthStore, _ tenantID: String?, _ settings: Settings) throws -> any HearthStore {
        guard let tenantID else { return store }
        do {
            _ = try settings.commandLinePlatform(store: store).tenants.tenant(id: tenantID)
            return store.scoped(to: try .tenant(tenantID))
        } catch let error as WireError {
            throw UsageError("--tenant \(tenantID): \(error.detail ?? error.code.rawValue)")
        }
    }
}

extension Settings {
    /// The services a command-line operator's command (`hearth users`, `hearth tenants`) acts through, on `store`: the
    /// configured project (the development one without a configuration), its password hasher (verifying imported
    /// hashes too) and audit settings; no providers, senders or API keys.
    func commandLinePlatform(store: any HearthStore) throws -> IdentityPlatform {
        let projectID = (try? resolvedProjectID()) ?? Settings.developmentProjectID
        var configuration = IdentityPlatform.Configuration(
            project: ProjectConfiguration(projectID: projectID, issuer: "", apiKeys: .only([]), googleClientIDs: []),
            passwords: try passwords.hasher(importedVerifiers: [ImportedPasswordHashVerifier()]))
        configuration.audit = audit
        return try IdentityPlatform(configuration, store: store)
    }
}
