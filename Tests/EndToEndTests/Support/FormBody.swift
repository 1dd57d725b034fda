import Foundation

/// `application/x-www-form-urlencoded` text as browsers and SDKs send it (a `+` in a value escaped, never a space).
enum FormBody {
    static func encode(_ fields: [(String, String)]) -> String {
        var components = URLComponents()
        components.queryItems = fields.map { URLQueryItem(name: $0.0, value: $0.1) }
        return (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }
}
