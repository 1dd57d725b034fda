import Foundation
import HearthCrypto
import JOSE
import Testing

@Suite("RFC 7515 Appendix A.2: JWS using RS256")
struct RFC7515VectorTests {
    let vector: RFC7515RS256Vector
    let privateKey: RSAPrivateKey

    init() throws {
        vector = try VectorLoader.load("rfc7515-a2-rs256")
        let jwk = vector.jwk
        privateKey = try RSAPrivateKey(
            modulus: b64(jwk.n), publicExponent: b64(jwk.e), privateExponent: b64(jwk.d), prime1: b64(jwk.p),
            prime2: b64(jwk.q), exponent1: b64(jwk.dp), exponent2: b64(jwk.dq), coefficient: b64(jwk.qi))
    }

    @Test("the header and payload octets encode to the RFC's segments")
    func segments() {
        #expect(Array(vector.header.utf8) == vector.headerOctets)
        #expect(Array(vector.payload.utf8) == vector.payloadOctets)
        #expect(Base64URL.encode(vector.headerOctets) == vector.encodedHeader)
        #expect(Base64URL.encode(vector.payloadOctets) == vector.encodedPayload)
        #expect(vector.compact == "\(vector.encodedHeader).\(vector.encodedPayload).\(vector.encodedSignature)")
    }

    @Test("signing the RFC's signing input reproduces the RFC's signature byte for byte")
    func signatureMatches() throws {
        let signingInput = Array("\(vector.encodedHeader).\(vector.encodedPayload)".utf8)
        let signature = try privateKey.signSHA256(signingInput)
        #expect(Base64URL.encode(signature) == vector.encodedSignature)
        #expect("\(vector.encodedHeader).\(vector.encodedPayload).\(Base64URL.encode(signature))" == vector.compact)
    }

    @Test("the RFC's token verifies under the RFC's public key")
    func rfcTokenVerifies() throws {
        let publicKey = try RSAPublicKey(modulus: b64(vector.jwk.n), exponent: b64(vector.jwk.e))
        #expect(publicKey == privateKey.publicKey)
        #expect(publicKey.bitCount == 2048)
        let signingInput = Array("\(vector.encodedHeader).\(vector.encodedPayload)".utf8)
        #expect(publicKey.isValidSHA256Signature(b64(vector.encodedSignature), for: signingInput))

        let decoded = try InsecureJWT.decodeWithoutVerifying(vector.compact)
        #expect(decoded.header == JWSHeader(alg: "RS256"))
        #expect(Array(decoded.payload) == vector.payloadOctets)
    }

    @Test("the key set refuses the RFC's token only because it has no kid")
    func keySetNeedsKeyID() throws {
        let publicKey = try RSAPublicKey(modulus: b64(vector.jwk.n), exponent: b64(vector.jwk.e))
        var keys = JWTKeySet()
        keys.add(publicKey, keyID: "rfc7515")
        #expect(keys.rejection(of: vector.compact) == .missingKeyID)

        // The same payload under a header with a kid, signed by the RFC key, verifies.
        let token = try TokenForge.token(
            header: #"{"alg":"RS256","kid":"rfc7515"}"#, payload: vector.payload, signedWith: privateKey)
        let verified = try keys.verify(token)
        #expect(Array(verified.payload) == vector.payloadOctets)
        #expect(verified.header.kid == "rfc7515")
    }

    @Test("the public JWK of the RFC key carries the RFC's n and e")
    func jwkNumbers() throws {
        let jwk = JSONWebKey(publicKey: privateKey.publicKey, keyID: "rfc7515")
        #expect(jwk.n == vector.jwk.n)
        #expect(jwk.e == vector.jwk.e)
        #expect(try jwk.rsaPublicKey() == privateKey.publicKey)
    }

    @Test("a JWTSigner with the RFC key makes tokens its key set verifies")
    func signerRoundTrip() throws {
        let signer = JWTSigner(privateKey: privateKey, keyID: "rfc7515")
        let token = try signer.sign(payload: Data(vector.payloadOctets))
        var keys = JWTKeySet()
        keys.add(privateKey.publicKey, keyID: "rfc7515")
        #expect(Array(try keys.verify(token).payload) == vector.payloadOctets)
    }
}
