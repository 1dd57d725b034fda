import Foundation
import HearthCrypto
import JOSE
import Testing

/// Service accounts against the built `hearth`: `hearth service-accounts create|list|revoke`, the token endpoint
/// with the exact request google-auth sends and with google-auth itself (from PyPI, in a virtual environment),
/// and custom-token sign-in with tokens signed by the key file's private key (and unsigned ones in `--dev`).
@Suite("Service accounts and custom tokens (e2e)", .blocking)
struct ServiceAccountTests {
    static let apiKey = "sa-test-key"
    static let customTokenAudience =
        "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    /// A production server (API keys and client IDs configured, no `--dev`).
    static func productionServer() throws -> HearthProcess {
        let server = HearthProcess(
            arguments: ["--project-id", "sa-project"],
            environment: ["HEARTH_API_KEYS": apiKey, "HEARTH_GOOGLE_CLIENT_IDS": "c.apps.googleusercontent.com"])
        try server.start()
        return server
    }

    /// A key file made by `hearth service-accounts create NAME` for `server`, and its parsed contents.
    struct KeyFile {
        let path: URL
        let fields: [String: String]
        let privateKey: RSAPrivateKey

        init(_ server: HearthProcess, name: String = "backend-api", extra: [String] = ["--project-id", "sa-project"]) throws {
            path = server.dataDirectory.deletingLastPathComponent()
                .appendingPathComponent("hearth-e2e-key-\(UUID().uuidString).json")
            let result = try server.runCommand(
                ["service-accounts", "create", name, "--out", path.path, "--public-url", server.baseURL] + extra)
            guard result.status == 0 else { throw RawHTTP.Failure(description: "create failed: \(result.output)") }
            fields = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: path))
            privateKey = try RSAPrivateKey(pemRepresentation: fields["private_key"] ?? "")
        }

        var email: String { fields["client_email"] ?? "" }

        /// An RS256 JWT signed with this key file's key, `kid` = `private_key_id`, as google-auth signs.
        func sign(_ claims: [String: Any], key: RSAPrivateKey? = nil) throws -> String {
            try JWTSigner(privateKey: key ?? privateKey, keyID: fields["private_key_id"] ?? "")
                .sign(payload: JSONSerialization.data(withJSONObject: claims))
        }

        func remove() { try? FileManager.default.removeItem(at: path) }
    }

    /// The request google-auth's `_client.jwt_grant` sends to `token_uri`.
    static func tokenRequest(_ server: HearthProcess, assertion: String) throws -> HTTPResult {
        let body = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        return try server.request(
            "POST", "/oauth2/token",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("x-goog-api-client", "gl-python/3.11 auth/2.40.0 auth-request-type/at cred-type/sa")],
            body: Data(body.utf8))
    }

    /// google-auth's assertion (`service_account.Credentials._make_authorization_grant_assertion`).
    static func assertionClaims(_ keyFile: KeyFile) -> [String: Any] {
        let now = Int(Date().timeIntervalSince1970)
        return [
            "iat": now, "exp": now + 3600, "iss": keyFile.email, "aud": "https://oauth2.googleapis.com/token",
            "scope": "https://www.googleapis.com/auth/cloud-platform",
        ]
    }

    /// The claims of a JWT, unverified.
    static func claims(of jwt: String) -> [String: Any] {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] ?? [:]
    }

    @Test("create writes an owner-only Google-format key file; the store keeps only the public key; list and refusals")
    func createListRefuse() throws {
        let server = try Self.productionServer()
        let keyFile = try KeyFile(server)
        defer { keyFile.remove() }
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile.path.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(keyFile.fields["type"] == "service_account")
        #expect(keyFile.fields["project_id"] == "sa-project")
        #expect(keyFile.email == "backend-api@sa-project.iam.hearth")
        #expect(keyFile.fields["token_uri"] == "\(server.baseURL)/oauth2/token")
        #expect(keyFile.fields["private_key"]?.hasPrefix("-----BEGIN PRIVATE KEY-----\n") == true)
        #expect(keyFile.fields["private_key_id"]?.count == 40)
        #expect(keyFile.fields["client_id"]?.count == 21)
        #expect(keyFile.privateKey.publicKey.bitCount == 2048)

        // No byte of the private key reaches the data directory.
        let secretLine = try #require(keyFile.fields["private_key"]?.split(separator: "\n").dropFirst(3).first)
        for name in try FileManager.default.contentsOfDirectory(atPath: server.dataDirectory.path) {
            let data = try Data(contentsOf: server.dataDirectory.appendingPathComponent(name))
            #expect(data.range(of: Data(secretLine.utf8)) == nil, "\(name) holds part of the private key")
        }

        let help = try HearthProcess.run(["service-accounts", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("create NAME"))
        #expect(try HearthProcess.run(["help", "service-accounts"]).output == help.output)

        let list = try server.runCommand(["service-accounts", "list"])
        #expect(list.status == 0)
        #expect(list.output.contains("backend-api@sa-project.iam.hearth"))
        #expect(list.output.contains(keyFile.fields["private_key_id"] ?? "-"))
        #expect(list.output.contains("live"))

        // The same name again, an existing --out file, a bad name: refused, nothing changed.
        let existing = try Data(contentsOf: keyFile.path)
        let again = try server.runCommand(
            ["service-accounts", "create", "backend-api", "--out", keyFile.path.path + ".2", "--project-id", "sa-project"])
        #expect(again.status == 1)
        #expect(again.output.contains("exists"))
        #expect(!FileManager.default.fileExists(atPath: keyFile.path.path + ".2"))
        let overwrite = try server.runCommand(
            ["service-accounts", "create", "other-api", "--out", keyFile.path.path, "--project-id", "sa-project"])
        #expect(overwrite.status == 1)
        #expect(try Data(contentsOf: keyFile.path) == existing)
        let badName = try server.runCommand(["service-accounts", "create", "Bad_Name", "--project-id", "sa-project"])
        #expect(badName.status == 64)
        let noProject = try server.runCommand(["service-accounts", "create", "other-api"])
        #expect(noProject.status == 64)
        #expect(try server.runCommand(["service-accounts", "list"]).output.split(separator: "\n").count == 2)

        // Long emails are listed whole.
        let long = try KeyFile(server, name: "a-very-long-service-account-nm", extra: ["--project-id", "a-rather-long-project-id-for-tests"])
        defer { long.remove() }
        #expect(try server.runCommand(["service-accounts", "list"]).output.contains(
            "a-very-long-service-account-nm@a-rather-long-project-id-for-tests.iam.hearth "))
        #expect(try server.runCommand(["service-accounts", "revoke", "nobody-here"]).status == 1)
    }

    @Test("the exact JWT-bearer request google-auth sends gets an access token that is no ID token; refusals")
    func exactRequest() throws {
        let server = try Self.productionServer()
        let keyFile = try KeyFile(server)
        defer { keyFile.remove() }
        let response = try Self.tokenRequest(server, assertion: keyFile.sign(Self.assertionClaims(keyFile)))
        #expect(response.status == 200, "\(response.text)")
        let token = try #require(response.json["access_token"] as? String)
        #expect(response.json["expires_in"] as? Int == 3600)
        #expect(response.json["token_type"] as? String == "Bearer")
        #expect(Self.claims(of: token)["sub"] as? String == keyFile.email)

        // An admin access token is refused where an ID token is expected.
        let lookup = try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=\(Self.apiKey)", ["idToken": token])
        #expect(lookup.status == 400)
        #expect((lookup.json["error"] as? [String: Any])?["message"] as? String == "INVALID_ID_TOKEN")

        // Another key under this account's kid.
        let forged = try Self.tokenRequest(
            server, assertion: keyFile.sign(Self.assertionClaims(keyFile), key: RSAPrivateKey.generate(bits: 2048)))
        #expect(forged.status == 400)
        #expect(forged.json["error"] as? String == "invalid_grant")

        // Revoked: no more tokens.
        let revoke = try server.runCommand(["service-accounts", "revoke", "backend-api"])
        #expect(revoke.status == 0, "\(revoke.output)")
        let refused = try Self.tokenRequest(server, assertion: keyFile.sign(Self.assertionClaims(keyFile)))
        #expect(refused.json["error"] as? String == "invalid_grant")
        #expect(try server.runCommand(["service-accounts", "list"]).output.contains("revoked"))
    }

    @Test("google-auth's service-account credentials (from PyPI) get a token from the key file; not once revoked")
    func realGoogleAuth() throws {
        let python = try PythonClients.python.get()
        let server = try Self.productionServer()
        let keyFile = try KeyFile(server)
        defer { keyFile.remove() }
        let script = PythonClients.script("google_auth_token.py")
        let result = try runProgramSplit(python, [script.path, keyFile.path.path])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let answer = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(answer["valid"] as? Bool == true)
        #expect(answer["email"] as? String == keyFile.email)
        let token = try #require(answer["token"] as? String)
        #expect(Self.claims(of: token)["sub"] as? String == keyFile.email)

        #expect(try server.runCommand(["service-accounts", "revoke", keyFile.email]).status == 0)
        let refused = try runProgramSplit(python, [script.path, keyFile.path.path])
        #expect(refused.status == 2, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stdout.contains("invalid_grant"))
    }

    @Test("in production the admin endpoints take google-auth's access token, and refuse an API key, an ID token, another key's assertion and a revoked account's token")
    func adminEndpointsWithServiceAccountTokens() throws {
        let server = try Self.productionServer()
        let keyFile = try KeyFile(server)
        let other = try KeyFile(server, name: "other-service")
        defer { keyFile.remove(); other.remove() }
        let fetched = try PythonClients.run("google_auth_token.py", [keyFile.path.path])
        let accessToken = try #require(fetched["token"] as? String, "\(fetched)")
        let admin = "/identitytoolkit.googleapis.com/v1/projects/sa-project"
        func call(_ name: String, _ body: [String: Any], bearer: String?, key: String? = nil) throws -> HTTPResult {
            try server.postJSON(
                "\(admin)/\(name)" + (key.map { "?key=\($0)" } ?? ""), body,
                headers: bearer.map { [("Authorization", "Bearer \($0)")] } ?? [])
        }

        let created = try call("accounts", ["localId": "made-by-backend", "email": "backend@example.com"], bearer: accessToken)
        #expect(created.status == 200, "\(created.text)")
        let found = try call("accounts:lookup", ["localId": ["made-by-backend"]], bearer: accessToken)
        #expect((found.json["users"] as? [[String: Any]])?.first?["email"] as? String == "backend@example.com", "\(found.text)")

        // An API key alone, and an API key with no bearer token.
        let keyOnly = try call("accounts:lookup", ["localId": ["made-by-backend"]], bearer: nil, key: Self.apiKey)
        #expect(keyOnly.status == 401, "\(keyOnly.text)")
        // A user's ID token (from a custom-token sign-in) is not an admin credential.
        let now = Int(Date().timeIntervalSince1970)
        let customToken = try keyFile.sign([
            "iss": keyFile.email, "sub": keyFile.email, "aud": Self.customTokenAudience, "uid": "plain-user",
            "iat": now, "exp": now + 3600,
        ])
        let user = try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=\(Self.apiKey)",
            ["token": customToken, "returnSecureToken": true])
        let idToken = try #require(user.json["idToken"] as? String, "\(user.text)")
        #expect(try call("accounts:lookup", ["localId": ["plain-user"]], bearer: idToken).status == 401)
        // An assertion naming this account but signed with another account's key gets no token.
        let forged = try Self.tokenRequest(server, assertion: keyFile.sign(Self.assertionClaims(keyFile), key: other.privateKey))
        #expect(forged.status == 400 && forged.json["error"] as? String == "invalid_grant", "\(forged.text)")
        // Revoking the account ends its access token at once.
        #expect(try server.runCommand(["service-accounts", "revoke", "backend-api"]).status == 0)
        let revoked = try call("accounts:lookup", ["localId": ["made-by-backend"]], bearer: accessToken)
        #expect(revoked.status == 401, "\(revoked.text)")
    }

    @Test("a custom token signed with the key file's key signs in (new uid, claims, refresh); unsigned ones are refused")
    func customTokenSignIn() throws {
        let server = try Self.productionServer()
        let keyFile = try KeyFile(server)
        defer { keyFile.remove() }
        let now = Int(Date().timeIntervalSince1970)
        let token = try keyFile.sign([
            "iss": keyFile.email, "sub": keyFile.email, "aud": Self.customTokenAudience, "uid": "custom-user-1",
            "iat": now, "exp": now + 3600, "claims": ["premium": true],
        ])
        let path = "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=\(Self.apiKey)"
        let signIn = try server.postJSON(path, ["token": token, "returnSecureToken": true])
        #expect(signIn.status == 200, "\(signIn.text)")
        #expect(signIn.json["isNewUser"] as? Bool == true)
        let idToken = try #require(signIn.json["idToken"] as? String)
        let claims = Self.claims(of: idToken)
        #expect(claims["sub"] as? String == "custom-user-1")
        #expect(claims["premium"] as? Bool == true)
        #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "custom")

        let refreshToken = try #require(signIn.json["refreshToken"] as? String)
        let refreshed = try server.request(
            "POST", "/securetoken.googleapis.com/v1/token?key=\(Self.apiKey)",
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("grant_type=refresh_token&refresh_token=\(refreshToken)".utf8))
        #expect(refreshed.status == 200)
        #expect(Self.claims(of: refreshed.json["id_token"] as? String ?? "")["premium"] as? Bool == true)

        let again = try server.postJSON(path, ["token": token, "returnSecureToken": true])
        #expect(again.json["isNewUser"] as? Bool == false)

        let unsigned = try server.postJSON(path, ["token": Self.unsignedToken(uid: "dev-user"), "returnSecureToken": true])
        #expect(unsigned.status == 400)
        #expect(((unsigned.json["error"] as? [String: Any])?["message"] as? String)?.hasPrefix("INVALID_CUSTOM_TOKEN") == true)
    }

    @Test("with --dev, the unsigned custom tokens firebase-admin makes in emulator mode sign in")
    func unsignedInDevelopment() throws {
        let server = HearthProcess()
        try server.start()
        let path = "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=any"
        let response = try server.postJSON(path, ["token": Self.unsignedToken(uid: "dev-user"), "returnSecureToken": true])
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json["isNewUser"] as? Bool == true)
        #expect(Self.claims(of: response.json["idToken"] as? String ?? "")["sub"] as? String == "dev-user")
    }

    /// What firebase-admin (Python) `create_custom_token` makes in emulator mode.
    static func unsignedToken(uid: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        let header = Base64URL.encode(Data(#"{"typ": "JWT", "alg": "none"}"#.utf8))
        let payload: [String: Any] = [
            "iss": "firebase-auth-emulator@example.com", "sub": "firebase-auth-emulator@example.com",
            "aud": customTokenAudience, "uid": uid, "iat": now, "exp": now + 3600,
        ]
        return header + "." + Base64URL.encode((try? JSONSerialization.data(withJSONObject: payload)) ?? Data()) + "."
    }
}
