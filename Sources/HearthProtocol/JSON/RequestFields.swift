import Foundation

/// The fields of a request body, read the way Google's protobuf JSON mapping reads them
/// (PROTOCOL.md §1.4): keys in `snake_case` or `camelCase`, numbers where strings are expected and
/// strings where numbers or booleans are expected. Decode errors become `INVALID_ARGUMENT` in the wire
/// envelope, never a crash.
public struct RequestFields: Sendable {
    public private(set) var values: [String: JSONValue]

    public init(_ values: [String: JSONValue] = [:]) {
        self.values = [:]
        for (key, value) in values {
            self.values[Self.camelCase(key)] = Self.normalizingKeys(value)
        }
    }

    /// Parses a JSON object. An empty body is an empty object.
    public init(json body: [UInt8]) throws(WireError) {
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            self.init()
            return
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: body)
        } catch {
            throw WireError(.invalidArgument, "Invalid JSON payload received. The body is not valid JSON.")
        }
        guard case .object(let object) = parsed else {
            throw WireError(.invalidArgument, "Invalid JSON payload received. The body must be a JSON object.")
        }
        if Self.mayEscapeNUL(body), Self.containsNUL(parsed) {
            throw WireError(.invalidArgument, "Invalid JSON payload received. Text must not contain NUL (\\u0000) characters.")
        }
        self.init(object)
    }

    /// Whether `body` has the escape `\u0000` somewhere (RFC 8259 allows NUL in a string only escaped): a cheap
    /// test before looking for the character itself, which no stored text may hold (PostgreSQL's cannot).
    private static func mayEscapeNUL(_ body: [UInt8]) -> Bool {
        let escape = Array(#"\u0000"#.utf8)
        guard body.count >= escape.count else { return false }
        return (0...(body.count - escape.count)).contains { start in
            body[start] == escape[0] && body[start..<(start + escape.count)].elementsEqual(escape)
        }
    }

    private static func containsNUL(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text.utf8.contains(0)
        case .array(let items): items.contains(where: containsNUL)
        case .object(let members): members.contains { $0.key.utf8.contains(0) || containsNUL($0.value) }
        case .null, .bool, .integer, .double: false
        }
    }

    /// Reads an `application/x-www-form-urlencoded` body; every value is a string.
    public init(form text: some StringProtocol) {
        var values: [String: JSONValue] = [:]
        for (name, value) in FormEncoding.decode(text) where values[name] == nil {
            values[name] = .string(value)
        }
        self.init(values)
    }

    public func contains(_ key: String) -> Bool { values[key] != nil }

    public func value(_ key: String) -> JSONValue? {
        guard let value = values[key], value != .null else { return nil }
        return value
    }

    /// A string; numbers and booleans are accepted and written as text.
    public func string(_ key: String) throws(WireError) -> String? {
        guard let value = value(key) else { return nil }
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .double(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: throw Self.typeError(key, "a string")
        }
    }

    /// A boolean; the strings `true` and `false` are accepted.
    public func bool(_ key: String) throws(WireError) -> Bool? {
        guard let value = value(key) else { return nil }
        switch value {
        case .bool(let flag): return flag
        case .string("true"): return true
        case .string("false"): return false
        default: throw Self.typeError(key, "a boolean")
        }
    }

    /// A 64-bit integer; decimal strings are accepted (Google sends int64 as strings).
    public func int64(_ key: String) throws(WireError) -> Int64? {
        guard let value = value(key) else { return nil }
        switch value {
        case .integer(let number): return number
        case .double(let number) where number.rounded() == number && abs(number) < 9.2e18: return Int64(number)
        case .string(let text):
            if let number = Int64(text.trimmingCharacters(in: .whitespaces)) { return number }
            throw Self.typeError(key, "an integer")
        default: throw Self.typeError(key, "an integer")
        }
    }

    /// A list of strings; a single string is read as a one-element list.
    public func strings(_ key: String) throws(WireError) -> [String]? {
        guard let value = value(key) else { return nil }
        switch value {
        case .array(let items):
            var result: [String] = []
            for item in items {
                switch item {
                case .string(let text): result.append(text)
                case .integer(let number): result.append(String(number))
                default: throw Self.typeError(key, "a list of strings")
                }
            }
            return result
        case .string(let text): return [text]
        default: throw Self.typeError(key, "a list of strings")
        }
    }

    /// A nested object.
    public func object(_ key: String) throws(WireError) -> RequestFields? {
        guard let value = value(key) else { return nil }
        guard case .object(let object) = value else { throw Self.typeError(key, "an object") }
        return RequestFields(object)
    }

    /// A list of nested objects; a single object is read as a one-element list.
    public func objects(_ key: String) throws(WireError) -> [RequestFields]? {
        guard let value = value(key) else { return nil }
        let items: [JSONValue]
        if case .array(let array) = value { items = array } else { items = [value] }
        var result: [RequestFields] = []
        for item in items {
            guard case .object(let object) = item else { throw Self.typeError(key, "a list of objects") }
            result.append(RequestFields(object))
        }
        return result
    }

    /// An enum given by name or by its index in `names` (protobuf JSON accepts both).
    public func enumName(_ key: String, names: [String]) throws(WireError) -> String? {
        guard let value = value(key) else { return nil }
        switch value {
        case .string(let name) where names.contains(name): return name
        case .integer(let index) where index >= 0 && index < names.count: return names[Int(index)]
        default: throw WireError(.invalidArgument, "Invalid value at '\(key)': not one of \(names.joined(separator: ", ")).")
        }
    }

    /// A list of enum values, each by name or index.
    public func enumNames(_ key: String, names: [String]) throws(WireError) -> [String]? {
        guard let value = value(key) else { return nil }
        let items: [JSONValue]
        if case .array(let array) = value { items = array } else { items = [value] }
        var result: [String] = []
        for item in items {
            let one = RequestFields(["item": item])
            guard let name = try one.enumName("item", names: names) else { continue }
            result.append(name)
        }
        return result
    }

    private static func typeError(_ key: String, _ expected: String) -> WireError {
        WireError(.invalidArgument, "Invalid JSON payload received. Invalid value at '\(key)': expected \(expected).")
    }

    /// `return_secure_token` → `returnSecureToken`; camelCase keys are unchanged.
    static func camelCase(_ key: String) -> String {
        guard key.contains("_") else { return key }
        var result = ""
        var upperNext = false
        for character in key {
            if character == "_" {
                upperNext = !result.isEmpty
            } else if upperNext {
                result += character.uppercased()
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }

    private static func normalizingKeys(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var result: [String: JSONValue] = [:]
            for (key, inner) in object { result[camelCase(key)] = normalizingKeys(inner) }
            return .object(result)
        case .array(let items):
            return .array(items.map(normalizingKeys))
        default:
            return value
        }
    }
}
