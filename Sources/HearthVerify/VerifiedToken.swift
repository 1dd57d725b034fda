public import Foundation
public import HearthProtocol
import Synchronization

/// An ID token whose signature, issuer, audience, subject and times ``IDTokenVerifier`` has checked.
///
/// The common claims are decoded up front; ``claims`` holds every claim (custom claims included) and is parsed the
/// first time it is read, so backends that only need the uid pay nothing for it.
///
/// ```swift
/// let user = try verifier.verify(token)
/// print(user.uid, user.email ?? "-", user.signInProvider ?? "-")
/// if user.claims["admin"] == true { … }
/// ```
public struct VerifiedToken: Sendable, Equatable {
    /// The user's uid (the `sub` claim).
    public let uid: String
    /// The user's email (`email`), if the token has one.
    public let email: String?
    /// Whether the email was verified (`email_verified`); `false` when absent.
    public let emailVerified: Bool
    /// How the user signed in (`firebase.sign_in_provider`): `google.com`, `password`, `anonymous`, `custom`, ….
    public let signInProvider: String?
    /// The second factor used (`firebase.sign_in_second_factor`: `phone` or `totp`), after multi-factor sign-in.
    public let signInSecondFactor: String?
    /// When the user last really signed in (`auth_time`); a token refresh does not change it.
    public let authTime: Date
    /// When this token was issued (`iat`).
    public let issuedAt: Date
    /// When this token expires (`exp`).
    public let expiresAt: Date

    private let payload: ClaimsPayload

    /// Every claim of the token, by name: the registered ones (`iss`, `aud`, `sub`, `iat`, `exp`, `auth_time`,
    /// `user_id`, `firebase`, …), the profile ones (`email`, `name`, `picture`, …) and the user's custom claims.
    ///
    /// Parsed from the verified payload on first use and kept.
    public var claims: [String: JSONValue] { payload.claims }

    init(
        uid: String, email: String?, emailVerified: Bool, signInProvider: String?, signInSecondFactor: String?,
        authTime: Date, issuedAt: Date, expiresAt: Date, payload: Data
    ) {
        self.uid = uid
        self.email = email
        self.emailVerified = emailVerified
        self.signInProvider = signInProvider
        self.signInSecondFactor = signInSecondFactor
        self.authTime = authTime
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.payload = ClaimsPayload(payload)
    }

    public static func == (lhs: VerifiedToken, rhs: VerifiedToken) -> Bool {
        lhs.uid == rhs.uid && lhs.email == rhs.email && lhs.emailVerified == rhs.emailVerified
            && lhs.signInProvider == rhs.signInProvider && lhs.signInSecondFactor == rhs.signInSecondFactor
            && lhs.authTime == rhs.authTime && lhs.issuedAt == rhs.issuedAt && lhs.expiresAt == rhs.expiresAt
            && (lhs.payload === rhs.payload || lhs.payload.bytes == rhs.payload.bytes || lhs.claims == rhs.claims)
    }
}

/// The verified payload bytes and, once asked for, their parsed claims.
private final class ClaimsPayload: Sendable {
    let bytes: Data
    private let parsed = Mutex<[String: JSONValue]?>(nil)

    init(_ bytes: Data) {
        self.bytes = bytes
    }

    var claims: [String: JSONValue] {
        if let claims = parsed.withLock({ $0 }) { return claims }
        // The verifier already checked that the payload is a JSON object; parse outside the lock.
        let claims = (try? JSONValue(parsing: bytes))?.objectValue ?? [:]
        parsed.withLock { $0 = claims }
        return claims
    }
}
