public import Foundation

/// Reads RFC 3339 timestamps as Google sends them (`google-datetime`): `2026-11-29T12:34:56.789Z`,
/// with any number of fraction digits (or none) and `Z` or a `±hh:mm` offset.
///
/// Written by hand rather than with `ISO8601DateFormatter`, whose handling of fraction digits
/// differs between platforms and versions. <https://www.rfc-editor.org/rfc/rfc3339#section-5.6>
public enum RFC3339 {
    /// The instant `text` names, or nil if it is not an RFC 3339 date-time.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }

        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func byte(_ index: Int, is characters: String) -> Bool {
            index < bytes.count && characters.utf8.contains(bytes[index])
        }

        guard let year = digits(0..<4), byte(4, is: "-"), let month = digits(5..<7), byte(7, is: "-"),
            let day = digits(8..<10), byte(10, is: "Tt "), let hour = digits(11..<13), byte(13, is: ":"),
            let minute = digits(14..<16), byte(16, is: ":"), let second = digits(17..<19)
        else { return nil }
        guard (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day), hour < 24, minute < 60,
            second <= 60
        else { return nil }

        var index = 19
        var fraction = 0.0
        if byte(index, is: ".") {
            index += 1
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > start, let value = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))
            else { return nil }
            fraction = value
        }

        var offset = 0
        if byte(index, is: "Zz") {
            index += 1
        } else if byte(index, is: "+-") {
            guard let hours = digits(index + 1..<index + 3), byte(index + 3, is: ":"),
                let minutes = digits(index + 4..<index + 6), hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }

        let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }

    /// The instant `text` names in milliseconds since 1970 (to the nearest), or nil if it is not an RFC 3339 date-time.
    public static func millis(from text: String) -> Int64? {
        date(from: text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    private static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
