import Foundation
import HearthProtocol

/// The developer's custom claims (`customAttributes`, and a custom token's `claims`), checked as Firebase checks
/// them: a JSON object of at most 1,000 characters as JSON text (UTF-16 code units, as the emulator counts),
/// without the names an ID token reserves.
enum CustomClaims {
    static let maximumLength = 1000

    /// The two rules every set of claims follows, whatever carries it: no reserved name, and `text` (the claims as
    /// JSON) at most `maximumLength` UTF-16 code units.
    /// - Throws: `FORBIDDEN_CLAIM : <name>` or `CLAIMS_TOO_LARGE`.
    static func check(_ claims: [String: JSONValue], text: String) throws {
        if let reserved = claims.keys.sorted().first(where: ReservedClaims.forbidden.contains) {
            throw WireError(.forbiddenClaim, reserved)
        }
        guard text.utf16.count <= maximumLength else { throw tooLarge }
    }

    private static let tooLarge = WireError(
        .claimsTooLarge, "Custom claims must be at most \(maximumLength) characters (UTF-16 code units) as JSON.")

    /// The text to store: nil for an empty object (no claims, as firebase-admin reads `{}`), else `text`.
    /// - Throws: `CLAIMS_TOO_LARGE`, `INVALID_CLAIMS` (not a JSON object) or `FORBIDDEN_CLAIM : <name>`.
    static func validated(_ text: String) throws -> String? {
        // Measured before parsing, so an oversized text is refused without being parsed.
        guard text.utf16.count <= maximumLength else { throw tooLarge }
        guard case .object(let claims)? = try? JSONValue(parsing: Data(text.utf8)) else {
            throw WireError(.invalidClaims, "Custom claims must be the text of a JSON object.")
        }
        try check(claims, text: text)
        return claims.isEmpty ? nil : text
    }
}
