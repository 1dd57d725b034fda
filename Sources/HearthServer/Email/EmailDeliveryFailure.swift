import HearthCore

extension EmailDeliveryError {
    /// The error of an email sender that gave up: `<sender> email delivery to a***@example.com via <host> failed
    /// after <n> attempts: <reason>`. It names no more of the recipient than the first letter and the domain, and
    /// nothing of the message (which holds a code).
    static func failed(sender: String, to address: String, host: String, attempts: Int, reason: String) -> Self {
        .failed(reason: "\(sender) email delivery to \(masked(address)) via \(host) failed after "
            + "\(RetrySchedule.describe(attempts: attempts)): \(reason)")
    }

    /// `alice@example.com` → `a***@example.com`; anything without an `@` → `***`.
    static func masked(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@"), let first = address.first, at != address.startIndex else {
            return "***"
        }
        return "\(first)***\(address[at...])"
    }
}
