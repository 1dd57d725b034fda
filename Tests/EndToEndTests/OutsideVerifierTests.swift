import Foundation
import Testing

/// Hearth's ID tokens checked by the libraries backends really use (PyJWT, google-auth, firebase-admin from PyPI),
/// against the built server's JWKS, X.509 map and discovery document.
@Suite("Outside verifiers: PyJWT, google-auth, firebase-admin (e2e)", .blocking)
struct OutsideVerifierTests {
    static func verify(_ server: HearthProcess, _ token: String, firebaseAdmin: Bool = false) throws -> [String: [String: Any]] {
        let results = try PythonClients.run(
            "verify_id_token.py", [server.baseURL, "demo-hearth", token] + (firebaseAdmin ? ["firebase-admin"] : []),
            environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(server.port)"])
        return results.compactMapValues { $0 as? [String: Any] }
    }

    /// A copy of `token` with its signature's first character changed.
    static func tampered(_ token: String) -> String {
        var parts = token.split(separator: ".").map(String.init)
        let first = parts[2].removeFirst()
        parts[2] = (first == "A" ? "B" : "A") + parts[2]
        return parts.joined(separator: ".")
    }

    @Test("Hearth's issuer name (--hearth-issuer): PyJWT (JWKS and discovery) and google-auth (X.509 map) accept the token and refuse a forged signature")
    func hearthIssuer() throws {
        let server = HearthProcess(arguments: ["--dev", "--hearth-issuer"])
        try server.start()
        let session = try SignedIn(MFATests.Client(server: server).signIn("outside@example.com"))
        let results = try Self.verify(server, session.idToken)
        for verifier in ["pyjwt", "pyjwt-discovery", "google-auth"] {
            let result = try #require(results[verifier], "\(verifier) did not report")
            #expect(result["ok"] as? Bool == true, "\(verifier): \(result)")
            let claims = result["claims"] as? [String: Any]
            #expect(claims?["sub"] as? String == session.localID, "\(verifier)")
            #expect(claims?["iss"] as? String == "\(server.baseURL)/demo-hearth", "\(verifier)")
        }
        let forged = try Self.verify(server, Self.tampered(session.idToken))
        for verifier in ["pyjwt", "pyjwt-discovery", "google-auth"] {
            #expect(forged[verifier]?["ok"] as? Bool == false, "\(verifier) accepted a forged signature")
        }
    }

    @Test("--dev's default, Firebase's issuer name: firebase-admin's verify_id_token (emulator mode), discovery and google-auth accept the token")
    func firebaseIssuer() throws {
        let server = HearthProcess()
        try server.start()
        let session = try SignedIn(MFATests.Client(server: server).signIn("admin-sdk@example.com"))
        let results = try Self.verify(server, session.idToken, firebaseAdmin: true)
        for verifier in ["pyjwt-discovery", "google-auth", "firebase-admin"] {
            let result = try #require(results[verifier], "\(verifier) did not report")
            #expect(result["ok"] as? Bool == true, "\(verifier): \(result)")
            let claims = result["claims"] as? [String: Any]
            #expect(claims?["iss"] as? String == "https://securetoken.google.com/demo-hearth", "\(verifier)")
        }
        #expect(results["firebase-admin"]?["claims"].flatMap { ($0 as? [String: Any])?["uid"] as? String } == session.localID)
        // The JWKS check with Hearth's own issuer name refuses a token that names another issuer.
        #expect(results["pyjwt"]?["ok"] as? Bool == false)
    }
}
