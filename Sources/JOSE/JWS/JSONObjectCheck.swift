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
}
