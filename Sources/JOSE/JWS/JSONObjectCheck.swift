import Foundation

/// Checks that bytes are one syntactically valid JSON object (`{…}`), without building any values.
///
/// Decoding this type makes `JSONDecoder` parse the whole document (so any syntax error is caught) and then fails
/// with a type mismatch unless the top level is an object.
struct JSONObjectCheck: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self)
    }

    /// Whether `data` is a single JSON object.
    static func isObject(_ data: Data) -> Bool {
        (try? JSONDecoder().decode(JSONObjectCheck.self, from: data)) != nil
    }

    /// Whether `data`, ignoring surrounding JSON whitespace, starts with `{` and ends with `}`: the cheap
    /// shape check for a payload whose signature already verified.
    static func looksLikeObject(_ data: Data) -> Bool {
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = data.first(where: { !isWhitespace($0) }), let last = data.last(where: { !isWhitespace($0) })
        else { return false }
        return first == UInt8(ascii: "{") && last == UInt8(ascii: "}") && data.count >= 2
    }
}
