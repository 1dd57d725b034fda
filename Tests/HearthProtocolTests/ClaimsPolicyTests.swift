import HearthProtocol
import Testing

@Suite("ClaimsPolicy")
struct ClaimsPolicyTests {
    static let now: Int64 = 1_800_000_000

    /// A policy as the checkers use them: issuers, audiences, 300 s of leeway, `exp` and `iat` required, one hour at most.
    static let policy = ClaimsPolicy(
        issuers: ["https://issuer"], audiences: ["client-a", "client-b"], leeway: 300,
        required: [.expiresAt, .issuedAt], maximumLifetime: 3600)

    static func claims(_ changes: [String: JSONValue?]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": "https://issuer", "aud": "client-a", "iat": .integer(now), "exp": .integer(now + 3600),
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    @Test("refusals, each with its stable code", arguments: [
        // iss
        (["iss": nil], "missing_claim"),
        (["iss": "https://other"], "wrong_issuer"),
        // aud: a string or an array of strings
        (["aud": nil], "missing_claim"),
        (["aud": "client-c"], "wrong_audience"),
        (["aud": .array(["client-c", "client-d"])], "wrong_audience"),
        (["aud": .array([.integer(1)])], "missing_claim"),
        // exp: required, leeway on the late side
        (["exp": nil], "missing_claim"),
        (["exp": .double(1.5)], "missing_claim"),
        (["exp": .integer(now - 300)], "expired"),
        // iat: required, leeway on the early side
        (["iat": nil], "missing_claim"),
        (["iat": .integer(now + 301), "exp": .integer(now + 900)], "issued_in_future"),
        // auth_time and nbf: checked when present
        (["auth_time": .integer(now + 301)], "auth_time_in_future"),
        (["nbf": .integer(now + 301)], "not_yet_valid"),
        // lifetime
        (["iat": .integer(now - 100), "exp": .integer(now + 3501)], "lifetime_too_long"),
        (["iat": .integer(now + 10), "exp": .integer(now + 10)], "lifetime_too_long"),
    ] as [([String: JSONValue?], String)])
    func refusals(changes: [String: JSONValue?], code: String) {
        let violation: ClaimsViolation?
        do throws(ClaimsViolation) {
            _ = try Self.policy.check(Self.claims(changes), now: Self.now)
            violation = nil
        } catch {
            violation = error
        }
        #expect(violation?.code == code, "\(String(describing: violation))")
    }

    @Test("accepted at the edges of the leeway and the lifetime", arguments: [
        [:],
        ["exp": .integer(now - 299), "iat": .integer(now - 3000)],
        ["iat": .integer(now + 300), "exp": .integer(now + 900)],
        ["auth_time": .integer(now + 300)],
        ["nbf": .integer(now + 300)],
        ["aud": .array(["client-c", "client-b"])],
        ["exp": .double(Double(now + 3600))],
    ] as [[String: JSONValue?]])
    func accepted(changes: [String: JSONValue?]) throws {
        let checked = try Self.policy.check(Self.claims(changes), now: Self.now)
        #expect(checked.issuer == "https://issuer")
        #expect(checked.audience != nil)
    }

    @Test("the audience returned is the accepted value")
    func acceptedAudience() throws {
        let checked = try Self.policy.check(Self.claims(["aud": .array(["client-c", "client-b"])]), now: Self.now)
        #expect(checked.audience == "client-b")
    }

    @Test("an expiry leeway of its own applies to exp alone")
    func expiryLeeway() throws {
        var strict = Self.policy
        strict.expiryLeeway = 0
        #expect(throws: ClaimsViolation.expired(NumericDate(secondsSince1970: Self.now)!)) {
            try strict.check(Self.claims(["exp": .integer(Self.now), "iat": .integer(Self.now - 60)]), now: Self.now)
        }
        _ = try strict.check(Self.claims(["iat": .integer(Self.now + 300)]), now: Self.now)
    }

    @Test("without issuers or audiences, iss and aud are not looked at; only required times must be present")
    func unconstrained() throws {
        let lenient = ClaimsPolicy(leeway: 0, required: [])
        let checked = try lenient.check([:], now: Self.now)
        #expect(checked.issuer == nil && checked.audience == nil)
        #expect(checked.times == TokenTimes())
    }
}
