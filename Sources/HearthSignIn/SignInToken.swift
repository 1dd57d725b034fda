public import Foundation

/// A token and when it expires: the `GIDToken` counterpart.
///
/// `description`, `debugDescription` and `dump` never show ``tokenString``.
public struct SignInToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The token itself. Send it, never log it.
    public var tokenString: String
    /// When it stops working; nil when the server did not say.
    public var expirationDate: Date?

    public init(tokenString: String, expirationDate: Date? = nil) {
        self.tokenString = tokenString
        self.expirationDate = expirationDate
    }

    public var description: String {
        let expiry = expirationDate.map { "expires \(ISO8601DateFormatter().string(from: $0))" } ?? "no expiry"
        return "SignInToken(<redacted \(tokenString.utf8.count) bytes>, \(expiry))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["tokenString": "<redacted>", "expirationDate": expirationDate as Any], displayStyle: .struct)
    }

    /// Whether it expires within `interval` of `now` (a token without a known expiry never does).
    func expires(within interval: TimeInterval, of now: Date) -> Bool {
        guard let expirationDate else { return false }
        return expirationDate.timeIntervalSince(now) < interval
    }
}
