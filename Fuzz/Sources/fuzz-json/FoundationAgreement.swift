import Foundation
import HearthProtocol

/// Whether Hearth's parse of a text agrees with `JSONSerialization`'s, under the rules of
/// `Tests/HearthProtocolTests/JSONParserDifferentialTests.swift`: the same structure, the same strings byte for byte,
/// the same keys, and the same numbers.
///
/// Numbers: Foundation reads integers that fit in `Int64` (or `UInt64`) exactly and other literals either as
/// `Double` (correctly rounded, like Hearth) or as `NSDecimalNumber`, whose value keeps at most 38 significant digits
/// and whose `doubleValue` is not correctly rounded. So an integer must match exactly, a `Double` must match exactly,
/// and a decimal must match its own text read as a `Double` to within a relative 1e-12.
enum FoundationAgreement {
    static func agrees(_ value: JSONValue, _ foundation: Any) -> Bool {
        switch value {
        case .null:
            return foundation is NSNull
        case .bool(let flag):
            guard let number = foundation as? NSNumber, isBoolean(number) else { return false }
            return number.boolValue == flag
        case .integer(let integer):
            guard let number = foundation as? NSNumber, !isBoolean(number) else { return false }
            if let decimal = number as? NSDecimalNumber {
                return decimal.stringValue == String(integer)
            }
            return number.int64Value == integer && String(cString: number.objCType) != "Q"
        case .double(let double):
            guard let number = foundation as? NSNumber, !isBoolean(number) else { return false }
            if let decimal = number as? NSDecimalNumber {
                guard let exact = Double(decimal.stringValue) else { return false }
                return exact == double || abs(exact - double) <= abs(double) * 1e-12
            }
            if String(cString: number.objCType) == "Q" {
                return Double(number.uint64Value) == double
            }
            return number.doubleValue == double
        case .string(let text):
            guard let other = foundation as? String else { return false }
            return text.utf8.elementsEqual(other.utf8)
        case .array(let elements):
            guard let others = foundation as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { agrees($0, $1) }
        case .object(let members):
            guard let others = foundation as? [String: Any], others.count == members.count else { return false }
            return members.allSatisfy { key, member in others[key].map { agrees(member, $0) } ?? false }
        }
    }

    /// `true` and `false` come back as a boolean `NSNumber` (type `c`); numbers never do.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}
