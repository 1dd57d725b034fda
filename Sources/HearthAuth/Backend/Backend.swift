import Foundation
import HearthProtocol
import Synchronization

/// The version sent in `X-Client-Version: Swift/HearthAuth/<version>`.
public enum HearthAuthVersion {
    public static let string = "0.1.0"
}

/// Which server a call goes to. The iOS SDK uses the legacy v3 relying-party paths for account
/// calls, the v2 Identity Platform paths for multi-factor calls, and Secure Token for refresh
/// (PROTOCOL.md §1.2).
enum Service: Sendable, Equatable {
    /// `…/www.googleapis.com/identitytoolkit/v3/relyingparty/<name>`.
    case relyingParty(String)
    /// `…/identitytoolkit.googleapis.com/v2/<name>`, e.g. `accounts/mfaSignIn:start`.
    case identityPlatform(String)
    /// `…/securetoken.googleapis.com/v1/token`.
    case secureToken
}

/// How a call is sent: a POST with a JSON body, or (as the SDKs send requests without a body) a GET.
enum HTTPMethod: String, Sendable {
    case get = "GET"
    case post = "POST"
}

/// The body of a GET: nothing is sent.
struct EmptyBody: Encodable, Sendable {}

/// One endpoint: what is sent and what comes back (FirebaseAuth's `AuthRPCRequest` pattern).
protocol BackendRequest: Sendable {
    associatedtype Body: Encodable & Sendable
    associatedtype Response: Decodable & Sendable
    var service: Service { get }
    var method: HTTPMethod { get }
    var body: Body { get }
}

extension BackendRequest {
    var method: HTTPMethod { .post }
}

/// A decoded success response plus its raw JSON, for fields the typed response does not have.
struct BackendReply<Response: Sendable>: Sendable {
    var response: Response
    var json: [String: JSONValue]
}

/// Builds URLs, sends JSON, and maps the error envelope. Shared by an `Auth` and its users.
final class Backend: Sendable {
    static let clientVersion = "Swift/HearthAuth/\(HearthAuthVersion.string)"
    /// The `clientType` iOS puts in sign-up, password sign-in and email-action requests.
    static let clientType = "CLIENT_TYPE_IOS"

    let apiKey: String
    let transport: any HTTPTransport
    /// The Identity Platform tenant every account call names (`tenantId` in its body); `nil` for the project.
    let tenantID = Mutex<String?>(nil)
    /// `host:port` after `useEmulator`, IPv6 hosts in brackets.
    private let emulatorAuthority = Mutex<String?>(nil)

    init(apiKey: String, transport: any HTTPTransport) {
        self.apiKey = apiKey
        self.transport = transport
    }

    func useEmulator(host: String, port: Int) {
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        emulatorAuthority.withLock { $0 = "\(bracketed):\(port)" }
    }

    func url(for service: Service) throws(AuthError) -> URL {
        let path: String
        switch service {
        case .relyingParty(let name): path = "www.googleapis.com/identitytoolkit/v3/relyingparty/\(name)"
        case .identityPlatform(let name): path = "identitytoolkit.googleapis.com/v2/\(name)"
        case .secureToken: path = "securetoken.googleapis.com/v1/token"
        }
        let base: String
        if let authority = emulatorAuthority.withLock({ $0 }) {
            base = "http://\(authority)/\(path)"
        } else {
            base = "https://\(path)"
        }
        guard let url = URL(string: "\(base)?key=\(FormEncoding.escape(apiKey))") else {
            throw AuthError(code: .internalError, message: "Cannot build a request URL from the emulator host.")
        }
        return url
    }

    func call<Request: BackendRequest>(_ request: Request) async throws(AuthError) -> BackendReply<Request.Response> {
        var transportRequest = TransportRequest(
            method: request.method.rawValue, url: try url(for: request.service),
            headers: ["X-Client-Version": Self.clientVersion])
        if request.method == .post {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let tenantID = request.service == .secureToken ? nil : tenantID.withLock { $0 }
            do {
                transportRequest.body = try encoder.encode(TenantNaming(body: request.body, tenantId: tenantID))
            } catch {
                throw AuthError(code: .internalError, message: "The request could not be encoded.")
            }
            transportRequest.headers["Content-Type"] = "application/json"
        }

        let reply: TransportResponse
        do {
            reply = try await transport.send(transportRequest)
        } catch let error as AuthError {
            throw error
        } catch {
            throw AuthError(code: .networkError, message: "The request did not complete (\(type(of: error))).")
        }

        guard (200..<300).contains(reply.status) else {
            if let wire = WireError(envelope: reply.body, httpStatus: reply.status) {
                throw AuthError(wire: wire)
            }
            throw AuthError(code: .internalError, message: "The server answered HTTP \(reply.status) without an error envelope.")
        }
        guard let json = (try? JSONValue(parsing: reply.body))?.objectValue,
            let response = try? JSONDecoder().decode(Request.Response.self, from: reply.body)
        else {
            throw AuthError(code: .internalError, message: "The server's response could not be decoded.")
        }
        return BackendReply(response: response, json: json)
    }
}

/// A request body with `tenantId` added when there is one, as the SDKs send every account call of a tenant's `Auth`.
private struct TenantNaming<Body: Encodable>: Encodable {
    var body: Body
    var tenantId: String?

    private enum Key: String, CodingKey { case tenantId }

    func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        guard let tenantId else { return }
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(tenantId, forKey: .tenantId)
    }
}
