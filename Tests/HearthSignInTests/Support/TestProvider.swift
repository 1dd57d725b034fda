import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthCrypto
import HearthProtocol
import JOSE
@testable import HearthSignIn

/// One test key for the whole run: RSA generation is the slow part of these tests.
enum TestKeys {
    static let signing = try! RSAPrivateKey.generate()
    static let other = try! RSAPrivateKey.generate()
    static let keyID = "test-key-1"
}

/// A request the fake transport received.
struct RecordedRequest: Sendable {
    var method: String
    var url: URL
    var headers: [String: String]
    var body: Data

    var path: String { url.path }
    var form: [String: String] {
        Dictionary(FormEncoding.decode(String(decoding: body, as: UTF8.self)).map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    }
    var formPairs: [String] {
        FormEncoding.decode(String(decoding: body, as: UTF8.self)).map { "\($0.name)=\($0.value)" }
    }
}

/// An OpenID provider in memory, served through ``SignInTransport``: discovery, JWKS, token, userinfo, revoke.
/// The test holds its RSA key, so it can mint any ID token it wants.
final class TestProvider: SignInTransport, @unchecked Sendable {
    // @unchecked: all mutable state sits in `state`, behind a lock.
    struct State {
        var requests: [RecordedRequest] = []
        /// The last authorization request's parameters, as the fake browser saw them.
        var authorization: [String: String] = [:]
        /// JWKS documents served in turn; the last one repeats.
        var keySets: [Data] = []
        /// Changes the claims of every ID token the token endpoint mints.
        var adjustClaims: @Sendable ([String: JSONValue]) -> [String: JSONValue] = { $0 }
        /// Replaces the token endpoint's answer.
        var tokenAnswer: (@Sendable ([String: String]) -> (Int, JSONValue))?
        var userInfo: (Int, JSONValue) = (
            200,
            [
                "sub": "110169484474386276334", "email": "jane@example.com", "name": "Jane From Userinfo", "given_name": "Jane",
                "family_name": "Userinfo", "picture": "https://example.com/jane.png",
            ]
        )
        var revokeAnswer: @Sendable (String) -> (Int, JSONValue) = { _ in (200, [:]) }
        var issuedAccessTokens = 0
        var discoveryIssuer: String?
        /// When set, token requests wait here until the test opens it.
        var tokenGate: Gate?
    }

    let issuer: String
    let clientID: String
    let now: @Sendable () -> Date
    let state = Locked(State())

    init(
        issuer: String = "https://idp.test/google", clientID: String = "test-client.apps.googleusercontent.com",
        now: @escaping @Sendable () -> Date
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.now = now
        state.withLock { $0.keySets = [Self.keySet([(TestKeys.signing, TestKeys.keyID)])] }
    }

    static func keySet(_ keys: [(RSAPrivateKey, String)]) -> Data {
        let set = JSONWebKeySet(keys: keys.map { JSONWebKey(publicKey: $0.0.publicKey, keyID: $0.1) })
        return try! JSONEncoder().encode(set)
    }

    var requests: [RecordedRequest] { state.current.requests }

    func requests(to path: String) -> [RecordedRequest] {
        requests.filter { $0.path.hasSuffix(path) }
    }

    var configuration: SignInConfiguration {
        SignInConfiguration(clientID: clientID, issuer: URL(string: issuer)!)
    }

    // MARK: ID tokens

    /// Google-shaped claims for the last authorization request.
    func defaultClaims(nonce: String? = nil) -> [String: JSONValue] {
        let seconds = Int64(now().timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "aud": .string(clientID), "azp": .string(clientID), "sub": "110169484474386276334",
            "email": "jane@example.com", "email_verified": true, "iat": .integer(seconds), "exp": .integer(seconds + 3600),
        ]
        if let nonce = nonce ?? state.current.authorization["nonce"] { claims["nonce"] = .string(nonce) }
        return claims
    }

    func sign(_ claims: [String: JSONValue], key: RSAPrivateKey = TestKeys.signing, keyID: String = TestKeys.keyID) -> String {
        try! JWTSigner(privateKey: key, keyID: keyID).sign(payload: JSONValue.object(claims).jsonData())
    }

    // MARK: SignInTransport

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let url = request.url!
        let recorded = RecordedRequest(
            method: request.httpMethod ?? "GET", url: url, headers: request.allHTTPHeaderFields ?? [:],
            body: request.httpBody ?? Data())
        let snapshot = state.withLock { state -> State in
            state.requests.append(recorded)
            return state
        }
        if recorded.path.hasSuffix("/token"), let gate = snapshot.tokenGate { await gate.wait() }
        let (status, body): (Int, Data) = route(recorded, snapshot)
        let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
        return (body, response)
    }

    private func route(_ request: RecordedRequest, _ snapshot: State) -> (Int, Data) {
        let base = URL(string: issuer)!.path
        switch String(request.path.dropFirst(base.count)) {
        case "/.well-known/openid-configuration":
            let document: JSONValue = [
                "issuer": .string(snapshot.discoveryIssuer ?? issuer),
                "authorization_endpoint": .string(issuer + "/o/oauth2/v2/auth"),
                "token_endpoint": .string(issuer + "/token"),
                "userinfo_endpoint": .string(issuer + "/oauth2/v3/userinfo"),
                "revocation_endpoint": .string(issuer + "/revoke"),
                "jwks_uri": .string(issuer + "/oauth2/v3/certs"),
            ]
            return (200, document.jsonData())
        case "/oauth2/v3/certs", "/auth/keys":
            let served = requests(to: request.path).count
            return (200, snapshot.keySets[min(served - 1, snapshot.keySets.count - 1)])
        case "/token":
            let form = request.form
            if let answer = snapshot.tokenAnswer {
                let (status, json) = answer(form)
                return (status, json.jsonData())
            }
            return (200, mintTokens(form: form, snapshot: snapshot).jsonData())
        case "/oauth2/v3/userinfo":
            return (snapshot.userInfo.0, snapshot.userInfo.1.jsonData())
        case "/revoke":
            let (status, json) = snapshot.revokeAnswer(request.form["token"] ?? "")
            return (status, json.jsonData())
        default:
            return (404, Data("{}".utf8))
        }
    }

    /// A Google-like token response: new access token each time, a refresh token for codes, an ID token.
    func mintTokens(form: [String: String], snapshot: State) -> JSONValue {
        let count = state.withLock { state -> Int in
            state.issuedAccessTokens += 1
            return state.issuedAccessTokens
        }
        let isCode = form["grant_type"] == "authorization_code"
        var claims = defaultClaims(nonce: isCode ? snapshot.authorization["nonce"] : nil)
        if !isCode { claims["nonce"] = nil }
        var response: [String: JSONValue] = [
            "access_token": .string("access-\(count)"), "expires_in": 3599, "token_type": "Bearer",
            "scope": "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
            "id_token": .string(sign(snapshot.adjustClaims(claims))),
        ]
        if isCode { response["refresh_token"] = "refresh-1" }
        if form["audience"] != nil { response["server_code"] = "server-code-1" }
        return .object(response)
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let current: Locked<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Locked(start)
    }

    var now: Date { current.current }
    var closure: @Sendable () -> Date { { [current] in current.current } }

    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// A one-shot latch: waiters suspend until `open()`.
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
