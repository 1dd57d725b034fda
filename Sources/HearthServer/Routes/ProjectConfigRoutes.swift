import Foundation
import HearthCore
import HearthHTTP
import HearthProtocol

/// Identity Platform's project configuration API: `GET` and `PATCH …/v2/projects/{project}/config` (with
/// `updateMask`), as Go's `GetProjectConfig`/`UpdateProjectConfig` and Node's `projectConfigManager()` call it; in
/// development also the emulator's `…/emulator/v1/projects/{project}/config` (its fields: `signIn`,
/// `blockingFunctions`, `emailPrivacyConfig`). Behind the admin edge, like the tenant API.
struct ProjectConfigRoutes {
    let platform: IdentityPlatform
    let edge: Edge
    let development: Bool

    static let path = "\(IdentityToolkitRoutes.v2)/projects/{project}/config"
    static let emulatorPath = "/emulator/v1/projects/{project}/config"

    func register(in router: inout Router) {
        let config = platform.projectConfig
        let admin = edge.admin
        router.add(.get, Self.path, admin.handler { _ in Responses.json(try config.get()) })
        router.add(.patch, Self.path, admin.handler { request in
            let fields = try RequestFields(json: request.body).values
            let mask = try ProviderConfigRoutes.query(request).string("updateMask")
            return Responses.json(try config.update(fields, updateMask: mask, by: try request.administrator()))
        })
        guard development else { return }
        router.add(.get, Self.emulatorPath, admin.handler { _ in Responses.json(Self.emulatorShape(try config.get())) })
        router.add(.patch, Self.emulatorPath, admin.handler { request in
            var fields = try RequestFields(json: request.body).values
            let named = try ProviderConfigRoutes.query(request).string("updateMask").map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            }
            // Hearth runs no blocking functions: an empty setting is what it has, anything else is refused.
            let functions = fields.removeValue(forKey: "blockingFunctions")
            if let functions, !Self.isEmpty(functions) {
                throw WireError(.invalidConfig, "Hearth runs no blocking functions (blockingFunctions).")
            }
            let isFunctions = { (path: String) in path == "blockingFunctions" || path.hasPrefix("blockingFunctions.") }
            let kept = named?.filter { !isFunctions($0) }
            // Only the (empty) blocking functions named: nothing to change.
            if functions != nil || named?.contains(where: isFunctions) == true, kept?.isEmpty ?? fields.isEmpty {
                return Responses.json(Self.emulatorShape(try config.get()))
            }
            let updated = try config.update(
                fields, updateMask: kept?.joined(separator: ","), by: try request.administrator())
            return Responses.json(Self.emulatorShape(updated))
        })
    }

    /// The emulator's fields of a configuration: `signIn.allowDuplicateEmails`, `blockingFunctions` (none),
    /// `emailPrivacyConfig`.
    static func emulatorShape(_ config: [String: JSONValue]) -> [String: JSONValue] {
        [
            "signIn": ["allowDuplicateEmails": ProjectConfigRules.value(in: config, at: "signIn.allowDuplicateEmails") ?? false],
            "blockingFunctions": [:],
            "emailPrivacyConfig": config["emailPrivacyConfig"] ?? [:],
        ]
    }

    private static func isEmpty(_ value: JSONValue) -> Bool {
        switch value {
        case .null: true
        case .object(let members): members.values.allSatisfy(isEmpty)
        case .array(let items): items.isEmpty
        default: false
        }
    }
}
