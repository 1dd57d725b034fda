import Foundation
import HearthCrypto
import HearthHTTP

/// The console's protection against cross-site requests: every change is a POST that carries a token bound to the
/// visitor's console cookie (an HMAC-SHA256 keyed by the cookie, which a page on another site can neither read nor
/// compute), compared in constant time, and comes from the console's own origin (`Origin`, `Sec-Fetch-Site`).
struct ConsoleCSRF: Sendable {
    /// `scheme://host[:port]` of the public URL: the only `Origin` a change may come from.
    let origin: String

    init(publicURL: String) {
        let components = URLComponents(string: publicURL)
        let scheme = components?.scheme?.lowercased() ?? "http"
        let host = components?.percentEncodedHost?.lowercased() ?? ""
        origin = "\(scheme)://\(host)\(components?.port.map { ":\($0)" } ?? "")"
    }

    /// The token of the visitor whose console cookie is `binding`.
    static func token(binding: String) -> String {
        Base64URL.encode(HMAC.sha256(key: Array(binding.utf8), message: Array("hearth-console-csrf-v1".utf8)))
    }

    /// Why a change is refused, or nil when it may go ahead.
    func refusal(of request: HTTPRequest, binding: String, form: [String: String]) -> String? {
        if let sent = request.headers["Origin"], sent.lowercased() != origin {
            return "This change came from another site (\(sent)); it was not made."
        }
        if let site = request.headers["Sec-Fetch-Site"], site.lowercased() != "same-origin" {
            return "This change did not come from the console's own pages; it was not made."
        }
        guard let token = form["csrf"],
            ConstantTime.equals(Array(token.utf8), Array(Self.token(binding: binding).utf8))
        else { return "This form has expired or was not made by this console session; it was not made. Open the page again." }
        return nil
    }
}
