public import Foundation
public import HearthProtocol

/// An ID token whose signature, issuer, audience, subject and times ``IDTokenVerifier`` has checked.
///
/// The common claims are decoded up front; ``claims`` holds every claim (custom claims included), from the same
/// single parse of the payload that the verifier checked.
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
    /// The Identity Platform tenant the user belongs to (`firebase.tenant`); `nil` for the project's own users.
    public let tenantID: String?
    /// When the user last really signed in (`auth_time`); a token refresh does not change it.
    public let authTime: Date
    /// When this token was issued (`iat`).
    public let issuedAt: Date
    /// When this token expires (`exp`).
    public let expiresAt: Date

    /// Every claim of the token, by name: the registered ones (`iss`, `aud`, `sub`, `iat`, `exp`, `auth_time`,
    /// `user_id`, `firebase`, …), the profile ones (`email`, `name`, `picture`, …) and the user's custom claims.
    public let claims: [String: JSONValue]

    init(
        uid: String, email: String?, emailVerified: Bool, signInProvider: String?, signInSecondFactor: String?,
        tenantID: String?, authTime: Date, issuedAt: Date, expiresAt: Date, claims: [String: JSONValue]
    ) {
        self.uid = uid
        self.email = email
        self.emailVerified = emailVerified
        self.signInProvider = signInProvider
        self.signInSecondFactor = signInSecondFactor
        self.tenantID = tenantID
        self.authTime = authTime
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.claims = claims
    }
}
