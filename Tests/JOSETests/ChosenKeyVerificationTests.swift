import Foundation
import HearthCrypto
import JOSE
import Testing

/// `JWTKeySet.verify(_:keyID:)`: the caller picks the key (for signers that send no `kid`); a `kid` in the
/// header must name that key, and every other check stays.
@Suite("JWTKeySet.verify with a chosen key")
struct ChosenKeyVerificationTests {
    let keys: JWTKeySet
    let payload = #"{"iss":"backend@p.iam.hearth"}"#

    init() {
        var keys = JWTKeySet()
        keys.add(TestKeys.primary.publicKey, keyID: "k1")
        keys.add(TestKeys.other.publicKey, keyID: "k2")
        self.keys = keys
    }

    private func rejection(_ token: String, keyID: String) -> JOSEError.Code? {
        do {
            _ = try keys.verify(token, keyID: keyID)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("a token without kid verifies with the chosen key only")
    func withoutKeyID() throws {
        let token = try TokenForge.token(header: #"{"alg":"RS256","typ":"JWT"}"#, payload: payload, signedWith: TestKeys.primary)
        #expect(try keys.verify(token, keyID: "k1").payload == Data(payload.utf8))
        #expect(rejection(token, keyID: "k2") == .invalidSignature)
        #expect(rejection(token, keyID: "k3") == .unknownKeyID)
        #expect(keys.rejection(of: token) == .missingKeyID)
    }

    @Test("a kid in the header must be the chosen key's")
    func keyIDMustMatch() throws {
        let token = try TokenForge.token(header: #"{"alg":"RS256","kid":"k2"}"#, payload: payload, signedWith: TestKeys.other)
        #expect(rejection(token, keyID: "k1") == .unknownKeyID)
        #expect(try keys.verify(token, keyID: "k2").header.kid == "k2")
    }

    @Test("unsigned tokens are still refused")
    func unsigned() throws {
        let token = try TokenForge.token(header: #"{"alg":"none"}"#, payload: payload, signedWith: nil)
        #expect(rejection(token, keyID: "k1") == .unsupportedAlgorithm)
    }
}
