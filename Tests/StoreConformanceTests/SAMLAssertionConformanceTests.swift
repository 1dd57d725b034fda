import Foundation
import HearthCore
@testable import HearthSQLite
@testable import SQLite
import Testing

/// The SAML replay store and SAML provider configurations, proved on each `StoreKind`: an assertion id is recorded once
/// per scope and provider (the second use is a replay), concurrent first uses let exactly one through, expired ids are
/// purged oldest first in batches in every scope; a SAML configuration's settings round-trip. And SQLite's migration 15
/// keeps the configurations it rebuilds its table with.
@Suite("Store conformance: SAML assertions and configurations")
struct SAMLAssertionConformanceTests {
    @Test("an assertion id is recorded once per scope and provider; a second use is refused", arguments: StoreKind.allCases)
    func replays(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(try store.write { try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: "_1", expiresAtMillis: 500) })
            #expect(try store.write { try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: "_1", expiresAtMillis: 900) }
                == false, "a replay")
            #expect(try store.write { try $0.insertSAMLAssertion(providerID: "saml.b", assertionID: "_1", expiresAtMillis: 500) },
                    "another provider's id")
            let tenant = store.scoped(to: try .tenant("t-1"))
            #expect(try tenant.write { try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: "_1", expiresAtMillis: 500) },
                    "another scope's")
            #expect(try tenant.write { try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: "_1", expiresAtMillis: 500) }
                == false)
        }
    }

    @Test("concurrent first uses of one assertion: exactly one is recorded", arguments: StoreKind.allCases)
    func concurrentFirstUses(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let results = Results()
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let first = try? store.write {
                    try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: "_raced", expiresAtMillis: 500)
                }
                results.add(first)
            }
            #expect(results.values.filter { $0 == true }.count == 1, "\(results.values)")
        }
    }

    @Test("expired ids are purged oldest first, in batches, in every scope; live ones stay", arguments: StoreKind.allCases)
    func purge(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let tenant = store.scoped(to: try .tenant("t-1"))
            try store.write { writer throws in
                for index in 0..<3 {
                    _ = try writer.insertSAMLAssertion(providerID: "saml.a", assertionID: "_p\(index)", expiresAtMillis: Int64(100 + index))
                }
            }
            _ = try tenant.write { try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: "_t", expiresAtMillis: 101) }
            _ = try tenant.write { try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: "_live", expiresAtMillis: 10_000) }
            #expect(try store.write { try $0.deleteExpiredSAMLAssertions(before: 200, limit: 2) } == 2)
            #expect(try store.write { try $0.deleteExpiredSAMLAssertions(before: 200, limit: 10) } == 2)
            #expect(try store.write { try $0.deleteExpiredSAMLAssertions(before: 200, limit: 10) } == 0)
            // Purged ids can be recorded again (they had expired); the live one is still a replay.
            #expect(try store.write { try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: "_p0", expiresAtMillis: 300) })
            #expect(try tenant.write { try $0.insertSAMLAssertion(providerID: "saml.a", assertionID: "_live", expiresAtMillis: 10_000) }
                == false)
        }
    }

    static func samlConfig(_ id: String) -> ProviderConfigRecord {
        ProviderConfigRecord(
            kind: .saml, id: id, displayName: "IdP \(id)", enabled: true,
            saml: SAMLProviderSettings(
                idpEntityID: "https://idp.example/\(id)", ssoURL: "https://idp.example/sso", signRequest: true,
                idpCertificates: ["-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n", "second"],
                spEntityID: "https://sp.example", callbackURI: "https://sp.example/__/auth/handler"),
            createdAtMillis: 10, updatedAtMillis: 11)
    }

    @Test("a SAML configuration round-trips with its settings, kept apart from the other kinds", arguments: StoreKind.allCases)
    func samlConfigs(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try store.write { writer throws in
                try writer.insertProviderConfig(Self.samlConfig("saml.b"))
                try writer.insertProviderConfig(Self.samlConfig("saml.a"))
            }
            #expect(try store.read { try $0.providerConfig(kind: .saml, id: "saml.a") } == Self.samlConfig("saml.a"))
            #expect(try store.read { try $0.providerConfigs(kind: .saml, after: nil, limit: 10) }.map(\.id) == ["saml.a", "saml.b"])
            #expect(try store.read { try $0.providerConfigs(kind: .oauth, after: nil, limit: 10) } == [])
            var changed = Self.samlConfig("saml.a")
            changed.saml?.idpCertificates = ["only"]
            changed.saml?.signRequest = false
            try store.write { try $0.updateProviderConfig(changed) }
            #expect(try store.read { try $0.providerConfig(kind: .saml, id: "saml.a") } == changed)
        }
    }

    @Test("SQLite migration 15 rebuilds provider_configs keeping its rows, and takes SAML configurations")
    func sqliteMigration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/v14.sqlite"
        do {
            var upTo14 = SQLiteMigrator()
            for migration in Schema.migrator.migrations.prefix(14) {
                upTo14.register(migration.version, migration.name, migration.apply)
            }
            let connection = try SQLiteConnection(path: path)
            _ = try upTo14.migrate(connection)
            try connection.executeScript(
                """
                INSERT INTO provider_configs (tenant_id, kind, provider_id, display_name, enabled, client_id, issuer,
                    client_secret, id_token_response, code_response, created_at_millis, updated_at_millis)
                VALUES ('', 'oauth', 'oidc.kept', 'Kept', 1, 'client', 'https://issuer.example', NULL, 1, 0, 5, 6);
                """)
        }
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        #expect(
            try store.read { try $0.providerConfig(kind: .oauth, id: "oidc.kept") }
                == ProviderConfigRecord(
                    kind: .oauth, id: "oidc.kept", displayName: "Kept", enabled: true, clientID: "client",
                    issuer: "https://issuer.example", idTokenResponse: true, createdAtMillis: 5, updatedAtMillis: 6))
        try store.write { try $0.insertProviderConfig(Self.samlConfig("saml.new")) }
        #expect(try store.read { try $0.providerConfig(kind: .saml, id: "saml.new") } == Self.samlConfig("saml.new"))
        #expect(try store.write { try $0.insertSAMLAssertion(providerID: "saml.new", assertionID: "_1", expiresAtMillis: 1) })
    }
}

/// What concurrent bodies answered.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Bool?] = []

    func add(_ value: Bool?) { lock.withLock { stored.append(value) } }
    var values: [Bool?] { lock.withLock { stored } }
}
