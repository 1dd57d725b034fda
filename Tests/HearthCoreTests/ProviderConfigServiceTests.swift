import Foundation
import HearthCore
import HearthProtocol
import Testing

@Suite("Provider configurations: Identity Platform's rules, the service, and sign-in through an API-made provider")
struct ProviderConfigServiceTests {
    private func fields(_ values: [String: JSONValue], _ kind: ProviderConfigRecord.Kind = .oauth) throws
        -> ProviderConfigFields
    {
        try ProviderConfigFields(fields: RequestFields(values), allowed: ProviderConfigService.allowedFields(kind))
    }

    private let oidc = ProviderConfigFields(clientId: "corp-client", issuer: "https://idp.example.com")

    @Test("provider ids: oidc.<name> for oauthIdpConfigs, google.com or apple.com for defaultSupportedIdpConfigs")
    func ids() throws {
        for good in ["oidc.corp", "oidc.a", "oidc.Corp-1_x.y", "oidc." + String(repeating: "a", count: 123)] {
            #expect(throws: Never.self) { try ProviderConfigRules.checkID(good, kind: .oauth) }
        }
        for bad in ["oidc.", "saml.corp", "corp", "oidc.a b", "oidc.é", "oidc.a/b", "OIDC.corp",
                    "oidc." + String(repeating: "a", count: 124)] {
            #expect(wireErrorCode { try ProviderConfigRules.checkID(bad, kind: .oauth) } == .invalidProviderID, "\(bad)")
        }
        #expect(wireErrorCode { try ProviderConfigRules.checkID("", kind: .oauth) } == .missingProviderID)
        for good in ["google.com", "apple.com"] {
            #expect(throws: Never.self) { try ProviderConfigRules.checkID(good, kind: .defaultSupported) }
        }
        for bad in ["facebook.com", "oidc.corp", "Google.com"] {
            #expect(wireErrorCode { try ProviderConfigRules.checkID(bad, kind: .defaultSupported) } == .invalidProviderID)
        }
    }

    @Test("configurations: clientId and issuer required, an https issuer, a response type, a secret for the code flow")
    func rules() throws {
        func record(_ change: (inout ProviderConfigRecord) -> Void) -> ProviderConfigRecord {
            var record = ProviderConfigRecord(
                kind: .oauth, id: "oidc.corp", clientID: "c", issuer: "https://idp.example.com", idTokenResponse: true,
                createdAtMillis: 0, updatedAtMillis: 0)
            change(&record)
            return record
        }
        #expect(throws: Never.self) { try ProviderConfigRules.check(record { _ in }) }
        #expect(throws: Never.self) { try ProviderConfigRules.check(record { $0.issuer = "http://127.0.0.1:9000/idp" }) }
        #expect(throws: Never.self) {
            try ProviderConfigRules.check(record { $0.codeResponse = true; $0.clientSecret = "s" })
        }
        let refused: [(ErrorCode, (inout ProviderConfigRecord) -> Void)] = [
            (.missingOAuthClientID, { $0.clientID = nil }), (.missingOAuthClientID, { $0.clientID = "" }),
            (.missingIssuer, { $0.issuer = nil }), (.invalidConfig, { $0.issuer = "http://idp.example.com" }),
            (.invalidConfig, { $0.issuer = "not a url" }), (.invalidConfig, { $0.issuer = "https://" }),
            (.invalidConfig, { $0.idTokenResponse = false }), (.invalidConfig, { $0.codeResponse = true }),
            (.invalidConfig, { $0.clientSecret = "" }),
            (.invalidConfig, { $0.displayName = String(repeating: "x", count: 2_049) }),
        ]
        for (index, (code, change)) in refused.enumerated() {
            #expect(wireErrorCode { try ProviderConfigRules.check(record(change)) } == code, "case \(index)")
        }
        #expect(throws: Never.self) {
            try ProviderConfigRules.check(
                ProviderConfigRecord(kind: .defaultSupported, id: "apple.com", clientID: "com.example", createdAtMillis: 0, updatedAtMillis: 0))
        }
        #expect(ProviderConfigRules.maskedSecret("short") == "****")
        #expect(ProviderConfigRules.maskedSecret("a-long-client-secret-WXYZ") == "****WXYZ")
    }

    @Test("request bodies: unknown names and wrong types are INVALID_ARGUMENT; responseType is read")
    func bodies() throws {
        let read = try fields([
            "displayName": "Corp", "enabled": true, "clientId": "c", "issuer": "https://i.example", "clientSecret": "s",
            "responseType": ["idToken": false, "code": true], "name": "projects/p/oauthIdpConfigs/oidc.x",
        ])
        #expect(read == ProviderConfigFields(
            displayName: "Corp", enabled: true, clientId: "c", issuer: "https://i.example", clientSecret: "s",
            idTokenResponse: false, codeResponse: true))
        #expect(wireErrorCode { _ = try fields(["clientID": "c"]) } == .invalidArgument)
        #expect(wireErrorCode { _ = try fields(["responseType": ["token": true]]) } == .invalidArgument)
        #expect(wireErrorCode { _ = try fields(["enabled": ["x": 1]]) } == .invalidArgument)
        #expect(wireErrorCode { _ = try fields(["issuer": "https://i.example"], .defaultSupported) } == .invalidArgument)
        #expect(wireErrorCode { _ = try ListProviderConfigsRequest(fields: RequestFields(["pageSize": "101"])) }
            == .invalidPageSelection)
    }

    @Test("create, get, list in pages, update with a mask, delete; secrets masked; each change audited, never with the secret")
    func lifecycle() throws {
        let test = try TestPlatform()
        let configs = test.platform.providerConfigs
        var create = oidc
        create.displayName = "Corp"
        create.clientSecret = "corp-client-secret-A1B2"
        create.codeResponse = true
        let created = try configs.create(.oauth, id: "oidc.corp", create, tenantID: nil, by: .system)
        #expect(created == ProviderConfigResponse(
            name: "projects/\(TestPlatform.projectID)/oauthIdpConfigs/oidc.corp", displayName: "Corp", enabled: false,
            clientId: "corp-client", issuer: "https://idp.example.com", clientSecret: "****A1B2",
            responseType: OAuthResponseType(idToken: true, code: true)))
        #expect(try configs.get(.oauth, id: "oidc.corp", tenantID: nil) == created)
        #expect(wireErrorCode { _ = try configs.create(.oauth, id: "oidc.corp", oidc, tenantID: nil, by: .system) }
            == .configurationExists)
        #expect(wireErrorCode { _ = try configs.create(.oauth, id: nil, oidc, tenantID: nil, by: .system) }
            == .missingProviderID)
        #expect(wireErrorCode { _ = try configs.get(.oauth, id: "oidc.ghost", tenantID: nil) } == .configurationNotFound)
        #expect(wireErrorCode { _ = try configs.get(.defaultSupported, id: "oidc.corp", tenantID: nil) } == .invalidProviderID)

        // The file's providers (oidc.trusted, oidc.untrusted) are listed among them, locked.
        _ = try configs.create(.oauth, id: "oidc.zeta", oidc, tenantID: nil, by: .system)
        let first = try configs.list(.oauth, ListProviderConfigsRequest(pageSize: 2), tenantID: nil)
        #expect(first.configs.map(\.name).map { $0.split(separator: "/").last! } == ["oidc.corp", "oidc.trusted"])
        #expect(first.configs.map(\.locked) == [nil, true])
        let next = try #require(first.nextPageToken)
        let second = try configs.list(.oauth, ListProviderConfigsRequest(pageSize: 2, pageToken: next), tenantID: nil)
        #expect(second.configs.map(\.name).map { $0.split(separator: "/").last! } == ["oidc.untrusted", "oidc.zeta"])
        #expect(second.nextPageToken == nil)

        let updated = try configs.update(
            .oauth, id: "oidc.corp", ProviderConfigFields(enabled: true, clientId: "ignored", idTokenResponse: false),
            updateMask: "enabled,responseType.idToken,displayName", tenantID: nil, by: .system)
        #expect(updated.enabled && updated.displayName == nil && updated.clientId == "corp-client")
        #expect(updated.responseType == OAuthResponseType(idToken: false, code: true))
        _ = try configs.update(
            .oauth, id: "oidc.corp", ProviderConfigFields(clientSecret: "****A1B2"), updateMask: "clientSecret",
            tenantID: nil, by: .system)
        #expect(try test.store.read { try $0.providerConfig(kind: .oauth, id: "oidc.corp") }?.clientSecret
            == "corp-client-secret-A1B2", "the masked value sent back keeps the secret")
        #expect(wireErrorCode {
            _ = try configs.update(.oauth, id: "oidc.corp", ProviderConfigFields(), updateMask: "clientSecret", tenantID: nil, by: .system)
        } == .invalidConfig, "the code flow keeps needing its secret")
        #expect(wireErrorCode {
            _ = try configs.update(.oauth, id: "oidc.corp", ProviderConfigFields(), updateMask: "secret", tenantID: nil, by: .system)
        } == .invalidArgument)
        #expect(wireErrorCode {
            _ = try configs.update(.oauth, id: "oidc.ghost", oidc, updateMask: "clientId", tenantID: nil, by: .system)
        } == .configurationNotFound)
        #expect(try configs.get(.oauth, id: "oidc.corp", tenantID: nil) == updated, "a refused update changes nothing")

        try configs.delete(.oauth, id: "oidc.corp", tenantID: nil, by: .system)
        #expect(wireErrorCode { _ = try configs.get(.oauth, id: "oidc.corp", tenantID: nil) } == .configurationNotFound)
        #expect(wireErrorCode { try configs.delete(.oauth, id: "oidc.corp", tenantID: nil, by: .system) } == .configurationNotFound)

        let events = try test.store.read { try $0.auditEvents(AuditQuery(limit: 100)) }
        #expect(events.filter { $0.kind == .providerConfigCreated }.count == 2)
        #expect(events.filter { $0.kind == .providerConfigUpdated }.map(\.detail).sorted()
            == ["config=oauthIdpConfigs fields=clientSecret", "config=oauthIdpConfigs fields=displayName,enabled,responseType"])
        #expect(events.filter { $0.kind == .providerConfigDeleted }.map(\.provider) == ["oidc.corp"])
        #expect(!events.contains { $0.detail.contains("corp-client-secret") })
    }

    @Test("the config file's providers are locked: create, update and delete answer OPERATION_NOT_ALLOWED naming the file")
    func locked() throws {
        let test = try TestPlatform()
        let configs = test.platform.providerConfigs
        let apple = try configs.get(.defaultSupported, id: "apple.com", tenantID: nil)
        #expect(apple.locked == true && apple.enabled && apple.clientId == FakeApple.clientID)
        #expect(try configs.get(.oauth, id: TestPlatform.trustedOpenID, tenantID: nil).locked == true)
        for id in ["google.com", "apple.com"] {
            let error = wireError {
                _ = try configs.create(.defaultSupported, id: id, ProviderConfigFields(clientId: "x"), tenantID: nil, by: .system)
            }
            #expect(error?.code == .operationNotAllowed && error?.detail?.contains("config file") == true)
        }
        #expect(wireErrorCode {
            _ = try configs.update(.oauth, id: TestPlatform.trustedOpenID, oidc, updateMask: "clientId", tenantID: nil, by: .system)
        } == .operationNotAllowed)
        #expect(wireErrorCode { try configs.delete(.oauth, id: TestPlatform.untrustedOpenID, tenantID: nil, by: .system) }
            == .operationNotAllowed)
        #expect(try configs.list(.defaultSupported, ListProviderConfigsRequest(), tenantID: nil).configs.map(\.name)
            == ["apple.com", "google.com"].map { "projects/\(TestPlatform.projectID)/defaultSupportedIdpConfigs/\($0)" })
    }

    @Test("a tenant has its own set; a missing tenant is TENANT_NOT_FOUND; the file's providers are the project's")
    func tenants() throws {
        let test = try TestPlatform()
        let configs = test.platform.providerConfigs
        #expect(wireErrorCode { _ = try configs.list(.oauth, ListProviderConfigsRequest(), tenantID: "ghost-1") } == .tenantNotFound)
        #expect(wireErrorCode { _ = try configs.create(.oauth, id: "oidc.corp", oidc, tenantID: "ghost-1", by: .system) }
            == .tenantNotFound)
        #expect(wireErrorCode { _ = try configs.get(.oauth, id: "oidc.corp", tenantID: "bad tenant") } == .invalidTenantID)
        let tenant = try test.platform.tenants.create(TenantFields(displayName: "Tenant-A"), by: .system)
        let tenantID = String(tenant.name.split(separator: "/").last!)
        let created = try configs.create(.oauth, id: TestPlatform.trustedOpenID, oidc, tenantID: tenantID, by: .system)
        #expect(created.name == "projects/\(TestPlatform.projectID)/tenants/\(tenantID)/oauthIdpConfigs/oidc.trusted")
        #expect(created.locked == nil)
        #expect(try configs.list(.oauth, ListProviderConfigsRequest(), tenantID: tenantID).configs == [created])
        #expect(try configs.get(.oauth, id: TestPlatform.trustedOpenID, tenantID: nil).locked == true)
        #expect(wireErrorCode { _ = try configs.get(.oauth, id: "oidc.corp", tenantID: tenantID) } == .configurationNotFound)
    }

    @Test("signInWithIdp takes an enabled API-made oidc.* provider; disabled or deleted, OPERATION_NOT_ALLOWED")
    func signIn() throws {
        let test = try TestPlatform()
        let configs = test.platform.providerConfigs
        var fields = ProviderConfigFields(clientId: FakeGoogle.clientID, issuer: "https://idp.example.com")
        _ = try configs.create(.oauth, id: "oidc.api", fields, tenantID: nil, by: .system)
        #expect(wireErrorCode { _ = try test.signIn(subject: "u-1", providerID: "oidc.api") } == .operationNotAllowed,
                "created disabled")
        fields.enabled = true
        _ = try configs.update(.oauth, id: "oidc.api", fields, updateMask: "enabled", tenantID: nil, by: .system)
        let signedIn = try test.signIn(subject: "u-1", email: "u1@example.com", providerID: "oidc.api")
        #expect(signedIn.providerId == "oidc.api" && signedIn.localId != nil)
        _ = try configs.update(.oauth, id: "oidc.api", ProviderConfigFields(enabled: false), updateMask: "enabled", tenantID: nil, by: .system)
        #expect(wireErrorCode { _ = try test.signIn(subject: "u-1", providerID: "oidc.api") } == .operationNotAllowed)
        _ = try configs.update(.oauth, id: "oidc.api", ProviderConfigFields(enabled: true), updateMask: "enabled", tenantID: nil, by: .system)
        #expect(try test.signIn(subject: "u-1", providerID: "oidc.api").localId == signedIn.localId)
        try configs.delete(.oauth, id: "oidc.api", tenantID: nil, by: .system)
        #expect(wireErrorCode { _ = try test.signIn(subject: "u-1", providerID: "oidc.api") } == .operationNotAllowed)
    }

    @Test("a tenant's API-made oidc.* provider signs in only in that tenant; the project's only in the project")
    func signInPerScope() throws {
        let test = try TestPlatform()
        let configs = test.platform.providerConfigs
        let made = try test.platform.tenants.create(TenantFields(displayName: "Tenant-A"), by: .system)
        let tenantID = String(made.name.split(separator: "/").last!)
        let fields = ProviderConfigFields(enabled: true, clientId: FakeGoogle.clientID, issuer: "https://idp.example.com")
        _ = try configs.create(.oauth, id: "oidc.tenant", fields, tenantID: tenantID, by: .system)
        _ = try configs.create(.oauth, id: "oidc.project", fields, tenantID: nil, by: .system)
        let tenant = test.platform.scoped(to: try .tenant(tenantID))
        func signIn(_ platform: IdentityPlatform, _ providerID: String) throws -> SignInWithIdpResponse {
            let request = test.signInRequest(
                idToken: try test.google.idToken(subject: "u-1", email: "u1@example.com"), providerID: providerID)
            return try platform.accounts.signInWithIdp(request, by: .user(client: nil))
        }
        let inTenant = try signIn(tenant, "oidc.tenant")
        #expect(try tenant.store.read { try $0.account(localID: inTenant.localId ?? "") }?.providers.map(\.providerID)
            == ["oidc.tenant"])
        #expect(try test.store.read { try $0.account(localID: inTenant.localId ?? "") } == nil, "the tenant's account")
        #expect(wireErrorCode { _ = try signIn(test.platform, "oidc.tenant") } == .operationNotAllowed)
        #expect(wireErrorCode { _ = try signIn(tenant, "oidc.project") } == .operationNotAllowed)
        #expect(try signIn(test.platform, "oidc.project").localId != inTenant.localId)
        #expect(try signIn(tenant, "google.com").localId != nil, "the file's providers sign in in every scope")
    }

    @Test("another instance's change is seen within 5 s: the directory reads the store again once its entry is 5 s old")
    func cacheBound() throws {
        let store = InMemoryStore()
        let time = ManualTimeSource()
        let google = try FakeGoogle(time: time)
        let directory = ProviderConfigDirectory(store: store, time: time) { record in
            .openID(id: record.id, issuer: google, clientIDs: [record.clientID ?? ""])
        }
        let record = ProviderConfigRecord(
            kind: .oauth, id: "oidc.api", enabled: true, clientID: "c", issuer: "https://idp.example.com",
            idTokenResponse: true, createdAtMillis: 0, updatedAtMillis: 0)
        #expect(try directory.provider("oidc.api", in: .project) == nil)
        try store.write { try $0.insertProviderConfig(record) }
        #expect(try directory.provider("oidc.api", in: .project) == nil, "the absence is cached")
        time.advance(by: 5)
        #expect(try directory.provider("oidc.api", in: .project)?.clientIDs == ["c"])
        var disabled = record
        disabled.enabled = false
        try store.write { try $0.updateProviderConfig(disabled) }
        time.advance(by: 4.9)
        #expect(try directory.provider("oidc.api", in: .project) != nil)
        time.advance(by: 0.1)
        #expect(try directory.provider("oidc.api", in: .project) == nil)
        let tenant = try StoreScope.tenant("t-1")
        try store.scoped(to: tenant).write { try $0.insertProviderConfig(record) }
        #expect(try directory.provider("oidc.api", in: tenant)?.id == "oidc.api", "each scope its own")
        #expect(try directory.provider("google.com", in: tenant) == nil)
    }
}
