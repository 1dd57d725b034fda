import Foundation
import HearthCore
import HearthHTTP
import Testing

@Suite("GET /v2/passwordPolicy")
struct PasswordPolicyRouteTests {
    static let path = "/identitytoolkit.googleapis.com/v2/passwordPolicy"

    @Test("serves the configured policy as the web SDK reads it, with the API key like every client call")
    func servesPolicy() throws {
        let policy = try PasswordPolicy(
            enforcementState: .enforce, minLength: 8, maxLength: 64, requireLowercase: true, requireNumeric: true)
        let fixture = try ServerFixture(development: false, apiKeys: .only(["k"]), passwordPolicy: policy)
        let response = fixture.call(.get, "\(Self.path)?key=k")
        #expect(response.status == 200)
        let body = response.json
        #expect(body["schemaVersion"] as? Int == 1)
        #expect(body["enforcementState"] as? String == "ENFORCE")
        #expect(body["forceUpgradeOnSignin"] as? Bool == false)
        #expect((body["allowedNonAlphanumericCharacters"] as? [String])?.contains("!") == true)
        let options = body["customStrengthOptions"] as? [String: Any] ?? [:]
        #expect(options["minPasswordLength"] as? Int == 8)
        #expect(options["maxPasswordLength"] as? Int == 64)
        #expect(options["containsLowercaseCharacter"] as? Bool == true)
        #expect(options["containsUppercaseCharacter"] as? Bool == false)
        #expect(options["containsNumericCharacter"] as? Bool == true)
        #expect(options["containsNonAlphanumericCharacter"] as? Bool == false)

        #expect(fixture.call(.get, Self.path).status == 403)
        let wrongKey = fixture.call(.get, "\(Self.path)?key=other")
        #expect(wrongKey.status == 400)
        #expect((wrongKey.error["message"] as? String)?.hasPrefix("API key not valid") == true)
    }

    @Test("without a configured policy: Firebase's default, not enforced, minimum 6")
    func defaultPolicy() throws {
        let response = try ServerFixture().call(.get, "\(Self.path)?key=k")
        #expect(response.status == 200)
        #expect(response.json["enforcementState"] as? String == "OFF")
        #expect((response.json["customStrengthOptions"] as? [String: Any])?["minPasswordLength"] as? Int == 6)
    }

    @Test("per scope: the project's policy as the config API sets it, a tenant's with tenantId, an unknown tenant refused")
    func perScope() throws {
        let fixture = try ServerFixture()
        let owner: HTTPHeaders = ["Authorization": "Bearer owner", "Content-Type": "application/json"]
        let policy = #"{"passwordPolicyConfig":{"passwordPolicyEnforcementState":"ENFORCE","passwordPolicyVersions":[{"customStrengthOptions":{"minPasswordLength":12,"containsUppercaseCharacter":true}}]}}"#
        let patched = fixture.call(
            .patch, "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/config?updateMask=passwordPolicyConfig",
            headers: owner, body: policy)
        #expect(patched.status == 200, "\(patched.text)")
        let project = fixture.call(.get, "\(Self.path)?key=k").json
        #expect(project["enforcementState"] as? String == "ENFORCE")
        #expect((project["customStrengthOptions"] as? [String: Any])?["minPasswordLength"] as? Int == 12)

        let created = fixture.call(
            .post, "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/tenants", headers: owner,
            body: #"{"displayName":"Policy-Tenant","allowPasswordSignup":true}"#)
        let tenant = String((created.json["name"] as? String ?? "").split(separator: "/").last ?? "")
        #expect(created.status == 200 && !tenant.isEmpty)
        let plain = fixture.call(.get, "\(Self.path)?key=k&tenantId=\(tenant)").json
        #expect(plain["enforcementState"] as? String == "OFF", "the tenant sets none: the default")
        _ = fixture.call(
            .patch, "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/tenants/\(tenant)?updateMask=passwordPolicyConfig",
            headers: owner, body: policy.replacingOccurrences(of: ":12", with: ":8"))
        let own = fixture.call(.get, "\(Self.path)?key=k&tenantId=\(tenant)").json
        #expect((own["customStrengthOptions"] as? [String: Any])?["minPasswordLength"] as? Int == 8)
        let signUp = fixture.call(
            .post, "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", headers: ["Content-Type": "application/json"],
            body: #"{"email":"ada@example.com","password":"lowercase1","tenantId":"\#(tenant)","returnSecureToken":true}"#)
        #expect(signUp.status == 400 && (signUp.error["message"] as? String ?? "").hasPrefix("PASSWORD_DOES_NOT_MEET_REQUIREMENTS"))
        let unknown = fixture.call(.get, "\(Self.path)?key=k&tenantId=no-such-tenant")
        #expect(unknown.status == 400 && (unknown.error["message"] as? String ?? "").hasPrefix("TENANT_NOT_FOUND"), "\(unknown.text)")
    }
}
