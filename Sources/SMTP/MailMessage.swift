public import Foundation

/// One email to one recipient, written as an RFC 5322 message: `Date`, `From`, `To`, `Subject`, `Message-ID`,
/// `MIME-Version`, then a quoted-printable UTF-8 `text/plain` body, or `multipart/alternative` with a text and an
/// HTML part. Non-ASCII header text is RFC 2047-encoded; every line ends in CRLF and is at most 998 bytes.
public struct MailMessage: Sendable {
    public var from: MailAddress
    public var to: MailAddress
    public var subject: String
    public var text: String
    public var html: String?
    public var date: Date
    /// `<…@…>`; a random one at the sender's domain by default.
    public var messageID: String
    /// Separates the parts of a multipart message; random by default. It starts with `=_`, which quoted-printable
    /// bodies never contain.
    public var boundary: String

    public init(
        from: MailAddress, to: MailAddress, subject: String, text: String, html: String? = nil, date: Date = Date(),
        messageID: String? = nil, boundary: String? = nil
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.date = date
        self.messageID = messageID ?? "<\(Self.randomHex())@\(from.domain)>"
        self.boundary = boundary ?? "=_hearth_\(Self.randomHex())"
    }

    /// The message's bytes, as sent after `DATA`.
    /// - Throws: ``MailFormatError/lineBreakInHeader(field:)`` when the subject holds a CR or LF.
    public func rendered() throws(MailFormatError) -> [UInt8] {
        if subject.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw .lineBreakInHeader(field: "Subject")
        }
        var headers = [
            "Date: " + Self.rfc5322Date(date),
            "From: " + Self.mailbox(from),
            "To: " + Self.mailbox(to),
            "Subject: " + MailEncoding.headerText(subject),
            "Message-ID: " + messageID,
            "MIME-Version: 1.0",
        ]
        let body: String
        if let html {
            headers.append("Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"")
            // The CRLF before a delimiter belongs to the delimiter (RFC 2046 §5.1.1): each part keeps its last line break.
            body = "--\(boundary)\r\n" + Self.textPart(text, subtype: "plain")
                + "\r\n--\(boundary)\r\n" + Self.textPart(html, subtype: "html")
                + "\r\n--\(boundary)--\r\n"
        } else {
            body = Self.textPart(text, subtype: "plain")
        }
        return Array((headers.map { $0 + "\r\n" }.joined() + body).utf8)
    }

    /// The part's `Content-Type` and `Content-Transfer-Encoding` headers, a blank line and the encoded text.
    private static func textPart(_ text: String, subtype: String) -> String {
        "Content-Type: text/\(subtype); charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + MailEncoding.quotedPrintable(text)
    }

    private static func mailbox(_ mailbox: MailAddress) -> String {
        guard let name = mailbox.displayName else { return mailbox.address }
        return MailEncoding.displayName(name) + " <\(mailbox.address)>"
    }

    /// `Tue, 1 Dec 2026 16:17:53 +0000`, in UTC.
    static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func twoDigits(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(days[(parts.weekday ?? 1) - 1]), \(parts.day ?? 1) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) "
            + "\(twoDigits(parts.hour)):\(twoDigits(parts.minute)):\(twoDigits(parts.second)) +0000"
    }

    /// 128 random bits in hex.
    private static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
