/// One row of `accounts:batchCreate` (firebase-admin's `ImportUserRecord.to_dict()`).
public struct ImportedUser: Sendable, Equatable {
    public var localId: String?
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    public var phoneNumber: String?
    public var disabled: Bool?
    public var customAttributes: String?
    /// Milliseconds since 1970.
    public var createdAt: Int64?
    public var lastLoginAt: Int64?
    /// The password hash, base64 (standard or URL-safe, padded or not, as proto3 JSON `bytes`), hashed as the
    /// request's ``PasswordHashOptions`` say.
    public var passwordHash: String?
    /// The hash's salt, base64 like ``passwordHash``.
    public var salt: String?
    /// Present when the row carries a plain password (`rawPassword`, which only the Firebase emulator takes).
    public var hasRawPassword: Bool
    public var providerUserInfo: [AdminLinkedProvider]
    public var mfaInfo: [AdminMFAEnrollment]

    public init(localId: String?) {
        self.localId = localId
        hasRawPassword = false
        providerUserInfo = []
        mfaInfo = []
    }

    public init(fields: RequestFields) throws(WireError) {
        localId = try fields.string("localId")
        email = try fields.string("email")
        emailVerified = try fields.bool("emailVerified")
        displayName = try fields.string("displayName")
        photoUrl = try fields.string("photoUrl")
        phoneNumber = try fields.string("phoneNumber")
        disabled = try fields.bool("disabled")
        customAttributes = try fields.string("customAttributes")
        createdAt = try fields.int64("createdAt")
        lastLoginAt = try fields.int64("lastLoginAt")
        passwordHash = try fields.string("passwordHash")
        salt = try fields.string("salt")
        hasRawPassword = fields.value("rawPassword") != nil
        providerUserInfo = []
        for entry in try fields.objects("providerUserInfo") ?? [] {
            providerUserInfo.append(try AdminLinkedProvider(fields: entry))
        }
        mfaInfo = []
        for entry in try fields.objects("mfaInfo") ?? [] { mfaInfo.append(try AdminMFAEnrollment(fields: entry)) }
    }
}

/// `POST /v1/projects/{p}/accounts:batchCreate` (PROTOCOL.md §3.14): up to 1,000 users, with password hashes
/// made as `hashOptions` say.
public struct BatchCreateRequest: Sendable, Equatable {
    public var users: [ImportedUser]
    /// How the rows' `passwordHash` values were made.
    public var hashOptions: PasswordHashOptions
    /// Replace accounts whose uid exists instead of reporting the row.
    public var allowOverwrite: Bool
    /// Refuse the whole request when two rows share an email or a federated id.
    public var sanityCheck: Bool

    public init(
        users: [ImportedUser], hashOptions: PasswordHashOptions = PasswordHashOptions(), allowOverwrite: Bool = false,
        sanityCheck: Bool = false
    ) {
        self.users = users
        self.hashOptions = hashOptions
        self.allowOverwrite = allowOverwrite
        self.sanityCheck = sanityCheck
    }

    public init(fields: RequestFields) throws(WireError) {
        users = []
        for entry in try fields.objects("users") ?? [] { users.append(try ImportedUser(fields: entry)) }
        hashOptions = try PasswordHashOptions(fields: fields)
        allowOverwrite = try fields.bool("allowOverwrite") ?? false
        sanityCheck = try fields.bool("sanityCheck") ?? false
    }
}

/// Rows that failed, each with its index in the request; the others were imported.
public struct BatchCreateResponse: Codable, Sendable, Equatable {
    public struct Failure: Codable, Sendable, Equatable {
        public var index: Int
        public var message: String

        public init(index: Int, message: String) {
            self.index = index
            self.message = message
        }
    }

    public var kind: String = "identitytoolkit#UploadAccountResponse"
    public var error: [Failure]

    public init(error: [Failure]) { self.error = error }
}

/// `POST /v1/projects/{p}/accounts:query`: accounts matching any of `expression` (each naming a uid, an
/// email and/or a phone number, all of which must match), sorted, from `offset`, at most `limit`.
public struct QueryAccountsRequest: Sendable, Equatable {
    public struct Expression: Sendable, Equatable {
        public var userId: String?
        public var email: String?
        public var phoneNumber: String?

        public init(userId: String? = nil, email: String? = nil, phoneNumber: String? = nil) {
            self.userId = userId
            self.email = email
            self.phoneNumber = phoneNumber
        }
    }

    public static let sortFields = ["SORT_BY_FIELD_UNSPECIFIED", "USER_ID", "NAME", "CREATED_AT", "LAST_LOGIN_AT", "USER_EMAIL"]
    public static let orders = ["ORDER_UNSPECIFIED", "ASC", "DESC"]

    public var returnUserInfo: Bool
    public var limit: Int64?
    public var offset: Int64?
    public var sortBy: String
    public var order: String
    public var expression: [Expression]

    public init(
        returnUserInfo: Bool = true, limit: Int64? = nil, offset: Int64? = nil, sortBy: String = "USER_ID",
        order: String = "ASC", expression: [Expression] = []
    ) {
        self.returnUserInfo = returnUserInfo
        self.limit = limit
        self.offset = offset
        self.sortBy = sortBy
        self.order = order
        self.expression = expression
    }

    public init(fields: RequestFields) throws(WireError) {
        returnUserInfo = try fields.bool("returnUserInfo") ?? true
        limit = try fields.int64("limit")
        offset = try fields.int64("offset")
        sortBy = try fields.enumName("sortBy", names: Self.sortFields) ?? "USER_ID"
        order = try fields.enumName("order", names: Self.orders) ?? "ASC"
        expression = []
        for entry in try fields.objects("expression") ?? [] {
            expression.append(
                Expression(
                    userId: try entry.string("userId"), email: try entry.string("email"),
                    phoneNumber: try entry.string("phoneNumber")))
        }
    }
}

/// `recordsCount` is how many accounts matched (a decimal string); `userInfo` the requested slice of them,
/// left out with `returnUserInfo: false`.
public struct QueryAccountsResponse: Codable, Sendable, Equatable {
    public var recordsCount: String
    public var userInfo: [UserRecord]?

    public init(recordsCount: Int, userInfo: [UserRecord]?) {
        self.recordsCount = String(recordsCount)
        self.userInfo = userInfo
    }
}
