/// `POST /v1/accounts:signInWithPassword` (iOS: `verifyPassword`), PROTOCOL.md §3.2. Clients also send
/// `clientType` and captcha fields, which Hearth ignores.
public struct SignInWithPasswordRequest: Encodable, Sendable, Equatable {
    public var email: String?
    public var password: String?
    public var returnSecureToken: Bool?
    public var tenantId: String?

    public init(email: String?, password: String?, returnSecureToken: Bool? = true, tenantId: String? = nil) {
        self.email = email
        self.password = password
        self.returnSecureToken = returnSecureToken
        self.tenantId = tenantId
    }

    public init(fields: RequestFields) throws(WireError) {
        email = try fields.string("email")
        password = try fields.string("password")
        returnSecureToken = try fields.bool("returnSecureToken")
        tenantId = try fields.string("tenantId")
    }
}

/// The `signInWithPassword` response: tokens, or (when a second factor is needed) `mfaPendingCredential`
/// and the masked `mfaInfo` without tokens.
public struct SignInWithPasswordResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#VerifyPasswordResponse"
    public var localId: String
    public var email: String?
    public var displayName: String?
    public var profilePicture: String?
    public var registered: Bool?
    public var idToken: String?
    public var refreshToken: String?
    /// Seconds, as a string.
    public var expiresIn: String?
    public var mfaPendingCredential: String?
    public var mfaInfo: [MFAEnrollmentInfo]?

    public init(localId: String, email: String?) {
        self.localId = localId
        self.email = email
    }
}
