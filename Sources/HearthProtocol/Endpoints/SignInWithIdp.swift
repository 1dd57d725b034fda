/// `POST /v1/accounts:signInWithIdp` (iOS: `verifyAssertion`), PROTOCOL.md §4.
public struct SignInWithIdpRequest: Encodable, Sendable, Equatable {
    /// Required and absolute; its query and fragment may carry IdP parameters.
    public var requestUri: String?
    /// Form-encoded IdP parameters: `providerId`, `id_token`, `access_token`, `nonce`, ….
    public var postBody: String?
    public var returnSecureToken: Bool?
    public var returnIdpCredential: Bool?
    public var returnRefreshToken: Bool?
    /// `false` when reauthenticating: an unknown identity is `USER_NOT_FOUND` instead of a new account.
    public var autoCreate: Bool?
    /// The Firebase ID token of the signed-in user, when linking.
    public var idToken: String?
    public var sessionId: String?
    public var pendingToken: String?
    public var tenantId: String?
    /// The provider, when the `postBody` does not name it (a SAML sign-in may send it beside the `SAMLResponse`).
    public var providerId: String?

    public init(
        requestUri: String? = nil, postBody: String? = nil, returnSecureToken: Bool? = nil,
        returnIdpCredential: Bool? = nil, returnRefreshToken: Bool? = nil, autoCreate: Bool? = nil,
        idToken: String? = nil, sessionId: String? = nil, pendingToken: String? = nil, tenantId: String? = nil
    ) {
        self.requestUri = requestUri
        self.postBody = postBody
        self.returnSecureToken = returnSecureToken
        self.returnIdpCredential = returnIdpCredential
        self.returnRefreshToken = returnRefreshToken
        self.autoCreate = autoCreate
        self.idToken = idToken
        self.sessionId = sessionId
        self.pendingToken = pendingToken
        self.tenantId = tenantId
    }

    public init(fields: RequestFields) throws(WireError) {
        requestUri = try fields.string("requestUri")
        postBody = try fields.string("postBody")
        returnSecureToken = try fields.bool("returnSecureToken")
        returnIdpCredential = try fields.bool("returnIdpCredential")
        returnRefreshToken = try fields.bool("returnRefreshToken")
        autoCreate = try fields.bool("autoCreate")
        idToken = try fields.string("idToken")
        sessionId = try fields.string("sessionId")
        pendingToken = try fields.string("pendingToken")
        tenantId = try fields.string("tenantId")
        providerId = try fields.string("providerId")
    }
}

/// The `signInWithIdp` response. Fields are optional because different outcomes fill different
/// subsets: a sign-in, a link, `needConfirmation`, or a 200 carrying `errorMessage` (PROTOCOL.md §2, §4.2).
public struct SignInWithIdpResponse: Codable, Sendable, Equatable {
    public var kind: String? = "identitytoolkit#VerifyAssertionResponse"
    public var providerId: String?
    public var localId: String?
    public var federatedId: String?
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var fullName: String?
    public var firstName: String?
    public var lastName: String?
    public var photoUrl: String?
    public var screenName: String?
    /// The IdP's profile as the text of a JSON object.
    public var rawUserInfo: String?
    public var oauthIdToken: String?
    public var oauthAccessToken: String?
    public var oauthExpireIn: Int?
    public var oauthRefreshToken: String?
    public var pendingToken: String?
    public var isNewUser: Bool?
    /// Present (and true) only when the email belongs to another account and the IdP did not verify it.
    public var needConfirmation: Bool?
    public var verifiedProvider: [String]?
    public var emailRecycled: Bool?
    public var originalEmail: String?
    /// A failure reported with HTTP 200 when `returnIdpCredential` was set.
    public var errorMessage: String?
    public var tenantId: String?
    public var idToken: String?
    public var refreshToken: String?
    /// Seconds, as a string.
    public var expiresIn: String?
    /// Instead of tokens, when the user must pass a second factor (PROTOCOL.md §6.1).
    public var mfaPendingCredential: String?
    /// Masked enrolled factors, with `mfaPendingCredential`.
    public var mfaInfo: [MFAEnrollmentInfo]?

    public init() {}
}
