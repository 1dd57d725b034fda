import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

/// Wire fixtures for email and password accounts and email actions (PROTOCOL.md §3.1–3.2, §3.6, §3.8–3.11).
enum EmailFixture {
    static let email = "ada@example.com"
    static let password = "correct horse battery staple"
    static let relyingParty = "https://www.googleapis.com/identitytoolkit/v3/relyingparty/"
    static let sessionKey = "hearth.auth.\(Fixture.apiKey).[DEFAULT]"

    static func idToken(issuedAt: Double = Fixture.startTime) -> String {
        Fixture.idToken(issuedAt: issuedAt, provider: "password")
    }

    /// `verifyPassword`, `signupNewUser` or `emailLinkSignin` with tokens.
    static func signInResponse(
        idToken: String = idToken(), refreshToken: String = "refresh-1", extra: [String: JSONValue] = [:]
    ) -> JSONValue {
        var body: [String: JSONValue] = [
            "kind": "identitytoolkit#VerifyPasswordResponse", "localId": .string(Fixture.uid), "email": .string(email),
            "registered": true, "idToken": .string(idToken), "refreshToken": .string(refreshToken),
            "expiresIn": "3600",
        ]
        for (key, value) in extra { body[key] = value }
        return .object(body)
    }

    static let passwordProvider: JSONValue = [
        "providerId": "password", "rawId": .string(email), "federatedId": .string(email), "email": .string(email),
    ]

    static func userRecord(uid: String = Fixture.uid) -> JSONValue {
        Fixture.userRecord(uid: uid, providers: [passwordProvider])
    }

    static func signInLink(code: String = "code-123", mode: String = "signIn") -> String {
        "http://127.0.0.1:9099/emulator/action?mode=\(mode)&lang=en&oobCode=\(code)&apiKey=fake-api-key&continueUrl=https%3A%2F%2Fexample.com%2Ffinish"
    }

    static let iOSClientType: JSONValue = "CLIENT_TYPE_IOS"
}

extension Harness {
    /// Signs in with the email fixture.
    @discardableResult
    func signInWithPassword() async throws -> AuthDataResult {
        transport.enqueue("verifyPassword", json: EmailFixture.signInResponse())
        transport.enqueue("getAccountInfo", json: EmailFixture.userRecord())
        return try await auth.signIn(withEmail: EmailFixture.email, password: EmailFixture.password)
    }

    /// The saved session.
    func savedSession() throws -> StoredSession {
        guard let data = try store.load(key: EmailFixture.sessionKey) else { throw NoSavedSession() }
        return try JSONDecoder().decode(StoredSession.self, from: data)
    }
}

struct NoSavedSession: Error {}

extension TransportRequest {
    /// POST, JSON, and HearthAuth's client version, as every relying-party call.
    func isStandardPost(to endpoint: String) -> Bool {
        method == "POST" && url.absoluteString == EmailFixture.relyingParty + "\(endpoint)?key=\(Fixture.apiKey)"
            && headers["Content-Type"] == "application/json"
            && headers["X-Client-Version"] == "Swift/HearthAuth/\(HearthAuthVersion.string)"
    }
}
