import Foundation
import HearthCrypto
import Testing

/// The `oidc.*` code flow against the built `hearth serve` WITHOUT `--dev`: the provider `oidc.second` is a second
/// `hearth serve --dev`, whose dev Google look-alike issues authorization codes (PKCE S256) and exchanges them at its
/// token endpoint, found by discovery. The client sends `signInWithIdp` the way Firebase's web SDK does after the
/// provider's redirect: `requestUri` = the page it reached (with `code` and `state`), or the code in the `postBody`.
@Suite("OpenID providers: authorization-code sign-in (e2e)", .blocking)
struct OpenIDCodeFlowEndToEndTests {
    static let secret = "second-client-secret"
    static let path = "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=\(OpenIDProviderTests.apiKey)"

    /// The provider and a production server that exchanges its codes with a client secret.
    static func servers() throws -> (idp: HearthProcess, server: HearthProcess) {
        let idp = HearthProcess()
        try idp.start()
        let server = try OpenIDProviderTests.server(config: [
            "oidcProviders": [[
                "providerId": "oidc.second", "issuer": "\(idp.baseURL)/dev/google", "clientIds": [DevGoogle.clientID],
                "clientSecret": secret,
            ]],
        ])
        return (idp, server)
    }

    @Test("a code in the requestUri, or in the postBody with its PKCE verifier, signs in as the provider's user; a reused code is INVALID_IDP_RESPONSE")
    func signsIn() throws {
        let (idp, server) = try Self.servers()
        let google = DevGoogle(server: idp)

        let verifier = SecureRandom.token()
        let redirect = try google.authorize(email: "code@example.com", verifier: verifier)
        #expect(redirect.location.hasPrefix(DevGoogle.redirectURI + "?"), "\(redirect.location)")
        let first = try server.postJSON(Self.path, [
            "requestUri": redirect.location, "postBody": "providerId=oidc.second&code_verifier=\(verifier)&nonce=n",
            "returnSecureToken": true, "returnIdpCredential": true,
        ])
        #expect(first.status == 200, "\(first.text)")
        #expect(first.json["providerId"] as? String == "oidc.second")
        #expect(first.json["email"] as? String == "code@example.com" && first.json["isNewUser"] as? Bool == true)
        #expect((first.json["oauthIdToken"] as? String)?.isEmpty == false, "the provider's ID token is echoed")
        #expect((first.json["oauthAccessToken"] as? String)?.isEmpty == false, "and its access token")
        let signedIn = try SignedIn(first)
        let claims = JWTParts.claims(signedIn.idToken)
        #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "oidc.second")

        // The same person again, the code in the postBody and requestUri the bare redirect URI.
        let secondVerifier = SecureRandom.token()
        let again = try google.authorize(email: "code@example.com", verifier: secondVerifier)
        let body = "providerId=oidc.second&code=\(Self.formEncoded(again.code))&code_verifier=\(secondVerifier)"
        let second = try server.postJSON(Self.path, [
            "requestUri": DevGoogle.redirectURI, "postBody": body, "returnSecureToken": true,
        ])
        #expect(second.status == 200, "\(second.text)")
        #expect(second.json["localId"] as? String == signedIn.localID && second.json["isNewUser"] as? Bool == false)

        let reused = try server.postJSON(Self.path, ["requestUri": DevGoogle.redirectURI, "postBody": body, "returnSecureToken": true])
        #expect(reused.status == 400, "\(reused.text)")
        #expect(reused.errorMessage == "INVALID_IDP_RESPONSE : The identity provider's token endpoint refused the authorization code (invalid_grant).", "\(reused.text)")
        #expect((reused.json["error"] as? [String: Any])?["errors"] != nil, "Firebase's envelope")
        let output = server.lines.joined(separator: "\n")
        #expect(!output.contains(again.code) && !output.contains(Self.secret), "neither the code nor the secret is logged")
    }

    @Test("a wrong PKCE verifier, another redirect URI or a made-up code are INVALID_IDP_RESPONSE, not a server fault")
    func refused() throws {
        let (idp, server) = try Self.servers()
        let google = DevGoogle(server: idp)
        let cases: [(String, (String, String) -> [String: Any])] = [
            ("wrong verifier", { code, _ in
                ["requestUri": DevGoogle.redirectURI, "postBody": "providerId=oidc.second&code=\(code)&code_verifier=\(SecureRandom.token())"]
            }),
            ("other redirect URI", { code, verifier in
                ["requestUri": "http://127.0.0.1:9/elsewhere", "postBody": "providerId=oidc.second&code=\(code)&code_verifier=\(verifier)"]
            }),
            ("made-up code", { _, verifier in
                ["requestUri": DevGoogle.redirectURI, "postBody": "providerId=oidc.second&code=4%2Fmade-up&code_verifier=\(verifier)"]
            }),
        ]
        for (name, request) in cases {
            let verifier = SecureRandom.token()
            let code = Self.formEncoded(try google.authorize(email: "refused@example.com", verifier: verifier).code)
            let response = try server.postJSON(Self.path, request(code, verifier))
            #expect(response.status == 400, "\(name): \(response.text)")
            #expect(response.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(name): \(response.text)")
        }
    }

    @Test("a bad tokenUri or an empty clientSecret stops the server at startup", arguments: [
        (#"{"providerId": "oidc.acme", "issuer": "https://id.acme.test", "clientIds": ["c"], "tokenUri": "http://id.acme.test/token"}"#, "oidcProviders oidc.acme tokenUri must be an absolute https URL"),
        (#"{"providerId": "oidc.acme", "issuer": "https://id.acme.test", "clientIds": ["c"], "clientSecret": ""}"#, "clientSecret must not be empty"),
    ])
    func startupErrors(entry: String, message: String) throws {
        let directory = ServiceProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let provider = try #require(try JSONSerialization.jsonObject(with: Data(entry.utf8)) as? [String: Any])
        let settings: [String: Any] = ["apiKeys": ["k"], "projectId": "p", "oidcProviders": [provider]]
        let file = directory.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: settings).write(to: file)
        let result = try HearthProcess.run(["serve", "--config", file.path, "--data-dir", directory.path])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains(message), "\(result.output)")
    }

    /// A value for a form body (`/` and `+` escaped).
    static func formEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? value
    }
}
