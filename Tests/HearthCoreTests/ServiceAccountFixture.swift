import Foundation
import HearthCore
import HearthCrypto
import HearthProtocol
import JOSE

/// A service account made as `hearth service-accounts create` makes one, stored in a test platform, with
/// its private key (read back from the key file) to sign what its owner would.
struct TestServiceAccount {
    let record: ServiceAccountRecord
    let keyFile: [String: String]
    let privateKey: RSAPrivateKey

    static let tokenEndpoint = "http://hearth.test/oauth2/token"

    init(_ test: TestPlatform, name: String = "backend-api") throws {
        let made = try NewServiceAccount.make(
            name: name, projectID: TestPlatform.projectID, tokenURI: Self.tokenEndpoint,
            createdAt: test.time.nowSeconds)
        record = made.record
        keyFile = try JSONDecoder().decode([String: String].self, from: made.keyFile)
        privateKey = try RSAPrivateKey(pemRepresentation: keyFile["private_key"] ?? "")
        try test.store.write { try $0.insertServiceAccount(made.record) }
    }

    var email: String { record.email }

    /// Signs `claims` as google-auth does: RS256 with `kid` = `private_key_id`; `keyID: nil` leaves the `kid` out
    /// (as firebase-admin for Node does), and `key` signs with another key.
    func sign(_ claims: [String: JSONValue], keyID: String?? = .none, key: RSAPrivateKey? = nil) throws -> String {
        let signingKey = key ?? privateKey
        switch keyID {
        case .none:
            return try Fixture.sign(claims, key: signingKey, keyID: record.keyID)
        case .some(let chosen?):
            return try Fixture.sign(claims, key: signingKey, keyID: chosen)
        case .some(nil):
            let header = Base64URL.encode(Data(#"{"alg":"RS256","typ":"JWT"}"#.utf8))
            let input = header + "." + Base64URL.encode(JSONValue.object(claims).jsonData())
            return input + "." + Base64URL.encode(try signingKey.signSHA256(Array(input.utf8)))
        }
    }

    /// The assertion google-auth's `service_account.Credentials` makes (`_make_authorization_grant_assertion`).
    func grantClaims(now: Int64, overrides: [String: JSONValue] = [:]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iat": .integer(now), "exp": .integer(now + 3600), "iss": .string(email),
            "aud": "https://oauth2.googleapis.com/token",
            "scope": "https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/userinfo.email",
        ]
        for (key, value) in overrides {
            if value == .null { claims.removeValue(forKey: key) } else { claims[key] = value }
        }
        return claims
    }

    /// The custom token firebase-admin's `create_custom_token(uid, claims)` makes.
    func customTokenClaims(uid: String, now: Int64, claims developerClaims: [String: JSONValue]? = nil,
                           overrides: [String: JSONValue] = [:]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(email), "sub": .string(email), "aud": .string(CustomTokenSignIn.audience),
            "uid": .string(uid), "iat": .integer(now), "exp": .integer(now + 3600),
        ]
        if let developerClaims { claims["claims"] = .object(developerClaims) }
        for (key, value) in overrides {
            if value == .null { claims.removeValue(forKey: key) } else { claims[key] = value }
        }
        return claims
    }
}

/// The unsigned custom token firebase-admin (Python) makes in emulator mode: `{"alg":"none"}`, empty signature.
func unsignedToken(_ claims: [String: JSONValue]) -> String {
    Base64URL.encode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + Base64URL.encode(JSONValue.object(claims).jsonData())
        + "."
}

/// The OAuth error `body` threw (`error` and the status), or nil if it returned.
func oauthError(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as OAuthError {
        return error.error
    } catch {
        return "NOT_AN_OAUTH_ERROR \(error)"
    }
}
