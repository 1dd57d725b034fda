import Foundation
import HearthCrypto
import HearthHTTP
import JOSE

/// Apple's token issuer as the test controls it: the JWKS at `/auth/keys` over HTTP (Hearth fetches it for real),
/// RS256 ID tokens with Apple's claims and `iss` `https://appleid.apple.com`, signed with whatever the test needs, and
/// the token and revoke endpoints (``FakeAppleTokenEndpoints``).
final class FakeAppleIssuer: Sendable {
    static let issuer = "https://appleid.apple.com"
    static let clientID = "com.example.portfolio"
    let key: RSAPrivateKey
    let keyID = "fake-apple-1"
    /// `/auth/token` and `/auth/revoke`: what Hearth sent there, and how they answer.
    let tokens: FakeAppleTokenEndpoints
    private let server: HTTPServer
    private let fetches: Locked<Int>

    init() throws {
        key = try MockGoogle.sharedKey()
        let jwks = try JSONEncoder().encode(JSONWebKeySet(keys: [JSONWebKey(publicKey: key.publicKey, keyID: keyID)]))
        let signer = JWTSigner(privateKey: key, keyID: keyID)
        /// The ID token of a code's exchange, for the Apple ID the code was issued for.
        let exchangedIDToken = { @Sendable (subject: String) -> String in
            let now = Int(Date().timeIntervalSince1970)
            let claims: [String: Any] = ["iss": Self.issuer, "aud": Self.clientID, "sub": subject, "iat": now, "exp": now + 600]
            return (try? signer.sign(payload: JSONSerialization.data(withJSONObject: claims))) ?? ""
        }
        let fetches = Locked(0)
        self.fetches = fetches
        let tokens = FakeAppleTokenEndpoints()
        self.tokens = tokens
        server = HTTPServer(configuration: .init(port: 0, threadCount: 2)) { [tokens] request in
            guard request.path == "/auth/keys" else { return tokens.handle(request, idToken: exchangedIDToken) }
            fetches.withLock { $0 += 1 }
            return HTTPResponse.json(jwks)
        }
        try server.start()
    }

    deinit { server.shutdown(gracePeriod: .seconds(1)) }

    /// Where Hearth's `apple.endpoint` points.
    var endpoint: String { "http://127.0.0.1:\(server.port)" }
    var keyFetches: Int { fetches.value }

    /// Apple's claims for `subject`: booleans as strings, `nonce` the SHA-256 (hex) of `rawNonce`.
    func claims(subject: String, email: String?, rawNonce: String?) -> [String: Any] {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": Self.issuer, "aud": Self.clientID, "sub": subject, "iat": now, "exp": now + 600, "auth_time": now,
            "nonce_supported": true, "real_user_status": 2,
        ]
        if let email {
            claims["email"] = email
            claims["email_verified"] = "true"
            claims["is_private_email"] = email.hasSuffix("@privaterelay.appleid.com") ? "true" : "false"
        }
        if let rawNonce { claims["nonce"] = SHA256.hash(rawNonce).map { String(format: "%02x", $0) }.joined() }
        return claims
    }

    func sign(_ claims: [String: Any], with key: RSAPrivateKey? = nil) throws -> String {
        try JWTSigner(privateKey: key ?? self.key, keyID: keyID).sign(payload: JSONSerialization.data(withJSONObject: claims))
    }
}

extension FirebaseIOSClient {
    /// `verifyAssertion` as `Auth.signIn(with: OAuthProvider.appleCredential(withIDToken:rawNonce:fullName:))` sends
    /// it: `user` only when a given or family name is known, as JSON with sorted keys.
    func verifyAppleAssertion(
        idToken: String, rawNonce: String?, firstName: String? = nil, lastName: String? = nil,
        linking firebaseIDToken: String? = nil
    ) throws -> HTTPResult {
        var items = [URLQueryItem(name: "providerId", value: "apple.com"), URLQueryItem(name: "id_token", value: idToken)]
        if let rawNonce { items.append(URLQueryItem(name: "nonce", value: rawNonce)) }
        var name: [String: String] = [:]
        name["firstName"] = firstName
        name["lastName"] = lastName
        if !name.isEmpty {
            let user = try JSONSerialization.data(withJSONObject: ["name": name], options: [.sortedKeys])
            items.append(URLQueryItem(name: "user", value: String(decoding: user, as: UTF8.self)))
        }
        return try verifyAssertion(postBody: items, linking: firebaseIDToken)
    }
}
