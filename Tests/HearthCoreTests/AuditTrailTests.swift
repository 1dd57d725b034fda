import Foundation
import HearthCore
import HearthProtocol
import Testing

/// The audit events the services write (issue 12 §3): one per change, in the change's own transaction, with
/// who and from where, and nothing secret.
@Suite("Audit trail")
struct AuditTrailTests {
    /// The event a scenario must leave, and what must appear in no event.
    struct Expected {
        var kind: AuditEventKind
        var localID: String?
        var provider: String?
        var client: String? = AuditFixture.client
        var actor: AuditActor = .user
        var detail: String = ""
        var secrets: [String] = []
    }

    static let serviceAccount = AuditActor.serviceAccount(email: "ops@test-project.iam.gserviceaccount.com")

    /// Does what records `kind` once (and maybe other kinds), and says what that event must be.
    static func scenario(_ kind: AuditEventKind, _ f: AuditFixture) throws -> Expected {
        let admin = f.platform.admin
        let adminCaller = Caller(client: nil, actor: serviceAccount)
        switch kind {
        case .signIn:
            let first = try f.google("g-1")
            let again = try f.google("g-1")
            return Expected(
                kind: kind, localID: first.localId, provider: "google.com",
                secrets: [first.idToken, first.refreshToken, again.idToken, again.refreshToken].compactMap { $0 })
        case .signInFailed:
            let code = wireErrorCode { try f.passwordSignIn("nobody@example.com", "guess-one") }
            #expect(code == .invalidLoginCredentials)
            return Expected(
                kind: kind, provider: "password", detail: "code=INVALID_LOGIN_CREDENTIALS",
                secrets: ["nobody@example.com", "guess-one"])
        case .signUp:
            let created = try f.passwordSignUp()
            return Expected(
                kind: kind, localID: created.localId, provider: "password",
                secrets: [AuditFixture.password, created.idToken, created.refreshToken, "ada@example.com"])
        case .link:
            let guest = try f.platform.accounts.signUp(SignUpRequest(), by: .user(client: nil))
            _ = try f.platform.accounts.signUp(
                SignUpRequest(email: "guest@example.com", password: AuditFixture.password, idToken: guest.idToken),
                by: .user(client: AuditFixture.client))
            return Expected(
                kind: kind, localID: guest.localId, provider: "password", secrets: [AuditFixture.password, guest.idToken])
        case .unlink:
            let user = try f.google("g-2")
            var request = UpdateAccountRequest(idToken: user.idToken)
            request.deleteProvider = ["google.com"]
            _ = try f.platform.accounts.update(request, by: .user(client: AuditFixture.client))
            return Expected(kind: kind, localID: user.localId, provider: "google.com", secrets: [user.idToken!])
        case .factorEnrolled:
            let (user, secret, enrollmentID, _) = try f.enrolledTOTPUser()
            return Expected(
                kind: kind, localID: user.signIn.localId, provider: "totp", client: nil,
                detail: "enrollment=\(enrollmentID)", secrets: [secret])
        case .factorRemoved:
            let (user, secret, enrollmentID, tokens) = try f.enrolledTOTPUser()
            _ = try f.platform.mfa.withdraw(
                WithdrawMFARequest(idToken: tokens.idToken, mfaEnrollmentId: enrollmentID), by: .user(client: AuditFixture.client))
            return Expected(
                kind: kind, localID: user.signIn.localId, provider: "totp", detail: "enrollment=\(enrollmentID)",
                secrets: [secret, tokens.idToken])
        case .mfaFailed:
            let (user, secret, enrollmentID, _) = try f.enrolledTOTPUser()
            let pending = try #require(try user.signInAgain().mfaPendingCredential)
            let right = user.totpCode(secret)
            let wrong = right == "123456" ? "654321" : "123456"
            let code = wireErrorCode {
                _ = try f.platform.mfa.finalizeSignIn(
                    FinalizeMFASignInRequest(
                        mfaPendingCredential: pending, mfaEnrollmentId: enrollmentID,
                        totpVerificationInfo: TOTPVerificationInfo(verificationCode: wrong)),
                    by: .user(client: AuditFixture.client))
            }
            #expect(code == .invalidCode)
            return Expected(
                kind: kind, localID: user.signIn.localId, provider: "totp", detail: "code=INVALID_CODE",
                secrets: [secret, pending, wrong])
        case .lockout:
            for guess in ["guess-1", "guess-2", "guess-3"] {
                #expect(wireErrorCode { try f.passwordSignIn("locked@example.com", guess) } == .invalidLoginCredentials)
            }
            let until = f.test.time.nowMillis + 60_000
            return Expected(
                kind: kind, actor: .system,
                detail: "key=password-failure:email:\(Fixture.sha256Hex("locked@example.com")) until_ms=\(until)",
                secrets: ["locked@example.com", "guess-1", "guess-2", "guess-3"])
        case .sessionsRevoked:
            let created = try f.passwordSignUp()
            let first = created.refreshToken
            _ = try f.platform.tokens.refresh(RefreshTokenRequest(refreshToken: first), by: .user(client: AuditFixture.client))
            f.test.time.advance(by: 120)
            let code = wireErrorCode {
                _ = try f.platform.tokens.refresh(RefreshTokenRequest(refreshToken: first), by: .user(client: AuditFixture.client))
            }
            #expect(code == .tokenExpired)
            return Expected(
                kind: kind, localID: created.localId, actor: .system, detail: "reason=refresh_token_reuse",
                secrets: [first])
        case .passwordChanged:
            let created = try f.passwordSignUp()
            var request = UpdateAccountRequest(idToken: created.idToken)
            request.password = "a brand new passphrase"
            _ = try f.platform.accounts.update(request, by: .user(client: AuditFixture.client))
            return Expected(
                kind: kind, localID: created.localId, provider: "password",
                secrets: ["a brand new passphrase", AuditFixture.password])
        case .emailChanged:
            // Under enumeration protection a client changes its email by a code sent to the new address.
            let created = try f.passwordSignUp()
            let sent = try f.platform.emailActions.sendOobCode(
                SendOobCodeRequest(
                    requestType: "VERIFY_AND_CHANGE_EMAIL", email: "ada@example.com", newEmail: "ada.new@example.com",
                    returnOobLink: true),
                by: .commandLine)
            var request = UpdateAccountRequest(idToken: nil)
            request.oobCode = sent.oobCode
            _ = try f.platform.accounts.update(request, by: .user(client: AuditFixture.client))
            return Expected(kind: kind, localID: created.localId, secrets: ["ada.new@example.com", "ada@example.com"])
        case .accountCreated:
            var request = AdminCreateAccountRequest()
            request.email = "made@example.com"
            request.password = "an admin's chosen password"
            let created = try admin.create(request, by: adminCaller)
            return Expected(
                kind: kind, localID: created.localId, client: nil, actor: serviceAccount,
                secrets: ["an admin's chosen password"])
        case .accountUpdated:
            let created = try admin.create(AdminCreateAccountRequest(), by: adminCaller)
            var request = AdminUpdateAccountRequest(localId: created.localId)
            request.displayName = "Grace"
            _ = try admin.update(request, by: adminCaller)
            return Expected(
                kind: kind, localID: created.localId, client: nil, actor: serviceAccount, detail: "fields=displayName",
                secrets: ["Grace"])
        case .accountDisabled:
            let created = try admin.create(AdminCreateAccountRequest(), by: adminCaller)
            var request = AdminUpdateAccountRequest(localId: created.localId)
            request.disableUser = true
            _ = try admin.update(request, by: adminCaller)
            return Expected(kind: kind, localID: created.localId, client: nil, actor: serviceAccount)
        case .accountEnabled:
            var create = AdminCreateAccountRequest()
            create.disabled = true
            let created = try admin.create(create, by: adminCaller)
            var request = AdminUpdateAccountRequest(localId: created.localId)
            request.disableUser = false
            _ = try admin.update(request, by: adminCaller)
            return Expected(kind: kind, localID: created.localId, client: nil, actor: serviceAccount)
        case .claimsChanged:
            let created = try admin.create(AdminCreateAccountRequest(), by: adminCaller)
            var request = AdminUpdateAccountRequest(localId: created.localId)
            request.customAttributes = #"{"tier":"claim-value-7f3a"}"#
            _ = try admin.update(request, by: adminCaller)
            return Expected(
                kind: kind, localID: created.localId, client: nil, actor: serviceAccount, secrets: ["claim-value-7f3a"])
        case .accountDeleted:
            let created = try admin.create(AdminCreateAccountRequest(), by: adminCaller)
            _ = try admin.delete(AdminDeleteAccountRequest(fields: RequestFields(["localId": .string(created.localId)])), by: adminCaller)
            return Expected(kind: kind, localID: created.localId, client: nil, actor: serviceAccount)
        case .keyRotated:
            let record = try f.platform.sessionKeys.rotate(by: .commandLine)
            return Expected(
                kind: kind, client: nil, actor: .commandLine, detail: "key=\(record.keyID)",
                secrets: [record.privateKeyPEM])
        case .tenantCreated, .tenantUpdated, .tenantDeleted:
            let tenants = f.platform.tenants
            let created = try tenants.create(TenantFields(displayName: "Audit-Tenant"), by: adminCaller)
            let id = String(created.name.split(separator: "/").last ?? "")
            var detail = "tenant=\(id)"
            if kind == .tenantUpdated {
                _ = try tenants.update(
                    id: id, TenantFields(allowPasswordSignup: true), updateMask: "allowPasswordSignup", by: adminCaller)
                detail += " fields=allowPasswordSignup"
            } else if kind == .tenantDeleted {
                try tenants.delete(id: id, by: adminCaller)
            }
            return Expected(kind: kind, client: nil, actor: serviceAccount, detail: detail)
        case .providerConfigCreated, .providerConfigUpdated, .providerConfigDeleted:
            let configs = f.platform.providerConfigs
            let secret = "provider-secret-9c1e77"
            _ = try configs.create(
                .oauth, id: "oidc.audit",
                ProviderConfigFields(clientId: "audit-client", issuer: "https://idp.example", clientSecret: secret),
                tenantID: nil, by: adminCaller)
            var detail = "config=oauthIdpConfigs"
            if kind == .providerConfigUpdated {
                _ = try configs.update(
                    .oauth, id: "oidc.audit", ProviderConfigFields(enabled: true, clientSecret: secret + "-2"),
                    updateMask: "enabled,clientSecret", tenantID: nil, by: adminCaller)
                detail += " fields=clientSecret,enabled"
            } else if kind == .providerConfigDeleted {
                try configs.delete(.oauth, id: "oidc.audit", tenantID: nil, by: adminCaller)
            }
            return Expected(
                kind: kind, provider: "oidc.audit", client: nil, actor: serviceAccount, detail: detail,
                secrets: [secret])
        case .projectConfigUpdated:
            _ = try f.platform.projectConfig.update(
                ["signIn": ["anonymous": ["enabled": false]]], updateMask: "signIn.anonymous.enabled", by: adminCaller)
            return Expected(kind: kind, client: nil, actor: serviceAccount, detail: "fields=signIn.anonymous.enabled")
        default:
            Issue.record("no scenario records \(kind)")
            return Expected(kind: kind)
        }
    }

    /// Checks the one event of `expected.kind` field by field, and that no event holds a secret.
    static func expect(
        _ expected: Expected, in f: AuditFixture, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let event = try f.only(expected.kind, sourceLocation: sourceLocation)
        #expect(event.localID == expected.localID, sourceLocation: sourceLocation)
        #expect(event.provider == expected.provider, sourceLocation: sourceLocation)
        #expect(event.clientAddress == expected.client, sourceLocation: sourceLocation)
        #expect(event.actor == expected.actor, sourceLocation: sourceLocation)
        #expect(event.detail == expected.detail, sourceLocation: sourceLocation)
        #expect(event.atMillis == f.test.time.nowMillis, sourceLocation: sourceLocation)
        try f.expectNoSecret(expected.secrets, sourceLocation: sourceLocation)
    }

    @Test("each kind is recorded once, with its account, provider, client, actor and detail, and no secret",
          arguments: AuditEventKind.all)
    func eachKind(_ kind: AuditEventKind) throws {
        let f = try AuditFixture()
        try Self.expect(try Self.scenario(kind, f), in: f)
    }

    @Test("with the audit log disabled, nothing is written", arguments: AuditEventKind.all)
    func disabled(_ kind: AuditEventKind) throws {
        let f = try AuditFixture(audit: AuditLog(isEnabled: false))
        _ = try Self.scenario(kind, f)
        #expect(try f.events().isEmpty)
    }

    @Test("write bodies that run twice still leave one event per change", arguments: AuditEventKind.all)
    func rerunWriteBodies(_ kind: AuditEventKind) throws {
        let f = try AuditFixture(reruns: true)
        try Self.expect(try Self.scenario(kind, f), in: f)
    }
}
