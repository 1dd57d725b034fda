import Foundation
import HearthProtocol

/// What a `SessionStore` keeps for the signed-in user: identity, tokens and the cached profile.
/// Stored as JSON; `version` lets later releases migrate.
struct StoredSession: Codable, Sendable, Equatable {
    var version: Int = 1
    var uid: String
    var idToken: String
    var refreshToken: String
    /// When the ID token expires, in seconds since 1970.
    var idTokenExpiration: Double
    var isAnonymous: Bool
    /// The `getAccountInfo` record the user's properties come from.
    var profile: UserRecord

    /// `hearth.auth.<apiKey>.<name>`: one session per project key and Auth instance.
    static func storeKey(apiKey: String, name: String) -> String {
        "hearth.auth.\(apiKey).\(name)"
    }
}

/// A user's tokens.
struct TokenState: Sendable, Equatable {
    var idToken: String
    var refreshToken: String
    var expirationDate: Date

    /// `expiresIn` seconds from `now` when given; else the JWT's `exp`; else already expired, so the
    /// next `getIDToken()` refreshes.
    init(idToken: String, refreshToken: String, expiresIn: String?, now: Date) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        if let expiresIn, let seconds = Double(expiresIn.trimmingCharacters(in: .whitespaces)) {
            expirationDate = now.addingTimeInterval(seconds)
        } else if case .integer(let exp)? = AuthTokenResult.payload(of: idToken)?["exp"] {
            expirationDate = Date(timeIntervalSince1970: TimeInterval(exp))
        } else if case .double(let exp)? = AuthTokenResult.payload(of: idToken)?["exp"] {
            expirationDate = Date(timeIntervalSince1970: exp)
        } else {
            expirationDate = now
        }
    }

    /// The tokens of a sign-in response, which must have both.
    init(signInIDToken idToken: String?, refreshToken: String?, expiresIn: String?, now: Date) throws(AuthError) {
        guard let idToken, !idToken.isEmpty, let refreshToken, !refreshToken.isEmpty else {
            throw AuthError(code: .internalError, message: "The sign-in response has no tokens.")
        }
        self.init(idToken: idToken, refreshToken: refreshToken, expiresIn: expiresIn, now: now)
    }

    init(idToken: String, refreshToken: String, expirationDate: Date) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expirationDate = expirationDate
    }
}
