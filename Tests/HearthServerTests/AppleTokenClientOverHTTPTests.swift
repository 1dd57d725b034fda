import Foundation
import HearthCore
import HearthCrypto
import HearthHTTP
import HearthOutbound
import HearthProtocol
import HearthProviders
import HearthServer
import JOSE
import Synchronization
import Testing

/// A fake Apple at `/fake/apple/auth/token` and `/auth/revoke` that checks what Apple checks: the form fields and a
/// client secret signed by the expected key with the expected claims.
private final class FakeApple: Sendable {
    /// The forms received, oldest first.
    final class Forms: Sendable {
        private let storage = Mutex<[[String: String]]>([])
        func append(_ form: [String: String]) { storage.withLock { $0.append(form) } }
        var last: [String: String]? { storage.withLock { $0.last } }
    }

    /// The client-secret claims Apple checks.
    struct Claims: Decodable {
        var iss, aud, sub: String
        var iat, exp: Int64
    }

    let server: HTTPServer
    let forms = Forms()

    init(key: P256PublicKey, keyID: String, teamID: String) throws {
        var keySet = JWTKeySet()
        keySet.add(key, keyID: keyID)
        let keys = keySet
        let forms = self.forms
        server = HTTPServer(configuration: .init(port: 0)) { request in
            guard request.method == .post, request.headers["Content-Type"] == "application/x-www-form-urlencoded" else {
                return .json(Data(#"{"error":"invalid_request"}"#.utf8), status: 400)
            }
            var form: [String: String] = [:]
            for (name, value) in FormEncoding.decode(String(decoding: request.body, as: UTF8.self)) { form[name] = value }
            forms.append(form)
            guard let secret = form["client_secret"], let claims = try? keys.verify(secret).claims(as: Claims.self),
                claims.iss == teamID, claims.aud == "https://appleid.apple.com", claims.sub == form["client_id"],
                claims.exp > claims.iat
            else {
                return .json(Data(#"{"error":"invalid_client"}"#.utf8), status: 400)
            }
            switch request.path {
            case "/fake/apple/auth/token" where form["grant_type"] == "authorization_code" && form["code"] == "c.good":
                return .json(Data(#"{"access_token":"a.1","token_type":"Bearer","expires_in":3600,"refresh_token":"r.1","id_token":"i.1"}"#.utf8))
            case "/fake/apple/auth/token":
                return .json(Data(#"{"error":"invalid_grant"}"#.utf8), status: 400)
            case "/fake/apple/auth/revoke" where form["token_type_hint"] == "refresh_token":
                return HTTPResponse(status: 200)
            default:
                return .json(Data(#"{"error":"invalid_request"}"#.utf8), status: 400)
            }
        }
        try server.start()
    }

    var endpoint: URL { URL(string: "http://127.0.0.1:\(server.port)/fake/apple")! }

    deinit { server.shutdown(gracePeriod: .seconds(1)) }
}

@Suite("Apple's token and revocation endpoints over HTTP", .serialized)
struct AppleTokenClientOverHTTPTests {
    @Test("exchange and revoke reach a fake Apple as real form POSTs with a client secret it accepts")
    func roundTrip() throws {
        let key = try P256PrivateKey.generate()
        let apple = try FakeApple(key: key.publicKey, keyID: "KEY1234567", teamID: "ABCDE12345")
        let secrets = try AppleClientSecret(teamID: "ABCDE12345", keyID: "KEY1234567", privateKey: key, time: SystemTimeSource())
        let client = AppleTokenClient(clientSecret: secrets, http: URLSessionOutboundHTTP(timeout: 5), endpoint: apple.endpoint)

        let tokens = try client.exchange(code: "c.good", clientID: "com.example.app", redirectURI: "https://example.com/cb?x=1&y=2")
        #expect(tokens.refreshToken == "r.1" && tokens.idToken == "i.1" && tokens.accessToken == "a.1")
        #expect(apple.forms.last?["redirect_uri"] == "https://example.com/cb?x=1&y=2")
        #expect(throws: AppleClientError(.invalidGrant, reason: "")) {
            try client.exchange(code: "c.spent", clientID: "com.example.app", redirectURI: nil)
        }
        try client.revoke(token: "r.1", tokenTypeHint: .refreshToken, clientID: "com.example.app")
        #expect(apple.forms.last?["token"] == "r.1")

        // A secret signed by another key is Apple's invalid_client.
        let stranger = try AppleClientSecret(
            teamID: "ABCDE12345", keyID: "KEY1234567", privateKey: P256PrivateKey.generate(), time: SystemTimeSource())
        let wrong = AppleTokenClient(clientSecret: stranger, http: URLSessionOutboundHTTP(timeout: 5), endpoint: apple.endpoint)
        #expect(throws: AppleClientError(.invalidClient, reason: "")) {
            try wrong.revoke(token: "r.1", tokenTypeHint: .refreshToken, clientID: "com.example.app")
        }
    }

    @Test("nobody listening is a retryable failure")
    func unreachable() throws {
        let key = try P256PrivateKey.generate()
        let secrets = try AppleClientSecret(teamID: "ABCDE12345", keyID: "KEY1234567", privateKey: key, time: SystemTimeSource())
        let client = AppleTokenClient(
            clientSecret: secrets, http: URLSessionOutboundHTTP(timeout: 2), endpoint: URL(string: "http://127.0.0.1:9")!)
        do {
            try client.revoke(token: "r.1", tokenTypeHint: .refreshToken, clientID: "com.example.app")
            Issue.record("revoke succeeded with nobody listening")
        } catch {
            #expect(error.code == .unavailable && error.isRetryable)
        }
    }
}
