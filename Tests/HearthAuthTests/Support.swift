import Foundation
import HearthProtocol
import Synchronization
import Testing

@testable import HearthAuth

/// A transport that records every request and answers from per-endpoint scripts.
///
/// Endpoints are named by the URL's last path component: `verifyAssertion`, `getAccountInfo`,
/// `setAccountInfo`, `deleteAccount`, `token`. An unscripted request gets a 500 with an HTML body.
final class FakeTransport: HTTPTransport {
    enum Reply: Sendable {
        case response(TransportResponse)
        case failure(any Error)
    }

    private struct State {
        var requests: [TransportRequest] = []
        var scripts: [String: [Reply]] = [:]
        var gates: [String: Gate] = [:]
    }

    private let state = Mutex(State())

    func enqueue(_ endpoint: String, status: Int = 200, json: JSONValue) {
        enqueue(endpoint, .response(TransportResponse(status: status, body: json.jsonData())))
    }

    func enqueue(_ endpoint: String, status: Int, body: String) {
        enqueue(endpoint, .response(TransportResponse(status: status, body: Data(body.utf8))))
    }

    func enqueue(_ endpoint: String, _ reply: Reply) {
        state.withLock { $0.scripts[endpoint, default: []].append(reply) }
    }

    /// Requests to `endpoint` wait until `gate` opens.
    func hold(_ endpoint: String, until gate: Gate) {
        state.withLock { $0.gates[endpoint] = gate }
    }

    var requests: [TransportRequest] { state.withLock { $0.requests } }

    func requests(to endpoint: String) -> [TransportRequest] {
        requests.filter { $0.url.lastPathComponent == endpoint }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let endpoint = request.url.lastPathComponent
        let gate = state.withLock { state -> Gate? in
            state.requests.append(request)
            return state.gates[endpoint]
        }
        if let gate { await gate.wait() }
        let reply = state.withLock { state -> Reply? in
            guard var queue = state.scripts[endpoint], !queue.isEmpty else { return nil }
            let first = queue.removeFirst()
            state.scripts[endpoint] = queue
            return first
        }
        switch reply {
        case .response(let response)?: return response
        case .failure(let error)?: throw error
        case nil: return TransportResponse(status: 500, body: Data("<html>no scripted reply</html>".utf8))
        }
    }
}

/// A one-shot latch.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// A session store whose operations can be made to fail.
final class FailingSessionStore: SessionStore {
    let inner = InMemorySessionStore()
    private let failing = Mutex(false)

    func setFailing(_ value: Bool) { failing.withLock { $0 = value } }

    struct Failure: Error {}

    func load(key: String) throws -> Data? { try inner.load(key: key) }
    func save(_ data: Data, key: String) throws {
        if failing.withLock({ $0 }) { throw Failure() }
        try inner.save(data, key: key)
    }
    func remove(key: String) throws {
        if failing.withLock({ $0 }) { throw Failure() }
        try inner.remove(key: key)
    }
}

enum Fixture {
    static let apiKey = "AIzaTestKey-123"
    static let options = HearthOptions(apiKey: apiKey, projectID: "demo-hearth")
    static let googleIDToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2ln"
    static let googleAccessToken = "ya29.a0AfH6SM-access_token"
    static let uid = "uid-ada"
    static let startTime: Double = 1_800_000_000

    /// A Firebase-style ID token (unsigned: the client never checks signatures).
    static func idToken(
        uid: String = uid, issuedAt: Double = startTime, lifetime: Double = 3600, provider: String? = "google.com",
        secondFactor: String? = nil, extra: [String: JSONValue] = [:], omit: Set<String> = []
    ) -> String {
        var claims: [String: JSONValue] = [
            "iss": "https://securetoken.google.com/demo-hearth", "aud": "demo-hearth", "sub": .string(uid),
            "user_id": .string(uid), "iat": .integer(Int64(issuedAt)), "exp": .integer(Int64(issuedAt + lifetime)),
            "auth_time": .integer(Int64(issuedAt)),
        ]
        var firebase: [String: JSONValue] = ["identities": ["google.com": ["1234567890"]]]
        if let provider { firebase["sign_in_provider"] = .string(provider) }
        if let secondFactor { firebase["sign_in_second_factor"] = .string(secondFactor) }
        claims["firebase"] = .object(firebase)
        for (key, value) in extra { claims[key] = value }
        for key in omit { claims.removeValue(forKey: key) }
        return "\(base64URL(#"{"alg":"RS256","kid":"k1","typ":"JWT"}"#)).\(base64URL(claims.jsonText)).c2lnbmF0dXJl"
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func signInResponse(
        idToken: String = idToken(), refreshToken: String = "refresh-1", isNewUser: Bool = true
    ) -> JSONValue {
        [
            "kind": "identitytoolkit#VerifyAssertionResponse", "providerId": "google.com", "localId": .string(uid),
            "federatedId": "https://accounts.google.com/1234567890", "email": "ada@example.com",
            "emailVerified": true, "displayName": "Ada Lovelace", "photoUrl": "https://example.com/ada.png",
            "rawUserInfo": #"{"id":"1234567890","email":"ada@example.com","name":"Ada Lovelace","locale":"en"}"#,
            "oauthIdToken": .string(googleIDToken), "oauthAccessToken": .string(googleAccessToken),
            "isNewUser": .bool(isNewUser), "idToken": .string(idToken), "refreshToken": .string(refreshToken),
            "expiresIn": "3600",
        ]
    }

    static func userRecord(
        uid: String = uid, displayName: JSONValue = "Ada Lovelace", providers: [JSONValue]? = nil,
        mfaInfo: [JSONValue]? = nil
    ) -> JSONValue {
        var user: [String: JSONValue] = [
            "localId": .string(uid), "email": "ada@example.com", "emailVerified": true, "displayName": displayName,
            "photoUrl": "https://example.com/ada.png", "createdAt": "1700000000123", "lastLoginAt": "1800000000456",
            "providerUserInfo": .array(
                providers ?? [
                    [
                        "providerId": "google.com", "rawId": "1234567890", "federatedId": "1234567890",
                        "email": "ada@example.com", "displayName": "Ada Lovelace",
                        "photoUrl": "https://example.com/ada.png",
                    ]
                ]),
        ]
        if displayName == .null { user.removeValue(forKey: "displayName") }
        if let mfaInfo { user["mfaInfo"] = .array(mfaInfo) }
        return ["kind": "identitytoolkit#GetAccountInfoResponse", "users": [.object(user)]]
    }

    static func refreshResponse(idToken: String, refreshToken: String = "refresh-2") -> JSONValue {
        [
            "access_token": .string(idToken), "expires_in": "3600", "token_type": "Bearer",
            "refresh_token": .string(refreshToken), "id_token": .string(idToken), "user_id": .string(uid),
            "project_id": "12345",
        ]
    }

    static func errorEnvelope(_ message: String, status: Int = 400, reason: String = "invalid") -> JSONValue {
        [
            "error": [
                "code": .integer(Int64(status)), "message": .string(message),
                "errors": [["message": .string(message), "reason": .string(reason), "domain": "global"]],
            ]
        ]
    }

    static var googleCredential: AuthCredential {
        GoogleAuthProvider.credential(withIDToken: googleIDToken, accessToken: googleAccessToken)
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    var jsonText: String { String(decoding: JSONValue.object(self).jsonData(sortedKeys: true), as: UTF8.self) }
}

/// An `Auth` over a fake transport and an in-memory store, with a manual clock.
struct Harness {
    let transport = FakeTransport()
    let clock = ManualClock()
    let store: any SessionStore
    let auth: Auth

    init(store: any SessionStore = InMemorySessionStore(), name: String = Auth.defaultName) {
        self.store = store
        let clock = self.clock
        auth = Auth(
            options: Fixture.options, name: name, sessionStore: store, transport: transport, clock: { clock.now })
    }

    /// Signs in with the Google fixture; the ID token expires an hour from the clock's start.
    @discardableResult
    func signIn(isNewUser: Bool = true) async throws -> AuthDataResult {
        transport.enqueue("verifyAssertion", json: Fixture.signInResponse(isNewUser: isNewUser))
        transport.enqueue("getAccountInfo", json: Fixture.userRecord())
        return try await auth.signIn(with: Fixture.googleCredential)
    }
}

extension TransportRequest {
    /// The body as a JSON value, for comparisons that ignore key order and escaping.
    var json: JSONValue? { body.flatMap { try? JSONValue(parsing: $0) } }
}

/// Runs `body` and returns the `AuthError` it throws.
func authError(_ body: () async throws -> Void) async -> AuthError? {
    do {
        try await body()
        return nil
    } catch let error as AuthError {
        return error
    } catch {
        Issue.record("expected an AuthError, got \(error)")
        return nil
    }
}

extension Auth {
    /// Queues `body` behind every listener callback already queued, so a test can tell "no event"
    /// from "not yet" without waiting on a clock.
    func queueMarker(_ body: @escaping @Sendable () -> Void) {
        let handle = addStateDidChangeListener { _, _ in body() }
        removeStateDidChangeListener(handle)
    }
}
