import Dispatch
import Foundation
import HearthCrypto
import HearthHTTP
import JOSE
import Synchronization

/// A Google stand-in the test controls: it serves a JWKS, tokeninfo and userinfo over HTTP (Hearth calls them for
/// real) and signs whatever claims a test needs, including broken ones. Its JWKS can be made to fail, and its
/// tokeninfo to hang until the test opens a gate, counting how many calls wait at once.
final class MockGoogle: Sendable {
    static let issuer = "https://mock-google.test"
    static let clientID = "mock-client.apps.googleusercontent.com"
    let key: RSAPrivateKey
    let keyID = "mock-key-1"
    private let server: HTTPServer
    private let state: Locked<State>
    private let gate: TokenInfoGate

    struct State: Sendable {
        var jwksFetches = 0
        var jwksFailing = false
        var tokenInfoCalls = 0
        var tokenInfoWaiting = 0
        var mostTokenInfoAtOnce = 0
    }

    /// Holds tokeninfo calls while closed (at most 60 s, so a broken server under test cannot hang the suite).
    final class TokenInfoGate: Sendable {
        private let group = DispatchGroup()
        private let isOpen = Locked(true)

        func close() {
            let wasOpen = isOpen.withLock { open in
                defer { open = false }
                return open
            }
            if wasOpen { group.enter() }
        }

        func open() {
            let wasOpen = isOpen.withLock { open in
                defer { open = true }
                return open
            }
            if !wasOpen { group.leave() }
        }

        func pass() { _ = group.wait(timeout: .now() + 60) }
    }

    init() throws {
        key = try MockGoogle.sharedKey()
        let jwks = try JSONEncoder().encode(JSONWebKeySet(keys: [JSONWebKey(publicKey: key.publicKey, keyID: keyID)]))
        let state = Locked(State())
        let gate = TokenInfoGate()
        self.state = state
        self.gate = gate
        // More threads than Hearth may send calls at once, so a missing bound would show as more waiting calls.
        server = HTTPServer(configuration: .init(port: 0, threadCount: 16)) { request in
            switch request.path {
            case "/certs":
                let failing = state.withLock { state in
                    state.jwksFetches += 1
                    return state.jwksFailing
                }
                if failing { return HTTPResponse(status: 503) }
                var response = HTTPResponse.json(jwks)
                response.headers["Cache-Control"] = "public, max-age=3600"
                return response
            case "/tokeninfo":
                return Self.tokenInfo(request.query["access_token"] ?? "", state: state, gate: gate)
            case "/userinfo":
                let bearer = request.headers["Authorization"] ?? ""
                guard bearer.hasPrefix("Bearer mock-at-") else { return HTTPResponse(status: 401) }
                let subject = String(bearer.dropFirst("Bearer mock-at-".count))
                return Self.json(["sub": subject, "email": "\(subject)@example.com", "email_verified": true, "name": "Mock \(subject)"])
            default:
                return HTTPResponse(status: 404)
            }
        }
        try server.start()
    }

    deinit {
        gate.open()
        server.shutdown(gracePeriod: .seconds(1))
    }

    /// Google's tokeninfo for access tokens `mock-at-<subject>`: audience this client, an hour left.
    private static func tokenInfo(_ accessToken: String, state: Locked<State>, gate: TokenInfoGate) -> HTTPResponse {
        state.withLock { state in
            state.tokenInfoCalls += 1
            state.tokenInfoWaiting += 1
            state.mostTokenInfoAtOnce = max(state.mostTokenInfoAtOnce, state.tokenInfoWaiting)
        }
        gate.pass()
        state.withLock { $0.tokenInfoWaiting -= 1 }
        guard accessToken.hasPrefix("mock-at-") else { return json(["error": "invalid_token"], status: 400) }
        let subject = String(accessToken.dropFirst("mock-at-".count))
        return json([
            "azp": clientID, "aud": clientID, "sub": subject, "scope": "openid email profile", "expires_in": "3599",
            "access_type": "online",
        ])
    }

    private static func json(_ object: [String: Any], status: Int = 200) -> HTTPResponse {
        HTTPResponse.json((try? JSONSerialization.data(withJSONObject: object)) ?? Data(), status: status)
    }

    var fetchCount: Int { state.value.jwksFetches }
    var tokenInfoCalls: Int { state.value.tokenInfoCalls }
    /// The tokeninfo calls once there are at least `count`, or after `timeout` seconds. A call is counted when
    /// the mock's handler runs, which on a loaded machine can be after Hearth has already given up on it.
    func tokenInfoCalls(reaching count: Int, timeout: TimeInterval = 10) -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        while tokenInfoCalls < count && Date() < deadline { usleep(20_000) }
        return tokenInfoCalls
    }
    var tokenInfoWaiting: Int { state.value.tokenInfoWaiting }
    var mostTokenInfoAtOnce: Int { state.value.mostTokenInfoAtOnce }

    /// Makes the JWKS endpoint answer 503 (or serve again).
    func failJWKS(_ failing: Bool = true) { state.withLock { $0.jwksFailing = failing } }
    /// Holds tokeninfo calls until ``openTokenInfo()``.
    func holdTokenInfo() { gate.close() }
    func openTokenInfo() { gate.open() }

    private static let cached = Mutex<RSAPrivateKey?>(nil)
    static func sharedKey() throws -> RSAPrivateKey {
        try cached.withLock { key in
            if let key { return key }
            let new = try RSAPrivateKey.generate()
            key = new
            return new
        }
    }

    /// Where this stand-in serves its keys.
    var jwksURI: String { "http://127.0.0.1:\(server.port)/certs" }

    /// A config file that makes Hearth trust this issuer for Google sign-in, with `extra` settings merged in.
    func configFile(in directory: URL, extra: [String: Any] = [:]) throws -> URL {
        let url = directory.appendingPathComponent("hearth-test-config.json")
        let base = "http://127.0.0.1:\(server.port)"
        var config: [String: Any] = [
            "googleClientIds": [Self.clientID],
            "googleIssuers": [[
                "issuer": Self.issuer, "jwksUri": base + "/certs", "tokeninfoUri": base + "/tokeninfo",
                "userinfoUri": base + "/userinfo",
            ]],
        ]
        config.merge(extra, uniquingKeysWith: { _, new in new })
        try JSONSerialization.data(withJSONObject: config).write(to: url)
        return url
    }

    func claims(subject: String, email: String? = nil, emailVerified: Bool = true) -> [String: Any] {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": Self.issuer, "aud": Self.clientID, "azp": Self.clientID, "sub": subject, "iat": now, "exp": now + 3600,
            "name": "Mock \(subject)",
        ]
        if let email {
            claims["email"] = email
            claims["email_verified"] = emailVerified
        }
        return claims
    }

    func sign(_ claims: [String: Any], keyID: String? = nil, with key: RSAPrivateKey? = nil) throws -> String {
        let signer = JWTSigner(privateKey: key ?? self.key, keyID: keyID ?? self.keyID)
        return try signer.sign(payload: JSONSerialization.data(withJSONObject: claims))
    }

    /// A correctly signed token whose claims are `claims` with one member written as raw JSON text (`"exp"`,
    /// `"1e300"`), so numbers reach Hearth exactly as spelled.
    func sign(_ claims: [String: Any], raw name: String, _ literal: String) throws -> String {
        var others = claims
        others.removeValue(forKey: name)
        let rest = try JSONSerialization.data(withJSONObject: others, options: [.sortedKeys])
        let text = "{\"\(name)\":\(literal)," + String(decoding: rest.dropFirst(), as: UTF8.self)
        return try JWTSigner(privateKey: key, keyID: keyID).sign(payload: Data(text.utf8))
    }

    /// A token with `{"alg":"none"}` and an empty signature.
    func unsigned(_ claims: [String: Any]) throws -> String {
        let header = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        return header + "." + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims)) + "."
    }
}
