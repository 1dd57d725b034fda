import Foundation

/// Reads the elements of one array member of a top-level JSON object (`{"users": [ … ]}`) from a file, one
/// element at a time, so that a file of any size is read in bounded memory. Each element's bytes are handed
/// over whole, for a JSON parser to check; the rest of the file is checked for structure only (balanced
/// brackets, closed strings, nothing after the object).
struct JSONArrayReader {
    /// Why the file is not an object with that array; `offset` is the byte where reading stopped.
    struct Failure: Error {
        let reason: String
        let offset: Int
    }

    /// The largest element handed over; a larger one stops the reading.
    static let maximumElementBytes = 1 << 20
    private static let chunkSize = 1 << 16

    private let handle: FileHandle
    private let member: [UInt8]
    private var buffer: [UInt8] = []
    private var position = 0
    private var consumed = 0
    private var captured: [UInt8]?
    private var readFailed = false
    private var state = State.beforeObject

    private enum State { case beforeObject, firstElement, afterElement, done }

    /// - Parameter member: the name of the array in the top-level object.
    init(handle: FileHandle, member: String) {
        self.handle = handle
        self.member = Array(member.utf8)
    }

    /// The next element's JSON text, or nil after the last one (once the whole file has been checked).
    mutating func next() throws(Failure) -> [UInt8]? {
        switch state {
        case .done: return nil
        case .beforeObject:
            try expect(UInt8(ascii: "{"))
            try findMember()
        case .firstElement, .afterElement: break
        }
        skipWhitespace()
        if state == .firstElement, peek() == UInt8(ascii: "]") {
            _ = advance()
            try finishObject()
            return nil
        }
        if state == .afterElement {
            switch advance() {
            case UInt8(ascii: "]"):
                try finishObject()
                return nil
            case UInt8(ascii: ","): skipWhitespace()
            default: throw failure("expected ',' or ']' after an element")
            }
        }
        captured = []
        defer { captured = nil }
        try skipValue()
        state = .afterElement
        return captured
    }

    // MARK: - the object around the array

    /// Reads members up to the array's opening bracket, skipping the others.
    private mutating func findMember() throws(Failure) {
        while true {
            skipWhitespace()
            let name = try readString()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            if name == member {
                try expect(UInt8(ascii: "["))
                state = .firstElement
                return
            }
            try skipValue()
            skipWhitespace()
            switch advance() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): throw failure("the object has no \"\(String(decoding: member, as: UTF8.self))\" array")
            default: throw failure("expected ',' or '}' in the object")
            }
        }
    }

    /// Reads the members after the array, the object's end, and checks that nothing follows it.
    private mutating func finishObject() throws(Failure) {
        state = .done
        while true {
            skipWhitespace()
            switch advance() {
            case UInt8(ascii: "}"):
                skipWhitespace()
                guard peek() == nil else { throw failure("unexpected text after the object") }
                return
            case UInt8(ascii: ","):
                skipWhitespace()
                _ = try readString()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                try skipValue()
            default: throw failure("expected ',' or '}' in the object")
            }
        }
    }

    // MARK: - values

    /// Reads one value: a string, a bracketed container (brackets counted outside strings), or a bare literal.
    private mutating func skipValue() throws(Failure) {
        switch peek() {
        case nil: throw failure("the file ends inside the object")
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            repeat {
                switch advance() {
                case nil: throw failure("the file ends inside the object")
                case UInt8(ascii: "\""): _ = try readStringBody()
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                try checkSize()
            } while depth > 0
        default:
            var length = 0
            while let byte = peek(), !Self.endsLiteral(byte) {
                _ = advance()
                length += 1
            }
            guard length > 0 else { throw failure("expected a value") }
        }
    }

    /// A string's raw bytes between its quotes (escapes left as written).
    private mutating func readString() throws(Failure) -> [UInt8] {
        try expect(UInt8(ascii: "\""))
        return try readStringBody()
    }

    /// The rest of a string whose opening quote was read; its bytes are kept only outside an element.
    private mutating func readStringBody() throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            guard let byte = advance() else { throw failure("the file ends inside a string") }
            if byte == UInt8(ascii: "\"") { return bytes }
            if byte == UInt8(ascii: "\\") {
                guard advance() != nil else { throw failure("the file ends inside a string") }
            } else if captured == nil {
                bytes.append(byte)
            }
            try checkSize()
        }
    }

    private static func endsLiteral(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || isWhitespace(byte)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    // MARK: - bytes

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        skipWhitespace()
        guard advance() == byte else { throw failure("expected '\(Character(UnicodeScalar(byte)))'") }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), Self.isWhitespace(byte) { _ = advance() }
    }

    private func checkSize() throws(Failure) {
        if let captured, captured.count > Self.maximumElementBytes {
            throw failure("an element is larger than \(Self.maximumElementBytes) bytes")
        }
    }

    private mutating func peek() -> UInt8? {
        if position == buffer.count {
            consumed += buffer.count
            do {
                buffer = Array(try handle.read(upToCount: Self.chunkSize) ?? Data())
            } catch {
                buffer = []
                readFailed = true
            }
            position = 0
        }
        return position < buffer.count ? buffer[position] : nil
    }

    private mutating func advance() -> UInt8? {
        guard let byte = peek() else { return nil }
        position += 1
        captured?.append(byte)
        return byte
    }

    private func failure(_ reason: String) -> Failure {
        Failure(reason: readFailed ? "reading the file failed" : reason, offset: consumed + position)
    }
}
