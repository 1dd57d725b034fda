import Foundation
public import HearthCore

/// Provider configurations made through the admin API (`provider_configs`): scoped, by kind and provider id. The
/// client secret is sealed (`SecretField.providerConfigSecret`); a SAML entry's settings are JSON text
/// (`saml_config`, nothing secret: entity ids, URLs, public certificates).
extension SQLCatalogue {
    /// In `StoredRow.providerConfig(sealer:)`'s order; each is also the name of its bind (`ProviderConfigRecord.binds`).
    static let providerConfigColumns = [
        "kind", "provider_id", "display_name", "enabled", "client_id", "issuer", "client_secret", "id_token_response",
        "code_response", "created_at_millis", "updated_at_millis", "saml_config",
    ]
    private static func providerConfigSelect(_ d: SQLDialect) -> String {
        "SELECT \(list(providerConfigColumns)) FROM provider_configs WHERE tenant_id = \(d.scope) AND kind = :kind"
    }
    static let providerConfigByID = SQLStatement { d in "\(providerConfigSelect(d)) AND provider_id = :provider_id" }
    static let providerConfigsFirst = SQLStatement { d in
        "\(providerConfigSelect(d)) ORDER BY provider_id LIMIT :limit"
    }
    static let providerConfigsAfter = SQLStatement { d in
        "\(providerConfigSelect(d)) AND provider_id > :after ORDER BY provider_id LIMIT :limit"
    }
    static let insertProviderConfig = SQLStatement { d in
        "INSERT INTO provider_configs (tenant_id, \(list(providerConfigColumns))) "
            + "VALUES (\(d.scope), \(binds(providerConfigColumns)))"
    }
    static let updateProviderConfig = SQLStatement { d in
        "UPDATE provider_configs SET \(assignments(providerConfigColumns.dropFirst(2))) "
            + "WHERE tenant_id = \(d.scope) AND kind = :kind AND provider_id = :provider_id"
    }
    static let deleteProviderConfig = SQLStatement { d in
        "DELETE FROM provider_configs WHERE tenant_id = \(d.scope) AND kind = :kind AND provider_id = :provider_id"
    }

    static let providerConfigLookups: [(name: String, statement: SQLStatement)] = [
        ("providerConfigByID", providerConfigByID), ("providerConfigsAfter", providerConfigsAfter),
        ("updateProviderConfig", updateProviderConfig), ("deleteProviderConfig", deleteProviderConfig),
    ]
}

extension StoredRow {
    /// The columns of `SQLCatalogue.providerConfigColumns`, in order; the client secret opened with `sealer`.
    public func providerConfig(sealer: any SecretSealer) throws -> ProviderConfigRecord {
        guard let kind = ProviderConfigRecord.Kind(rawValue: try requiredText(0)) else {
            throw StoreError(.corrupt, "provider configuration of an unknown kind")
        }
        let id = try requiredText(1)
        let secret = try bytes(6).map {
            String(decoding: try sealer.open($0, for: .providerConfigSecret(kind: kind, id: id)), as: UTF8.self)
        }
        return ProviderConfigRecord(
            kind: kind, id: id, displayName: text(2), enabled: try requiredBool(3), clientID: text(4), issuer: text(5),
            clientSecret: secret, idTokenResponse: try requiredBool(7), codeResponse: try requiredBool(8),
            saml: try text(11).map(Self.samlSettings), createdAtMillis: try requiredInt64(9),
            updatedAtMillis: try requiredInt64(10))
    }

    static func samlSettings(_ text: String) throws -> SAMLProviderSettings {
        do {
            return try JSONDecoder().decode(SAMLProviderSettings.self, from: Data(text.utf8))
        } catch {
            throw StoreError(.corrupt, "a SAML provider configuration that is not its JSON")
        }
    }
}

extension SQLStoreSession {
    /// The binds of `config`, its client secret sealed.
    func binds(of config: ProviderConfigRecord) throws -> SQLBinds {
        [
            "kind": .text(config.kind.rawValue), "provider_id": .text(config.id),
            "display_name": SQLValue(config.displayName), "enabled": .bool(config.enabled),
            "client_id": SQLValue(config.clientID), "issuer": SQLValue(config.issuer),
            "client_secret": try sealed(config.clientSecret.map { Array($0.utf8) }, config.secretField),
            "id_token_response": .bool(config.idTokenResponse), "code_response": .bool(config.codeResponse),
            "created_at_millis": .integer(config.createdAtMillis), "updated_at_millis": .integer(config.updatedAtMillis),
            "saml_config": SQLValue(try config.saml.map(Self.samlJSON)),
        ]
    }

    static func samlJSON(_ settings: SAMLProviderSettings) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(settings), as: UTF8.self)
    }
}

extension SQLStoreReading {
    public func providerConfig(kind: ProviderConfigRecord.Kind, id: String) throws -> ProviderConfigRecord? {
        try run("providerConfig(kind:id:)") {
            try queryFirst(SQLCatalogue.providerConfigByID, ["kind": .text(kind.rawValue), "provider_id": .text(id)]) {
                try $0.providerConfig(sealer: sealer)
            }
        }
    }

    public func providerConfigs(kind: ProviderConfigRecord.Kind, after id: String?, limit: Int) throws
        -> [ProviderConfigRecord]
    {
        try run("providerConfigs(kind:after:limit:)") {
            var binds: SQLBinds = ["kind": .text(kind.rawValue), "limit": .integer(Int64(max(1, limit)))]
            guard let id else {
                return try query(SQLCatalogue.providerConfigsFirst, binds) { try $0.providerConfig(sealer: sealer) }
            }
            binds["after"] = .text(id)
            return try query(SQLCatalogue.providerConfigsAfter, binds) { try $0.providerConfig(sealer: sealer) }
        }
    }
}

extension SQLStoreWriting {
    public func insertProviderConfig(_ config: ProviderConfigRecord) throws {
        try run("insertProviderConfig") {
            try execute(SQLCatalogue.insertProviderConfig, try binds(of: config)) {
                $0.isTaken ? .duplicateProviderConfig : nil
            }
        }
    }

    public func updateProviderConfig(_ config: ProviderConfigRecord) throws {
        try run("updateProviderConfig") {
            guard try execute(SQLCatalogue.updateProviderConfig, try binds(of: config)) > 0 else {
                throw StoreError(.notFound)
            }
        }
    }

    @discardableResult
    public func deleteProviderConfig(kind: ProviderConfigRecord.Kind, id: String) throws -> Bool {
        try run("deleteProviderConfig") {
            try execute(SQLCatalogue.deleteProviderConfig, ["kind": .text(kind.rawValue), "provider_id": .text(id)]) > 0
        }
    }
}
