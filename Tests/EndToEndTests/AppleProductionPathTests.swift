import Foundation
import HearthCrypto
import Testing

/// Hearth's calls to Apple WITHOUT `--dev`: the built `hearth serve` is configured with a team ID, key ID and `.p8`
/// key the test made, and `apple.endpoint` pointing at a fake Apple the test serves (``FakeAppleIssuer``), which
/// records each form POST to `/auth/token` and `/auth/revoke`. The tests check those calls as Apple documents them:
/// the form fields, and a client secret that is an ES256 JWT with Apple's header and claims, signed by that key.
@Suite("Apple production path (e2e)", .blocking)
struct AppleProductionPathTests {
    static let apiKey = "AIzaSyTest-iOS-key"
    static let teamID = "TEAM4E2E01"
    static let keyID = "KEY4E2E001"

    /// A web app's `signInWithIdp` after Apple's form_post reached `requestUri`: ID token, raw nonce and `code`.
    static func webSignIn(
        _ server: HearthProcess, _ apple: FakeAppleIssuer, subject: String, code: String, requestUri: String
    ) throws -> HTTPResult {
        let idToken = try apple.sign(apple.claims(subject: subject, email: "\(subject)@example.com", rawNonce: "web-nonce"))
        var postBody = URLComponents()
        postBody.queryItems = [
            URLQueryItem(name: "providerId", value: "apple.com"), URLQueryItem(name: "id_token", value: idToken),
            URLQueryItem(name: "nonce", value: "web-nonce"), URLQueryItem(name: "code", value: code),
        ]
        return try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=\(apiKey)",
            [
                "requestUri": requestUri, "postBody": postBody.percentEncodedQuery ?? "", "returnSecureToken": true,
                "returnIdpCredential": true,
            ],
            headers: [("X-Client-Version", "Chrome/JsCore/11.0.0/FirebaseCore-web")])
    }

    /// A production `hearth serve` whose Apple key is a new P-256 key in `AuthKey_<keyID>.p8` (mode 0600), with an
    /// encryption key and a maintenance pass every second.
    struct Stack {
        let apple: FakeAppleIssuer
        let server: HearthProcess
        let publicKey: P256PublicKey

        init() throws {
            apple = try FakeAppleIssuer()
            let directory = ServiceProcess.temporaryDirectory()
            let key = try P256PrivateKey.generate()
            publicKey = key.publicKey
            let keyFile = directory.appendingPathComponent("AuthKey_\(AppleProductionPathTests.keyID).p8")
            #expect(FileManager.default.createFile(
                atPath: keyFile.path, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600]))
            let config: [String: Any] = [
                "apiKeys": [AppleProductionPathTests.apiKey], "projectId": "apple-production",
                "apple": [
                    "clientIds": [FakeAppleIssuer.clientID], "teamId": AppleProductionPathTests.teamID,
                    "keyId": AppleProductionPathTests.keyID, "privateKeyFile": keyFile.path, "endpoint": apple.endpoint,
                ],
                "sessions": ["purgeIntervalSeconds": 1],
            ]
            let file = directory.appendingPathComponent("hearth-apple.json")
            try JSONSerialization.data(withJSONObject: config).write(to: file)
            // The key and config files sit in the data directory, removed with it. With an encryption key, secrets
            // (Apple's refresh tokens among them) are sealed at rest.
            let encryptionKey = Data(SecureRandom.bytes(count: 32)).base64EncodedString()
            server = HearthProcess(
                arguments: ["--config", file.path], environment: ["HEARTH_ENCRYPTION_KEY": encryptionKey],
                dataDirectory: directory)
            try server.start()
        }

        var client: FirebaseIOSClient { FirebaseIOSClient(server: server, apiKey: AppleProductionPathTests.apiKey) }

        /// Checks one call's client authentication as Apple documents it.
        func expectAuthenticated(_ call: FakeAppleTokenEndpoints.Call, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(call.contentType == "application/x-www-form-urlencoded", sourceLocation: sourceLocation)
            #expect(call.fields["client_id"] == FakeAppleIssuer.clientID, sourceLocation: sourceLocation)
            let problems = FakeAppleTokenEndpoints.problems(
                clientSecret: call.fields["client_secret"] ?? "", key: publicKey, teamID: AppleProductionPathTests.teamID,
                keyID: AppleProductionPathTests.keyID, clientID: FakeAppleIssuer.clientID)
            #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
        }

        /// A web app's `signInWithIdp` after Apple's form_post reached `requestUri`: ID token, raw nonce and `code`.
        func webSignIn(subject: String, code: String, requestUri: String) throws -> HTTPResult {
            try AppleProductionPathTests.webSignIn(server, apple, subject: subject, code: code, requestUri: requestUri)
        }

        /// The revoke calls for `token`, once there are at least `count`; waits at most `timeout` seconds (the
        /// maintenance task calls Apple after the request that queued the revocation answered).
        func revokeCalls(of token: String, count: Int = 1, timeout: TimeInterval = 30) -> [FakeAppleTokenEndpoints.Call] {
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                let calls = apple.tokens.calls(to: "/auth/revoke").filter { $0.fields["token"] == token }
                if calls.count >= count || Date() > deadline { return calls }
                usleep(50_000)
            }
        }

        /// Expects Hearth to revoke the refresh token `token` at `/auth/revoke` as Apple documents it (soon: the
        /// maintenance task calls Apple after the request that queued the revocation answered).
        func expectRevoked(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let revoke = try #require(revokeCalls(of: token).first, sourceLocation: sourceLocation)
            expectAuthenticated(revoke, sourceLocation: sourceLocation)
            #expect(revoke.fields["token_type_hint"] == "refresh_token", sourceLocation: sourceLocation)
            #expect(Set(revoke.fields.keys) == ["client_id", "client_secret", "token", "token_type_hint"], sourceLocation: sourceLocation)
        }

        /// Expects `secret` in none of the SQLite files of the data directory and nowhere in Hearth's output.
        func expectNowhere(_ secret: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let files = try FileManager.default.contentsOfDirectory(atPath: server.dataDirectory.path)
                .filter { $0.hasPrefix("hearth.sqlite") }
            #expect(files.contains("hearth.sqlite"), "\(files)", sourceLocation: sourceLocation)
            let holding = try files.filter {
                try Data(contentsOf: server.dataDirectory.appendingPathComponent($0)).range(of: Data(secret.utf8)) != nil
            }
            #expect(holding.isEmpty, "found in \(holding)", sourceLocation: sourceLocation)
            #expect(!server.lines.contains { $0.contains(secret) }, "printed", sourceLocation: sourceLocation)
        }
    }

    @Test("a web sign-in carrying Apple's code: one /auth/token call as Apple documents it; the refresh token is kept sealed")
    func signInExchangesCode() throws {
        let stack = try Stack()
        let (code, refreshToken) = stack.apple.tokens.issueCode()
        let signedIn = try stack.webSignIn(
            subject: "000111.web", code: code, requestUri: "https://app.example.com/apple/callback?state=s1#top")
        #expect(signedIn.status == 200, "\(signedIn.text)")

        let exchanges = stack.apple.tokens.calls(to: "/auth/token")
        #expect(exchanges.count == 1)
        let exchange = try #require(exchanges.first)
        stack.expectAuthenticated(exchange)
        // The check can fail: another key's public half, or another team, does not match this secret.
        let secret = exchange.fields["client_secret"] ?? ""
        let otherKey = try P256PrivateKey.generate().publicKey
        #expect(!FakeAppleTokenEndpoints.problems(
            clientSecret: secret, key: otherKey, teamID: Self.teamID, keyID: Self.keyID, clientID: FakeAppleIssuer.clientID).isEmpty)
        #expect(!FakeAppleTokenEndpoints.problems(
            clientSecret: secret, key: stack.publicKey, teamID: "OTHERTEAM1", keyID: Self.keyID, clientID: FakeAppleIssuer.clientID).isEmpty)
        #expect(exchange.fields["code"] == code)
        #expect(exchange.fields["grant_type"] == "authorization_code")
        #expect(exchange.fields["redirect_uri"] == "https://app.example.com/apple/callback", "the page, without query or fragment")
        #expect(Set(exchange.fields.keys) == ["client_id", "client_secret", "code", "grant_type", "redirect_uri"])
        #expect(stack.apple.tokens.calls(to: "/auth/revoke").isEmpty)
        try stack.expectNowhere(refreshToken)  // sealed at rest, never logged
        try stack.expectNowhere(code)

        // The same code again: Apple refuses it, so Hearth does.
        let replay = try stack.webSignIn(subject: "000111.web", code: code, requestUri: "https://app.example.com/apple/callback")
        #expect(replay.status == 400, "\(replay.text)")
        #expect(replay.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(replay.text)")
    }

    @Test("iOS revokeToken with a code: exchanged at /auth/token without redirect_uri, then that refresh token revoked at /auth/revoke; another Apple ID's code revokes nothing")
    func revokeTokenExchangesThenRevokes() throws {
        let stack = try Stack()
        let idToken = try stack.apple.sign(stack.apple.claims(subject: "000222.ios", email: nil, rawNonce: "ios-nonce"))
        let session = try SignedIn(stack.client.verifyAppleAssertion(idToken: idToken, rawNonce: "ios-nonce"))
        #expect(stack.apple.tokens.calls.isEmpty, "a native sign-in sends no code")

        // A code of another Apple ID is exchanged (only Apple's answer says whose it is) but nothing is revoked.
        let (strangersCode, strangersToken) = stack.apple.tokens.issueCode(for: "000999.stranger")
        let refused = try stack.client.revokeToken(providerID: "apple.com", token: strangersCode, idToken: session.idToken)
        #expect(refused.status == 400 && refused.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(refused.text)")
        #expect(stack.apple.tokens.calls(to: "/auth/revoke").filter { $0.fields["token"] == strangersToken }.isEmpty)

        let (code, refreshToken) = stack.apple.tokens.issueCode(for: "000222.ios")
        let revoked = try stack.client.revokeToken(providerID: "apple.com", token: code, idToken: session.idToken)
        #expect(revoked.status == 200 && revoked.json.isEmpty, "\(revoked.text)")
        let exchange = try #require(stack.apple.tokens.calls(to: "/auth/token").last)
        stack.expectAuthenticated(exchange)
        #expect(exchange.fields["code"] == code && exchange.fields["grant_type"] == "authorization_code")
        #expect(exchange.fields["redirect_uri"] == nil, "an app's code had no redirect URI")

        try stack.expectRevoked(refreshToken)
        try stack.expectNowhere(refreshToken)
        try stack.expectNowhere(code)
    }

    @Test("deleting the account revokes the refresh token kept from the sign-in's code")
    func deletionRevokesKeptToken() throws {
        let stack = try Stack()
        let (code, refreshToken) = stack.apple.tokens.issueCode()
        let session = try SignedIn(stack.webSignIn(subject: "000333.del", code: code, requestUri: "https://app.example.com/cb"))
        let deleted = try stack.client.deleteAccount(idToken: session.idToken, localID: session.localID)
        #expect(deleted.status == 200, "\(deleted.text)")
        try stack.expectRevoked(refreshToken)
    }

    @Test("a later sign-in's code replaces the kept refresh token, and unlinking Apple (iOS unlink) revokes the one kept then")
    func replacedAndUnlinkedTokensAreRevoked() throws {
        let stack = try Stack()
        let (firstCode, firstToken) = stack.apple.tokens.issueCode()
        _ = try SignedIn(stack.webSignIn(subject: "000555.rep", code: firstCode, requestUri: "https://app.example.com/cb"))
        let (secondCode, secondToken) = stack.apple.tokens.issueCode()
        let session = try SignedIn(stack.webSignIn(subject: "000555.rep", code: secondCode, requestUri: "https://app.example.com/cb"))
        try stack.expectRevoked(firstToken)
        #expect(stack.apple.tokens.calls(to: "/auth/revoke").filter { $0.fields["token"] == secondToken }.isEmpty)

        let unlinked = try stack.client.setAccountInfo(["idToken": session.idToken, "deleteProvider": ["apple.com"], "returnSecureToken": true])
        #expect(unlinked.status == 200, "\(unlinked.text)")
        try stack.expectRevoked(secondToken)
    }

    @Test("without an Apple key: a sign-in's code is not exchanged, and revokeToken is OPERATION_NOT_ALLOWED (no 500)")
    func withoutAppleKey() throws {
        let apple = try FakeAppleIssuer()
        let server = try OpenIDProviderTests.appleServer(apple)
        let client = FirebaseIOSClient(server: server, apiKey: OpenIDProviderTests.apiKey)
        let idToken = try apple.sign(apple.claims(subject: "000666.nokey", email: nil, rawNonce: "n"))
        let session = try SignedIn(client.verifyAppleAssertion(idToken: idToken, rawNonce: "n"))
        let (webCode, _) = apple.tokens.issueCode()
        let web = try Self.webSignIn(server, apple, subject: "000667.nokey", code: webCode, requestUri: "https://app.example.com/cb")
        #expect(web.status == 200, "\(web.text)")
        let (code, _) = apple.tokens.issueCode()
        let answer = try client.revokeToken(providerID: "apple.com", token: code, idToken: session.idToken)
        #expect(answer.status == 400, "\(answer.text)")
        #expect(answer.errorMessage?.hasPrefix("OPERATION_NOT_ALLOWED") == true, "\(answer.text)")
        #expect(apple.tokens.calls.isEmpty)
    }

    @Test("Apple answering 503 to the revocation: the deletion still succeeds, the failure is logged without the token, and the revocation is retried until Apple confirms it")
    func revocationRetriedAfterOutage() throws {
        let stack = try Stack()
        stack.apple.tokens.answerRevocations(with: 503)
        let (code, refreshToken) = stack.apple.tokens.issueCode()
        let session = try SignedIn(stack.webSignIn(subject: "000444.out", code: code, requestUri: "https://app.example.com/cb"))
        let deleted = try stack.client.deleteAccount(idToken: session.idToken, localID: session.localID)
        #expect(deleted.status == 200, "\(deleted.text)")

        let failure = "event=provider-token-revocation-failed provider=apple.com uid=\(session.localID) attempt=1 retry_at_millis="
        #expect(stack.server.waitForLine { $0.hasPrefix(failure) }, "\(stack.server.lines)")
        #expect(stack.revokeCalls(of: refreshToken).count == 1)
        // Still serving: another person signs in.
        let other = try stack.apple.sign(stack.apple.claims(subject: "000445.ok", email: nil, rawNonce: "n"))
        #expect(try stack.client.verifyAppleAssertion(idToken: other, rawNonce: "n").status == 200)

        // Apple is back: the first retry is due a minute after the failure (a pass runs every second). The bound
        // only guards against a hang.
        stack.apple.tokens.answerRevocations(with: 200)
        #expect(stack.revokeCalls(of: refreshToken, count: 2, timeout: 150).count == 2)
        #expect(stack.server.waitForLine { $0.contains("provider_tokens_revoked=1") }, "\(stack.server.lines)")
        try stack.expectNowhere(refreshToken)
    }

    @Test("an Apple key configured in part, or a .p8 that is not a P-256 key, stops startup with exit status 64")
    func partialKeyConfiguration() throws {
        let directory = ServiceProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let notAKey = directory.appendingPathComponent("AuthKey_BAD.p8")
        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(to: notAKey)
        let cases: [(String, [String: Any], String)] = [
            ("teamId without keyId", ["clientIds": [FakeAppleIssuer.clientID], "teamId": Self.teamID],
             "apple: set teamId, keyId and privateKeyFile together"),
            ("not a P-256 key", ["clientIds": [FakeAppleIssuer.clientID], "teamId": Self.teamID, "keyId": Self.keyID,
                                 "privateKeyFile": notAKey.path], "apple.privateKeyFile"),
        ]
        for (name, apple, message) in cases {
            let file = directory.appendingPathComponent("config.json")
            try JSONSerialization.data(withJSONObject: ["apiKeys": [Self.apiKey], "projectId": "apple-partial", "apple": apple])
                .write(to: file)
            let data = directory.appendingPathComponent("data-\(UUID().uuidString)")
            // `timeout` ends a server that started after all, rather than hanging the test.
            let result = try runProgram(
                URL(fileURLWithPath: "/usr/bin/timeout"),
                ["60", HearthProcess.executable.path, "serve", "--port", "0", "--data-dir", data.path, "--config", file.path])
            #expect(result.status == 64, "\(name): \(result.output)")
            #expect(result.output.contains(message), "\(name): \(result.output)")
        }
    }
}
