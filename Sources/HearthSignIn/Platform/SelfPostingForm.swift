import Foundation

/// A page's self-submitting form, as a `form_post` authorization response arrives in a browser: `<form
/// method="post" action="…">` whose inputs are all hidden (plus, optionally, a submit button for browsers without
/// JavaScript). A form with a field for the user to fill in is not one.
struct SelfPostingForm: Equatable {
    var action: URL
    var fields: [(name: String, value: String)]

    static func == (a: Self, b: Self) -> Bool {
        a.action == b.action && a.fields.map(\.name) == b.fields.map(\.name) && a.fields.map(\.value) == b.fields.map(\.value)
    }

    /// The first self-submitting form in `html`, with its action resolved against `pageURL`; nil when there is none.
    init?(html: String, pageURL: URL) {
        var rest = html[...]
        while let open = rest.range(of: "<form", options: .caseInsensitive) {
            guard let close = rest[open.upperBound...].range(of: ">") else { return nil }
            let attributes = Self.attributes(rest[open.upperBound..<close.lowerBound])
            let end = rest[close.upperBound...].range(of: "</form", options: .caseInsensitive)?.lowerBound ?? rest.endIndex
            let inner = rest[close.upperBound..<end]
            rest = rest[end...]
            guard attributes["method"]?.lowercased() == "post", let actionText = attributes["action"],
                let action = URL(string: actionText, relativeTo: pageURL)?.absoluteURL,
                let fields = Self.hiddenFields(inner), !fields.isEmpty
            else { continue }
            self.action = action
            self.fields = fields
            return
        }
        return nil
    }

    /// The hidden inputs' names and values in order; nil if the form has any input the user would fill in.
    private static func hiddenFields(_ inner: Substring) -> [(name: String, value: String)]? {
        var fields: [(name: String, value: String)] = []
        var rest = inner
        while let open = rest.range(of: "<input", options: .caseInsensitive) {
            guard let close = rest[open.upperBound...].range(of: ">") else { return nil }
            let attributes = attributes(rest[open.upperBound..<close.lowerBound])
            rest = rest[close.upperBound...]
            switch attributes["type"]?.lowercased() {
            case "hidden":
                guard let name = attributes["name"] else { continue }
                fields.append((name, attributes["value"] ?? ""))
            case "submit":
                continue
            default:
                return nil
            }
        }
        return fields
    }

    /// `name="value"`, `name='value'` and `name=value` pairs of a tag, names lowercased, values with HTML character
    /// references decoded.
    static func attributes(_ text: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var index = text.startIndex
        func skipSpaces() {
            while index < text.endIndex, text[index].isWhitespace || text[index] == "/" { index = text.index(after: index) }
        }
        while true {
            skipSpaces()
            guard index < text.endIndex else { return result }
            let nameStart = index
            while index < text.endIndex, !text[index].isWhitespace, text[index] != "=", text[index] != "/" {
                index = text.index(after: index)
            }
            let name = text[nameStart..<index].lowercased()
            skipSpaces()
            var value = ""
            if index < text.endIndex, text[index] == "=" {
                index = text.index(after: index)
                while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) }
                if index < text.endIndex, text[index] == "\"" || text[index] == "'" {
                    let quote = text[index]
                    let valueStart = text.index(after: index)
                    let valueEnd = text[valueStart...].firstIndex(of: quote) ?? text.endIndex
                    value = String(text[valueStart..<valueEnd])
                    index = valueEnd < text.endIndex ? text.index(after: valueEnd) : valueEnd
                } else {
                    let valueStart = index
                    while index < text.endIndex, !text[index].isWhitespace { index = text.index(after: index) }
                    value = String(text[valueStart..<index])
                }
            }
            if !name.isEmpty, result[name] == nil { result[name] = decodeReferences(value) }
        }
    }

    /// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and numeric references (`&#39;`, `&#x2F;`).
    static func decodeReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        var result = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(10).firstIndex(of: ";") else {
                result += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            let entity = rest[afterAmpersand..<semicolon]
            var decoded: String?
            if let value = named[String(entity)] {
                decoded = value
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                decoded = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if entity.hasPrefix("#") {
                decoded = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
            if let decoded {
                result += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[afterAmpersand...]
            }
        }
        return result + rest
    }
}
