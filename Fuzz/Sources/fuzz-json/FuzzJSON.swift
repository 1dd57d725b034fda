import Foundation
import FuzzSupport
import HearthProtocol

/// Hearth's strict JSON parser (`JSONValue(parsing:)`, HearthProtocol/JSON/JSONParser.swift).
///
/// For every input: no crash and no memory error; what parses also parses again, to an equivalent value, from
/// Hearth's own JSON output; and where Foundation's `JSONSerialization` accepts the same text, both read the same
/// value (see `FoundationAgreement`). Inputs either parser refuses alone are expected: Foundation is more lenient
/// (trailing commas, a byte order mark).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parsed: JSONValue
    do {
        parsed = try JSONValue(parsing: bytes)
    } catch {
        require(error.offset >= 0 && error.offset <= size, "error offset \(error.offset) outside the \(size) bytes")
        return 0
    }

    let written = parsed.jsonData()
    guard let reparsed = try? JSONValue(parsing: written) else {
        require(false, "Hearth's own output does not parse: \(String(decoding: written, as: UTF8.self))")
        return 0
    }
    require(equivalent(parsed, reparsed), "round trip changed the value: \(String(decoding: written, as: UTF8.self))")

    // Foundation drops a U+FEFF (EF BB BF) inside a string when it comes first or right after an escape (it reads it
    // as a byte order mark): `["\u0078<U+FEFF>{"]` reads as "x{". Hearth keeps it, as RFC 8259 says; not compared.
    let holdsByteOrderMark = bytes.indices.dropLast(2).contains { bytes[$0] == 0xEF && bytes[$0 + 1] == 0xBB && bytes[$0 + 2] == 0xBF }
    if !holdsByteOrderMark,
        let foundation = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    {
        require(FoundationAgreement.agrees(parsed, foundation), "JSONSerialization reads a different value")
    }
    return 0
}

/// Whether two values are the same JSON value: numbers compare by value (`5.0` written out reads back as the
/// integer `5`), strings by their bytes.
func equivalent(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.integer(let x), .integer(let y)):
        return x == y
    case (.integer(let x), .double(let y)), (.double(let y), .integer(let x)):
        return Double(exactly: x) == y
    case (.double(let x), .double(let y)):
        return x == y
    case (.string(let x), .string(let y)):
        return x.utf8.elementsEqual(y.utf8)
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy(equivalent)
    case (.object(let x), .object(let y)):
        return x.count == y.count && x.allSatisfy { key, value in y[key].map { equivalent(value, $0) } ?? false }
    default:
        return a == b
    }
}
