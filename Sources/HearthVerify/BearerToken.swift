/// Reading the ID token from an HTTP `Authorization` header.
///
/// ```swift
/// guard let token = BearerToken.extract(fromAuthorizationHeader: request.headers["Authorization"]) else {
///     return .unauthorized(wwwAuthenticate: "Bearer")
/// }
/// let user = try verifier.verify(token)
/// ```
public enum BearerToken {
    /// The token in an `Authorization` header value.
    ///
    /// Accepts `Bearer <token>` (RFC 6750 §2.1; the scheme in any case, any run of spaces or tabs after it) and, for
    /// apps that send the raw ID token as the whole header, a bare compact JWS (three base64url segments).
    /// Surrounding whitespace is ignored. Returns `nil` for a missing or empty header, `Bearer` with no token or with
    /// more than one word after it, other schemes (`Basic …`), and bare values that are not shaped like a JWT.
    ///
    /// The token is returned as sent; ``IDTokenVerifier/verify(_:)`` judges it.
    ///
    /// - Parameter value: the header value, or `nil` when the header is absent.
    /// - Returns: the token, or `nil`.
    public static func extract(fromAuthorizationHeader value: String?) -> String? {
        guard let value else { return nil }
        let trimmed = value.trimmingLinearWhitespace()
        guard !trimmed.isEmpty else { return nil }
        guard let gap = trimmed.firstIndex(where: \.isLinearWhitespace) else {
            return looksLikeCompactJWS(trimmed) ? String(trimmed) : nil
        }
        guard trimmed[..<gap].lowercased() == "bearer" else { return nil }
        let credentials = trimmed[gap...].trimmingLinearWhitespace()
        guard !credentials.isEmpty, !credentials.contains(where: \.isLinearWhitespace) else { return nil }
        return String(credentials)
    }

    /// Three non-empty segments of base64url characters separated by two dots.
    private static func looksLikeCompactJWS(_ value: Substring) -> Bool {
        var dots = 0
        var segmentLength = 0
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "."):
                guard segmentLength > 0 else { return false }
                dots += 1
                segmentLength = 0
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                segmentLength += 1
            default:
                return false
            }
        }
        return dots == 2 && segmentLength > 0
    }
}

extension Character {
    fileprivate var isLinearWhitespace: Bool { self == " " || self == "\t" }
}

extension StringProtocol {
    fileprivate func trimmingLinearWhitespace() -> SubSequence {
        guard let first = firstIndex(where: { !$0.isLinearWhitespace }) else { return self[endIndex...] }
        let last = lastIndex(where: { !$0.isLinearWhitespace })!
        return self[first...last]
    }
}
