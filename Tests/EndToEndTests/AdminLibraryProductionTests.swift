import Foundation
import HearthAdmin
import HearthProtocol
import HearthVerify
import Testing

/// HearthAdmin with a key file from `hearth service-accounts create` driving a production `hearth serve` (no
/// `--dev`): access tokens from Hearth's `/oauth2/token`, custom tokens signed with the key, ID tokens with
/// Hearth's own issuer, and the end of it all once the account is revoked.
@Suite("HearthAdmin against a production server (e2e)", .blocking)
struct AdminLibraryProductionTests {
    @Test("a service account's key file: create, get, claims, a signed custom token that signs in, verifyIDToken with Hearth's issuer; refused once revoked")
    func serviceAccount() async throws {
        let server = try ServiceAccountTests.productionServer()
        defer { server.stop() }
        let keyFile = try ServiceAccountTests.KeyFile(server)
        defer { keyFile.remove() }
        let url = try #require(URL(string: server.baseURL))
        let issuer = "\(server.baseURL)/sa-project"
        let auth = AdminAuth(
            serverURL: url, credential: try .serviceAccount(json: Data(contentsOf: keyFile.path)), idTokenIssuer: issuer)
        #expect(auth.projectID == "sa-project", "taken from the key file")

        var request = CreateUserRequest()
        request.uid = "prod-user"
        request.email = "prod@example.com"
        request.displayName = "Production User"
        let created = try await auth.createUser(request)
        #expect(created.uid == "prod-user" && created.email == "prod@example.com" && created.displayName == "Production User")
        #expect(try await auth.getUser(email: "prod@example.com") == created)
        try await auth.setCustomUserClaims(uid: "prod-user", ["admin": true])
        #expect(try await auth.getUser(uid: "prod-user").customClaims == ["admin": true])

        // A custom token signed with the key file's key signs the user in; its ID token verifies with Hearth's issuer.
        let customToken = try await auth.createCustomToken(uid: "prod-user", claims: ["tier": "gold"])
        #expect(JWTParts.header(customToken)["alg"] as? String == "RS256")
        #expect(JWTParts.header(customToken)["kid"] as? String == keyFile.fields["private_key_id"])
        #expect(JWTParts.claims(customToken)["iss"] as? String == keyFile.email)
        let client = CustomTokenClient(server: server, apiKey: ServiceAccountTests.apiKey)
        let session = try client.signIn(customToken)
        #expect(!session.isNewUser)
        #expect(JWTParts.claims(session.idToken)["iss"] as? String == issuer)
        let verified = try await auth.verifyIDToken(session.idToken, checkRevoked: true)
        #expect(verified.uid == "prod-user" && verified.email == "prod@example.com")
        #expect(verified.signInProvider == "custom")
        #expect(verified.claims["admin"] == .bool(true) && verified.claims["tier"] == .string("gold"))
        let cookie = try await auth.createSessionCookie(idToken: session.idToken, expiresIn: 600)
        #expect(try await auth.verifySessionCookie(cookie, checkRevoked: true).uid == "prod-user")

        // Many calls at once from a client that has no token yet all get one and work.
        let concurrent = AdminAuth(serverURL: url, credential: try .serviceAccount(json: Data(contentsOf: keyFile.path)))
        let uids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await concurrent.getUser(uid: "prod-user").uid } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(uids == Array(repeating: "prod-user", count: 20))

        // The issuer matters: with Firebase's default, Hearth's production tokens are refused.
        let firebaseIssuer = AdminAuth(serverURL: url, credential: try .serviceAccount(json: Data(contentsOf: keyFile.path)))
        #expect(await refusal { try await firebaseIssuer.verifyIDToken(session.idToken) }?.code == .invalidIDToken)
        // The development credential is refused without --dev.
        let owner = AdminAuth(serverURL: url, projectID: "sa-project", credential: .owner)
        let ownerRefused = await refusal { try await owner.getUser(uid: "prod-user") }
        #expect(ownerRefused?.code == .invalidCredential && ownerRefused?.httpStatus == 401)

        // Revoked: the cached access token stops working at once, and no new one is issued.
        #expect(try server.runCommand(["service-accounts", "revoke", "backend-api"]).status == 0)
        let revoked = await refusal { try await auth.getUser(uid: "prod-user") }
        #expect(revoked?.code == .invalidCredential, "\(String(describing: revoked))")
        #expect(revoked?.serverCode == "invalid_grant")
        let fresh = AdminAuth(serverURL: url, credential: try .serviceAccount(json: Data(contentsOf: keyFile.path)), idTokenIssuer: issuer)
        #expect(await refusal { try await fresh.createUser(CreateUserRequest()) }?.code == .invalidCredential)
        // Its custom tokens no longer sign anyone in, whether made before or after the revocation.
        #expect(throws: RawHTTP.Failure.self) { try client.signIn(customToken) }
        let madeAfter = try await fresh.createCustomToken(uid: "prod-user")
        #expect(throws: RawHTTP.Failure.self) { try client.signIn(madeAfter) }
        // Verifying needs no credential: the keys are public.
        #expect(try await fresh.verifyIDToken(session.idToken).uid == "prod-user")
    }
}
