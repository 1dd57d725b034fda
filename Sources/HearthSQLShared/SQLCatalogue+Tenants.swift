public import HearthCore

/// The project's tenants: project-wide records, by id (`tenant_id`, the value the scoped tables keep for the tenant's
/// records).
extension SQLCatalogue {
    /// In `StoredRow.tenant()`'s order; each is also the name of its bind (`Tenant.binds`).
    static let tenantColumns = [
        "tenant_id", "display_name", "allow_password_signup", "enable_email_link_signin", "disable_auth",
        "enable_anonymous_user", "mfa_config", "test_phone_numbers", "password_policy_config", "email_privacy_config",
        "created_at_millis", "updated_at_millis", "sms_region_config",
    ]
    private static let tenantSelect = "SELECT \(list(tenantColumns)) FROM tenants"
    static let tenantByID = SQLStatement { _ in "\(tenantSelect) WHERE tenant_id = :tenant_id" }
    static let tenantsFirst = SQLStatement { _ in "\(tenantSelect) ORDER BY tenant_id LIMIT :limit" }
    static let tenantsAfter = SQLStatement { _ in
        "\(tenantSelect) WHERE tenant_id > :after ORDER BY tenant_id LIMIT :limit"
    }
    static let insertTenant = SQLStatement { _ in
        "INSERT INTO tenants (\(list(tenantColumns))) VALUES (\(binds(tenantColumns)))"
    }
    static let updateTenant = SQLStatement { _ in
        "UPDATE tenants SET \(assignments(tenantColumns.dropFirst())) WHERE tenant_id = :tenant_id"
    }
    static let deleteTenant = SQLStatement { _ in "DELETE FROM tenants WHERE tenant_id = :tenant_id" }

    /// What a tenant's purge deletes before its accounts, a table at a time, at most `:limit` rows each (by key, so
    /// both engines run it as one statement); never in the project's scope (`tenant_id` `''`).
    static let scopeStateDeletions: [SQLStatement] = [
        ("refresh_sessions", "session_id"), ("oob_codes", "code_hash"), ("verification_sessions", "session_hash"),
        ("limit_counters", "key"), ("provider_configs", "provider_id"), ("saml_assertions", "assertion_key"),
    ].map { table, key in
        SQLStatement { d in
            """
            DELETE FROM \(table) WHERE tenant_id = \(d.scope) AND \(key) IN (
                SELECT \(key) FROM \(table) WHERE tenant_id = \(d.scope) AND \(d.scope) <> '' LIMIT :limit)
            """
        }
    }

    static let tenantLookups: [(name: String, statement: SQLStatement)] = [
        ("tenantByID", tenantByID), ("tenantsAfter", tenantsAfter), ("updateTenant", updateTenant),
        ("deleteTenant", deleteTenant),
    ]
}

extension Tenant {
    var binds: SQLBinds {
        [
            "tenant_id": .text(id), "display_name": SQLValue(displayName),
            "allow_password_signup": .bool(allowPasswordSignup), "enable_email_link_signin": .bool(enableEmailLinkSignin),
            "disable_auth": .bool(disableAuth), "enable_anonymous_user": .bool(enableAnonymousUser),
            "mfa_config": SQLValue(mfaConfig), "test_phone_numbers": SQLValue(testPhoneNumbers),
            "password_policy_config": SQLValue(passwordPolicyConfig), "email_privacy_config": SQLValue(emailPrivacyConfig),
            "created_at_millis": .integer(createdAtMillis), "updated_at_millis": .integer(updatedAtMillis),
            "sms_region_config": SQLValue(smsRegionConfig),
        ]
    }
}

extension StoredRow {
    /// The columns of `SQLCatalogue.tenantColumns`, in order.
    public func tenant() throws -> Tenant {
        Tenant(
            id: try requiredText(0), displayName: text(1), allowPasswordSignup: try requiredBool(2),
            enableEmailLinkSignin: try requiredBool(3), disableAuth: try requiredBool(4),
            enableAnonymousUser: try requiredBool(5), mfaConfig: text(6), testPhoneNumbers: text(7),
            passwordPolicyConfig: text(8), emailPrivacyConfig: text(9), smsRegionConfig: text(12),
            createdAtMillis: try requiredInt64(10), updatedAtMillis: try requiredInt64(11))
    }
}

extension SQLStoreReading {
    public func tenant(id: String) throws -> Tenant? {
        try run("tenant(id:)") { try queryFirst(SQLCatalogue.tenantByID, ["tenant_id": .text(id)]) { try $0.tenant() } }
    }

    public func tenants(after id: String?, limit: Int) throws -> [Tenant] {
        try run("tenants(after:limit:)") {
            let limit = SQLValue.integer(Int64(max(1, limit)))
            guard let id else { return try query(SQLCatalogue.tenantsFirst, ["limit": limit]) { try $0.tenant() } }
            return try query(SQLCatalogue.tenantsAfter, ["after": .text(id), "limit": limit]) { try $0.tenant() }
        }
    }
}

extension SQLStoreWriting {
    public func insertTenant(_ tenant: Tenant) throws {
        try run("insertTenant") {
            try execute(SQLCatalogue.insertTenant, tenant.binds) { $0.isTaken ? .duplicateTenant : nil }
        }
    }

    public func updateTenant(_ tenant: Tenant) throws {
        try run("updateTenant") {
            guard try execute(SQLCatalogue.updateTenant, tenant.binds) > 0 else { throw StoreError(.notFound) }
        }
    }

    @discardableResult
    public func deleteTenant(id: String) throws -> Bool {
        try run("deleteTenant") {
            try execute(SQLCatalogue.deleteTenant, ["tenant_id": .text(id)]) > 0
        }
    }

    @discardableResult
    public func deleteScopeState(limit: Int) throws -> Int {
        try run("deleteScopeState") {
            let limit = max(1, limit)
            var deleted = 0
            for statement in SQLCatalogue.scopeStateDeletions where deleted < limit {
                deleted += try execute(statement, ["limit": .integer(Int64(limit - deleted))])
            }
            return deleted
        }
    }
}
