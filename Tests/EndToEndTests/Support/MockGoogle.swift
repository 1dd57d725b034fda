import Foundation
import HearthCrypto
import HearthHTTP
import JOSE
import Synchronization

/// A Google stand-in the test controls: it serves a JWKS over HTTP (Hearth fetches it for real) and
/// signs whatever claims a test needs, including broken ones.
final class MockGoogle: Sendable {
    static let issuer = "https://mock-google.test"
    static let clientID = "mock-client.apps.googleusercontent.com"
    let key: RSAPrivateKey
    let keyID = "mock-key-1"
    private let server: HTTPServer
    private let jwksFetches = Locked(0)

    init() throws {
        key = try MockGoogle.sharedKey()
        let jwks = try JSONEncoder().encode(JSONWebKeySet(keys: [JSONWebKey(publicKey: key.publicKey, keyID: keyID)]))
        let fetches = jwksFetches
        server = HTTPServer(configuration: .init(port: 0, threadCount: 2)) { request in
            guard request.path == "/certs" else { return HTTPResponse(status: 404) }
            fetches.withLock { $0 += 1 }
            var response = HTTPResponse.json(jwks)
            response.headers["Cache-Control"] = "public, max-age=3600"
            return response
        }
        try server.start()
    }

    deinit { server.shutdown(gracePeriod: .seconds(1)) }

    var fetchCount: Int { jwksFetches.value }

    private static let cached = Mutex<RSAPrivateKey?>(nil)
    static func sharedKey() throws -> RSAPrivateKey {
        try cached.withLock { key in
            if let key { return key }
            let new = try RSAPrivateKey.generate()
            key = new
            return new
        }
    }

    /// A config file that makes Hearth trust this issuer for Google sign-in.
    func configFile(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("hearth-test-config.json")
        let config: [String: Any] = [
            "googleClientIds": [Self.clientID],
            "googleIssuers": [["issuer": Self.issuer, "jwksUri": "http://127.0.0.1:\(server.port)/certs"]],
        ]
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

    /// A token with `{"alg":"none"}` and an empty signature.
    func unsigned(_ claims: [String: Any]) throws -> String {
        let header = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        return header + "." + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims)) + "."
    }
}
