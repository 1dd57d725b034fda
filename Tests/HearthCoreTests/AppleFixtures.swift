import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import JOSE
import Synchronization

/// An Apple stand-in whose signing key the tests hold: `iss` `https://appleid.apple.com`, its own RSA key.
final class FakeApple: OpenIDIssuer {
    static let clientID = "com.example.portfolio"
    private let issuer: StaticIssuer
    let time: any TimeSource

    init(time: any TimeSource) throws {
        self.time = time
        issuer = StaticIssuer(issuerNames: [IdentityProvider.appleIssuer], key: try Fixture.key(named: "apple"))
    }

    var issuerNames: Set<String> { issuer.issuerNames }
    var keyID: String { issuer.keyID }

    func verificationKeys(forceRefresh: Bool) throws -> JWTKeySet { try issuer.verificationKeys(forceRefresh: forceRefresh) }

    /// Apple's claim set for `subject` (booleans as strings, as Apple often sends them), the nonce hashed, with
    /// `overrides` applied (a `.null` removes a claim).
    func claims(
        subject: String, email: String? = nil, rawNonce: String? = nil, overrides: [String: JSONValue] = [:]
    ) -> [String: JSONValue] {
        let now = time.nowSeconds
        var claims: [String: JSONValue] = [
            "iss": .string(IdentityProvider.appleIssuer), "aud": .string(Self.clientID), "sub": .string(subject),
            "iat": .integer(now), "exp": .integer(now + 600), "auth_time": .integer(now), "nonce_supported": true,
            "real_user_status": 2,
        ]
        if let email {
            claims["email"] = .string(email)
            claims["email_verified"] = "true"
            claims["is_private_email"] = email.hasSuffix("@privaterelay.appleid.com") ? "true" : "false"
        }
        if let rawNonce { claims["nonce"] = .string(Fixture.sha256Hex(rawNonce)) }
        for (key, value) in overrides {
            if value == .null { claims.removeValue(forKey: key) } else { claims[key] = value }
        }
        return claims
    }

    func idToken(_ claims: [String: JSONValue]) throws -> String { try issuer.sign(claims) }

    /// The request `OAuthProvider.appleCredential(withIDToken:rawNonce:fullName:)` makes the iOS SDK send: the
    /// `user` name blob only when a given or family name is known, as JSON with sorted keys.
    static func request(
        idToken: String, rawNonce: String?, firstName: String? = nil, lastName: String? = nil, user: String? = nil,
        linking firebaseIDToken: String? = nil
    ) -> SignInWithIdpRequest {
        var pairs = [("providerId", IdentityProvider.appleID), ("id_token", idToken)]
        if let rawNonce { pairs.append(("nonce", rawNonce)) }
        var name: [String: JSONValue] = [:]
        name["firstName"] = firstName.map(JSONValue.string)
        name["lastName"] = lastName.map(JSONValue.string)
        if !name.isEmpty {
            pairs.append(("user", String(decoding: JSONValue.object(["name": .object(name)]).jsonData(sortedKeys: true), as: UTF8.self)))
        } else if let user {
            pairs.append(("user", user))
        }
        return SignInWithIdpRequest(
            requestUri: "http://localhost", postBody: FormEncoding.encode(pairs), returnSecureToken: true,
            returnIdpCredential: true, autoCreate: true, idToken: firebaseIDToken)
    }
}

extension Fixture {
    private static let namedKeys = Mutex<[String: RSAPrivateKey]>([:])

    /// An RSA key for `name`, made once per test run (generation is slow).
    static func key(named name: String) throws -> RSAPrivateKey {
        try namedKeys.withLock { keys in
            if let key = keys[name] { return key }
            let key = try RSAPrivateKey.generate(bits: 2048)
            keys[name] = key
            return key
        }
    }
}
