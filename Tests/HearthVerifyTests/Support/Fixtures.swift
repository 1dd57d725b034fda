import Foundation
import HearthCrypto
import HearthVerify
import JOSE
import OutboundTesting
import Synchronization

/// Test-held signing keys, the verifier's configuration, and a token factory.
enum Fixtures {
    static let projectID = "demo-hearth"
    static let issuer = "http://127.0.0.1:9099/demo-hearth"
    static let jwksURL = URL(string: "http://127.0.0.1:9099/.well-known/jwks.json")!
    /// The clock's starting time in every unit test.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    // Generated once per test run; RSA key generation is the slow part of these tests.
    static let keyA = try! RSAPrivateKey.generate(bits: 2048)
    static let keyB = try! RSAPrivateKey.generate(bits: 2048)
    static let outsiderKey = try! RSAPrivateKey.generate(bits: 2048)

    static func jwks(_ keys: [(RSAPrivateKey, String)]) -> JSONWebKeySet {
        JSONWebKeySet(keys: keys.map { JSONWebKey(publicKey: $0.0.publicKey, keyID: $0.1) })
    }

    /// The claims of a fresh Hearth ID token at `now`, with `overrides` applied (a `nil` value removes the claim).
    static func claims(now: Date = start, _ overrides: [String: Any?] = [:]) -> [String: Any] {
        let seconds = Int(now.timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": issuer, "aud": projectID, "sub": "uid-123", "user_id": "uid-123",
            "iat": seconds - 10, "exp": seconds + 3590, "auth_time": seconds - 100,
            "email": "ada@example.com", "email_verified": true, "name": "Ada",
            "firebase": ["sign_in_provider": "google.com", "identities": ["google.com": ["1082"]]] as [String: Any],
        ]
        for (name, value) in overrides {
            if let value { claims[name] = value } else { claims.removeValue(forKey: name) }
        }
        return claims
    }

    /// A compact JWS with the given header fields, payload and signing key (nil key: empty signature).
    static func token(
        header: [String: Any] = [:], payload: Data, key: RSAPrivateKey? = keyA
    ) -> String {
        var fields: [String: Any] = ["alg": "RS256", "kid": "key-a", "typ": "JWT"]
        for (name, value) in header { fields[name] = value }
        return tokenWithoutDefaults(header: fields, payload: payload, key: key)
    }

    /// A signed token with `claims`.
    static func token(
        claims: [String: Any] = claims(), kid: String? = "key-a", alg: String = "RS256", key: RSAPrivateKey? = keyA
    ) -> String {
        var fields: [String: Any] = ["alg": alg, "typ": "JWT"]
        if let kid { fields["kid"] = kid }
        let payload = try! JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        return tokenWithoutDefaults(header: fields, payload: payload, key: key)
    }

    /// Like ``token(header:payload:key:)`` but with exactly the header fields given.
    static func tokenWithoutDefaults(header: [String: Any], payload: Data, key: RSAPrivateKey?) -> String {
        let headerData = try! JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        let signingInput = Base64URL.encode(headerData) + "." + Base64URL.encode(payload)
        let signature = try! key.map { try $0.signSHA256(Array(signingInput.utf8)) } ?? []
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// A verifier over `fetcher` and `clock` with the fixture project and issuer.
    static func verifier(fetcher: FakeOutboundHTTP, clock: ManualClock, clockSkew: TimeInterval = 60) -> IDTokenVerifier {
        IDTokenVerifier(
            projectID: projectID, issuer: issuer, jwksURL: jwksURL, clockSkew: clockSkew, http: fetcher,
            clock: { clock.now })
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let date: Mutex<Date>

    init(_ start: Date = Fixtures.start) {
        date = Mutex(start)
    }

    var now: Date { date.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        date.withLock { $0 += seconds }
    }
}

extension FakeOutboundHTTP {
    /// Hearth's JWKS endpoint serving `jwks` (key A as `key-a` by default).
    static func jwks(
        _ jwks: JSONWebKeySet = Fixtures.jwks([(Fixtures.keyA, "key-a")]), maxAge: TimeInterval? = 300
    ) -> FakeOutboundHTTP {
        let http = FakeOutboundHTTP()
        http.serve(jwks, maxAge: maxAge)
        return http
    }

    /// Serves `jwks` from now on, with `Cache-Control: max-age=<maxAge>` (no header for nil).
    func serve(_ jwks: JSONWebKeySet = Fixtures.jwks([(Fixtures.keyA, "key-a")]), maxAge: TimeInterval? = 300) {
        let headers = maxAge.map { ["Cache-Control": "max-age=\(Int($0))"] } ?? [:]
        set(.answer(headers: headers, body: (try? JSONEncoder().encode(jwks)) ?? Data()))
    }
}
