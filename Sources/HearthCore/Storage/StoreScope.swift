/// Whose records a store view reads and writes: the project itself (its default tenant) or one of its tenants.
///
/// Scoped record families: accounts (with their identities, MFA enrolments, emails and phone numbers), refresh
/// sessions (and legacy refresh-token rows), pending MFA sign-ins, verification sessions, email action codes, limit
/// counters and audit events. A lookup in one scope never finds a record of another, and the same email, provider
/// identity, uid or enrolment id may exist once in each scope. Project-wide, the same from every scope: signing
/// keys, service accounts, dev IdP accounts and grants, provider-token revocations, and the tenant records
/// themselves (`Tenant`). The SQL stores keep the scope in a `tenant_id` column, `''` for the project.
public struct StoreScope: Hashable, Sendable, CustomStringConvertible {
    /// What the SQL stores keep in `tenant_id`: `''` for the project, else the tenant's id.
    public let tenantID: String

    private init(unchecked tenantID: String) { self.tenantID = tenantID }

    /// The project itself, the default tenant: where every store opens.
    public static let project = StoreScope(unchecked: "")

    /// The longest tenant id accepted.
    public static let maximumTenantIDLength = 128

    /// The scope of the tenant `id`. Throws `StoreError` `.invalidScope` for an empty id or one longer than
    /// ``maximumTenantIDLength`` characters (Identity Platform's full rules for tenant ids are not checked here).
    public static func tenant(_ id: String) throws -> StoreScope {
        guard !id.isEmpty, id.count <= maximumTenantIDLength else {
            throw StoreError(.invalidScope, "a tenant id has 1 to \(maximumTenantIDLength) characters")
        }
        return StoreScope(unchecked: id)
    }

    /// The scope a stored `tenant_id` names (for the stores' own use: stored ids were checked when stored).
    public init(storedTenantID: String) { self.init(unchecked: storedTenantID) }

    /// Whether this is the project itself rather than one of its tenants.
    public var isProject: Bool { tenantID.isEmpty }

    /// The tenant's id; nil for the project itself (as tokens name it: `firebase.tenant`, a custom token's
    /// `tenant_id`).
    public var tenant: String? { isProject ? nil : tenantID }

    public var description: String { isProject ? "project" : "tenant \(tenantID)" }

    /// Scopes in the order `StoreReader.scopes()` lists them: the project first, then tenants in byte order of their
    /// UTF-8 ids.
    public static func ordered(_ scopes: some Sequence<StoreScope>) -> [StoreScope] {
        scopes.sorted { $0.tenantID.utf8.lexicographicallyPrecedes($1.tenantID.utf8) }
    }
}
