import BenchSupport
import Foundation
import HearthCrypto
import HearthProtocol
import HearthVerify
import JOSE

// HearthVerify verify/s on one thread with a warm key cache, for a Hearth-shaped ID token (~1 KB).
// Prints `hearthverify_verify_per_s=…` (plus JOSE's signature-only rate on the same token, and the rate when the
// full claims dictionary is also read) for Benchmarks/run.
//
// Usage: verify-bench [seconds] [fixture-directory]
// With a fixture directory, also writes token.jwt, public.pem, jwks.json and expect.json (aud, iss) there, so other
// verifiers (PyJWT in Benchmarks/run) can check the very same token with the very same key.

let arguments = CommandLine.arguments.dropFirst()
let seconds = Double(arguments.first ?? "3") ?? 3
let fixtures = arguments.dropFirst().first.map { URL(fileURLWithPath: $0, isDirectory: true) }

let projectID = "demo-hearth"
let issuer = "http://127.0.0.1:9099/demo-hearth"
let key = try RSAPrivateKey.generate(bits: 2048)
let signer = JWTSigner(privateKey: key, keyID: "09576714e33cf4f7e80405590f26540b6d9b9ed9")
let jwks = JSONWebKeySet(keys: [JSONWebKey(publicKey: key.publicKey, keyID: signer.keyID)])

let now = Int(Date().timeIntervalSince1970)
let uid = "q3XvD2mT7eR9pL0aZs5Kw1nB8yHc"
let claims: [String: Any] = [
    "iss": issuer, "aud": projectID, "auth_time": now, "user_id": uid, "sub": uid, "iat": now, "exp": now + 3600,
    "email": "ada.lovelace@example.com", "email_verified": true, "name": "Ada Lovelace",
    "picture": "https://lh3.googleusercontent.com/a/ACg8ocJ2x7Qm4bXk9vR1pT5sZ3wY8nL6hF0dC2eA4gB7jK1mN9=s96-c",
    "firebase": [
        "identities": ["google.com": ["108234759238475923847"], "email": ["ada.lovelace@example.com"]],
        "sign_in_provider": "google.com",
    ],
]
let token = try signer.sign(payload: try JSONSerialization.data(withJSONObject: claims))

/// Serves the one key set from memory, so the benchmark measures verification, not HTTP.
struct StaticJWKS: OutboundHTTP {
    let body: Data
    func send(_ request: OutboundRequest) throws -> OutboundResponse {
        OutboundResponse(status: 200, headers: ["Cache-Control": "max-age=86400"], body: body)
    }
}

let verifier = IDTokenVerifier(
    projectID: projectID, issuer: issuer, jwksURL: URL(string: "http://127.0.0.1:9099/.well-known/jwks.json")!,
    http: StaticJWKS(body: try JSONEncoder().encode(jwks)))
let keySet = JWTKeySet(jwks: jwks)

if let fixtures {
    try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
    try Data(token.utf8).write(to: fixtures.appendingPathComponent("token.jwt"))
    try Data(key.publicKey.pemRepresentation.utf8).write(to: fixtures.appendingPathComponent("public.pem"))
    try JSONEncoder().encode(jwks).write(to: fixtures.appendingPathComponent("jwks.json"))
    try JSONSerialization.data(withJSONObject: ["aud": projectID, "iss": issuer])
        .write(to: fixtures.appendingPathComponent("expect.json"))
}

let verified = try verifier.verify(token)
precondition(verified.uid == uid && verified.signInProvider == "google.com")

let verifyRate = try rate(seconds: seconds) { _ = try verifier.verify(token) }
let joseRate = try rate(seconds: seconds) { _ = try keySet.verify(token) }
let withClaimsRate = try rate(seconds: seconds) {
    let count = try verifier.verify(token).claims.count
    precondition(count == claims.count)
}
print("token_bytes=\(token.utf8.count)")
print(String(format: "hearthverify_verify_per_s=%.0f", verifyRate))
print(String(format: "hearthverify_jose_verify_per_s=%.0f", joseRate))
print(String(format: "hearthverify_verify_with_claims_per_s=%.0f", withClaimsRate))
