import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import Testing

/// `inboundSamlConfigs` in the provider-configuration service (Identity Platform's rules, the update mask
/// firebase-admin sends), and SAML sign-in's session: `createAuthUri` for `saml.*` and what `signInWithIdp` checks
/// before reading any document (the session's provider, scope and 10-minute life, the callback URI).
@Suite("SAML provider configurations and SAML sign-in sessions")
struct SAMLProviderConfigTests {
    static let certificate: String = {
        let key = try! RSAPrivateKey.generate()
        return try! X509Certificate.selfSignedPEM(
            for: key, commonName: "idp", notBefore: Date(timeIntervalSince1970: 0),
            notAfter: Date(timeIntervalSince1970: 4_000_000_000))
    }()

    static func fields(_ values: [String: JSONValue]) throws -> ProviderConfigFields {
        try ProviderConfigFields(fields: RequestFields(values), allowed: ProviderConfigService.allowedFields(.saml))
    }

    static func valid(certificate: String = certificate, enabled: Bool = true) -> [String: JSONValue] {
        [
            "enabled": .bool(enabled),
            "idpConfig": .object([
                "idpEntityId": .string("https://idp.example/saml"), "ssoUrl": .string("https://idp.example/sso"),
                "idpCertificates": .array([.object(["x509Certificate": .string(certificate)])]),
            ]),
            "spConfig": .object([
                "spEntityId": .string("https://sp.example"), "callbackUri": .string("https://sp.example/__/auth/handler"),
            ]),
        ]
    }

    @Test("ids are saml.<name>; entity ids, https URLs and X.509 certificates are required (INVALID_CONFIG); CONFIGURATION_EXISTS")
    func rules() throws {
        for good in ["saml.corp", "saml.Corp-1_x.y"] {
            #expect(throws: Never.self) { try ProviderConfigRules.checkID(good, kind: .saml) }
        }
        for bad in ["saml.", "oidc.corp", "SAML.corp", "saml.a b"] {
            #expect(wireErrorCode { try ProviderConfigRules.checkID(bad, kind: .saml) } == .invalidProviderID, "\(bad)")
        }
        let configs = try TestPlatform().platform.providerConfigs
        let created = try configs.create(.saml, id: "saml.corp", try Self.fields(Self.valid()), tenantID: nil, by: .system)
        #expect(created.name == "projects/test-project/inboundSamlConfigs/saml.corp")
        #expect(created.idpConfig?.idpCertificates.map(\.x509Certificate) == [Self.certificate])
        #expect(created.spConfig?.callbackUri == "https://sp.example/__/auth/handler" && created.clientId == nil)
        #expect(wireErrorCode { _ = try configs.create(.saml, id: "saml.corp", try Self.fields(Self.valid()), tenantID: nil, by: .system) }
            == .configurationExists)
        var broken: [[String: JSONValue]] = []
        for (part, key, value) in [
            ("idpConfig", "idpEntityId", JSONValue.string("")), ("idpConfig", "ssoUrl", .string("http://idp.example/sso")),
            ("idpConfig", "ssoUrl", .string("not a url")), ("idpConfig", "idpCertificates", .array([])),
            ("idpConfig", "idpCertificates", .array([.object(["x509Certificate": .string("bm90IGEgY2VydA==")])])),
            ("spConfig", "spEntityId", .string("")), ("spConfig", "callbackUri", .string("ftp://sp.example")),
        ] {
            var values = Self.valid()
            var object = values[part]?.objectValue ?? [:]
            object[key] = value
            values[part] = .object(object)
            broken.append(values)
        }
        for (index, values) in broken.enumerated() {
            #expect(wireErrorCode { _ = try configs.create(.saml, id: "saml.x\(index)", try Self.fields(values), tenantID: nil, by: .system) }
                == .invalidConfig, "\(values)")
        }
        // A bare base64 certificate (as metadata holds it) is taken.
        let body = Self.certificate.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        #expect(throws: Never.self) {
            _ = try configs.create(.saml, id: "saml.bare", try Self.fields(Self.valid(certificate: body)), tenantID: nil, by: .system)
        }
        #expect(wireErrorCode { _ = try Self.fields(["idpConfig": .object(["entityId": .string("x")])]) } == .invalidArgument)
    }

    @Test("updateMask: firebase-admin's leaf paths change only what they name; a whole part clears what it leaves out")
    func updateMask() throws {
        let configs = try TestPlatform().platform.providerConfigs
        _ = try configs.create(.saml, id: "saml.corp", try Self.fields(Self.valid()), tenantID: nil, by: .system)
        let patch = try Self.fields([
            "displayName": .string("Corp"),
            "spConfig": .object(["callbackUri": .string("https://app.example/__/auth/handler")]),
        ])
        let updated = try configs.update(
            .saml, id: "saml.corp", patch, updateMask: "displayName,spConfig.callbackUri", tenantID: nil, by: .system)
        #expect(updated.displayName == "Corp" && updated.spConfig?.callbackUri == "https://app.example/__/auth/handler")
        #expect(updated.spConfig?.spEntityId == "https://sp.example" && updated.idpConfig?.idpEntityId == "https://idp.example/saml")
        #expect(wireErrorCode {
            _ = try configs.update(.saml, id: "saml.corp", patch, updateMask: "spConfig", tenantID: nil, by: .system)
        } == .invalidConfig, "spConfig without its entity id")
        #expect(wireErrorCode {
            _ = try configs.update(.saml, id: "saml.corp", patch, updateMask: "clientId", tenantID: nil, by: .system)
        } == .invalidArgument)
        #expect(wireErrorCode {
            _ = try configs.update(.saml, id: "saml.none", patch, updateMask: "displayName", tenantID: nil, by: .system)
        } == .configurationNotFound)
    }

    @Test("createAuthUri for saml.*: the SSO URL with a SAMLRequest and a session that names the request; OPERATION_NOT_ALLOWED when not enabled")
    func start() throws {
        let test = try TestPlatform()
        let configs = test.platform.providerConfigs
        _ = try configs.create(.saml, id: "saml.corp", try Self.fields(Self.valid()), tenantID: nil, by: .system)
        _ = try configs.create(.saml, id: "saml.off", try Self.fields(Self.valid(enabled: false)), tenantID: nil, by: .system)
        let request = CreateAuthUriRequest(identifier: nil, continueUri: "https://sp.example/", providerId: "saml.corp")
        let started = try test.platform.emailActions.createAuthUri(request)
        #expect(started.providerId == "saml.corp")
        let url = try #require(started.authUri.flatMap(URLComponents.init(string:)))
        #expect(url.host == "idp.example" && url.path == "/sso")
        #expect(url.queryItems?.first { $0.name == "SAMLRequest" }?.value?.isEmpty == false)
        for providerID in ["saml.off", "saml.none"] {
            #expect(wireErrorCode {
                _ = try test.platform.emailActions.createAuthUri(
                    CreateAuthUriRequest(identifier: nil, continueUri: "https://sp.example/", providerId: providerID))
            } == .operationNotAllowed)
        }
        // Two starts, two requests.
        #expect(try test.platform.emailActions.createAuthUri(request).sessionId != started.sessionId)
    }

    /// The reason a `signInWithIdp` with `document` (base64) and `sessionID` is refused.
    static func refusal(
        _ platform: IdentityPlatform, sessionID: String?, providerID: String = "saml.corp",
        requestURI: String = "https://sp.example/__/auth/handler", providerInBody: Bool = false, providerNamed: Bool = true
    ) -> String {
        var request = SignInWithIdpRequest(
            requestUri: requestURI,
            postBody: "SAMLResponse=PHg%2BPC94Pg%3D%3D" + (providerInBody || !providerNamed ? "" : "&providerId=\(providerID)"),
            returnSecureToken: true, sessionId: sessionID)
        if providerInBody { request.providerId = providerID }
        do {
            _ = try platform.accounts.signInWithIdp(request, by: .system)
            return "signed in"
        } catch let error as WireError {
            return "\(error.code.rawValue): \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    @Test("signInWithIdp checks the session first: its provider, its scope, its 10 minutes; then the callback URI; then the document")
    func session() throws {
        let test = try TestPlatform()
        let configs = test.platform.providerConfigs
        for id in ["saml.corp", "saml.other"] {
            _ = try configs.create(.saml, id: id, try Self.fields(Self.valid()), tenantID: nil, by: .system)
        }
        let tenant = try test.platform.tenants.create(
            TenantFields(fields: RequestFields(["displayName": .string("Acme")])), by: .system)
        let tenantID = String(tenant.name.split(separator: "/").last ?? "")
        _ = try configs.create(.saml, id: "saml.corp", try Self.fields(Self.valid()), tenantID: tenantID, by: .system)
        let tenantPlatform = test.platform.scoped(to: try .tenant(tenantID))

        let start = CreateAuthUriRequest(identifier: nil, continueUri: "https://sp.example/", providerId: "saml.corp")
        let session = try test.platform.emailActions.createAuthUri(start).sessionId
        let tenantSession = try tenantPlatform.emailActions.createAuthUri(start).sessionId
        #expect(Self.refusal(test.platform, sessionID: session).contains("(malformed)"), "the session passes; the document does not")
        #expect(Self.refusal(test.platform, sessionID: session, providerInBody: true).contains("(malformed)"),
                "providerId beside postBody")
        #expect(Self.refusal(tenantPlatform, sessionID: tenantSession).contains("(malformed)"))
        // Without a providerId (as the JS SDK's handler posts only the IdP's fields) the session names the provider,
        // but only a session of this scope does.
        #expect(Self.refusal(test.platform, sessionID: session, providerNamed: false).contains("(malformed)"))
        #expect(Self.refusal(tenantPlatform, sessionID: tenantSession, providerNamed: false).contains("(malformed)"))
        for (platform, sessionID) in [(test.platform, tenantSession), (tenantPlatform, session), (test.platform, session + "x")] {
            #expect(Self.refusal(platform, sessionID: sessionID, providerNamed: false).hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID"))
        }
        for (platform, sessionID, providerID) in [
            (test.platform, nil, "saml.corp"), (test.platform, "", "saml.corp"), (test.platform, session + "x", "saml.corp"),
            (test.platform, tenantSession, "saml.corp"), (tenantPlatform, session, "saml.corp"),
            (test.platform, session, "saml.other"),
        ] {
            let refusal = Self.refusal(platform, sessionID: sessionID, providerID: providerID)
            #expect(refusal.hasPrefix("INVALID_IDP_RESPONSE") && refusal.contains("sessionId"), "\(refusal)")
        }
        #expect(Self.refusal(test.platform, sessionID: session, requestURI: "https://evil.example/cb").contains("callbackUri"))
        test.time.advance(by: 599)
        #expect(Self.refusal(test.platform, sessionID: session).contains("(malformed)"))
        test.time.advance(by: 1)
        #expect(Self.refusal(test.platform, sessionID: session).contains("sessionId"), "expired after 10 minutes")
        #expect(Self.refusal(test.platform, sessionID: session, providerNamed: false).hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID"))
        #expect(Self.refusal(test.platform, sessionID: session, providerID: "saml.none").hasPrefix("OPERATION_NOT_ALLOWED"))
    }
}
