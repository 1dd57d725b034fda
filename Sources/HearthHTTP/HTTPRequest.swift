/// One HTTP request as a handler sees it: method, decoded path, query, headers and the whole body.
///
/// The server builds it after the body has been received in full (bodies are capped by
/// `HTTPServer.Configuration.maxBodyBytes`). Tests build it directly with
/// ``init(method:path:rawQuery:headers:body:remoteAddress:)`` and call a handler or `Router` in-process.
///
/// ```swift
/// let request = HTTPRequest(method: .post, path: "/v1/accounts:lookup", rawQuery: "key=abc",
///                           headers: ["Content-Type": "application/json"], body: Array(#"{"idToken":"…"}"#.utf8))
/// request.query["key"]   // "abc"
/// ```
public struct HTTPRequest: Sendable {
    /// The request method. `HEAD` arrives as `.head`; see `Router` for how it is routed.
    public var method: HTTPMethod

    /// The percent-decoded path without the query (RFC 3986 rules: `%3A` is `:`, `+` stays `+`).
    public var path: String

    /// The query string exactly as sent, without the leading `?` (empty when there is none).
    /// Setting it re-parses ``query`` and ``queryValues(_:)``.
    public var rawQuery: String {
        didSet { (queryItems, query) = Self.parse(rawQuery) }
    }

    /// The query decoded with form rules (`+` is a space, `%XX` escapes); when a key repeats, the
    /// first value wins. Use ``queryValues(_:)`` for every value of a key.
    public var query: [String: String]

    /// The decoded query as ordered `(name, value)` pairs, repeated keys included.
    public private(set) var queryItems: [(name: String, value: String)]

    /// The request header fields in the order received.
    public var headers: HTTPHeaders

    /// The request body (empty when there is none).
    public var body: [UInt8]

    /// The client's IP address (`127.0.0.1`, `::1`), without the port; `nil` for in-process requests.
    public var remoteAddress: String?

    /// Values captured by `Router` from `{name}` segments of the matched pattern.
    public var pathParameters: [String: String] = [:]

    /// What middleware worked out about this request for the handlers after it (empty when it arrives).
    public var values = RequestValues()

    /// Creates a request, for in-process tests and for the server itself.
    /// - Parameters:
    ///   - method: the request method.
    ///   - path: the already-decoded path, without a query.
    ///   - rawQuery: the query string as it would be sent, without `?`.
    ///   - headers: the header fields.
    ///   - body: the body bytes.
    ///   - remoteAddress: the client's IP address, if any.
    public init(
        method: HTTPMethod,
        path: String,
        rawQuery: String = "",
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        remoteAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        (self.queryItems, self.query) = Self.parse(rawQuery)
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    private static func parse(_ rawQuery: String) -> ([(name: String, value: String)], [String: String]) {
        guard !rawQuery.isEmpty else { return ([], [:]) }
        let items = PercentDecoding.parseQuery(rawQuery)
        var first: [String: String] = [:]
        for (name, value) in items where first[name] == nil {
            first[name] = value
        }
        return (items.map { (name: $0.0, value: $0.1) }, first)
    }

    /// Every decoded value of the query key `name`, in order (`?scope=a&scope=b` gives `["a", "b"]`).
    public func queryValues(_ name: String) -> [String] {
        queryItems.compactMap { $0.name == name ? $0.value : nil }
    }
}
