import BenchSupport
import Foundation
import HearthCrypto
import JOSE

// RS256 and ES256 sign/s and verify/s of JOSE, on one thread, for a Hearth-shaped ID token.
// Prints `jose_sign_per_s=…` and `jose_verify_per_s=…` (and the raw RSA rate), then `es256_sign_per_s=…`,
// `es256_verify_per_s=…`, `p256_verify_per_s=…` and `p256_sign_per_s=…`, for Benchmarks/run.

let seconds = Double(CommandLine.arguments.dropFirst().first ?? "3") ?? 3
let key = try RSAPrivateKey.generate(bits: 2048)
let signer = JWTSigner(privateKey: key, keyID: "bench-key-0123456789abcdef0123456789abcdef")
var keys = JWTKeySet()
keys.add(key.publicKey, keyID: signer.keyID)

let now = Int(Date().timeIntervalSince1970)
let claims: [String: Any] = [
    "iss": "http://127.0.0.1:9099/demo-hearth", "aud": "demo-hearth", "auth_time": now, "user_id": "q3XvD2mT7eR9pL0aZs5Kw1nB8yHc",
    "sub": "q3XvD2mT7eR9pL0aZs5Kw1nB8yHc", "iat": now, "exp": now + 3600, "email": "ada.lovelace@example.com",
    "email_verified": true, "name": "Ada Lovelace", "picture": "https://example.com/photos/ada.png",
    "firebase": ["identities": ["google.com": ["108234759238475923847"], "email": ["ada.lovelace@example.com"]],
                 "sign_in_provider": "google.com"],
]
let payload = try JSONSerialization.data(withJSONObject: claims)
let token = try signer.sign(payload: payload)
let signingInput = Array(token.utf8[..<token.utf8.lastIndex(of: UInt8(ascii: "."))!])

let signRate = try rate(seconds: seconds) { _ = try signer.sign(payload: payload) }
let verifyRate = try rate(seconds: seconds) { _ = try keys.verify(token) }
let signature = try key.signSHA256(signingInput)
let rawVerifyRate = rate(seconds: seconds) { precondition(key.publicKey.isValidSHA256Signature(signature, for: signingInput)) }
print("token_bytes=\(token.utf8.count)")
print(String(format: "jose_sign_per_s=%.0f", signRate))
print(String(format: "jose_verify_per_s=%.0f", verifyRate))
print(String(format: "rsa_verify_per_s=%.0f", rawVerifyRate))

// ES256 (P-256), as for Apple's client secret and ES256 ID tokens: the same payload and measurements.
let ecKey = try P256PrivateKey.generate()
let ecSigner = JWTSigner(privateKey: ecKey, keyID: "bench-ec-key-0123456789abcdef0123456789abcdef")
var ecKeys = JWTKeySet()
ecKeys.add(ecKey.publicKey, keyID: ecSigner.keyID)
let ecToken = try ecSigner.sign(payload: payload)
let ecSigningInput = Array(ecToken.utf8[..<ecToken.utf8.lastIndex(of: UInt8(ascii: "."))!])
let ecSignRate = try rate(seconds: seconds) { _ = try ecSigner.sign(payload: payload) }
let ecVerifyRate = try rate(seconds: seconds) { _ = try ecKeys.verify(ecToken) }
let ecSignature = try ecKey.signSHA256(ecSigningInput)
let rawECVerifyRate = rate(seconds: seconds) { precondition(ecKey.publicKey.isValidSHA256Signature(ecSignature, for: ecSigningInput)) }
let rawECSignRate = try rate(seconds: seconds) { _ = try ecKey.signSHA256(ecSigningInput) }
print(String(format: "es256_sign_per_s=%.0f", ecSignRate))
print(String(format: "es256_verify_per_s=%.0f", ecVerifyRate))
print(String(format: "p256_verify_per_s=%.0f", rawECVerifyRate))
print(String(format: "p256_sign_per_s=%.0f", rawECSignRate))
