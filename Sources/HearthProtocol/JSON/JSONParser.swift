/// A strict RFC 8259 parser over UTF-8 bytes, behind ``JSONValue/init(parsing:)``.
///
/// It reads the bytes in place (no Foundation underneath) and accepts exactly RFC 8259 JSON text:
/// - only JSON whitespace (space, tab, LF, CR) between tokens; no byte order mark, no comments;
/// - any value at the top level, and nothing but whitespace after it;
/// - no trailing commas, no leading zeros, no `NaN` or `Infinity`, no single quotes;
/// - strings must be valid UTF-8 (no overlong forms, no encoded surrogates, nothing above U+10FFFF), may not contain
///   unescaped control characters (U+0000–U+001F), and `\u` escapes must pair surrogates (a lone one is an error).
///
/// Implementation-defined choices (RFC 8259 §9):
/// - an integer literal (no fraction, no exponent) that fits in `Int64` is `.integer`; every other number is
///   `.double`, converted by the standard library from the validated text (so big integers lose precision);
/// - a number whose magnitude is too large for `Double` (`1e400`) is an error; one too small for it becomes zero;
/// - nesting deeper than ``JSONValue/maximumNestingDepth`` arrays and objects is an error, never a stack overflow;
/// - when an object repeats a key, the last value wins.
struct JSONParser: ~Copyable {
    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private var index = 0
    private var depth = 0
    /// Bytes of a string being unescaped, reused between strings.
    private var scratch: [UInt8] = []
    /// The keys and values of the arrays and objects still open, innermost last; each container moves its members
    /// off the top when it closes, so no container grows one element at a time.
    private var keyStack = MoveStack<String>()
    private var valueStack = MoveStack<JSONValue>()

    private init(_ bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    /// Parses one JSON text.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONValue.ParseError> {
        guard let base = buffer.baseAddress, !buffer.isEmpty else {
            return .failure(JSONValue.ParseError(offset: 0, reason: .unexpectedEnd))
        }
        var parser = JSONParser(base, count: buffer.count)
        do throws(JSONValue.ParseError) {
            let value = try parser.parseValue()
            parser.skipWhitespace()
            guard parser.index == parser.count else { throw parser.error(.trailingContent) }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Values

    private mutating func parseValue() throws(JSONValue.ParseError) -> JSONValue {
        skipWhitespace()
        guard index < count else { throw error(.unexpectedEnd) }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "{"):
            return try parseObject()
        case UInt8(ascii: "["):
            return try parseArray()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw error(.expectedValue)
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONValue.ParseError) {
        let length = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        for offset in 0..<length where index + offset >= count || bytes[index + offset] != text[offset] {
            throw error(index + offset >= count ? .unexpectedEnd : .invalidLiteral, at: index + offset)
        }
        index += length
    }

    private mutating func enterContainer() throws(JSONValue.ParseError) {
        depth += 1
        guard depth <= JSONValue.maximumNestingDepth else { throw error(.tooDeep) }
        index += 1
    }

    private mutating func parseArray() throws(JSONValue.ParseError) -> JSONValue {
        try enterContainer()
        skipWhitespace()
        if index < count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array([])
        }
        let base = valueStack.count
        while true {
            valueStack.push(try parseValue())
            skipWhitespace()
            guard index < count else { throw error(.unexpectedEnd) }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(valueStack.popArray(from: base))
            default:
                throw error(.expectedCommaOrEndOfArray)
            }
        }
    }

    private mutating func parseObject() throws(JSONValue.ParseError) -> JSONValue {
        try enterContainer()
        skipWhitespace()
        if index < count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object([:])
        }
        let base = keyStack.count
        while true {
            guard index < count else { throw error(.unexpectedEnd) }
            guard bytes[index] == UInt8(ascii: "\"") else { throw error(.expectedKey) }
            keyStack.push(try parseString())
            skipWhitespace()
            guard index < count else { throw error(.unexpectedEnd) }
            guard bytes[index] == UInt8(ascii: ":") else { throw error(.expectedColon) }
            index += 1
            valueStack.push(try parseValue())
            skipWhitespace()
            guard index < count else { throw error(.unexpectedEnd) }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(popObject(from: base))
            default:
                throw error(.expectedCommaOrEndOfObject)
            }
        }
    }

    /// Builds the object whose members are on the stacks from `base` up, and takes them off. A repeated key keeps
    /// its last value.
    private mutating func popObject(from base: Int) -> [String: JSONValue] {
        let members = keyStack.count - base
        let valueBase = valueStack.count - members
        var object = [String: JSONValue](minimumCapacity: members)
        let keys = keyStack.popUninitialized(from: base)
        let values = valueStack.popUninitialized(from: valueBase)
        for offset in 0..<members {
            object[(keys + offset).move()] = (values + offset).move()
        }
        return object
    }

    // MARK: - Strings

    /// Reads a string whose opening quote is at `index`.
    private mutating func parseString() throws(JSONValue.ParseError) -> String {
        index += 1
        let start = index
        while index < count {
            skipPlainASCII()
            guard index < count else { break }
            let byte = bytes[index]
            if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
            } else if byte == UInt8(ascii: "\"") {
                let text = string(from: start)
                index += 1
                return text
            } else if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(from: start)
            } else if byte < 0x20 {
                throw error(.controlCharacterInString)
            } else {
                try skipUTF8Sequence()
            }
        }
        throw error(.unexpectedEnd)
    }

    /// Moves `index` past printable ASCII other than `"` and `\`, eight bytes at a time, stopping at (or a few bytes
    /// before) the first byte that needs a closer look.
    @inline(__always)
    private mutating func skipPlainASCII() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
            // Per byte, the high bit marks a byte of 0x80 or more, below 0x20, equal to `"` or equal to `\`. The
            // "below" and "equal" tests can also mark bytes after a marked one, never before it, so the lowest mark
            // is exact.
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            let controlOrHigh = word | (word &- ones &* 0x20)
            let quote = (quotes &- ones) & ~quotes
            let backslash = (backslashes &- ones) & ~backslashes
            let special = (controlOrHigh | quote | backslash) & highBits
            if special != 0 {
                index += special.trailingZeroBitCount / 8
                return
            }
            index += 8
        }
    }

    /// Finishes a string that has an escape at `index`; its text so far starts at `start`.
    private mutating func parseEscapedString(from start: Int) throws(JSONValue.ParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var chunk = start
        while index < count {
            skipPlainASCII()
            guard index < count else { break }
            let byte = bytes[index]
            if byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                index += 1
            } else if byte == UInt8(ascii: "\"") {
                scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + chunk, count: index - chunk))
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + chunk, count: index - chunk))
                try appendEscape()
                chunk = index
            } else if byte < 0x20 {
                throw error(.controlCharacterInString)
            } else {
                try skipUTF8Sequence()
            }
        }
        throw error(.unexpectedEnd)
    }

    /// Decodes the escape sequence at `index` (a backslash) onto `scratch`.
    private mutating func appendEscape() throws(JSONValue.ParseError) {
        let backslash = index
        guard index + 1 < count else { throw error(.unexpectedEnd, at: count) }
        let decoded: UInt8
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            index += 2
            var scalar = UInt32(try readHex4())
            if (0xD800...0xDBFF).contains(scalar) {
                let lowFollows = index + 1 < count && bytes[index] == UInt8(ascii: "\\")
                    && bytes[index + 1] == UInt8(ascii: "u")
                guard lowFollows else { throw error(.loneSurrogate, at: backslash) }
                index += 2
                let low = UInt32(try readHex4())
                guard (0xDC00...0xDFFF).contains(low) else { throw error(.loneSurrogate, at: backslash) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error(.loneSurrogate, at: backslash)
            }
            appendUTF8(scalar)
            return
        default:
            throw error(.invalidEscape, at: backslash)
        }
        scratch.append(decoded)
        index += 2
    }

    /// Reads the four hex digits of a `\u` escape at `index`.
    private mutating func readHex4() throws(JSONValue.ParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < count else { throw error(.unexpectedEnd) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: throw error(.invalidUnicodeEscape)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Checks the UTF-8 sequence whose lead byte (0x80 or above) is at `index` and moves past it (RFC 3629 §4:
    /// no overlong forms, no surrogates, nothing above U+10FFFF).
    private mutating func skipUTF8Sequence() throws(JSONValue.ParseError) {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw error(.invalidUTF8)
        }
        guard index + length <= count, secondRange.contains(bytes[index + 1]) else { throw error(.invalidUTF8) }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            throw error(.invalidUTF8)
        }
        index += length
    }

    // MARK: - Numbers

    /// Reads a number starting at `index` (a minus sign or a digit).
    private mutating func parseNumber() throws(JSONValue.ParseError) -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }

        // Integer part: `0`, or a non-zero digit and more digits.
        try requireDigit()
        var magnitude: UInt64 = 0
        let digitsStart = index
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < count, isDigit(bytes[index]) { throw error(.invalidNumber) }
        } else {
            while index < count, isDigit(bytes[index]) {
                // 19 digits always fit in a UInt64; longer integers are read as doubles below.
                if index - digitsStart < 19 { magnitude = magnitude &* 10 &+ UInt64(bytes[index] &- UInt8(ascii: "0")) }
                index += 1
            }
        }
        var isInteger = index - digitsStart <= 19

        if index < count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try requireDigit()
            while index < count, isDigit(bytes[index]) { index += 1 }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            try requireDigit()
            while index < count, isDigit(bytes[index]) { index += 1 }
        }

        if isInteger {
            if !negative, magnitude <= UInt64(Int64.max) { return .integer(Int64(magnitude)) }
            if negative, magnitude <= UInt64(Int64.max) + 1 {
                return .integer(Int64(truncatingIfNeeded: 0 &- magnitude))
            }
        }
        guard let value = Double(string(from: start)), value.isFinite else { throw error(.numberOutOfRange, at: start) }
        return .double(value)
    }

    /// Throws unless a digit is at `index`.
    private func requireDigit() throws(JSONValue.ParseError) {
        guard index < count else { throw error(.unexpectedEnd) }
        guard isDigit(bytes[index]) else { throw error(.invalidNumber) }
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    // MARK: - Whitespace and errors

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The bytes from `start` up to `index` as a string (they are known to be valid UTF-8).
    private func string(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + start, count: index - start), as: UTF8.self)
    }

    private func error(_ reason: JSONValue.ParseError.Reason, at offset: Int? = nil) -> JSONValue.ParseError {
        JSONValue.ParseError(offset: offset ?? index, reason: reason)
    }
}

/// A stack whose top elements are moved out, not copied, when a container closes.
private struct MoveStack<Element>: ~Copyable {
    private var elements: UnsafeMutablePointer<Element>
    private var capacity = 16
    private(set) var count = 0

    init() {
        elements = .allocate(capacity: capacity)
    }

    deinit {
        elements.deinitialize(count: count)
        elements.deallocate()
    }

    mutating func push(_ element: consuming Element) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: elements, count: count)
            elements.deallocate()
            elements = larger
            capacity *= 2
        }
        (elements + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements from `start` up into an array.
    mutating func popArray(from start: Int) -> [Element] {
        let taken = count - start
        count = start
        return Array(unsafeUninitializedCapacity: taken) { buffer, initialized in
            buffer.baseAddress?.moveInitialize(from: elements + start, count: taken)
            initialized = taken
        }
    }

    /// Takes the elements from `start` up off the stack; the caller must move every one of them out of the returned
    /// pointer before the next push.
    mutating func popUninitialized(from start: Int) -> UnsafeMutablePointer<Element> {
        count = start
        return elements + start
    }
}
