public import Foundation

/// A JWT NumericDate (RFC 7519 §2) as Hearth accepts it: whole seconds since 1970-01-01T00:00:00Z, from 1970 to the
/// end of the year 9999.
///
/// Every numeric time claim Hearth reads (`exp`, `iat`, `auth_time`) goes through this type, on the server and in the
/// client libraries, so a correctly signed token with `exp` = 1e300, 2^63−1 or −2^63 is refused as malformed instead
/// of overflowing an integer conversion or a sum. Integers and integral doubles (`1.7e9`) in range are accepted;
/// fractions, negative values, later years and anything that is not a number are not. The comparisons are computed
/// in 128 bits, so no `now` or leeway can make them overflow either.
///
/// ```swift
/// guard let expiresAt = NumericDate(claims["exp"]), expiresAt.isAfter(now, leeway: 300) else { throw expired }
/// ```
public struct NumericDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The seconds accepted: 1970-01-01T00:00:00Z through 9999-12-31T23:59:59Z.
    public static let validRange: ClosedRange<Int64> = 0...253_402_300_799

    /// Seconds since 1970, within ``validRange``.
    public let secondsSince1970: Int64

    /// A date from whole seconds; nil outside ``validRange``.
    public init?(secondsSince1970 seconds: Int64) {
        guard Self.validRange.contains(seconds) else { return nil }
        secondsSince1970 = seconds
    }

    /// A date from a JSON number that holds whole seconds (`1700000000.0`, `1.7e9`); nil for fractions, NaN,
    /// infinities and values outside ``validRange``.
    public init?(secondsSince1970 seconds: Double) {
        guard seconds.isFinite, seconds.rounded(.towardZero) == seconds,
            seconds >= Double(Self.validRange.lowerBound), seconds <= Double(Self.validRange.upperBound)
        else { return nil }
        self.init(secondsSince1970: Int64(seconds))
    }

    /// A claim's value as a NumericDate; nil when it is absent, not a number, or not accepted (see the type).
    public init?(_ claim: JSONValue?) {
        switch claim {
        case .integer(let seconds)?: self.init(secondsSince1970: seconds)
        case .double(let seconds)?: self.init(secondsSince1970: seconds)
        default: return nil
        }
    }

    /// The same instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSince1970)) }

    /// Whether this time is still ahead of `now` when clocks may differ by `leeway` seconds: `self + leeway > now`
    /// (an `exp` check).
    public func isAfter(_ now: Int64, leeway: Int64 = 0) -> Bool {
        Int128(secondsSince1970) + Int128(leeway) > Int128(now)
    }

    /// Whether this time has been reached by `now` when clocks may differ by `leeway` seconds: `self - leeway <= now`
    /// (an `iat` check).
    public func isReached(by now: Int64, leeway: Int64 = 0) -> Bool {
        Int128(secondsSince1970) - Int128(leeway) <= Int128(now)
    }

    /// ``isAfter(_:leeway:)`` for a clock that reads `Date`s.
    public func isAfter(_ now: Date, leeway: TimeInterval = 0) -> Bool {
        TimeInterval(secondsSince1970) + leeway > now.timeIntervalSince1970
    }

    /// ``isReached(by:leeway:)`` for a clock that reads `Date`s.
    public func isReached(by now: Date, leeway: TimeInterval = 0) -> Bool {
        TimeInterval(secondsSince1970) - leeway <= now.timeIntervalSince1970
    }

    public static func < (lhs: NumericDate, rhs: NumericDate) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    public var description: String { String(secondsSince1970) }
}
