import Foundation
import HearthCrypto
import HearthProtocol
import JOSE
import Testing

@testable import HearthAdmin

/// The service-account credential: the JWT-bearer grant, the access-token cache and its single flight.
@Suite("Service account")
struct ServiceAccountTests {
    let harness = Harness()

    struct AssertionClaims: Decodable, Equatable {
        var iss: String
        var aud: String
        var scope: String
        var iat: Int64
        var exp: Int64
    }

    @Test("the grant posts a form with an RS256 assertion that the account's public key verifies")
    func grantRequest() async throws {
        harness.transport.enqueue("token", json: Fixture.tokenResponse("at-1"))
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup())
        _ = try await harness.auth(try harness.serviceAccount()).getUser(uid: "uid-1")

        let grant = try #require(harness.transport.requests(to: "token").first)
        #expect(grant.method == "POST")
        #expect(grant.url.absoluteString == Fixture.tokenURI)
        #expect(grant.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(grant.headers["Authorization"] == nil)
        let body = String(decoding: grant.body ?? Data(), as: UTF8.self)
        #expect(body.hasPrefix("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="))
        #expect(grant.form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")

        var keys = JWTKeySet()
        keys.add(Fixture.accountKey.publicKey, keyID: "sa-key-1")
        let verified = try keys.verify(try #require(grant.form["assertion"]))
        #expect(verified.header.alg == "RS256")
        #expect(verified.header.kid == "sa-key-1")
        let claims = try verified.claims(as: AssertionClaims.self)
        #expect(claims == AssertionClaims(
            iss: Fixture.clientEmail, aud: Fixture.tokenURI,
            scope: "https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/datastore "
                + "https://www.googleapis.com/auth/devstorage.read_write https://www.googleapis.com/auth/firebase "
                + "https://www.googleapis.com/auth/identitytoolkit https://www.googleapis.com/auth/userinfo.email",
            iat: 1_800_000_000, exp: 1_800_003_600))

        let lookup = try #require(harness.transport.requests(to: "accounts:lookup").first)
        #expect(lookup.headers["Authorization"] == "Bearer at-1")
    }

    @Test("the access token is reused until five minutes before it expires, then fetched again")
    func caching() async throws {
        let auth = harness.auth(try harness.serviceAccount())
        harness.transport.enqueue("token", json: Fixture.tokenResponse("at-1", expiresIn: 3600))
        harness.transport.enqueue("token", json: Fixture.tokenResponse("at-2", expiresIn: 3600))
        for _ in 0..<3 { harness.transport.enqueue("accounts:lookup", json: Fixture.lookup()) }

        _ = try await auth.getUser(uid: "uid-1")
        harness.clock.advance(by: 3299)
        _ = try await auth.getUser(uid: "uid-1")
        #expect(harness.transport.requests(to: "token").count == 1)
        harness.clock.advance(by: 1)
        _ = try await auth.getUser(uid: "uid-1")
        #expect(harness.transport.requests(to: "token").count == 2)
        #expect(harness.transport.requests(to: "accounts:lookup").map { $0.headers["Authorization"] }
            == ["Bearer at-1", "Bearer at-1", "Bearer at-2"])
    }

    @Test("concurrent callers share one token fetch")
    func singleFlight() async throws {
        let auth = harness.auth(try harness.serviceAccount())
        let gate = Gate()
        harness.transport.hold("token", until: gate)
        harness.transport.enqueue("token", json: Fixture.tokenResponse("at-1"))
        harness.transport.enqueue("token", json: Fixture.tokenResponse("at-unused"))
        for _ in 0..<5 { harness.transport.enqueue("accounts:lookup", json: Fixture.lookup()) }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 {
                group.addTask { _ = try await auth.getUser(uid: "uid-1") }
            }
            while await auth.backend.tokens.waiting < 5 { await Task.yield() }
            gate.open()
            try await group.waitForAll()
        }
        #expect(harness.transport.requests(to: "token").count == 1)
        #expect(harness.transport.requests(to: "accounts:lookup").allSatisfy { $0.headers["Authorization"] == "Bearer at-1" })
    }

    @Test("a 401 from Hearth drops the cached token, fetches a new one and retries once")
    func retryAfter401() async throws {
        let auth = harness.auth(try harness.serviceAccount())
        harness.transport.enqueue("token", json: Fixture.tokenResponse("at-1"))
        harness.transport.enqueue("token", json: Fixture.tokenResponse("at-2"))
        harness.transport.enqueue("token", json: Fixture.tokenResponse("at-3"))
        let unauthenticated: JSONValue = ["error": ["code": 401, "message": "The admin token was revoked.", "status": "UNAUTHENTICATED"]]
        harness.transport.enqueue("accounts:lookup", status: 401, json: unauthenticated)
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup())
        _ = try await auth.getUser(uid: "uid-1")
        #expect(harness.transport.requests(to: "accounts:lookup").map { $0.headers["Authorization"] } == ["Bearer at-1", "Bearer at-2"])

        // Refused twice: the second 401 is the answer.
        harness.transport.enqueue("accounts:lookup", status: 401, json: unauthenticated)
        harness.transport.enqueue("accounts:lookup", status: 401, json: unauthenticated)
        let error = await adminError { try await auth.getUser(uid: "uid-1") }
        #expect(error?.code == .invalidCredential)
        #expect(error?.message == "The admin token was revoked.")
        #expect(harness.transport.requests(to: "accounts:lookup").count == 4)
        #expect(harness.transport.requests(to: "token").count == 3)
    }

    @Test("a refused grant is an invalid credential with the endpoint's reason, and is not cached")
    func refusedGrant() async throws {
        let auth = harness.auth(try harness.serviceAccount())
        harness.transport.enqueue("token", status: 400, json: ["error": "invalid_grant", "error_description": "Invalid JWT Signature."])
        let error = await adminError { try await auth.getUser(uid: "uid-1") }
        #expect(error?.code == .invalidCredential)
        #expect(error?.serverCode == "invalid_grant")
        #expect(error?.httpStatus == 400)
        #expect(error?.message.contains("Invalid JWT Signature.") == true)
        #expect(harness.transport.requests(to: "accounts:lookup").isEmpty)

        harness.transport.enqueue("token", json: Fixture.tokenResponse("at-1"))
        harness.transport.enqueue("accounts:lookup", json: Fixture.lookup())
        _ = try await auth.getUser(uid: "uid-1")
        #expect(harness.transport.requests(to: "token").count == 2)
    }

    @Test("a token answer without expires_in is used for one call only; one without access_token is unexpected")
    func oddTokenAnswers() async throws {
        let auth = harness.auth(try harness.serviceAccount())
        harness.transport.enqueue("token", json: ["access_token": "at-1"])
        harness.transport.enqueue("token", json: ["access_token": "at-2", "expires_in": "3600"])
        for _ in 0..<3 { harness.transport.enqueue("accounts:lookup", json: Fixture.lookup()) }
        _ = try await auth.getUser(uid: "uid-1")
        _ = try await auth.getUser(uid: "uid-1")
        _ = try await auth.getUser(uid: "uid-1")
        #expect(harness.transport.requests(to: "accounts:lookup").map { $0.headers["Authorization"] }
            == ["Bearer at-1", "Bearer at-2", "Bearer at-2"])

        let other = Harness()
        other.transport.enqueue("token", json: ["token_type": "Bearer"])
        let error = await adminError { try await other.auth(try other.serviceAccount()).getUser(uid: "uid-1") }
        #expect(error?.code == .unexpectedResponse)
    }

    @Test(
        "unusable key files are refused as invalid credentials without quoting the key",
        arguments: [
            Data("not json".utf8),
            Fixture.serviceAccountJSON(type: "authorized_user"),
            Fixture.serviceAccountJSON(keyID: nil),
            Fixture.serviceAccountJSON(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
            Fixture.serviceAccountJSON(pem: nil),
            Fixture.serviceAccountJSON(tokenURI: "ftp://example.com/token"),
            Fixture.serviceAccountJSON(tokenURI: nil),
        ])
    func badKeyFiles(json: Data) {
        #expect {
            _ = try AdminCredential.serviceAccount(json: json)
        } throws: { error in
            guard let error = error as? HearthAdminError else { return false }
            return error.code == .invalidCredential && !error.message.contains("BEGIN") && !error.message.contains("AAAA")
        }
    }

    @Test("the project ID comes from the key file when not given")
    func projectFromFile() throws {
        let credential = try harness.serviceAccount()
        #expect(credential.projectID == "demo-hearth")
        #expect(credential.clientEmail == Fixture.clientEmail)
        let auth = AdminAuth(serverURL: Fixture.serverURL, credential: credential, transport: harness.transport, jwksHTTP: harness.jwks)
        #expect(auth.projectID == "demo-hearth")
        #expect(auth.idTokenIssuer == "https://securetoken.google.com/demo-hearth")
        #expect(auth.sessionCookieIssuer == "https://session.firebase.google.com/demo-hearth")
    }
}
