import Foundation
import HearthCrypto
import JOSE
import Testing

@Suite("JWTKeySet.verify rejections")
struct VerificationTests {
    let key = TestKeys.primary
    let keys: JWTKeySet
    let header = #"{"alg":"RS256","kid":"k1","typ":"JWT"}"#
    let payload = #"{"sub":"user-1","exp":1700000000}"#

    init() {
        var keys = JWTKeySet()
        keys.add(TestKeys.primary.publicKey, keyID: "k1")
        self.keys = keys
    }

    func validToken() throws -> String {
        try TokenForge.token(header: header, payload: payload, signedWith: key)
    }

    @Test("a correctly signed token verifies and returns its header and payload")
    func accepts() throws {
        let verified = try keys.verify(validToken())
        #expect(verified.header == JWSHeader(alg: "RS256", kid: "k1", typ: "JWT"))
        #expect(verified.payload == Data(payload.utf8))
    }

    @Test("not exactly three segments", arguments: [0, 1, 2, 4, 5])
    func segmentCount(count: Int) throws {
        let parts = try validToken().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let segments = (0..<count).map { parts[$0 % 3] }
        #expect(keys.rejection(of: segments.joined(separator: ".")) == .malformedToken)
    }

    @Test("empty token, empty header or empty payload segment")
    func emptySegments() throws {
        let parts = try validToken().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(keys.rejection(of: "") == .malformedToken)
        #expect(keys.rejection(of: "..") == .malformedToken)
        #expect(keys.rejection(of: ".\(parts[1]).\(parts[2])") == .malformedToken)
        #expect(keys.rejection(of: "\(parts[0])..\(parts[2])") == .malformedToken)
    }

    @Test("'=' padding in any segment")
    func padding() throws {
        // A payload whose base64url needs padding, so the padded form is otherwise valid base64.
        let padded = #"{"sub":"a"}"#
        #expect(Base64URL.encode(Array(padded.utf8)).count % 4 != 0)
        let token = try TokenForge.token(header: header, payload: padded, signedWith: key)
        #expect(keys.rejection(of: token) == nil)
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[1] += String(repeating: "=", count: 4 - parts[1].count % 4)
        #expect(keys.rejection(of: parts.joined(separator: ".")) == .malformedToken)

        let valid = try validToken()
        #expect(keys.rejection(of: valid + "=") == .malformedToken)
        #expect(keys.rejection(of: valid + "==") == .malformedToken)
    }

    @Test("characters outside the base64url alphabet")
    func badCharacters() throws {
        let parts = try validToken().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(keys.rejection(of: "\(parts[0])+.\(parts[1]).\(parts[2])") == .malformedToken)
        #expect(keys.rejection(of: "\(parts[0]).\(parts[1])/x.\(parts[2])") == .malformedToken)
        #expect(keys.rejection(of: "\(parts[0]).\(parts[1]).\(parts[2]) ") == .malformedToken)
        #expect(keys.rejection(of: "\(parts[0]).\(parts[1]).\(parts[2])\n") == .malformedToken)
        #expect(keys.rejection(of: "\(parts[0]).\(parts[1]).\(parts[2].dropLast())") == .malformedToken, "impossible length")
    }

    @Test("header that is not a JSON object with a string alg", arguments: [
        "[]", "not json", "\"RS256\"", "{}", #"{"kid":"k1"}"#, #"{"alg":256,"kid":"k1"}"#, #"{"alg":null,"kid":"k1"}"#,
        #"{"alg":"RS256","kid":7}"#, #"{"alg":"RS256","kid":"k1""#,
    ])
    func invalidHeader(header: String) throws {
        let token = try TokenForge.token(header: header, payload: payload, signedWith: key)
        #expect(keys.rejection(of: token) == .invalidHeader)
    }

    @Test("a crit header parameter is refused")
    func critical() throws {
        let token = try TokenForge.token(
            header: #"{"alg":"RS256","kid":"k1","crit":["exp"],"exp":1}"#, payload: payload, signedWith: key)
        #expect(keys.rejection(of: token) == .invalidHeader)
    }

    @Test("alg none, in any case, with an empty signature", arguments: ["none", "None", "NONE", "nOnE"])
    func none(alg: String) throws {
        let token = try TokenForge.token(header: #"{"alg":"\#(alg)","kid":"k1"}"#, payload: payload, signedWith: nil)
        #expect(token.hasSuffix("."))
        #expect(keys.rejection(of: token) == .unsupportedAlgorithm)
        // Even with a signature that is valid for the key.
        let signed = try TokenForge.token(header: #"{"alg":"\#(alg)","kid":"k1"}"#, payload: payload, signedWith: key)
        #expect(keys.rejection(of: signed) == .unsupportedAlgorithm)
    }

    @Test("alg values that are not JWS algorithms", arguments: ["", "RS1", "rs256", "RSA", "HS257", "foo"])
    func unknownAlgorithm(alg: String) throws {
        let token = try TokenForge.token(header: #"{"alg":"\#(alg)","kid":"k1"}"#, payload: payload, signedWith: key)
        #expect(keys.rejection(of: token) == .unsupportedAlgorithm)
    }

    @Test("alg HS256 against a key bound to RS256 (the HMAC key-confusion attack)")
    func hmacConfusion() throws {
        // The classic attack: HMAC the token with the public key's PEM as the secret.
        let signingInput = TokenForge.encode(#"{"alg":"HS256","kid":"k1"}"#) + "." + TokenForge.encode(payload)
        let mac = HMAC.sha256(key: Array(key.publicKey.pemRepresentation.utf8), message: Array(signingInput.utf8))
        #expect(keys.rejection(of: signingInput + "." + Base64URL.encode(mac)) == .algorithmMismatch)
    }

    @Test("other registered algorithms against a key bound to RS256", arguments: ["RS512", "PS256", "ES256", "EdDSA"])
    func otherAlgorithms(alg: String) throws {
        // Signed with RS256 by the right key: only the header's alg is wrong.
        let token = try TokenForge.token(header: #"{"alg":"\#(alg)","kid":"k1"}"#, payload: payload, signedWith: key)
        #expect(keys.rejection(of: token) == .algorithmMismatch)
    }

    @Test("missing or empty kid")
    func missingKeyID() throws {
        for header in [#"{"alg":"RS256"}"#, #"{"alg":"RS256","kid":""}"#, #"{"alg":"RS256","kid":null}"#] {
            let token = try TokenForge.token(header: header, payload: payload, signedWith: key)
            #expect(keys.rejection(of: token) == .missingKeyID)
        }
    }

    @Test("kid not in the set, even when the signature is valid for some key")
    func unknownKeyID() throws {
        let token = try TokenForge.token(header: #"{"alg":"RS256","kid":"k2"}"#, payload: payload, signedWith: key)
        #expect(keys.rejection(of: token) == .unknownKeyID)
        let caseDiffers = try TokenForge.token(header: #"{"alg":"RS256","kid":"K1"}"#, payload: payload, signedWith: key)
        #expect(keys.rejection(of: caseDiffers) == .unknownKeyID)
    }

    @Test("a flipped signature byte, anywhere")
    func flippedSignature() throws {
        let parts = try validToken().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let signature = b64(parts[2])
        for index in [0, 100, signature.count - 1] {
            var flipped = signature
            flipped[index] ^= 0x01
            #expect(keys.rejection(of: "\(parts[0]).\(parts[1]).\(Base64URL.encode(flipped))") == .invalidSignature)
        }
    }

    @Test("an empty, truncated or foreign signature, or a modified payload")
    func badSignatures() throws {
        let parts = try validToken().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(keys.rejection(of: "\(parts[0]).\(parts[1]).") == .invalidSignature)
        #expect(keys.rejection(of: "\(parts[0]).\(parts[1]).\(Base64URL.encode(b64(parts[2]).dropLast()))") == .invalidSignature)
        let foreign = try TokenForge.token(header: header, payload: payload, signedWith: TestKeys.other)
        #expect(keys.rejection(of: foreign) == .invalidSignature)
        let otherPayload = TokenForge.encode(#"{"sub":"admin","exp":1700000000}"#)
        #expect(keys.rejection(of: "\(parts[0]).\(otherPayload).\(parts[2])") == .invalidSignature)
    }

    @Test("a correctly signed payload that is not a JSON object", arguments: ["[]", "123", "\"sub\"", "null", "{bad", "{}x"])
    func invalidPayload(payload: String) throws {
        let token = try TokenForge.token(header: header, payload: payload, signedWith: key)
        #expect(keys.rejection(of: token) == .invalidPayload)
    }

    @Test("errors compare by code and never quote the token")
    func errorText() throws {
        let token = try TokenForge.token(header: #"{"alg":"RS256","kid":"k2"}"#, payload: payload, signedWith: key)
        let parts = token.split(separator: ".").map(String.init)
        do {
            _ = try keys.verify(token)
            Issue.record("verification should have failed")
        } catch {
            #expect(error == JOSEError(.unknownKeyID, reason: "anything"))
            #expect(error != JOSEError(.invalidSignature, reason: error.reason))
            #expect(error.code.description == "unknownKeyID")
            for part in parts {
                #expect(!error.description.contains(part))
            }
        }
    }

    @Test("InsecureJWT decodes without checking alg, kid or signature, but still checks structure")
    func insecureDecode() throws {
        let none = try TokenForge.token(header: #"{"alg":"none"}"#, payload: payload, signedWith: nil)
        let decoded = try InsecureJWT.decodeWithoutVerifying(none)
        #expect(decoded.header.alg == "none")
        #expect(decoded.header.kid == nil)
        #expect(decoded.payload == Data(payload.utf8))

        #expect(throws: JOSEError(.malformedToken, reason: "")) { try InsecureJWT.decodeWithoutVerifying("a.b") }
        #expect(throws: JOSEError(.invalidHeader, reason: "")) {
            try InsecureJWT.decodeWithoutVerifying(TokenForge.token(header: "[]", payload: payload, signedWith: nil))
        }
        #expect(throws: JOSEError(.invalidPayload, reason: "")) {
            try InsecureJWT.decodeWithoutVerifying(TokenForge.token(header: header, payload: "[]", signedWith: nil))
        }
    }
}
