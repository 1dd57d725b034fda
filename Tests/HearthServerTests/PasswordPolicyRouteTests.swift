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
}
