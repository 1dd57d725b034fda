import Foundation

/// Wire formats for times (PROTOCOL.md §1.4).
enum Timestamps {
    /// RFC 3339 with milliseconds and `Z`, e.g. `2026-11-29T16:40:28.123Z`. The milliseconds are written from the
    /// integer, exactly (through a `Date`, `…439` ms can come out as `.438`).
    static func rfc3339(millis: Int64) -> String {
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let fraction = String(millis - seconds * 1000)
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        // `…:28Z` → `…:28.123Z`
        return date.formatted(Date.ISO8601FormatStyle()).dropLast() + "."
            + String(repeating: "0", count: 3 - fraction.count) + fraction + "Z"
    }
}
