/// `POST /v1/accounts:signInWithCustomToken` (iOS: `verifyCustomToken`), PROTOCOL.md §3.4.
public struct SignInWithCustomTokenRequest: Encodable, Sendable, Equatable {
    /// The custom token: a JWT a service account signed (or, in development, an unsigned one).
    public var token: String?
    public var returnSecureToken: Bool?
    public var tenantId: String?

    public init(token: String?, returnSecureToken: Bool? = true, tenantId: String? = nil) {
        self.token = token
        self.returnSecureToken = returnSecureToken
        self.tenantId = tenantId
    }

    public init(fields: RequestFields) throws(WireError) {
        token = try fields.string("token")
        returnSecureToken = try fields.bool("returnSecureToken")
        tenantId = try fields.string("tenantId")
    }
}

/// The `signInWithCustomToken` response.
public struct SignInWithCustomTokenResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#VerifyCustomTokenResponse"
    public var idToken: String
    public var refreshToken: String
    /// Seconds, as a string.
    public var expiresIn: String
    public var isNewUser: Bool

    public init(idToken: String, refreshToken: String, expiresIn: String, isNewUser: Bool) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.isNewUser = isNewUser
    }
}
