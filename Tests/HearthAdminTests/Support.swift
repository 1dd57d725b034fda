import Foundation
import HearthCrypto
import HearthProtocol
import HearthVerify
import JOSE
import OutboundTesting
import Synchronization
import Testing

@testable import HearthAdmin

/// A transport that records every request and answers from per-endpoint scripts.
///
/// Endpoints are named by the URL path's last component: `accounts:lookup`, `accounts`, `accounts:batchGet`,
/// `demo-hearth:createSessionCookie`, `token`. An unscripted request gets a 500 with an HTML body.
final class FakeTransport: AdminTransport {
    enum Reply: Sendable {
        case response(AdminHTTPResponse)
        case failure(any Error)
    }

    private struct State {
        var requests: [AdminHTTPRequest] = []
        var scripts: [String: [Reply]] = [:]
        var gates: [String: Gate] = [:]
    }

    private let state = Mutex(State())

    func enqueue(_ endpoint: String, status: Int = 200, json: JSONValue) {
        enqueue(endpoint, .response(AdminHTTPResponse(status: status, body: json.jsonData())))
    }

    func enqueue(_ endpoint: String, status: Int, body: String) {
        enqueue(endpoint, .response(AdminHTTPResponse(status: status, body: Data(body.utf8))))
    }

    func enqueue(_ endpoint: String, _ reply: Reply) {
        state.withLock { $0.scripts[endpoint, default: []].append(reply) }
    }

    /// Answers `endpoint` with Firebase's error envelope for `message` (`CODE` or `CODE : detail`).
    func enqueueError(_ endpoint: String, status: Int = 400, message: String) {
        enqueue(endpoint, status: status, json: ["error": ["code": .integer(Int64(status)), "message": .string(message)]])
    }

    /// Requests to `endpoint` wait until `gate` opens.
    func hold(_ endpoint: String, until gate: Gate) {
        state.withLock { $0.gates[endpoint] = gate }
    }

    var requests: [AdminHTTPRequest] { state.withLock { $0.requests } }

    func requests(to endpoint: String) -> [AdminHTTPRequest] {
        requests.filter { $0.url.lastPathComponent == endpoint }
    }

    func send(_ request: AdminHTTPRequest) async throws -> AdminHTTPResponse {
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
        case nil: return AdminHTTPResponse(status: 500, body: Data("<html>no scripted reply</html>".utf8))
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

    init(_ start: Date = Fixture.start) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

enum Fixture {
    static let projectID = "demo-hearth"
    static let serverURL = URL(string: "http://127.0.0.1:9099")!
    static let projectBase = "http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1/projects/demo-hearth"
    static let tokenURI = "http://127.0.0.1:9099/oauth2/token"
    static let clientEmail = "backend@demo-hearth.iam.hearth.local"
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    // Generated once per run: key generation is the slow part of these tests.
    /// The service account's key.
    static let accountKey = try! RSAPrivateKey.generate(bits: 2048)
    /// The key Hearth signs ID tokens and session cookies with.
    static let hearthKey = try! RSAPrivateKey.generate(bits: 2048)
    static let hearthSigner = JWTSigner(privateKey: hearthKey, keyID: "hearth-1")

    static func serviceAccountJSON(
        type: String = "service_account", keyID: String? = "sa-key-1", pem: String? = accountKey.pemRepresentation,
        tokenURI: String? = tokenURI, projectID: String? = projectID
    ) -> Data {
        var file: [String: JSONValue] = ["type": .string(type), "client_email": .string(clientEmail), "client_id": "1"]
        file["private_key_id"] = keyID.map(JSONValue.string)
        file["private_key"] = pem.map(JSONValue.string)
        file["token_uri"] = tokenURI.map(JSONValue.string)
        file["project_id"] = projectID.map(JSONValue.string)
        return JSONValue.object(file).jsonData()
    }

    /// A signed Hearth token (ID token, or session cookie with `issuer` = the session issuer) issued at `issuedAt`.
    static func token(
        uid: String = "uid-1", issuer: String = "https://securetoken.google.com/demo-hearth", issuedAt: Date = start,
        lifetime: Int64 = 3600, tenant: String? = nil
    ) -> String {
        let iat = Int64(issuedAt.timeIntervalSince1970)
        var firebase: [String: JSONValue] = ["sign_in_provider": "google.com", "identities": [:]]
        firebase["tenant"] = tenant.map(JSONValue.string)
        let claims: JSONValue = [
            "iss": .string(issuer), "aud": "demo-hearth", "sub": .string(uid), "user_id": .string(uid),
            "iat": .integer(iat), "exp": .integer(iat + lifetime), "auth_time": .integer(iat - 100),
            "firebase": .object(firebase),
        ]
        return try! hearthSigner.sign(payload: claims.jsonData(sortedKeys: true))
    }

    /// A lookup answer with one user; `fields` are added to the record.
    static func lookup(uid: String = "uid-1", _ fields: [String: JSONValue] = [:]) -> JSONValue {
        var user: [String: JSONValue] = ["localId": .string(uid)]
        for (name, value) in fields { user[name] = value }
        return ["kind": "identitytoolkit#GetAccountInfoResponse", "users": [.object(user)]]
    }

    static func tokenResponse(_ token: String = "at-1", expiresIn: Int64 = 3600) -> JSONValue {
        ["access_token": .string(token), "expires_in": .integer(expiresIn), "token_type": "Bearer"]
    }
}

/// An `AdminAuth` over a fake transport, a manual clock and Hearth's fixture keys.
struct Harness {
    let transport = FakeTransport()
    let clock = ManualClock()
    /// Hearth's JWKS endpoint: its one signing key, for an hour.
    let jwks = FakeOutboundHTTP(.answer(
        headers: ["Cache-Control": "max-age=3600"],
        body: (try? JSONEncoder().encode(JSONWebKeySet(keys: [JSONWebKey(publicKey: Fixture.hearthKey.publicKey, keyID: "hearth-1")])))
            ?? Data()))

    func auth(_ credential: AdminCredential = .owner) -> AdminAuth {
        let clock = clock
        return AdminAuth(
            serverURL: Fixture.serverURL, projectID: Fixture.projectID, credential: credential, transport: transport,
            jwksHTTP: jwks, clock: { clock.now })
    }

    func serviceAccount() throws -> AdminCredential {
        try AdminCredential.serviceAccount(json: Fixture.serviceAccountJSON())
    }
}

extension AdminHTTPRequest {
    /// The body parsed as JSON.
    var json: JSONValue? {
        body.flatMap { try? JSONValue(parsing: $0) }
    }

    /// The body parsed as a form.
    var form: [String: String] {
        Dictionary(FormEncoding.decode(String(decoding: body ?? Data(), as: UTF8.self)).map { ($0.name, $0.value) }) { _, last in last }
    }
}

/// Runs `body` and returns the `HearthAdminError` it throws; records an issue if it throws nothing.
func adminError<T>(_ body: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation) async -> HearthAdminError? {
    do {
        _ = try await body()
        Issue.record("expected a HearthAdminError", sourceLocation: sourceLocation)
        return nil
    } catch let error as HearthAdminError {
        return error
    } catch {
        Issue.record("expected a HearthAdminError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
