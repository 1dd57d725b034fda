import Foundation
import HearthProtocol

/// The developer's custom claims (`customAttributes`), checked as Firebase checks them: the text of a JSON
/// object of at most 1,000 characters (UTF-16 code units, as the emulator counts), without the names an ID token reserves.
enum CustomClaims {
    static let maximumLength = 1000

    /// The text to store: nil for an empty object (no claims, as firebase-admin reads `{}`), else `text`.
    /// - Throws: `CLAIMS_TOO_LARGE`, `INVALID_CLAIMS` (not a JSON object) or `FORBIDDEN_CLAIM : <name>`.
    static func validated(_ text: String) throws -> String? {
        guard text.utf16.count <= maximumLength else {
            throw WireError(.claimsTooLarge, "Custom claims must be at most \(maximumLength) characters.")
        }
        guard case .object(let claims)? = try? JSONValue(parsing: Data(text.utf8)) else {
            throw WireError(.invalidClaims, "Custom claims must be the text of a JSON object.")
        }
        if let reserved = claims.keys.sorted().first(where: ReservedClaims.forbidden.contains) {
            throw WireError(.forbiddenClaim, reserved)
        }
        return claims.isEmpty ? nil : text
    }
}
