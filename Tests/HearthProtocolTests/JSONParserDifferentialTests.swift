import Foundation
import HearthProtocol
import Testing

/// SplitMix64: a small seeded generator, so every run tests the same documents.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random JSON values, and random ways of writing them.
struct RandomJSON {
    var rng: SeededGenerator

    init(seed: UInt64) {
        rng = SeededGenerator(state: seed)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &rng) < probability
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices.randomElement(using: &rng)!
    }

    // MARK: Values

    mutating func value(depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth >= 4 ? 5 : 8), using: &rng) {
        case 0: return .null
        case 1: return .bool(chance(0.5))
        case 2: return .integer(integer())
        case 3: return .double(double())
        case 4: return .string(string())
        case 5, 6:
            if chance(0.5) {
                return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(depth: depth + 1) })
            }
            fallthrough
        default:
            var object: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                object[string()] = value(depth: depth + 1)
            }
            return .object(object)
        }
    }

    mutating func integer() -> Int64 {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return Int64.random(in: -1000...1000, using: &rng)
        case 1: return Int64.random(in: .min ... .max, using: &rng)
        case 2: return pick([.min, .max, 0, -1, Int64.min + 1, Int64.max - 1])
        case 3:
            let power = (0..<Int.random(in: 0...18, using: &rng)).reduce(Int64(1)) { value, _ in value * 10 }
            return (chance(0.5) ? power : -power) + Int64.random(in: -1...1, using: &rng)
        default: return Int64.random(in: -2_000_000_000...2_000_000_000, using: &rng)
        }
    }

    /// A finite double that any JSON writer prints with a fraction or an exponent (or with more digits than
    /// `Int64` holds), so it reads back as `.double`: not a whole number below 2^63.
    mutating func double() -> Double {
        while true {
            let candidate: Double
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                candidate = Double.random(in: -1...1, using: &rng) * pow(10, Double(Int.random(in: -30...30, using: &rng)))
            case 1:
                candidate = Double(bitPattern: rng.next())
            case 2:
                candidate = pick([
                    0.1, -0.5, 1.5, 2.5e-7, 1e-5, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
                    .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e300, -1e-300, 9.3e18, 0x1p63, 1e20, 1.0 / 3,
                ])
            default:
                candidate = Double(Int.random(in: -100_000...100_000, using: &rng)) / pick([10, 100, 1000, 8, 1024])
            }
            if candidate.isFinite, candidate != candidate.rounded() || abs(candidate) >= 0x1p63 { return candidate }
        }
    }

    mutating func scalar() -> Unicode.Scalar {
        let value: UInt32
        switch Int.random(in: 0..<12, using: &rng) {
        case 0..<5: value = UInt32.random(in: 0x20...0x7E, using: &rng)
        case 5: value = pick([0x22, 0x5C, 0x2F, 0x7F])
        case 6: value = UInt32.random(in: 0x00...0x1F, using: &rng)
        case 7: value = UInt32.random(in: 0x80...0x7FF, using: &rng)
        case 8: value = pick([UInt32.random(in: 0x800...0xD7FF, using: &rng), UInt32.random(in: 0xE000...0xFFFF, using: &rng)])
        case 9: value = pick([0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF, 0xD7FF, 0xE000, 0x80, 0x7FF, 0x800])
        case 10: value = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)
        default: value = pick([0x1F600, 0x1D11E, 0x10000, 0x10FFFF, 0xE9, 0x3C0])
        }
        return Unicode.Scalar(value)!
    }

    mutating func string() -> String {
        let length = chance(0.2) ? Int.random(in: 16...48, using: &rng) : Int.random(in: 0...10, using: &rng)
        var text = String.UnicodeScalarView()
        for _ in 0..<length { text.append(scalar()) }
        return String(text)
    }

    // MARK: Writing by hand

    /// `value` as JSON text with random whitespace, random escapes, numbers in several spellings, and (with
    /// `decoys`) earlier members with the same key as a later one, which the parser must overwrite.
    mutating func write(_ value: JSONValue, decoys: Bool) -> [UInt8] {
        var out: [UInt8] = []
        whitespace(&out)
        write(value, decoys: decoys, into: &out)
        whitespace(&out)
        return out
    }

    private mutating func whitespace(_ out: inout [UInt8]) {
        for _ in 0..<pick([0, 0, 0, 1, 1, 2, 3]) {
            out.append(pick([0x20, 0x09, 0x0A, 0x0D]))
        }
    }

    private mutating func write(_ value: JSONValue, decoys: Bool, into out: inout [UInt8]) {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
        case .integer(let number): out += Array(String(number).utf8)
        case .double(let number): out += Array(spell(number).utf8)
        case .string(let text): write(text, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            whitespace(&out)
            for (index, element) in elements.enumerated() {
                if index > 0 {
                    out.append(UInt8(ascii: ","))
                    whitespace(&out)
                }
                write(element, decoys: decoys, into: &out)
                whitespace(&out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            whitespace(&out)
            var first = true
            for (key, member) in members {
                var values = [member]
                if decoys, chance(0.2) { values.insert(self.value(depth: 3), at: 0) }
                for written in values {
                    if !first {
                        out.append(UInt8(ascii: ","))
                        whitespace(&out)
                    }
                    first = false
                    write(key, into: &out)
                    whitespace(&out)
                    out.append(UInt8(ascii: ":"))
                    whitespace(&out)
                    write(written, decoys: decoys, into: &out)
                    whitespace(&out)
                }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A double's shortest round-trip text, respelt: `E` for `e`, with or without `+`, with padded exponents.
    private mutating func spell(_ number: Double) -> String {
        var text = "\(number)"
        if let e = text.firstIndex(of: "e") {
            var exponent = String(text[text.index(after: e)...])
            var sign = ""
            if exponent.hasPrefix("-") || exponent.hasPrefix("+") {
                sign = String(exponent.removeFirst())
            }
            if sign == "+", chance(0.5) { sign = "" }
            if chance(0.3) { exponent = String(repeating: "0", count: Int.random(in: 1...3, using: &rng)) + exponent }
            text = String(text[..<e]) + (chance(0.5) ? "E" : "e") + sign + exponent
        }
        return text
    }

    private mutating func write(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += Array((chance(0.5) ? #"\""# : #"\u0022"#).utf8)
            case "\\": out += Array((chance(0.5) ? #"\\"# : pick([#"\u005C"#, #"\u005c"#])).utf8)
            case "/": out += Array(pick(["/", #"\/"#, #"\u002F"#, #"\u002f"#]).utf8)
            case "\u{8}" where chance(0.7): out += Array(#"\b"#.utf8)
            case "\u{C}" where chance(0.7): out += Array(#"\f"#.utf8)
            case "\n" where chance(0.7): out += Array(#"\n"#.utf8)
            case "\r" where chance(0.7): out += Array(#"\r"#.utf8)
            case "\t" where chance(0.7): out += Array(#"\t"#.utf8)
            default:
                if scalar.value < 0x20 || chance(0.25) {
                    if scalar.value < 0x10000 {
                        out += Array(hexEscape(UInt16(scalar.value)).utf8)
                    } else {
                        let offset = scalar.value - 0x10000
                        out += Array((hexEscape(UInt16(0xD800 + offset >> 10)) + hexEscape(UInt16(0xDC00 + offset & 0x3FF))).utf8)
                    }
                } else {
                    out += Array(String(scalar).utf8)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private mutating func hexEscape(_ unit: UInt16) -> String {
        let hex = String(unit, radix: 16, uppercase: chance(0.5))
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    // MARK: Numbers of every shape

    /// Random RFC 8259 number text: sign, integer part, optional fraction, optional exponent.
    mutating func numberText() -> String {
        var text = chance(0.4) ? "-" : ""
        if chance(0.15) {
            text += "0"
        } else {
            text += String(Int.random(in: 1...9, using: &rng))
            for _ in 0..<pick([0, 1, 2, 5, 9, 15, 17, 18, 18, 19, 20, 25, 40]) { text += String(Int.random(in: 0...9, using: &rng)) }
        }
        if chance(0.4) {
            text += "."
            for _ in 0..<Int.random(in: 1...20, using: &rng) { text += String(Int.random(in: 0...9, using: &rng)) }
        }
        if chance(0.4) {
            text += pick(["e", "E"]) + pick(["", "+", "-"])
            text += pick(["", "0", "00"]) + String(Int.random(in: 0...pick([9, 30, 330, 999]), using: &rng))
        }
        return text
    }
}

/// The value as JSONSerialization sees it.
func foundationObject(_ value: JSONValue) -> Any {
    switch value {
    case .null: NSNull()
    case .bool(let flag): flag
    case .integer(let number): NSNumber(value: number)
    case .double(let number): NSNumber(value: number)
    case .string(let text): text
    case .array(let elements): elements.map(foundationObject)
    case .object(let members): members.mapValues(foundationObject)
    }
}

@Suite("JSONValue(parsing:) against generated documents")
struct JSONParserDifferentialTests {
    @Test("parses what JSONSerialization writes, for 3,000 random documents")
    func againstJSONSerialization() throws {
        var random = RandomJSON(seed: 0x4845_4152_5448)
        for index in 0..<3000 {
            let value = random.value()
            let data = try JSONSerialization.data(withJSONObject: foundationObject(value), options: [.fragmentsAllowed])
            let parsed = try JSONValue(parsing: data)
            #expect(identical(parsed, value), "document \(index): \(String(decoding: data, as: UTF8.self))")
        }
    }

    @Test("parses random whitespace, escapes, number spellings and repeated keys (the last wins), for 3,000 documents")
    func againstHandWritten() throws {
        var random = RandomJSON(seed: 0x4A53_4F4E)
        for index in 0..<3000 {
            let value = random.value()
            let text = random.write(value, decoys: true)
            let parsed = try JSONValue(parsing: text)
            #expect(identical(parsed, value), "document \(index): \(String(decoding: text, as: UTF8.self))")
        }
    }

    @Test("reads numbers of every shape as Int64 when they are integer literals that fit, else as Double")
    func numbers() {
        var random = RandomJSON(seed: 0x4E55_4D42)
        for _ in 0..<20_000 {
            let text = random.numberText()
            let isIntegerLiteral = !text.contains(where: { ".eE".contains($0) })
            do {
                let parsed = try JSONValue(parsing: Array(text.utf8))
                if isIntegerLiteral, let integer = Int64(text) {
                    #expect(parsed == .integer(integer), "\(text)")
                } else {
                    #expect(parsed == .double(Double(text)!), "\(text)")
                    #expect(Double(text)!.isFinite, "\(text)")
                }
            } catch {
                #expect(error == JSONValue.ParseError(offset: 0, reason: .numberOutOfRange), "\(text)")
                #expect(Double(text)?.isFinite == false, "\(text)")
            }
        }
    }

    @Test("round trip: JSONValue(parsing: value.jsonData()) == value, for 2,000 random values")
    func roundTrip() throws {
        var random = RandomJSON(seed: 0x5254_5249_50)
        for index in 0..<2000 {
            let value = random.value()
            for sorted in [false, true] {
                let data = value.jsonData(sortedKeys: sorted)
                let parsed = try JSONValue(parsing: data)
                #expect(identical(parsed, value), "value \(index): \(String(decoding: data, as: UTF8.self))")
            }
        }
    }

    @Test("damaged documents never crash: each parses or throws with an offset inside the text")
    func damaged() throws {
        var random = RandomJSON(seed: 0x4441_4D41_4745)
        var rejected = 0
        for _ in 0..<3000 {
            var bytes = random.write(random.value(), decoys: false)
            for _ in 0..<Int.random(in: 1...3, using: &random.rng) {
                let position = Int.random(in: 0...bytes.count, using: &random.rng)
                switch Int.random(in: 0..<3, using: &random.rng) {
                case 0 where position < bytes.count: bytes.remove(at: position)
                case 1 where position < bytes.count: bytes[position] = UInt8.random(in: 0...255, using: &random.rng)
                default: bytes.insert(random.pick(Array(#"{}[]",:\"-.e0u"#.utf8) + [0x00, 0x80, 0xC0, 0xED, 0xFF]), at: position)
                }
            }
            do {
                _ = try JSONValue(parsing: bytes)
            } catch {
                rejected += 1
                #expect(error.offset >= 0 && error.offset <= bytes.count)
            }
        }
        #expect(rejected > 0 && rejected < 3000)
    }
}
