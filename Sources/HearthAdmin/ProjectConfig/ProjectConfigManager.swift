public import HearthProtocol

extension AdminAuth {
    /// The project's configuration (Node's `auth.projectConfigManager()`): `/v2/projects/<p>/config`. The project's
    /// even from a tenant's ``AdminAuth``: tenants keep their settings in their tenant (``TenantManager``).
    public var projectConfigManager: ProjectConfigManager { ProjectConfigManager(auth: self) }
}

/// Reads and changes the project configuration (`GET` and `PATCH /v2/projects/<p>/config`): the sign-in switches,
/// MFA, the password policy, email privacy, authorized domains, the SMS region policy, the action URL and the email
/// templates, in the resource's own JSON shape.
///
/// ```swift
/// let manager = auth.projectConfigManager
/// _ = try await manager.updateProjectConfig(["signIn": ["anonymous": ["enabled": false]]])
/// let config = try await manager.projectConfig()   // config["signIn"]?["anonymous"]?["enabled"] == false
/// ```
public struct ProjectConfigManager: Sendable {
    let auth: AdminAuth

    /// The effective configuration, as the server answers it: the config file's settings over what was set through
    /// the API over the defaults, with its `name`.
    ///
    /// - Throws: ``HearthAdminError``: `.insufficientPermission`, `.networkError`, …
    public func projectConfig() async throws(HearthAdminError) -> JSONValue {
        try await auth.backend.configuration("GET", "/config", as: JSONValue.self)
    }

    /// Sets every field `changes` gives, named in the `updateMask` by its leaf paths as Node's `updateProjectConfig`
    /// names them (objects down to their members, arrays whole); the fields it leaves out stay as they are. Answers
    /// the effective configuration.
    ///
    /// - Throws: ``HearthAdminError``: `.invalidConfig` (an unknown field, a value it cannot take),
    ///   `.operationNotAllowed` (a field the server's config file declares), `.invalidArgument` when `changes` sets
    ///   nothing, …
    public func updateProjectConfig(_ changes: [String: JSONValue]) async throws(HearthAdminError) -> JSONValue {
        let paths = Self.leafPaths(of: changes, prefix: "")
        guard !paths.isEmpty else {
            throw HearthAdminError(.invalidArgument, message: "a configuration update must set at least one field")
        }
        return try await auth.backend.configuration(
            "PATCH", "/config", query: [("updateMask", paths.joined(separator: ","))], body: .object(changes),
            as: JSONValue.self)
    }

    /// The paths of `object`'s leaves, sorted: a member that is a non-empty object is followed into, anything else
    /// (an array, a value, an empty object) is a leaf.
    static func leafPaths(of object: [String: JSONValue], prefix: String) -> [String] {
        object.keys.sorted().flatMap { key -> [String] in
            let path = prefix + key
            if case .object(let members) = object[key], !members.isEmpty { return leafPaths(of: members, prefix: path + ".") }
            return [path]
        }
    }
}
