public import Foundation
public import HearthProtocol

extension AdminAuth {
    /// The project's Identity Platform tenants (firebase-admin's `tenant_mgt` / `auth.tenantManager()`).
    public var tenantManager: TenantManager { TenantManager(auth: self) }
}

/// Creates, reads, updates, deletes and lists the project's tenants (`/v2/projects/<p>/tenants…`), and gives an
/// ``AdminAuth`` that acts in one of them.
///
/// ```swift
/// let acme = try await auth.tenantManager.createTenant(TenantProperties(displayName: "Acme", allowPasswordSignup: true))
/// let acmeAuth = try auth.tenantManager.auth(forTenant: acme.tenantID)
/// let user = try await acmeAuth.createUser(UserChanges(email: "ada@acme.example"))
/// ```
public struct TenantManager: Sendable {
    /// The most tenants one page of ``listTenantsPage(pageSize:pageToken:)`` holds.
    public static let maximumPageSize = 1000

    let auth: AdminAuth

    /// A client acting in the tenant `tenantID`: its user calls go to `/v1/projects/<p>/tenants/<t>/accounts…`, it
    /// accepts only that tenant's ID tokens and session cookies (`.tenantIDMismatch` otherwise), and its custom
    /// tokens carry `tenant_id`.
    ///
    /// - Throws: ``HearthAdminError`` `.invalidTenantID` for an empty id or one with characters other than
    ///   letters, digits and hyphens.
    public func auth(forTenant tenantID: String) throws(HearthAdminError) -> AdminAuth {
        try Self.checkID(tenantID)
        return auth.scoped(toTenant: tenantID)
    }

    /// The tenant `id`.
    ///
    /// - Throws: ``HearthAdminError``: `.tenantNotFound`, `.invalidTenantID`, …
    public func tenant(id: String) async throws(HearthAdminError) -> Tenant {
        try Self.checkID(id)
        return try Tenant(wire: try await auth.backend.configuration("GET", "/tenants/\(id)", as: JSONValue.self))
    }

    /// Creates a tenant; Hearth makes its id from the display name (`acme-x4k2q`).
    ///
    /// - Throws: ``HearthAdminError``: `.invalidDisplayName` (4–20 letters, digits and hyphens, a letter first),
    ///   `.invalidArgument`, …
    public func createTenant(_ properties: TenantProperties) async throws(HearthAdminError) -> Tenant {
        try Tenant(wire: try await auth.backend.configuration("POST", "/tenants", body: properties.wire, as: JSONValue.self))
    }

    /// Sets the properties `properties` gives (those left nil stay as they are).
    ///
    /// - Throws: ``HearthAdminError``: `.tenantNotFound`, `.invalidArgument` when `properties` sets nothing, …
    public func updateTenant(id: String, _ properties: TenantProperties) async throws(HearthAdminError) -> Tenant {
        try Self.checkID(id)
        guard case .object(let fields) = properties.wire, !fields.isEmpty else {
            throw HearthAdminError(.invalidArgument, message: "a tenant update must set at least one property")
        }
        let mask = fields.keys.sorted().joined(separator: ",")
        return try Tenant(
            wire: try await auth.backend.configuration(
                "PATCH", "/tenants/\(id)", query: [("updateMask", mask)], body: properties.wire, as: JSONValue.self))
    }

    /// Deletes the tenant with its users, sessions and codes.
    ///
    /// - Throws: ``HearthAdminError``: `.tenantNotFound`, `.invalidTenantID`, …
    public func deleteTenant(id: String) async throws(HearthAdminError) {
        try Self.checkID(id)
        _ = try await auth.backend.configuration("DELETE", "/tenants/\(id)", as: JSONValue.self)
    }

    /// One page of tenants in id order.
    ///
    /// - Parameters:
    ///   - pageSize: 1…``maximumPageSize``.
    ///   - pageToken: the previous page's ``ListTenantsPage/nextPageToken``; nil for the first page.
    /// - Throws: ``HearthAdminError``: `.invalidArgument` for a page size out of range, `.invalidPageToken`, …
    public func listTenantsPage(pageSize: Int = maximumPageSize, pageToken: String? = nil) async throws(HearthAdminError)
        -> ListTenantsPage
    {
        guard (1...Self.maximumPageSize).contains(pageSize) else {
            throw HearthAdminError(.invalidArgument, message: "pageSize must be between 1 and \(Self.maximumPageSize)")
        }
        var query = [("pageSize", String(pageSize))]
        if let pageToken {
            guard !pageToken.isEmpty else { throw HearthAdminError(.invalidPageToken, message: "the page token is empty") }
            query.append(("pageToken", pageToken))
        }
        let reply = try await auth.backend.configuration("GET", "/tenants", query: query, as: JSONValue.self)
        var tenants: [Tenant] = []
        for wire in reply["tenants"]?.arrayValue ?? [] { tenants.append(try Tenant(wire: wire)) }
        let next = reply["nextPageToken"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        return ListTenantsPage(tenants: tenants, nextPageToken: next)
    }

    /// Tenant ids are letters, digits and hyphens (checked before sending, so an id never changes the path).
    static func checkID(_ id: String) throws(HearthAdminError) {
        guard !id.isEmpty, id.count <= 128,
            id.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "-" || CharacterSet.alphanumerics.contains($0)) })
        else {
            throw HearthAdminError(.invalidTenantID, message: "a tenant id is 1 to 128 letters, digits and hyphens")
        }
    }
}

/// One page of ``TenantManager/listTenantsPage(pageSize:pageToken:)``.
public struct ListTenantsPage: Sendable, Equatable {
    /// The tenants of this page, in id order.
    public let tenants: [Tenant]
    /// The token of the next page; nil after the last.
    public let nextPageToken: String?
}
