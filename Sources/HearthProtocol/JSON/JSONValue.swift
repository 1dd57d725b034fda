public import Foundation

/// Any JSON value. Integers that fit in `Int64` stay exact; other numbers are `Double`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The deepest nesting of arrays and objects ``init(parsing:)`` accepts.
    public static let maximumNestingDepth = 512

    /// Parses JSON text: UTF-8, strictly as RFC 8259 defines it.
    ///
    /// Integer literals that fit in `Int64` become ``integer(_:)``, every other number ``double(_:)``. A number too
    /// large for `Double`, nesting deeper than ``maximumNestingDepth``, invalid UTF-8, a byte order mark, comments,
    /// trailing commas and anything but whitespace after the value are errors. When an object repeats a key, the
    /// last value wins.
    ///
    /// - Throws: ``ParseError``, with the byte offset of the problem (never any of the text).
    public init(parsing data: some DataProtocol) throws(ParseError) {
        let result = data.withContiguousStorageIfAvailable(JSONParser.parse)
            ?? Array(data).withUnsafeBufferPointer(JSONParser.parse)
        self = try result.get()
    }

    /// Parses JSON text held in `Data`; the same as the generic ``init(parsing:)``, without its generic dispatch.
    public init(parsing data: Data) throws(ParseError) {
        self = try data.withUnsafeBytes { JSONParser.parse($0.assumingMemoryBound(to: UInt8.self)) }.get()
    }

    /// The value as compact JSON text.
    public func jsonData(sortedKeys: Bool = false) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = sortedKeys ? [.sortedKeys, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to a JSON value (non-finite doubles become null).
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

extension JSONValue {
    /// Why ``JSONValue/init(parsing:)`` refused a text: where (a byte offset) and a short reason. Neither ever
    /// contains any of the text, so errors are safe to log even when the text holds tokens or passwords.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What was wrong. Compare with the constants; new ones may be added.
        public struct Reason: Hashable, Sendable, CustomStringConvertible {
            public let description: String

            private init(_ description: String) {
                self.description = description
            }

            /// The text ended inside a value (or was empty, or only whitespace).
            public static let unexpectedEnd = Reason("unexpected end of input")
            /// A byte that cannot start a JSON value.
            public static let expectedValue = Reason("expected a value")
            /// A misspelt `true`, `false` or `null`.
            public static let invalidLiteral = Reason("invalid literal")
            /// A number that breaks RFC 8259's grammar (a leading zero, a bare `.` or exponent, …).
            public static let invalidNumber = Reason("invalid number")
            /// A number too large for `Double`.
            public static let numberOutOfRange = Reason("number out of range")
            public static let expectedCommaOrEndOfArray = Reason("expected ',' or ']'")
            public static let expectedCommaOrEndOfObject = Reason("expected ',' or '}'")
            /// An object member that does not start with a string key (including after a trailing comma).
            public static let expectedKey = Reason("expected a string key")
            public static let expectedColon = Reason("expected ':'")
            /// A byte below 0x20 inside a string; such characters must be escaped.
            public static let controlCharacterInString = Reason("unescaped control character in string")
            /// A backslash followed by something other than `"`, `\`, `/`, `b`, `f`, `n`, `r`, `t` or `u`.
            public static let invalidEscape = Reason("invalid escape")
            /// `\u` not followed by four hexadecimal digits.
            public static let invalidUnicodeEscape = Reason("invalid \\u escape")
            /// A `\u` escape of a UTF-16 surrogate without its other half.
            public static let loneSurrogate = Reason("unpaired surrogate in \\u escape")
            /// Bytes that are not UTF-8 (overlong forms and encoded surrogates included).
            public static let invalidUTF8 = Reason("invalid UTF-8")
            /// More than ``JSONValue/maximumNestingDepth`` nested arrays and objects.
            public static let tooDeep = Reason("nesting too deep")
            /// Something other than whitespace after the value.
            public static let trailingContent = Reason("unexpected content after the value")
        }

        /// The offset of the offending byte from the start of the text (the text's length when it ended early).
        public let offset: Int
        public let reason: Reason

        public init(offset: Int, reason: Reason) {
            self.offset = offset
            self.reason = reason
        }

        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): value.isFinite ? try container.encode(value) : try container.encodeNil()
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}
