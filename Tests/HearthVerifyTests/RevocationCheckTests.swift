import Foundation
import HearthProtocol
import HearthVerify
import OutboundTesting
import Testing

@Suite("RevocationCheck (fake transport)")
struct RevocationCheckTests {
    let clock = ManualClock()
    let fetcher = FakeOutboundHTTP.jwks()
    let verifier: IDTokenVerifier

    init() {
        verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
    }
    /// The fixture token's iat.
    var issuedAt: Int { Int(Fixtures.start.timeIntervalSince1970) - 10 }

    func check(_ transport: FakeOutboundHTTP, token: String = Fixtures.token()) -> VerificationError.Code? {
        let revocation = RevocationCheck(hearthURL: URL(string: "http://127.0.0.1:9099/")!, apiKey: "key+1", http: transport)
        do {
            _ = try verifier.verify(token, checkRevoked: revocation)
            return nil
        } catch {
            return error.code
        }
    }

    func envelope(_ code: String) -> String {
        #"{"error":{"code":400,"message":"\#(code)","errors":[{"message":"\#(code)","domain":"global","reason":"invalid"}]}}"#
    }

    func user(_ fields: String = "") -> String {
        #"{"kind":"identitytoolkit#GetAccountInfoResponse","users":[{"localId":"uid-123"\#(fields)}]}"#
    }

    @Test("an active user passes, and the lookup carries the token and the API key")
    func activeUser() throws {
        let transport = FakeOutboundHTTP(.text(status: 200, user(#","validSince":"\#(issuedAt)""#)))
        let token = Fixtures.token()
        #expect(check(transport, token: token) == nil)
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:lookup?key=key%2B1")
        let body = try JSONDecoder().decode([String: String].self, from: try #require(request.body))
        #expect(body == ["idToken": token])
    }

    @Test("a tenant's token is looked up in its tenant (tenantId in the lookup)")
    func tenantLookup() throws {
        let transport = FakeOutboundHTTP(.text(status: 200, user()))
        let token = Fixtures.token(claims: Fixtures.claims(["firebase": ["sign_in_provider": "password", "tenant": "acme-x4k2q"]]))
        #expect(check(transport, token: token) == nil)
        let body = try JSONDecoder().decode([String: String].self, from: try #require(transport.requests.first?.body))
        #expect(body == ["idToken": token, "tenantId": "acme-x4k2q"])
        let mismatch = FakeOutboundHTTP(.text(status: 400, envelope("TENANT_ID_MISMATCH")))
        #expect(check(mismatch, token: token) == .revocationCheckFailed)
    }

    @Test("Hearth's refusals map to revoked, userDisabled and userNotFound")
    func refusals() {
        #expect(check(FakeOutboundHTTP(.text(status: 400, envelope("TOKEN_EXPIRED")))) == .revoked)
        #expect(check(FakeOutboundHTTP(.text(status: 400, envelope("USER_DISABLED")))) == .userDisabled)
        #expect(check(FakeOutboundHTTP(.text(status: 400, envelope("USER_NOT_FOUND")))) == .userNotFound)
        #expect(check(FakeOutboundHTTP(.text(status: 400, envelope("INVALID_ID_TOKEN")))) == .revocationCheckFailed)
    }

    @Test("a user record that is disabled, revoked after iat, or missing is refused")
    func userRecord() {
        #expect(check(FakeOutboundHTTP(.text(status: 200, user(#","disabled":true"#)))) == .userDisabled)
        #expect(check(FakeOutboundHTTP(.text(status: 200, user(#","disabled":false"#)))) == nil)
        #expect(check(FakeOutboundHTTP(.text(status: 200, user(#","validSince":"\#(issuedAt + 1)""#)))) == .revoked)
        #expect(check(FakeOutboundHTTP(.text(status: 200, #"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#))) == .userNotFound)
    }

    @Test("no answer, a server error or a nonsense answer is revocationCheckFailed (503)")
    func failures() {
        #expect(check(FakeOutboundHTTP(.unreachable)) == .revocationCheckFailed)
        #expect(check(FakeOutboundHTTP(.text(status: 500, "<html>oops</html>"))) == .revocationCheckFailed)
        #expect(check(FakeOutboundHTTP(.text(status: 200, "[]"))) == .revocationCheckFailed)
        #expect(check(FakeOutboundHTTP(.text(status: 200, #"{"users":[{"localId":"someone-else"}]}"#))) == .revocationCheckFailed)
        #expect(VerificationError(.revocationCheckFailed, reason: "").httpStatus == 503)
    }

    @Test("a token that fails verification is not looked up")
    func verifiesFirst() {
        let transport = FakeOutboundHTTP(.text(status: 200, user()))
        #expect(check(transport, token: Fixtures.token(key: Fixtures.outsiderKey)) == .invalidSignature)
        #expect(transport.requests.isEmpty)
    }

    @Test("the async variant checks revocation too")
    func asyncVariant() async {
        let revocation = RevocationCheck(
            hearthURL: URL(string: "http://127.0.0.1:9099")!, apiKey: "k",
            http: FakeOutboundHTTP(.text(status: 400, envelope("TOKEN_EXPIRED"))))
        await #expect(throws: VerificationError(.revoked, reason: "")) {
            _ = try await verifier.verify(Fixtures.token(), checkRevoked: revocation)
        }
    }
}
