import Foundation
import HearthProtocol
import HearthVerify
import OutboundTesting
import Testing

/// The payload is parsed once, strictly (RFC 8259), and both the checked claims and `claims` come from that parse.
@Suite("IDTokenVerifier: parsing the payload")
struct ClaimsParsingTests {
    let clock = ManualClock()
    let fetcher = FakeOutboundHTTP.jwks()
    let verifier: IDTokenVerifier

    init() {
        verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
    }

    /// A token whose payload is the fixture claims (sorted, compact) with `members` spliced in right after the `{`.
    func token(prepending members: String, to overrides: [String: Any?] = [:]) -> String {
        let claims = try! JSONSerialization.data(withJSONObject: Fixtures.claims(overrides), options: [.sortedKeys])
        let text = "{" + members + "," + String(decoding: claims.dropFirst(), as: UTF8.self)
        return Fixtures.token(payload: Data(text.utf8))
    }

    func code(_ token: String) -> VerificationError.Code? {
        do {
            _ = try verifier.verify(token)
            return nil
        } catch {
            return error.code
        }
    }

    func code(payload text: String) -> VerificationError.Code? {
        code(Fixtures.token(payload: Data(text.utf8)))
    }

    @Test("a repeated claim takes its last value (RFC 7519 §4), for the checks and in claims alike")
    func duplicateClaims() throws {
        let verified = try verifier.verify(token(prepending: #""sub":"first","role":"admin""#, to: ["role": "user"]))
        #expect(verified.uid == "uid-123")
        #expect(verified.claims["sub"] == "uid-123")
        #expect(verified.claims["role"] == "user")
        // An earlier valid value does not rescue a later wrong one.
        #expect(code(token(prepending: #""aud":"demo-hearth""#, to: ["aud": "other-project"])) == .wrongAudience)
        #expect(code(token(prepending: #""exp":1,"exp":2"#)) == nil)
    }

    @Test("claims holds every claim of the one parse, custom ones included")
    func claimsDictionary() throws {
        let verified = try verifier.verify(
            Fixtures.token(claims: Fixtures.claims(["roles": ["a", "b"], "level": 2.5, "big": 12_345_678_901_234])))
        #expect(verified.claims["roles"] == ["a", "b"])
        #expect(verified.claims["level"] == .double(2.5))
        #expect(verified.claims["big"] == .integer(12_345_678_901_234))
        #expect(verified.claims["firebase"]?["identities"]?["google.com"] == ["1082"])
        #expect(verified.claims.count == Fixtures.claims().count + 3)
    }

    @Test(
        "a payload that is not strict JSON is malformedToken",
        arguments: [
            #""extra":1,"#,  // a trailing comma once the fixture claims follow: `{"extra":1,,"aud":…`
            #""big":1e400"#, #""zero":01"#, #""email2":"\uD800""#, #""x":NaN"#, #""x":'y'"#,
        ])
    func notStrictJSON(members: String) {
        #expect(code(token(prepending: members)) == .malformedToken)
    }

    @Test("trailing commas, a byte order mark, comments, invalid UTF-8 and trailing text are malformedToken")
    func notJSONAtAll() {
        let claims = try! JSONSerialization.data(withJSONObject: Fixtures.claims(), options: [.sortedKeys])
        let text = String(decoding: claims, as: UTF8.self)
        #expect(code(payload: text) == nil)
        #expect(code(payload: String(text.dropLast()) + ",}") == .malformedToken)
        #expect(code(payload: "\u{FEFF}" + text) == .malformedToken)
        #expect(code(payload: text + "/**/") == .malformedToken)
        #expect(code(payload: text + " {}") == .malformedToken)
        var bytes = Array(claims)
        bytes.insert(contentsOf: Array(#""name2":""#.utf8) + [0xC0, 0xAF] + Array(#"","#.utf8), at: 1)
        #expect(code(Fixtures.token(payload: Data(bytes))) == .malformedToken)
    }

    @Test("claim types are checked as before: null is absent except for aud and sub; informational claims are lenient")
    func claimTypes() throws {
        #expect(code(Fixtures.token(claims: Fixtures.claims(["iss": NSNull()]))) == .missingClaim)
        #expect(code(Fixtures.token(claims: Fixtures.claims(["exp": NSNull()]))) == .missingClaim)
        #expect(code(Fixtures.token(claims: Fixtures.claims(["aud": NSNull()]))) == .malformedToken)
        #expect(code(Fixtures.token(claims: Fixtures.claims(["aud": [String]()]))) == .wrongAudience)
        #expect(code(Fixtures.token(claims: Fixtures.claims(["aud": ["demo-hearth", 5] as [Any]]))) == .malformedToken)
        #expect(code(Fixtures.token(claims: Fixtures.claims(["iat": [1] as [Any]]))) == .malformedToken)
        #expect(code(Fixtures.token(claims: Fixtures.claims(["exp": ["at": 1]]))) == .malformedToken)
        // A NumericDate is whole seconds from 1970 to 9999: a larger number is a malformed token.
        #expect(code(Fixtures.token(claims: Fixtures.claims(["exp": Double(Int64.max) * 4]))) == .malformedToken)
        #expect(code(token(prepending: #""exp":100000000000000000000000"#, to: ["exp": nil])) == .malformedToken)
        let lenient = try verifier.verify(
            Fixtures.token(claims: Fixtures.claims([
                "email": NSNull(), "email_verified": 1, "firebase": ["sign_in_provider": 5, "sign_in_second_factor": NSNull()],
            ])))
        #expect(lenient.email == nil)
        #expect(!lenient.emailVerified)
        #expect(lenient.signInProvider == nil)
        #expect(lenient.signInSecondFactor == nil)
        #expect(try verifier.verify(Fixtures.token(claims: Fixtures.claims(["firebase": NSNull()]))).signInProvider == nil)
    }

    @Test(
        "correctly signed numeric claims outside whole seconds 1970…9999 are malformedToken, never a trap",
        arguments: [
            "\"exp\":1e20", "\"exp\":9223372036854775807", "\"exp\":1e300", "\"exp\":-9223372036854775808",
            "\"exp\":-1e300", "\"exp\":1e-300", "\"exp\":253402300800", "\"exp\":-1",
            "\"iat\":-9223372036854775808", "\"iat\":1e300", "\"iat\":-1e300", "\"iat\":1700000000.5",
            "\"auth_time\":1e300", "\"auth_time\":-9223372036854775808", "\"auth_time\":9223372036854775807",
        ])
    func numericClaimsOutOfRange(member: String) {
        let name = String(member.dropFirst().prefix(while: { $0 != "\"" }))
        #expect(code(token(prepending: member, to: [name: nil])) == .malformedToken)
        // The verifier still works afterwards.
        #expect(code(Fixtures.token()) == nil)
    }

    @Test("whole seconds written as doubles (1.7e9) are NumericDates")
    func integralDoubles() throws {
        let expiry = Int(Fixtures.start.timeIntervalSince1970) + 600
        for spelling in ["\(expiry).0", "\(expiry)e0", "\(expiry)00e-2"] {
            let verified = try verifier.verify(token(prepending: "\"exp\":" + spelling, to: ["exp": nil]))
            #expect(verified.expiresAt == Date(timeIntervalSince1970: TimeInterval(expiry)))
        }
    }

    @Test("a payload error names a byte offset, never the payload")
    func errorReason() {
        do {
            _ = try verifier.verify(token(prepending: #""secret":"hunter2\q""#))
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .malformedToken)
            #expect(error.reason.contains("byte"))
            #expect(!error.reason.contains("hunter2"))
        }
    }
}
