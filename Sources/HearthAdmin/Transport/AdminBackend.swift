import Foundation
import HearthProtocol

/// The version sent in `X-Client-Version: Swift/HearthAdmin/<version>`.
public enum HearthAdminVersion {
    /// The library's version.
    public static let string = "0.1.0"
}

/// Builds admin URLs, authorizes requests, sends JSON and maps Hearth's error envelope.
final class AdminBackend: Sendable {
    static let clientVersion = "Swift/HearthAdmin/\(HearthAdminVersion.string)"

    /// `<server>/identitytoolkit.googleapis.com/v1/projects/<projectID>`, then `/tenants/<tenantID>` for a tenant's.
    let projectBase: String
    /// `<server>/identitytoolkit.googleapis.com/v2/projects/<projectID>`: Identity Platform's configuration API.
    let configurationBase: String
    let credential: AdminCredential
    let transport: any AdminTransport
    let clock: @Sendable () -> Date
    let tokens: AccessTokenCache

    convenience init(serverURL: URL, projectID: String, credential: AdminCredential, transport: any AdminTransport, clock: @escaping @Sendable () -> Date) {
        var server = serverURL.absoluteString
        while server.hasSuffix("/") { server.removeLast() }
        let project = "projects/\(FormEncoding.escape(projectID))"
        self.init(
            projectBase: "\(server)/identitytoolkit.googleapis.com/v1/\(project)",
            configurationBase: "\(server)/identitytoolkit.googleapis.com/v2/\(project)", credential: credential,
            transport: transport, clock: clock, tokens: AccessTokenCache())
    }

    private init(
        projectBase: String, configurationBase: String, credential: AdminCredential, transport: any AdminTransport,
        clock: @escaping @Sendable () -> Date, tokens: AccessTokenCache
    ) {
        self.projectBase = projectBase
        self.configurationBase = configurationBase
        self.credential = credential
        self.transport = transport
        self.clock = clock
        self.tokens = tokens
    }

    /// This backend acting in the tenant `tenantID` (`…/projects/<p>/tenants/<t>/accounts…`), sharing its access
    /// token.
    func scoped(toTenant tenantID: String) -> AdminBackend {
        AdminBackend(
            projectBase: "\(projectBase)/tenants/\(FormEncoding.escape(tenantID))", configurationBase: configurationBase,
            credential: credential, transport: transport, clock: clock, tokens: tokens)
    }

    /// Sends `method` to `<configurationBase><suffix>?<query>` with `body`, and decodes the answer as `Response`.
    func configuration<Response: Decodable>(
        _ method: String, _ suffix: String, query: [(String, String)] = [], body: JSONValue? = nil,
        as _: Response.Type = Response.self
    ) async throws(HearthAdminError) -> Response {
        let queryText = query.isEmpty ? "" : "?" + FormEncoding.encode(query)
        guard let url = URL(string: configurationBase + suffix + queryText) else {
            throw HearthAdminError(.invalidArgument, message: "the server URL and project ID do not make a URL")
        }
        return try await call(method: method, url: url, body: body?.jsonData(sortedKeys: true))
    }

    /// POSTs `body` to `<projectBase><suffix>` (such as `/accounts:lookup` or `:createSessionCookie`) and decodes
    /// the answer as `Response`.
    func post<Response: Decodable>(_ suffix: String, _ body: JSONValue, as _: Response.Type = Response.self) async throws(HearthAdminError) -> Response {
        try await call(method: "POST", url: try url(suffix), body: body.jsonData(sortedKeys: true))
    }

    /// GETs `<projectBase><suffix>?<query>` and decodes the answer as `Response`.
    func get<Response: Decodable>(_ suffix: String, query: [(String, String)], as _: Response.Type = Response.self) async throws(HearthAdminError) -> Response {
        let queryText = query.isEmpty ? "" : "?" + FormEncoding.encode(query)
        return try await call(method: "GET", url: try url(suffix + queryText), body: nil)
    }

    private func url(_ suffix: String) throws(HearthAdminError) -> URL {
        guard let url = URL(string: projectBase + suffix) else {
            throw HearthAdminError(.invalidArgument, message: "the server URL and project ID do not make a URL")
        }
        return url
    }

    /// Sends with the credential's token; when a cached service-account token is answered with 401, fetches a new
    /// one and sends once more (as google-auth's transports do).
    private func call<Response: Decodable>(method: String, url: URL, body: Data?) async throws(HearthAdminError) -> Response {
        var headers = ["X-Client-Version": Self.clientVersion]
        if body != nil { headers["Content-Type"] = "application/json" }
        var request = AdminHTTPRequest(method: method, url: url, headers: headers, body: body)
        var response: AdminHTTPResponse
        switch credential.kind {
        case .owner:
            request.headers["Authorization"] = "Bearer owner"
            response = try await Self.send(request, over: transport)
        case .serviceAccount(let account):
            let token = try await accessToken(for: account)
            request.headers["Authorization"] = "Bearer \(token)"
            response = try await Self.send(request, over: transport)
            if response.status == 401 {
                await tokens.discard(token)
                request.headers["Authorization"] = "Bearer \(try await accessToken(for: account))"
                response = try await Self.send(request, over: transport)
            }
        }
        guard (200..<300).contains(response.status) else {
            if let wire = WireError(envelope: response.body, httpStatus: response.status) {
                throw HearthAdminError(wire: wire)
            }
            throw HearthAdminError(
                .internalError, message: "Hearth answered HTTP \(response.status) without an error envelope",
                httpStatus: response.status)
        }
        do {
            return try JSONDecoder().decode(Response.self, from: response.body)
        } catch {
            throw HearthAdminError(
                .unexpectedResponse, message: "Hearth's answer to \(url.path) is not what the endpoint sends",
                httpStatus: response.status)
        }
    }

    private func accessToken(for account: ServiceAccount) async throws(HearthAdminError) -> String {
        let transport = transport
        let now = clock()
        return try await tokens.token(now: now) { () throws(HearthAdminError) -> AccessToken in
            try await JWTBearerGrant.fetch(for: account, transport: transport, now: now)
        }
    }

    /// Sends one request; any failure other than a ``HearthAdminError`` becomes `.networkError`.
    static func send(_ request: AdminHTTPRequest, over transport: any AdminTransport) async throws(HearthAdminError) -> AdminHTTPResponse {
        do {
            return try await transport.send(request)
        } catch let error as HearthAdminError {
            throw error
        } catch {
            throw HearthAdminError(
                .networkError, message: "the request to \(request.url.host ?? "?") did not complete (\(type(of: error)))")
        }
    }
}
