public import Foundation

/// One blocking HTTP exchange with another server: the single seam behind every call Hearth and HearthVerify make
/// (identity providers' keys, tokeninfo and userinfo, code exchanges, Apple's token and revocation endpoints, SMS
/// gateways and webhooks, a backend's JWKS and revocation lookups).
///
/// `URLSessionOutboundHTTP` (HearthOutbound) is the production implementation; tests pass a fake.
public protocol OutboundHTTP: Sendable {
    /// Sends `request` and blocks until the answer has arrived.
    ///
    /// - Returns: the answer, whatever its status (3xx that are not followed, 4xx and 5xx included).
    /// - Throws: only when no HTTP answer arrived (connection refused, DNS, TLS, timeout).
    func send(_ request: OutboundRequest) throws -> OutboundResponse
}

/// What ``OutboundHTTP/send(_:)`` sends.
public struct OutboundRequest: Sendable {
    /// `GET`, `POST`, …
    public var method: String
    /// The full URL, query included.
    public var url: URL
    /// Header fields by name.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?
    /// Whether a 3xx answer is followed (true) or returned as the answer (false).
    public var followsRedirects: Bool

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, followsRedirects: Bool) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.followsRedirects = followsRedirects
    }

    /// A GET, which follows redirects (keys and profiles are read where the provider moved them).
    public static func get(_ url: URL, headers: [String: String] = [:]) -> OutboundRequest {
        OutboundRequest(method: "GET", url: url, headers: headers, followsRedirects: true)
    }

    /// A POST, which does not follow redirects: its body (a code, a token, a client secret, a signature) is never
    /// re-sent to a host nobody configured.
    public static func post(_ url: URL, headers: [String: String] = [:], body: Data) -> OutboundRequest {
        OutboundRequest(method: "POST", url: url, headers: headers, body: body, followsRedirects: false)
    }

    /// A POST of `fields`, form-encoded in this order (`application/x-www-form-urlencoded`), as OAuth token and
    /// revocation endpoints take them; like ``post(_:headers:body:)`` it does not follow redirects.
    public static func postForm(
        _ url: URL, fields: [(name: String, value: String)], headers: [String: String] = [:]
    ) -> OutboundRequest {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return post(url, headers: headers, body: Data(FormEncoding.encode(fields.map { ($0.name, $0.value) }).utf8))
    }
}

/// What ``OutboundHTTP/send(_:)`` returns.
public struct OutboundResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data

    /// Creates a response; header names are lower-cased (the first of two that differ only in case is kept).
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// Describing a failed ``OutboundHTTP/send(_:)`` without the URL (which can carry a key or a token).
public enum OutboundFailure {
    /// `URLError -1001` for a `URLError`, else the error's type name.
    public static func describe(_ error: any Error) -> String {
        (error as? URLError).map { "URLError \($0.code.rawValue)" } ?? "\(type(of: error))"
    }
}
