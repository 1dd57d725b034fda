import Foundation
import HearthProtocol
import HearthVerify
import Synchronization
import Testing

/// Answers every POST with a canned status and body, and records what was sent.
final class FakeTransport: HTTPTransport {
    private let answer: Mutex<Result<(Int, Data), FakeFetcher.Failure>>
    private let sent = Mutex<[(URL, Data)]>([])

    init(status: Int, json: String) {
        answer = Mutex(.success((status, Data(json.utf8))))
    }

    init(failing: Void) {
        answer = Mutex(.failure(FakeFetcher.Failure()))
    }

    var requests: [(url: URL, body: Data)] { sent.withLock { $0 } }

    func postJSON(_ body: Data, to url: URL) throws -> (status: Int, body: Data) {
        sent.withLock { $0.append((url, body)) }
        let (status, data) = try answer.withLock { $0 }.get()
        return (status, data)
    }
}

@Suite("RevocationCheck (fake transport)")
struct RevocationCheckTests {
    let clock = ManualClock()
    let fetcher = FakeFetcher()
    let verifier: IDTokenVerifier

    init() {
        verifier = Fixtures.verifier(fetcher: fetcher, clock: clock)
    }
    /// The fixture token's iat.
    var issuedAt: Int { Int(Fixtures.start.timeIntervalSince1970) - 10 }

    func check(_ transport: FakeTransport, token: String = Fixtures.token()) -> VerificationError.Code? {
        let revocation = RevocationCheck(hearthURL: URL(string: "http://127.0.0.1:9099/")!, apiKey: "key+1", transport: transport)
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
        let transport = FakeTransport(status: 200, json: user(#","validSince":"\#(issuedAt)""#))
        let token = Fixtures.token()
        #expect(check(transport, token: token) == nil)
        let request = try #require(transport.requests.first)
        #expect(request.url.absoluteString == "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/accounts:lookup?key=key%2B1")
        let body = try JSONDecoder().decode([String: String].self, from: request.body)
        #expect(body == ["idToken": token])
    }

    @Test("Hearth's refusals map to revoked, userDisabled and userNotFound")
    func refusals() {
        #expect(check(FakeTransport(status: 400, json: envelope("TOKEN_EXPIRED"))) == .revoked)
        #expect(check(FakeTransport(status: 400, json: envelope("USER_DISABLED"))) == .userDisabled)
        #expect(check(FakeTransport(status: 400, json: envelope("USER_NOT_FOUND"))) == .userNotFound)
        #expect(check(FakeTransport(status: 400, json: envelope("INVALID_ID_TOKEN"))) == .revocationCheckFailed)
    }

    @Test("a user record that is disabled, revoked after iat, or missing is refused")
    func userRecord() {
        #expect(check(FakeTransport(status: 200, json: user(#","disabled":true"#))) == .userDisabled)
        #expect(check(FakeTransport(status: 200, json: user(#","disabled":false"#))) == nil)
        #expect(check(FakeTransport(status: 200, json: user(#","validSince":"\#(issuedAt + 1)""#))) == .revoked)
        #expect(check(FakeTransport(status: 200, json: #"{"kind":"identitytoolkit#GetAccountInfoResponse"}"#)) == .userNotFound)
    }

    @Test("no answer, a server error or a nonsense answer is revocationCheckFailed (503)")
    func failures() {
        #expect(check(FakeTransport(failing: ())) == .revocationCheckFailed)
        #expect(check(FakeTransport(status: 500, json: "<html>oops</html>")) == .revocationCheckFailed)
        #expect(check(FakeTransport(status: 200, json: "[]")) == .revocationCheckFailed)
        #expect(check(FakeTransport(status: 200, json: #"{"users":[{"localId":"someone-else"}]}"#)) == .revocationCheckFailed)
        #expect(VerificationError(.revocationCheckFailed, reason: "").httpStatus == 503)
    }

    @Test("a token that fails verification is not looked up")
    func verifiesFirst() {
        let transport = FakeTransport(status: 200, json: user())
        #expect(check(transport, token: Fixtures.token(key: Fixtures.outsiderKey)) == .invalidSignature)
        #expect(transport.requests.isEmpty)
    }

    @Test("the async variant checks revocation too")
    func asyncVariant() async {
        let revocation = RevocationCheck(
            hearthURL: URL(string: "http://127.0.0.1:9099")!, apiKey: "k",
            transport: FakeTransport(status: 400, json: envelope("TOKEN_EXPIRED")))
        await #expect(throws: VerificationError(.revoked, reason: "")) {
            _ = try await verifier.verify(Fixtures.token(), checkRevoked: revocation)
        }
    }
}
