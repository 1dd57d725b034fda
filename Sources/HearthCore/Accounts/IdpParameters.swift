import Foundation
public import HearthProtocol

/// The IdP parameters of a `signInWithIdp` request, merged from the `requestUri` query, then the
/// `postBody` form, then the `requestUri` fragment; later sources win (PROTOCOL.md §4.1).
/// Visible to the fuzz targets (`Fuzz/`) as SPI only.
@_spi(Fuzzing) public struct IdpParameters {
    private var values: [String: String] = [:]
    /// The `requestUri` without query and fragment: the page an authorization code was sent to, so the
    /// `redirect_uri` of its exchange.
    public private(set) var redirectURI: String

    public init(_ request: SignInWithIdpRequest) throws {
        guard let requestURI = request.requestUri, !requestURI.isEmpty else {
            throw WireError(.missingRequestURI, "The requestUri is missing.")
        }
        guard AccountService.isAbsoluteURL(requestURI) else {
            throw WireError(.invalidRequestURI, "The requestUri must be an absolute URI.")
        }
        // `#` and `?` are found as bytes, also where a combining mark follows them (RFC 3986 §3).
        var withoutFragment = Substring(requestURI)
        var fragment: Substring = ""
        if let hash = requestURI.utf8.firstIndex(of: UInt8(ascii: "#")) {
            withoutFragment = requestURI[..<hash]
            fragment = requestURI[requestURI.utf8.index(after: hash)...]
        }
        redirectURI = String(withoutFragment)
        if let question = withoutFragment.utf8.firstIndex(of: UInt8(ascii: "?")) {
            redirectURI = String(withoutFragment[..<question])
            merge(withoutFragment[withoutFragment.utf8.index(after: question)...])
        }
        merge(request.postBody ?? "")
        merge(fragment)
    }

    public subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    private mutating func merge(_ form: some StringProtocol) {
        for (name, value) in FormEncoding.decode(form) { values[name] = value }
    }
}
