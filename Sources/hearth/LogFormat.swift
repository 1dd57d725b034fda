import Foundation

/// How `hearth serve` writes request and event lines: today's `key=value` text, or one JSON object a line
/// with the same fields (`--log-format json`), for log collectors.
enum LogFormat: String {
    case text
    case json

    /// `line` (a `key=value …` line, or free text such as the development senders' notes) in this format.
    /// In JSON, values that are whole numbers (up to 15 digits) become numbers and `true`/`false` booleans;
    /// a line that is not `key=value` pairs becomes `{"message": "…"}`.
    func render(_ line: String) -> String {
        switch self {
        case .text: line
        case .json: Self.pairs(of: line).map(Self.object) ?? Self.object([("message", line)])
        }
    }

    /// The `key=value` pairs of `line` (a value may be `"quoted"`, with `\"` inside), or nil when it is
    /// anything else or names a key twice.
    static func pairs(of line: String) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        var rest = Substring(line)
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "="), equals != rest.startIndex else { return nil }
            let key = String(rest[..<equals])
            guard key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }),
                !pairs.contains(where: { $0.0 == key })
            else { return nil }
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var closed = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if character == "\\", let escaped = rest.first {
                        value.append(escaped)
                        rest = rest.dropFirst()
                    } else if character == "\"" {
                        closed = true
                        break
                    } else {
                        value.append(character)
                    }
                }
                guard closed, rest.isEmpty || rest.first == " " else { return nil }
            } else {
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                value = String(rest[..<end])
                rest = rest[end...]
            }
            pairs.append((key, value))
            rest = rest.drop { $0 == " " }
        }
        return pairs.isEmpty ? nil : pairs
    }

    /// One JSON object with the pairs in order.
    private static func object(_ pairs: [(String, String)]) -> String {
        var text = "{"
        for (index, (key, value)) in pairs.enumerated() {
            if index > 0 { text += "," }
            text += quoted(key) + ":" + jsonValue(value)
        }
        return text + "}"
    }

    private static func jsonValue(_ value: String) -> String {
        if value == "true" || value == "false" { return value }
        let digits = value.hasPrefix("-") ? value.dropFirst() : Substring(value)
        if !digits.isEmpty, digits.count <= 15, digits.allSatisfy(\.isASCIIDigit), digits.first != "0" || digits.count == 1 {
            return value
        }
        return quoted(value)
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            if let escape = escapes[scalar] {
                result += escape
            } else if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                result += String(format: "\\u%04x", scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static let escapes: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"]
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
