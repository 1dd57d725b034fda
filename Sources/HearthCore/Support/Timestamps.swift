import Foundation

/// Wire formats for times (PROTOCOL.md §1.4).
enum Timestamps {
    /// RFC 3339 with milliseconds and `Z`, e.g. `2026-11-29T16:40:28.123Z`.
    static func rfc3339(millis: Int64) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(millis) / 1000)
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
