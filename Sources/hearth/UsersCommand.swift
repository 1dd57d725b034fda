import Foundation
import HearthCommandLine
import HearthCore
import HearthProtocol
import HearthSQLite

/// `hearth users show|disable|enable|revoke|delete UID`: operator actions on one account, applied to
/// the data directory's store (a running server sees them on its next request).
enum UsersCommand {
    static func run(_ arguments: [String]) throws {
        let options = try ParsedOptions(arguments, valued: Settings.storeOptions, switches: ["help"])
        if options.flags.contains("help") || options.positionals.isEmpty {
            print(Help.users)
            return
        }
        guard options.positionals.count == 2 else { throw UsageError("usage: hearth users <action> <uid>") }
        let (action, localID) = (options.positionals[0], options.positionals[1])
        guard ["show", "disable", "enable", "revoke", "delete"].contains(action) else {
            throw UsageError("unknown users action '\(action)' (show, disable, enable, revoke or delete)")
        }
        let settings = try Settings(options: options, environment: ProcessInfo.processInfo.environment)
        let store = try openStore(settings)
        defer { store.close() }
        let projectID = (try? settings.resolvedProjectID()) ?? Settings.developmentProjectID
        let platform = try IdentityPlatform(
            project: ProjectConfiguration(projectID: projectID, issuer: "", apiKeys: .only([]), googleClientIDs: []),
            store: store, googleIssuers: [])
        do {
            switch action {
            case "show":
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(platform.accounts.userRecord(localID: localID)), as: UTF8.self))
            case "disable":
                try platform.accounts.setDisabled(localID: localID, true)
                print("Disabled \(localID): it can no longer sign in or refresh tokens.")
            case "enable":
                try platform.accounts.setDisabled(localID: localID, false)
                print("Enabled \(localID).")
            case "revoke":
                try platform.accounts.revokeSessions(localID: localID)
                print("Revoked every session of \(localID): its refresh tokens now answer TOKEN_EXPIRED.")
            default:
                try platform.accounts.deleteAccount(localID: localID)
                print("Deleted \(localID).")
            }
        } catch let error as WireError where error.code == .userNotFound {
            throw StartupError("no user with uid \(localID)")
        }
    }
}
