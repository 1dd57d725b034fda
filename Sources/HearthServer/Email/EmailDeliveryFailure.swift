import HearthCore

extension EmailDeliveryError {
    /// The error of an email sender that gave up: `<sender> email delivery to a***@example.com via <host> failed
    /// after <n> attempts: <reason>`. It names no more of the recipient than the first letter and the domain, and
    /// nothing of the message (which holds a code).
    static func failed(sender: String, to address: String, host: String, attempts: Int, reason: String) -> Self {
        .failed(reason: "\(sender) email delivery to \(masked(address)) via \(host) failed after "
            + "\(RetrySchedule.describe(attempts: attempts)): \(reason)")
    }

    /// `alice@example.com` → `a***@example.com`; anything else (no `@`, a first character or a domain that is not
    /// plain ASCII letters, digits, dots and hyphens) → `***`, so the text stays one safe log line.
    static func masked(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@"), let first = address.first, at != address.startIndex else {
            return "***"
        }
        let domain = address[address.index(after: at)...]
        let isPlain = { (character: Character) in character.isASCII && (character.isLetter || character.isNumber) }
        guard isPlain(first), !domain.isEmpty, domain.allSatisfy({ isPlain($0) || $0 == "." || $0 == "-" }) else {
            return "***"
        }
        return "\(first)***@\(domain)"
    }
}
