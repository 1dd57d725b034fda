public import Foundation
public import HearthCore

/// The one instant every fuzz target lives at, so that the tokens in the seed corpora stay valid.
///
/// 1,800,000,000 s is 2027-01-15T08:00:00Z; `Fuzz/make-seed-tokens` issues its tokens a minute before it.
public struct FixedTime: TimeSource {
    public static let seconds: Int64 = 1_800_000_000

    public init() {}

    public var now: Date { Date(timeIntervalSince1970: TimeInterval(Self.seconds)) }
}
