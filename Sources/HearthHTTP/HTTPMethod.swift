/// An HTTP request method such as `GET` or `POST`.
///
/// Methods are compared by their exact (upper-case) token, as RFC 9110 §9.1 requires.
/// Any token is representable; the common ones are static members.
///
/// ```swift
/// if request.method == .post { … }
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token as it appears on the request line.
    public let rawValue: String

    /// Creates a method from its token (case-sensitive, as in HTTP).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let get = HTTPMethod(rawValue: "GET")
    public static let post = HTTPMethod(rawValue: "POST")
    public static let put = HTTPMethod(rawValue: "PUT")
    public static let patch = HTTPMethod(rawValue: "PATCH")
    public static let delete = HTTPMethod(rawValue: "DELETE")
    public static let options = HTTPMethod(rawValue: "OPTIONS")
    public static let head = HTTPMethod(rawValue: "HEAD")

    public var description: String { rawValue }
}
