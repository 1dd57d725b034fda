import HearthProtocol

/// The client-side rules firebase-admin applies to custom claims before sending them.
enum CustomClaims {
    /// Claim names a user's custom claims and a custom token's `claims` must not use (PROTOCOL.md §5.1).
    static let reserved: Set<String> = [
        "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time", "firebase",
        "at_hash", "c_hash",
    ]
    /// The longest serialized claims Hearth accepts, in UTF-16 code units (as Hearth and firebase-admin-node count).
    static let maximumLength = 1000

    /// Throws `.forbiddenClaim` when `claims` uses a reserved name (the first in sorted order, for a stable message).
    static func checkNames(_ claims: [String: JSONValue]) throws(HearthAdminError) {
        if let name = claims.keys.sorted().first(where: reserved.contains) {
            throw HearthAdminError(.forbiddenClaim, message: "\"\(name)\" is a reserved claim name")
        }
    }

    /// `claims` as the JSON string `customAttributes` carries.
    ///
    /// - Throws: `.forbiddenClaim` for a reserved name, `.claimsTooLarge` for more than 1,000 UTF-16 code units.
    static func serialize(_ claims: [String: JSONValue]) throws(HearthAdminError) -> String {
        try checkNames(claims)
        let text = String(decoding: JSONValue.object(claims).jsonData(sortedKeys: true), as: UTF8.self)
        guard text.utf16.count <= maximumLength else {
            throw HearthAdminError(
                .claimsTooLarge,
                message: "custom claims are \(text.utf16.count) UTF-16 code units as JSON; at most \(maximumLength) are allowed")
        }
        return text
    }
}
