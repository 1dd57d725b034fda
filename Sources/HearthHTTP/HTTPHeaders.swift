/// An ordered list of HTTP header fields with case-insensitive names (RFC 9110 §5.1).
///
/// Order and repeated fields are preserved, so a header that appears twice on the wire shows up
/// twice here. The subscript reads the first value and replaces every value when set.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add(name: "Set-Cookie", value: "a=1")
/// headers["content-type"]      // "application/json"
/// headers["X-Missing"] = nil   // removes every "X-Missing" field
/// ```
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were received or added.
    public private(set) var fields: [Field]

    /// Creates an empty header list.
    public init() {
        fields = []
    }

    /// Creates a header list from name/value pairs, keeping their order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of the field called `name` (compared case-insensitively), or `nil`.
    ///
    /// Setting a value replaces every field with that name by one field at the position of the
    /// first; setting `nil` removes them all.
    public subscript(name: String) -> String? {
        get {
            for field in fields where field.name.equalsIgnoringASCIICase(name) {
                return field.value
            }
            return nil
        }
        set {
            guard let newValue else {
                remove(name: name)
                return
            }
            if let first = fields.firstIndex(where: { $0.name.equalsIgnoringASCIICase(name) }) {
                fields[first].value = newValue
                var index = fields.index(after: first)
                while index < fields.endIndex {
                    if fields[index].name.equalsIgnoringASCIICase(name) {
                        fields.remove(at: index)
                    } else {
                        index += 1
                    }
                }
            } else {
                fields.append(Field(name: name, value: newValue))
            }
        }
    }

    /// Every value of the field called `name`, in order.
    public func values(for name: String) -> [String] {
        fields.compactMap { $0.name.equalsIgnoringASCIICase(name) ? $0.value : nil }
    }

    /// Whether at least one field is called `name`.
    public func contains(name: String) -> Bool {
        fields.contains { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// Appends a field, keeping any existing fields with the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field called `name`.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    /// The number of fields (repeated names count once per field).
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> Iterator {
        Iterator(base: fields.makeIterator())
    }

    /// Iterates over `(name, value)` pairs in order.
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[Field]>

        public mutating func next() -> (name: String, value: String)? {
            guard let field = base.next() else { return nil }
            return (field.name, field.value)
        }
    }

    /// Equal when both hold the same fields in the same order, names compared case-insensitively.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        guard lhs.fields.count == rhs.fields.count else { return false }
        for (left, right) in zip(lhs.fields, rhs.fields)
        where !left.name.equalsIgnoringASCIICase(right.name) || left.value != right.value {
            return false
        }
        return true
    }

    /// Lists the fields, with credentials-bearing values (`Authorization`, `Cookie`, …) redacted.
    public var description: String {
        let shown = fields.map { field in
            let secret = Self.redactedNames.contains { field.name.equalsIgnoringASCIICase($0) }
            return "\(field.name): \(secret ? "<redacted>" : field.value)"
        }
        return "[" + shown.joined(separator: ", ") + "]"
    }

    private static let redactedNames = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie"]

    /// Appends without any checks; used when copying fields out of libmicrohttpd.
    mutating func appendReceived(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    mutating func reserveCapacity(_ capacity: Int) {
        fields.reserveCapacity(capacity)
    }
}

extension String {
    /// ASCII case-insensitive comparison, which is what HTTP field names need (they are tokens).
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        asciiCaseInsensitiveEqual(utf8, other.utf8)
    }
}

/// Whether two byte strings are equal when ASCII letters are compared without case.
func asciiCaseInsensitiveEqual<A: Collection<UInt8>, B: Collection<UInt8>>(_ mine: A, _ theirs: B) -> Bool {
    guard mine.count == theirs.count else { return false }
    for (a, b) in zip(mine, theirs) where a != b {
        guard a | 0x20 == b | 0x20, (a | 0x20) >= 0x61, (a | 0x20) <= 0x7A else { return false }
    }
    return true
}
