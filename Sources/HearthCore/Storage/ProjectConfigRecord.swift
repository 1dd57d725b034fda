/// The configuration one scope was given through Identity Platform's config API (`/v2/projects/{p}/config`), as the
/// store keeps it: one record per scope (the project's now; a tenant's view keeps its own, so a tenant could use it
/// later). `settings` is the JSON text of the resource's wire object holding only what the API set
/// (`ProjectConfigRules` checks it before it is stored); the config file's settings are never stored here, they
/// are laid over it when it is read (`ProjectConfigService`).
public struct ProjectConfigRecord: Sendable, Equatable {
    /// JSON text of the object the API set (`{"signIn": {"anonymous": {"enabled": false}}, …}`).
    public var settings: String
    public var updatedAtMillis: Int64

    public init(settings: String, updatedAtMillis: Int64) {
        self.settings = settings
        self.updatedAtMillis = updatedAtMillis
    }
}
