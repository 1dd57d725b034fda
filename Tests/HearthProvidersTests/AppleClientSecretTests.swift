import Foundation
import HearthCore
import HearthCrypto
import HearthProviders
import JOSE
import Testing

/// One P-256 key for the Apple tests, as an Apple `.p8` would hold it.
enum AppleTestKey {
    static let key: P256PrivateKey = {
        do { return try P256PrivateKey.generate() } catch { preconditionFailure("\(error)") }
    }()
    static let teamID = "ABCDE12345"
    static let keyID = "KEY1234567"

    static func secrets(time: ManualTimeSource, lifetime: TimeInterval = AppleClientSecret.defaultLifetime) throws -> AppleClientSecret {
        try AppleClientSecret(teamID: teamID, keyID: keyID, privateKey: key, lifetime: lifetime, time: time)
    }

    /// Verifies `secret` with ES256 against the public key and returns its header and claims.
    static func open(_ secret: String) throws -> (header: JWSHeader, claims: [String: ClaimValue]) {
        var keys = JWTKeySet()
        keys.add(key.publicKey, keyID: keyID)
        let verified = try keys.verify(secret)
        return (verified.header, try verified.claims(as: [String: ClaimValue].self))
    }
}

/// A claim value (string or integer), for reading client-secret claims.
enum ClaimValue: Decodable, Equatable {
    case string(String)
    case integer(Int64)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }
}

@Suite("Sign in with Apple: the client secret")
struct AppleClientSecretTests {
    @Test("header {alg ES256, kid, typ JWT}; claims iss, iat, exp = iat + 1 hour, aud, sub; a valid ES256 signature")
    func shape() throws {
        let time = ManualTimeSource()
        let secret = try AppleTestKey.secrets(time: time).secret(clientID: "com.example.app")
        let headerJSON = String(decoding: try #require(Base64URL.decode(secret.split(separator: ".")[0])), as: UTF8.self)
        #expect(headerJSON == #"{"alg":"ES256","kid":"KEY1234567","typ":"JWT"}"#)
        let (header, claims) = try AppleTestKey.open(secret)
        #expect(header.alg == "ES256" && header.kid == "KEY1234567")
        let now = time.nowSeconds
        #expect(claims == [
            "iss": .string("ABCDE12345"), "iat": .integer(now), "exp": .integer(now + 3600),
            "aud": .string("https://appleid.apple.com"), "sub": .string("com.example.app"),
        ])
        #expect(try #require(Base64URL.decode(secret.split(separator: ".")[2])).count == 64)
        // Signed by another key, the same claims do not verify.
        let foreign = try AppleClientSecret(teamID: "ABCDE12345", keyID: "KEY1234567", privateKey: P256PrivateKey.generate(), time: time)
        #expect(throws: JOSEError(.invalidSignature, reason: "")) { try AppleTestKey.open(try foreign.secret(clientID: "com.example.app")) }
    }

    @Test("one secret per client ID, kept until half its lifetime has passed, then made again")
    func caching() throws {
        let time = ManualTimeSource()
        let secrets = try AppleTestKey.secrets(time: time)
        let first = try secrets.secret(clientID: "com.example.app")
        let web = try secrets.secret(clientID: "com.example.web")
        #expect(web != first)
        #expect(try AppleTestKey.open(web).claims["sub"] == .string("com.example.web"))
        time.advance(by: 1799)
        #expect(try secrets.secret(clientID: "com.example.app") == first)
        time.advance(by: 1)
        let second = try secrets.secret(clientID: "com.example.app")
        #expect(second != first)
        #expect(try AppleTestKey.open(second).claims["iat"] == .integer(time.nowSeconds))
        // A clock set back makes a new one too (its iat would otherwise be in the future).
        time.advance(by: -600)
        let third = try secrets.secret(clientID: "com.example.app")
        #expect(third != second)
        #expect(try AppleTestKey.open(third).claims["exp"] == .integer(time.nowSeconds + 3600))
    }

    @Test("lifetimes up to 180 days are allowed, longer or under a minute refused; empty IDs refused")
    func limits() throws {
        let time = ManualTimeSource()
        let longest = try AppleTestKey.secrets(time: time, lifetime: 180 * 24 * 3600)
        let claims = try AppleTestKey.open(try longest.secret(clientID: "com.example.app")).claims
        #expect(claims["exp"] == .integer(time.nowSeconds + 15_552_000))
        for lifetime in [180 * 24 * 3600 + 1, 59, 0, -3600] as [TimeInterval] {
            #expect(throws: AppleClientError(.invalidConfiguration, reason: "")) { try AppleTestKey.secrets(time: time, lifetime: lifetime) }
        }
        for (team, key) in [("", "KEY1234567"), ("ABCDE12345", "")] {
            #expect(throws: AppleClientError(.invalidConfiguration, reason: "")) {
                try AppleClientSecret(teamID: team, keyID: key, privateKey: AppleTestKey.key, time: time)
            }
        }
        #expect(throws: AppleClientError(.invalidConfiguration, reason: "")) { try longest.secret(clientID: "") }
    }
}
