import Foundation
import HearthProtocol
import Testing

@Suite("NumericDate")
struct NumericDateTests {
    @Test(
        "integers and integral doubles from 1970 to 9999 are accepted",
        arguments: [
            (JSONValue.integer(0), Int64(0)), (.integer(1_700_000_000), 1_700_000_000), (.double(1.7e9), 1_700_000_000),
            (.double(-0.0), 0), (.integer(253_402_300_799), 253_402_300_799), (.double(253_402_300_799), 253_402_300_799),
        ])
    func accepted(value: JSONValue, seconds: Int64) throws {
        let date = try #require(NumericDate(value))
        #expect(date.secondsSince1970 == seconds)
        #expect(date.date == Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    @Test(
        "everything else is refused, never trapped on",
        arguments: [
            JSONValue.double(1e20), .integer(Int64.max), .double(1e300), .integer(Int64.min), .double(-1e300),
            .double(9.223372036854775807e18), .double(-9.223372036854775808e18), .double(.greatestFiniteMagnitude),
            .double(.infinity), .double(-.infinity), .double(.nan), .double(1e-300), .double(1_700_000_000.5),
            .integer(-1), .integer(253_402_300_800), .string("1700000000"), .bool(true), .null, .array([.integer(1)]),
        ])
    func refused(value: JSONValue) {
        #expect(NumericDate(value) == nil)
    }

    @Test("an absent claim is nil")
    func absent() {
        #expect(NumericDate(nil as JSONValue?) == nil)
    }

    @Test("comparisons with leeway are exact at the boundary and cannot overflow")
    func comparisons() throws {
        let date = try #require(NumericDate(secondsSince1970: Int64(1_000)))
        #expect(date.isAfter(999))
        #expect(!date.isAfter(1_000))
        #expect(date.isAfter(1_299, leeway: 300))
        #expect(!date.isAfter(1_300, leeway: 300))
        #expect(date.isReached(by: 1_000))
        #expect(!date.isReached(by: 999))
        #expect(date.isReached(by: 700, leeway: 300))
        #expect(!date.isReached(by: 699, leeway: 300))
        // Extreme clocks and leeways: no trap, and the obvious answer.
        #expect(date.isAfter(Int64.min, leeway: Int64.min + 2_000))
        #expect(!date.isAfter(Int64.max, leeway: Int64.max - 2_000))
        #expect(date.isAfter(Int64.max, leeway: Int64.max))
        #expect(!date.isReached(by: Int64.max, leeway: Int64.min))
        #expect(!date.isReached(by: Int64.min, leeway: Int64.min + 1_001))
        let max = try #require(NumericDate(secondsSince1970: NumericDate.validRange.upperBound))
        #expect(max.isAfter(Int64.max - 1, leeway: Int64.max))
        // The Date forms.
        #expect(date.isAfter(Date(timeIntervalSince1970: 999.5)))
        #expect(!date.isAfter(Date(timeIntervalSince1970: 1_060), leeway: 60))
        #expect(date.isReached(by: Date(timeIntervalSince1970: 940), leeway: 60))
        #expect(!date.isReached(by: Date.distantPast))
    }
}
