/// `POST /v1/accounts:lookup` from a client (iOS: `getAccountInfo`).
public struct LookupRequest: Encodable, Sendable, Equatable {
    public var idToken: String?

    public init(idToken: String?) { self.idToken = idToken }

    public init(fields: RequestFields) throws(WireError) {
        idToken = try fields.string("idToken")
    }
}

/// `users` is left out when nothing matched (PROTOCOL.md §3.5).
public struct LookupResponse: Codable, Sendable, Equatable {
    public var kind: String? = "identitytoolkit#GetAccountInfoResponse"
    public var users: [UserRecord]?

    public init(users: [UserRecord]) { self.users = users.isEmpty ? nil : users }
}

/// `POST /v1/accounts:update` from a client (iOS: `setAccountInfo`), PROTOCOL.md §3.6.
public struct UpdateAccountRequest: Encodable, Sendable, Equatable {
    /// Attributes `deleteAttribute` may name.
    public static let deletableAttributes = ["USER_ATTRIBUTE_NAME_UNSPECIFIED", "EMAIL", "DISPLAY_NAME", "PROVIDER", "PHOTO_URL", "PASSWORD", "RAW_USER_INFO"]

    public var idToken: String?
    public var oobCode: String?
    public var localId: String?
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var photoUrl: String?
    public var deleteAttribute: [String]?
    public var deleteProvider: [String]?
    public var returnSecureToken: Bool?
    public var customAttributes: String?
    public var disableUser: Bool?
    public var emailVerified: Bool?
    public var validSince: String?
    public var tenantId: String?

    public init(idToken: String?) { self.idToken = idToken }

    public init(fields: RequestFields) throws(WireError) {
        idToken = try fields.string("idToken")
        oobCode = try fields.string("oobCode")
        localId = try fields.string("localId")
        email = try fields.string("email")
        password = try fields.string("password")
        displayName = try fields.string("displayName")
        photoUrl = try fields.string("photoUrl")
        deleteAttribute = try fields.enumNames("deleteAttribute", names: Self.deletableAttributes)
        deleteProvider = try fields.strings("deleteProvider")
        returnSecureToken = try fields.bool("returnSecureToken")
        customAttributes = try fields.string("customAttributes")
        disableUser = try fields.bool("disableUser")
        emailVerified = try fields.bool("emailVerified")
        validSince = try fields.int64("validSince").map(String.init)
        tenantId = try fields.string("tenantId")
    }
}

public struct UpdateAccountResponse: Codable, Sendable, Equatable {
    public var kind: String? = "identitytoolkit#SetAccountInfoResponse"
    public var localId: String
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    public var providerUserInfo: [ProviderUserInfo]?
    /// The email the update set, when it set one.
    public var newEmail: String?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?

    public init(localId: String) { self.localId = localId }
}

/// `POST /v1/accounts:delete` (iOS: `deleteAccount`; iOS also sends `localId`, which must match).
public struct DeleteAccountRequest: Encodable, Sendable, Equatable {
    public var idToken: String?
    public var localId: String?

    public init(idToken: String?, localId: String? = nil) {
        self.idToken = idToken
        self.localId = localId
    }

    public init(fields: RequestFields) throws(WireError) {
        idToken = try fields.string("idToken")
        localId = try fields.string("localId")
    }
}

/// Python admin's `delete_user` requires `kind`.
public struct DeleteAccountResponse: Codable, Sendable, Equatable {
    public var kind: String = "identitytoolkit#DeleteAccountResponse"

    public init() {}
}
