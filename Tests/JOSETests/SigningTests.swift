import Foundation
import HearthCrypto
import JOSE
import Testing

@Suite("JWTSigner")
struct SigningTests {
    struct Claims: Codable, Equatable {
        var iss: String
        var aud: String
        var sub: String
        var exp: Date
        var iat: Date
        var email: String?
        var firebase: Firebase

        struct Firebase: Codable, Equatable {
            var sign_in_provider: String
            var identities: [String: [String]]
        }
    }

    let claims = Claims(
        iss: "https://hearth.example/project-1", aud: "project-1", sub: "uid-42",
        exp: Date(timeIntervalSince1970: 1_700_003_600), iat: Date(timeIntervalSince1970: 1_700_000_000),
        email: "ada@example.com",
        firebase: .init(sign_in_provider: "google.com", identities: ["google.com": ["1234"]]))

    func keySet() -> JWTKeySet {
        var keys = JWTKeySet()
        keys.add(TestKeys.primary.publicKey, keyID: "key-2024")
        return keys
    }

    @Test("sign → verify round trip with typed claims")
    func roundTrip() throws {
        let signer = JWTSigner(privateKey: TestKeys.primary, keyID: "key-2024")
        #expect(signer.keyID == "key-2024")
        let token = try signer.sign(claims)
        let verified = try keySet().verify(token)
        #expect(verified.header == JWSHeader(alg: "RS256", kid: "key-2024", typ: "JWT"))
        #expect(try verified.claims(as: Claims.self) == claims)
    }

    @Test("the header is exactly {\"alg\":\"RS256\",\"kid\":…,\"typ\":\"JWT\"} and dates are NumericDate seconds")
    func wireFormat() throws {
        let token = try JWTSigner(privateKey: TestKeys.primary, keyID: "a/b").sign(claims)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(!token.contains("="))
        #expect(String(decoding: b64(String(parts[0])), as: UTF8.self) == #"{"alg":"RS256","kid":"a/b","typ":"JWT"}"#)
        let payload = String(decoding: b64(String(parts[1])), as: UTF8.self)
        #expect(payload.contains(#""exp":1700003600"#))
        #expect(payload.contains(#""iss":"https://hearth.example/project-1""#))
    }

    @Test("signing is deterministic")
    func deterministic() throws {
        let signer = JWTSigner(privateKey: TestKeys.primary, keyID: "key-2024")
        #expect(try signer.sign(claims) == signer.sign(claims))
    }

    @Test("sign(payload:) keeps the payload bytes and refuses non-objects")
    func rawPayload() throws {
        let signer = JWTSigner(privateKey: TestKeys.primary, keyID: "key-2024")
        let payload = Data(#"{ "sub" : "x", "n": [1, 2] }"#.utf8)
        #expect(try keySet().verify(signer.sign(payload: payload)).payload == payload)
        for bad in ["[]", "1", "", "{"] {
            #expect(throws: JOSEError(.invalidPayload, reason: "")) { try signer.sign(payload: Data(bad.utf8)) }
        }
    }

    @Test("claims that do not match the requested type fail with invalidPayload")
    func claimsMismatch() throws {
        let token = try JWTSigner(privateKey: TestKeys.primary, keyID: "key-2024").sign(["sub": "x"])
        let verified = try keySet().verify(token)
        #expect(throws: JOSEError(.invalidPayload, reason: "")) { try verified.claims(as: Claims.self) }
    }

    @Test("a token signed with another key does not verify")
    func wrongKey() throws {
        let token = try JWTSigner(privateKey: TestKeys.other, keyID: "key-2024").sign(claims)
        #expect(keySet().rejection(of: token) == .invalidSignature)
    }
}
