import Foundation
import HearthCommandLine
import HearthCore
import HearthProtocol

/// `hearth tenants list|create|get|delete`: the project's Identity Platform tenants in the data directory's store,
/// through the tenant service's rules (the same as the `/v2/projects/{p}/tenants` API), as the command line's
/// operator (``Caller/commandLine``).
enum TenantsCommand {
    static let switches: Set<String> = ["json", "allow-password-signup", "enable-email-link-signin"]

    static func run(_ arguments: [String]) throws {
        let options = try ParsedOptions(arguments, valued: Settings.storeOptions, switches: switches.union(["help"]))
        if options.flags.contains("help") || options.positionals.isEmpty {
            print(Help.tenants)
            return
        }
        let subcommand = options.positionals[0]
        let argument = ["list": nil, "create": "DISPLAY-NAME", "get": "ID", "delete": "ID"] as [String: String?]
        guard let expected = argument[subcommand] else {
            throw UsageError("unknown tenants command '\(subcommand)' (list, create, get or delete)")
        }
        guard options.positionals.count == (expected == nil ? 1 : 2) else {
            throw UsageError("usage: hearth tenants \(subcommand)\(expected.map { " \($0)" } ?? "")")
        }
        let allowed: Set<String> = switch subcommand {
        case "list": ["json"]
        case "create": ["allow-password-signup", "enable-email-link-signin"]
        default: []
        }
        if let stray = options.flags.intersection(switches).subtracting(allowed).sorted().first {
            throw UsageError("option '--\(stray)' is not for 'tenants \(subcommand)'")
        }
        let settings = try Settings(options: options, environment: ProcessInfo.processInfo.environment)
        let store = try openStore(settings)
        defer { store.close() }
        let tenants = try settings.commandLinePlatform(store: store).tenants
        let given = options.positionals.count > 1 ? options.positionals[1] : ""
        do {
            switch subcommand {
            case "list": try list(tenants, json: options.flags.contains("json"))
            case "create":
                let created = try tenants.create(
                    TenantFields(
                        displayName: given,
                        allowPasswordSignup: options.flags.contains("allow-password-signup") ? true : nil,
                        enableEmailLinkSignin: options.flags.contains("enable-email-link-signin") ? true : nil),
                    by: .commandLine)
                print("Created tenant \(id(of: created)) (\(given)).")
            case "get": print(json(try tenants.get(id: given), pretty: true))
            default:
                try tenants.delete(id: given, by: .commandLine)
                print("Deleted tenant \(given).")
            }
        } catch let error as WireError {
            throw StartupError(error.code == .tenantNotFound ? "no tenant with id \(given)" : error.message)
        }
    }

    /// Every tenant by id, a page of 1,000 at a time: a table, or one JSON object a line.
    private static func list(_ tenants: TenantService, json asJSON: Bool) throws {
        func column(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        var token: String?
        var first = true
        repeat {
            let page = try tenants.list(ListTenantsRequest(pageSize: ListTenantsRequest.pageSizeRange.upperBound, pageToken: token))
            let width = max(page.tenants.map { id(of: $0).count }.max() ?? 0, 2) + 2
            if first && !asJSON { print(column("ID", width) + column("DISPLAY NAME", 22) + "SIGN-IN") }
            first = false
            for tenant in page.tenants {
                if asJSON {
                    print(json(tenant, pretty: false))
                    continue
                }
                let settings = tenant.settings
                var methods = [
                    settings.allowPasswordSignup == true ? "password" : nil,
                    settings.enableEmailLinkSignin == true ? "email-link" : nil,
                    settings.enableAnonymousUser == true ? "anonymous" : nil,
                ].compactMap { $0 }
                if settings.disableAuth == true { methods = ["disabled"] }
                print(column(id(of: tenant), width) + column(settings.displayName ?? "", 22)
                    + (methods.isEmpty ? "-" : methods.joined(separator: ",")))
            }
            token = page.nextPageToken
        } while token != nil
    }

    private static func id(of tenant: TenantResponse) -> String { String(tenant.name.split(separator: "/").last ?? "") }

    private static func json(_ tenant: TenantResponse, pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(tenant)) ?? Data(), as: UTF8.self)
    }
}
