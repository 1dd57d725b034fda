public import HearthProtocol

/// What a signed-in session carries into every ID token minted for it, and what a verified ID
/// token says about its session.
public struct Session: Sendable, Equatable {
    /// `firebase.sign_in_provider`: `google.com`, `password`, `custom`, ….
    public var signInProvider: String
    /// Seconds since 1970 of the sign-in; kept across refreshes.
    public var authTime: Int64
    /// `phone` or `totp` after a second factor.
    public var secondFactor: String?
    public var secondFactorIdentifier: String?
    /// Extra claims fixed at sign-in, merged into every ID token of the session.
    public var sessionClaims: [String: JSONValue]?

    public init(
        signInProvider: String, authTime: Int64, secondFactor: String? = nil, secondFactorIdentifier: String? = nil,
        sessionClaims: [String: JSONValue]? = nil
    ) {
        self.signInProvider = signInProvider
        self.authTime = authTime
        self.secondFactor = secondFactor
        self.secondFactorIdentifier = secondFactorIdentifier
        self.sessionClaims = sessionClaims
    }
}

/// A Hearth ID token that passed every check, and the account it belongs to.
public struct AuthenticatedUser: Sendable {
    public var account: Account
    public var session: Session
    /// `iat` of the presented token.
    public var issuedAt: Int64
}

/// Names an ID token may not take from custom claims (PROTOCOL.md §5.1).
public enum ReservedClaims {
    public static let forbidden: Set<String> = [
        "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time",
        "firebase", "at_hash", "c_hash",
    ]
    /// Written last, so that neither custom nor session claims can override them.
    static let protected: Set<String> = [
        "email", "email_verified", "phone_number", "auth_time", "user_id", "firebase", "iss", "aud", "sub", "iat",
        "exp",
    ]
}
