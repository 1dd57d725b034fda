public import Foundation

/// How long an HTTP response may be reused, read from its `Cache-Control` and `Age` headers (RFC 9111): the one
/// parser behind every key cache in Hearth (the server's Google verification, HearthVerify, HearthSignIn).
public enum CacheControl {
    /// The largest delta-seconds value: anything larger, or too large to read, counts as this (RFC 9111 §1.2.2).
    public static let maximumSeconds: TimeInterval = 2_147_483_648

    /// Seconds the response stays fresh, or nil when the headers say nothing about it.
    ///
    /// - `no-cache` or `no-store` (in any form, even with `max-age`): 0. The most restrictive directive wins
    ///   (RFC 9111 §4.2.1); a cache with a minimum lifetime (``KeySetCachePolicy/lifetimeRange``) keeps the response
    ///   only for that floor and then fetches again.
    /// - `max-age`: its value minus `Age`, never below 0. The first `max-age` counts when there are several; a value
    ///   that is not a non-negative integer makes the response stale (0), as RFC 9111 §4.2.1 advises; quotes
    ///   (`max-age="60"`) are tolerated. An `Age` that is not a non-negative integer is ignored (RFC 9111 §5.1).
    /// - Otherwise (no header, only `s-maxage`, `public`, …): nil, and the caller applies its default. `Expires`
    ///   is not read.
    ///
    /// - Parameters:
    ///   - cacheControl: the `Cache-Control` header's value.
    ///   - age: the `Age` header's value.
    public static func freshnessLifetime(cacheControl: String?, age: String?) -> TimeInterval? {
        guard let cacheControl else { return nil }
        var maxAge: TimeInterval?
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1)
            guard let rawName = parts.first else { continue }
            switch rawName.trimmingCharacters(in: .whitespaces).lowercased() {
            case "no-cache", "no-store":
                return 0
            case "max-age" where maxAge == nil:
                maxAge = parts.count == 2 ? deltaSeconds(parts[1]) ?? 0 : 0
            default:
                continue
            }
        }
        guard let maxAge else { return nil }
        let ageSeconds = age.flatMap { deltaSeconds($0.split(separator: ",").first ?? "") } ?? 0
        return max(0, maxAge - ageSeconds)
    }

    /// A delta-seconds value (RFC 9111 §1.2.2): digits only, optionally quoted; nil otherwise.
    private static func deltaSeconds(_ text: some StringProtocol) -> TimeInterval? {
        var value = text.trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
        guard !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        // Ten digits or fewer cannot overflow; longer runs are past the maximum anyway (unless zero-padded).
        let digits = value.drop(while: { $0 == "0" })
        guard digits.count <= 10, let seconds = TimeInterval(String(digits.isEmpty ? "0" : digits)) else {
            return maximumSeconds
        }
        return min(seconds, maximumSeconds)
    }
}
