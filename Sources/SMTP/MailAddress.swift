/// A mailbox: an ASCII `local@domain` address and an optional display name (`Hearth <no-reply@example.com>`).
public struct MailAddress: Sendable, Equatable {
    /// The addr-spec, as the SMTP envelope (`MAIL FROM`, `RCPT TO`) carries it.
    public let address: String
    public let displayName: String?

    /// - Throws: ``MailFormatError`` when `address` is not a plain address or either part holds a line break.
    ///   `field` names the header in the error (`From`, `To`).
    public init(address: String, displayName: String? = nil, field: String) throws(MailFormatError) {
        for part in [address, displayName ?? ""] where part.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw .lineBreakInHeader(field: field)
        }
        guard Self.isPlainAddress(address) else { throw .invalidAddress(field: field) }
        self.address = address
        self.displayName = displayName.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Reads `local@domain` or `Display Name <local@domain>` (the name may be in double quotes).
    public init(parsing text: String, field: String) throws(MailFormatError) {
        let trimmed = text.trimmingSpaces
        guard let open = trimmed.lastIndex(of: "<") else {
            try self.init(address: trimmed, field: field)
            return
        }
        guard trimmed.hasSuffix(">") else { throw .invalidAddress(field: field) }
        let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        var name = String(trimmed[..<open]).trimmingSpaces
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
            name = Self.unquoted(name.dropFirst().dropLast())
        }
        try self.init(address: address, displayName: name, field: field)
    }

    /// The text of a quoted string: each backslash quotes the character after it.
    private static func unquoted(_ quoted: Substring) -> String {
        var name = ""
        var escaped = false
        for character in quoted {
            if !escaped, character == "\\" {
                escaped = true
                continue
            }
            name.append(character)
            escaped = false
        }
        return name
    }

    /// The domain after the last `@`.
    public var domain: Substring { address[address.index(after: address.lastIndex(of: "@")!)...] }

    /// ASCII letters, digits and the atext specials, one `@` with something on both sides, at most 254 bytes.
    static func isPlainAddress(_ address: String) -> Bool {
        let bytes = Array(address.utf8)
        guard (3...254).contains(bytes.count), let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0,
            at < bytes.count - 1, bytes.filter({ $0 == UInt8(ascii: "@") }).count == 1
        else { return false }
        return bytes.allSatisfy { byte in
            isAtext(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "@")
        }
    }

    /// RFC 5322 `atext`: what may appear in an atom without quoting.
    static func isAtext(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-/=?^_`{|}~".utf8).contains(byte)
        }
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
