/// `POST /v1/accounts:signUp` (iOS: `signupNewUser`), PROTOCOL.md §3.1. Without email and password it makes an
/// anonymous account (`signInAnonymously`); with `idToken` it links email and password to the signed-in user
/// (the web SDK's `linkWithCredential(EmailAuthCredential)`).
public struct SignUpRequest: Encodable, Sendable, Equatable {
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var idToken: String?
    /// Only administrators choose uids; a client that sends one is refused.
    public var localId: String?
    public var returnSecureToken: Bool?
    public var tenantId: String?

    public init(
        email: String? = nil, password: String? = nil, displayName: String? = nil, idToken: String? = nil,
        returnSecureToken: Bool? = true, tenantId: String? = nil
    ) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.idToken = idToken
        self.returnSecureToken = returnSecureToken
        self.tenantId = tenantId
    }

    public init(fields: RequestFields) throws(WireError) {
        email = try fields.string("email")
        password = try fields.string("password")
        displayName = try fields.string("displayName")
        idToken = try fields.string("idToken")
        localId = try fields.string("localId")
        returnSecureToken = try fields.bool("returnSecureToken")
        tenantId = try fields.string("tenantId")
    }
}

/// The `signUp` response.
public struct SignUpResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#SignupNewUserResponse"
    public var idToken: String
    public var refreshToken: String
    /// Seconds, as a string.
    public var expiresIn: String
    public var localId: String
    public var email: String?
    public var displayName: String?

    public init(
        idToken: String, refreshToken: String, expiresIn: String, localId: String, email: String? = nil,
        displayName: String?
    ) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.localId = localId
        self.email = email
        self.displayName = displayName
    }
}
