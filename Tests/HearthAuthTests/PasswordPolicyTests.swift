import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

/// `validatePassword(_:)` against `GET /v2/passwordPolicy`, cached.
@Suite("Password policy")
struct PasswordPolicyTests {
    static let strict: JSONValue = [
        "customStrengthOptions": [
            "minPasswordLength": 10, "maxPasswordLength": 20, "containsLowercaseCharacter": true,
            "containsUppercaseCharacter": true, "containsNumericCharacter": true,
            "containsNonAlphanumericCharacter": true,
        ],
        "allowedNonAlphanumericCharacters": ["!", "#", "€"], "enforcementState": "ENFORCE",
        "forceUpgradeOnSignin": true,
        "schemaVersion": 1,
    ]

    @Test("the policy is fetched once with a GET to identitytoolkit v2/passwordPolicy, without a body")
    func fetchedOnceWithGET() async throws {
        let harness = Harness()
        harness.transport.enqueue("passwordPolicy", json: Self.strict)
        let first = try await harness.auth.validatePassword("short")
        let second = try await harness.auth.validatePassword("Longer#Password1")
        let requests = harness.transport.requests
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.method == "GET")
        #expect(
            request.url.absoluteString
                == "https://identitytoolkit.googleapis.com/v2/passwordPolicy?key=\(Fixture.apiKey)")
        #expect(request.body == nil)
        #expect(request.headers["X-Client-Version"] == "Swift/HearthAuth/\(HearthAuthVersion.string)")
        #expect(!first.isValid)
        #expect(second.isValid)
        let policy = second.passwordPolicy
        #expect(policy.minPasswordLength == 10)
        #expect(policy.maxPasswordLength == 20)
        #expect(policy.allowedNonAlphanumericCharacters == "!#€")
        #expect(policy.enforcementState == "ENFORCE")
        #expect(policy.forceUpgradeOnSignin)
    }

    @Test(
        "each rule is reported on its own",
        arguments: [
            ("Abcdefgh1!", true, true, true, true, true, true),
            ("Abc1!", false, true, true, true, true, true),
            ("Abcdefghijklmnopqrst1!", true, false, true, true, true, true),
            ("ABCDEFGH1!", true, true, false, true, true, true),
            ("abcdefgh1!", true, true, true, false, true, true),
            ("Abcdefghi!", true, true, true, true, false, true),
            ("Abcdefgh1?", true, true, true, true, true, false),
            ("Abcdefgh1€", true, true, true, true, true, true),
            // Lengths count UTF-16 code units: the emoji is two.
            ("Abcdef😀1!", true, true, true, true, true, true),
            ("Abcde😀1!", false, true, true, true, true, true),
        ])
    func rules(password: String, min: Bool, max: Bool, lower: Bool, upper: Bool, digit: Bool, symbol: Bool) async throws
    {
        let harness = Harness()
        harness.transport.enqueue("passwordPolicy", json: Self.strict)
        let status = try await harness.auth.validatePassword(password)
        #expect(status.meetsMinPasswordLength == min)
        #expect(status.meetsMaxPasswordLength == max)
        #expect(status.meetsLowercaseRequirement == lower)
        #expect(status.meetsUppercaseRequirement == upper)
        #expect(status.meetsDigitsRequirement == digit)
        #expect(status.meetsSymbolsRequirement == symbol)
        #expect(status.isValid == (min && max && lower && upper && digit && symbol))
    }

    @Test("an empty policy: at least 6 characters, nothing else; missing symbol list means any non-alphanumeric")
    func defaults() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "passwordPolicy", json: ["customStrengthOptions": [:], "enforcementState": "ENFORCEMENT_STATE_UNSPECIFIED"])
        #expect(try await !harness.auth.validatePassword("12345").isValid)
        let ok = try await harness.auth.validatePassword("123456")
        #expect(ok.isValid)
        #expect(ok.passwordPolicy.minPasswordLength == 6)
        #expect(ok.passwordPolicy.maxPasswordLength == nil)
        #expect(ok.passwordPolicy.enforcementState == "OFF")

        let symbols = Harness()
        symbols.transport.enqueue(
            "passwordPolicy", json: ["customStrengthOptions": ["containsNonAlphanumericCharacter": true]])
        #expect(try await symbols.auth.validatePassword("abcdef-").meetsSymbolsRequirement)
        #expect(try await !symbols.auth.validatePassword("abcdef7").meetsSymbolsRequirement)
    }

    @Test("a PASSWORD_DOES_NOT_MEET_REQUIREMENTS refusal drops the cached policy; the next check fetches it again")
    func refetchAfterRefusal() async throws {
        let harness = Harness()
        harness.transport.enqueue("passwordPolicy", json: ["customStrengthOptions": ["minPasswordLength": 6]])
        #expect(try await harness.auth.validatePassword("1234567").isValid)

        // Another refusal does not drop it.
        harness.transport.enqueue("signupNewUser", status: 400, json: Fixture.errorEnvelope("EMAIL_EXISTS"))
        _ = await authError { try await harness.auth.createUser(withEmail: EmailFixture.email, password: "1234567") }
        #expect(try await harness.auth.validatePassword("1234567").isValid)
        #expect(harness.transport.requests(to: "passwordPolicy").count == 1)

        harness.transport.enqueue(
            "signupNewUser", status: 400,
            json: Fixture.errorEnvelope(
                "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain at least 8 characters]"
            ))
        let error = try #require(
            await authError { try await harness.auth.createUser(withEmail: EmailFixture.email, password: "1234567") })
        #expect(error.code == .passwordDoesNotMeetRequirements)
        #expect(error.message == "Missing password requirements: [Password must contain at least 8 characters]")

        harness.transport.enqueue("passwordPolicy", json: ["customStrengthOptions": ["minPasswordLength": 8]])
        #expect(try await !harness.auth.validatePassword("1234567").isValid)
        #expect(harness.transport.requests(to: "passwordPolicy").count == 2)
    }

    @Test("the policy's server error is thrown and nothing is cached")
    func policyError() async throws {
        let harness = Harness()
        harness.transport.enqueue(
            "passwordPolicy", status: 404, json: Fixture.errorEnvelope("CONFIGURATION_NOT_FOUND", status: 404))
        let error = try #require(await authError { _ = try await harness.auth.validatePassword("x") })
        #expect(error.serverCode == "CONFIGURATION_NOT_FOUND")
        harness.transport.enqueue("passwordPolicy", json: ["customStrengthOptions": [:]])
        #expect(try await harness.auth.validatePassword("123456").isValid)
    }
}
