/// Phone numbers as Firebase MFA uses them: E.164 text, masked when shown before the second factor.
public enum PhoneNumbers {
    /// `+` then 7 to 15 digits, the first not 0 (E.164). Spaces, dashes and parentheses are not accepted:
    /// clients send normalized numbers.
    public static func isE164(_ number: String) -> Bool {
        let digits = number.utf8.dropFirst()
        guard number.utf8.first == UInt8(ascii: "+"), (7...15).contains(digits.count), digits.first != UInt8(ascii: "0")
        else { return false }
        return digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Keeps the last four digits: `+15555551234` → `+*******1234` (PROTOCOL.md §6.1).
    public static func masked(_ number: String) -> String {
        let digitCount = number.filter(\.isNumber).count
        var seen = 0
        return String(number.map { character -> Character in
            guard character.isNumber else { return character }
            seen += 1
            return seen > digitCount - 4 ? character : "*"
        })
    }
}
