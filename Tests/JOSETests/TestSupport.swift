import Foundation
import HearthCrypto
import JOSE

/// Keys shared by tests that only need *a* key, so the suite generates few keys.
enum TestKeys {
    static let primary: RSAPrivateKey = {
        do { return try RSAPrivateKey.generate() } catch { preconditionFailure("\(error)") }
    }()
    static let other: RSAPrivateKey = {
        do { return try RSAPrivateKey.generate() } catch { preconditionFailure("\(error)") }
    }()
}

/// Builds compact tokens from raw header and payload JSON, so tests can craft any header or payload and still sign
/// them correctly.
enum TokenForge {
    static func encode(_ json: String) -> String {
        Base64URL.encode(Array(json.utf8))
    }

    /// `b64(header).b64(payload).b64(RS256 signature by key)`, or an empty signature when `key` is nil.
    static func token(header: String, payload: String, signedWith key: RSAPrivateKey?) throws -> String {
        let signingInput = encode(header) + "." + encode(payload)
        guard let key else { return signingInput + "." }
        return signingInput + "." + Base64URL.encode(try key.signSHA256(Array(signingInput.utf8)))
    }
}

extension JWTKeySet {
    /// The code `verify` rejects `token` with, or nil when it accepts it.
    func rejection(of token: String) -> JOSEError.Code? {
        do {
            _ = try verify(token)
            return nil
        } catch {
            return error.code
        }
    }
}

/// Decodes base64url test constants, trapping on bad input.
func b64(_ text: String) -> [UInt8] {
    guard let bytes = Base64URL.decode(text) else { preconditionFailure("bad base64url constant") }
    return bytes
}
