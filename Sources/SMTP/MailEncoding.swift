import Foundation

/// The 7-bit encodings a message is written in: RFC 2047 encoded words for header text, RFC 2045 quoted-printable
/// for bodies. Every line ends in CRLF.
enum MailEncoding {
    /// UTF-8 bytes per encoded word: 52 base64 characters, so `Subject: =?UTF-8?B?…?=` stays within 76 columns.
    static let encodedWordBytes = 39

    /// Header text as it goes on the wire: as is when it is printable ASCII, short enough for one line and cannot be
    /// mistaken for an encoded word; otherwise `=?UTF-8?B?…?=` words (whole characters each) folded onto
    /// continuation lines.
    static func headerText(_ text: String, maximumPlainLength: Int = 900) -> String {
        let bytes = Array(text.utf8)
        if bytes.count <= maximumPlainLength, bytes.allSatisfy({ (0x20...0x7e).contains($0) }), !text.contains("=?") {
            return text
        }
        return encodedWords(text).joined(separator: "\r\n ")
    }

    /// A display name: an atom phrase as is, other ASCII as a quoted string, anything else as encoded words.
    static func displayName(_ name: String) -> String {
        let bytes = Array(name.utf8)
        if bytes.allSatisfy({ MailAddress.isAtext($0) || $0 == UInt8(ascii: " ") }), !name.contains("=?") {
            return name
        }
        if bytes.allSatisfy({ (0x20...0x7e).contains($0) }), !name.contains("=?") {
            return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return encodedWords(name).joined(separator: "\r\n ")
    }

    /// `=?UTF-8?B?…?=` words of at most ``encodedWordBytes`` bytes of whole Unicode scalars each.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > encodedWordBytes {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(encodedWord(chunk)) }
        return words
    }

    private static func encodedWord(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?="
    }

    /// Quoted-printable of the UTF-8 text: line breaks (`\r\n`, `\n` or `\r`) become CRLF, lines are soft-broken
    /// (`=` CRLF) to at most 76 columns, `=`, control and non-ASCII bytes and a space or tab at a line's end are
    /// written `=XX`. The result ends with CRLF. It never contains `=_`, so a boundary starting with `=_` cannot
    /// occur in it.
    static func quotedPrintable(_ text: String) -> String {
        var output = ""
        for line in lines(of: text) {
            var column = 0
            let bytes = Array(line.utf8)
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal = (byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")) ? !isLast
                    : (33...126).contains(byte) && byte != UInt8(ascii: "=")
                let token = literal ? String(UnicodeScalar(byte)) : hexEscape(byte)
                // Leave room for the soft break's "=" unless this token ends the line.
                let limit = isLast ? 76 : 75
                if column + token.count > limit {
                    output += "=\r\n"
                    column = 0
                }
                output += token
                column += token.count
            }
            output += "\r\n"
        }
        return output
    }

    /// The text's lines, any of CRLF, LF or CR ending one (a break at the very end ends the last line, it does
    /// not start an empty one).
    static func lines(of text: String) -> [Substring] {
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    private static func hexEscape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "=" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0f)])
    }
}
