/// Why a message was not built: it would not be a safe, well-formed RFC 5322 message.
public enum MailFormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A header value (`From`, `To` or `Subject`) holds a CR or LF, which would start a header of the caller's
    /// choosing (header injection).
    case lineBreakInHeader(field: String)
    /// An address is not a plain ASCII `local@domain` (no spaces, quotes, brackets, commas or control characters).
    case invalidAddress(field: String)

    public var description: String {
        switch self {
        case .lineBreakInHeader(let field): "the \(field) header must not contain a line break"
        case .invalidAddress(let field): "the \(field) address is not a plain local@domain address"
        }
    }
}
