/// `POST /v1/projects/{p}/accounts`: an administrator creates an account (PROTOCOL.md §3.1, request (A)).
public struct AdminCreateAccountRequest: Sendable, Equatable {
    public var localId: String?
    public var email: String?
    public var password: String?
    public var phoneNumber: String?
    public var displayName: String?
    public var photoUrl: String?
    public var emailVerified: Bool?
    public var disabled: Bool?
    /// The custom claims as the text of a JSON object.
    public var customAttributes: String?
    /// Phone second factors to enrol (`mfaInfo[]`: `phoneInfo`, `displayName`); ids are made by the server.
    public var mfaInfo: [AdminMFAEnrollment] = []

    public init() {}

    public init(fields: RequestFields) throws(WireError) {
        localId = try fields.string("localId")
        email = try fields.string("email")
        password = try fields.string("password")
        phoneNumber = try fields.string("phoneNumber")
        displayName = try fields.string("displayName")
        photoUrl = try fields.string("photoUrl")
        emailVerified = try fields.bool("emailVerified")
        disabled = try fields.bool("disabled")
        customAttributes = try fields.string("customAttributes")
        for entry in try fields.objects("mfaInfo") ?? [] { mfaInfo.append(try AdminMFAEnrollment(fields: entry)) }
    }
}

/// `accounts` answers like `signUp`, without tokens.
public struct AdminCreateAccountResponse: Codable, Sendable, Equatable {
    public var kind: String = "identitytoolkit#SignupNewUserResponse"
    public var localId: String
    public var email: String?
    public var displayName: String?

    public init(localId: String, email: String?, displayName: String?) {
        self.localId = localId
        self.email = email
        self.displayName = displayName
    }
}

/// A federated identity named by provider and the provider's user id.
public struct FederatedUserID: Sendable, Equatable {
    public var providerId: String
    public var rawId: String

    public init(providerId: String, rawId: String) {
        self.providerId = providerId
        self.rawId = rawId
    }
}

/// `POST /v1/projects/{p}/accounts:lookup`: any mix of the four kinds of identifier, as firebase-admin's
/// `get_users` sends them (PROTOCOL.md §3.5, request (A)).
public struct AdminLookupRequest: Sendable, Equatable {
    public var localId: [String]
    public var email: [String]
    public var phoneNumber: [String]
    /// Entries without a provider or a raw id are skipped, as the emulator skips them.
    public var federatedUserId: [FederatedUserID]
    public var initialEmail: [String]

    public init(
        localId: [String] = [], email: [String] = [], phoneNumber: [String] = [],
        federatedUserId: [FederatedUserID] = []
    ) {
        self.localId = localId
        self.email = email
        self.phoneNumber = phoneNumber
        self.federatedUserId = federatedUserId
        initialEmail = []
    }

    public init(fields: RequestFields) throws(WireError) {
        localId = try fields.strings("localId") ?? []
        email = try fields.strings("email") ?? []
        phoneNumber = try fields.strings("phoneNumber") ?? []
        initialEmail = try fields.strings("initialEmail") ?? []
        federatedUserId = []
        for entry in try fields.objects("federatedUserId") ?? [] {
            guard let provider = try entry.string("providerId"), !provider.isEmpty,
                let rawID = try entry.string("rawId"), !rawID.isEmpty
            else { continue }
            federatedUserId.append(FederatedUserID(providerId: provider, rawId: rawID))
        }
    }

    /// How many identifiers the request names.
    public var count: Int { localId.count + email.count + phoneNumber.count + federatedUserId.count }
}

/// A provider an administrator links (`linkProviderUserInfo`).
public struct AdminLinkedProvider: Sendable, Equatable {
    public var providerId: String?
    public var rawId: String?
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var screenName: String?

    public init(fields: RequestFields) throws(WireError) {
        providerId = try fields.string("providerId")
        rawId = try fields.string("rawId")
        email = try fields.string("email")
        displayName = try fields.string("displayName")
        photoUrl = try fields.string("photoUrl")
        screenName = try fields.string("screenName")
    }
}

/// One second factor an administrator sets (`mfa.enrollments[]`): phone factors only, as the wire can
/// carry no TOTP secret.
public struct AdminMFAEnrollment: Sendable, Equatable {
    public var mfaEnrollmentId: String?
    public var displayName: String?
    public var phoneInfo: String?

    public init(mfaEnrollmentId: String? = nil, displayName: String? = nil, phoneInfo: String?) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.phoneInfo = phoneInfo
    }

    public init(fields: RequestFields) throws(WireError) {
        mfaEnrollmentId = try fields.string("mfaEnrollmentId")
        displayName = try fields.string("displayName")
        phoneInfo = try fields.string("phoneInfo")
    }
}

/// `POST /v1/projects/{p}/accounts:update`: the fields an administrator may set (PROTOCOL.md §3.6,
/// request (A)).
public struct AdminUpdateAccountRequest: Sendable, Equatable {
    public var localId: String?
    public var email: String?
    public var password: String?
    public var phoneNumber: String?
    public var displayName: String?
    public var photoUrl: String?
    public var emailVerified: Bool?
    public var disableUser: Bool?
    /// Seconds since 1970 (firebase-admin sends a JSON number).
    public var validSince: Int64?
    public var customAttributes: String?
    public var deleteAttribute: [String]
    public var deleteProvider: [String]
    public var linkProviderUserInfo: AdminLinkedProvider?
    /// `mfa.enrollments`: nil leaves the factors alone, an empty list removes them all.
    public var mfaEnrollments: [AdminMFAEnrollment]?

    public init(localId: String?) {
        self.localId = localId
        deleteAttribute = []
        deleteProvider = []
    }

    public init(fields: RequestFields) throws(WireError) {
        localId = try fields.string("localId")
        email = try fields.string("email")
        password = try fields.string("password")
        phoneNumber = try fields.string("phoneNumber")
        displayName = try fields.string("displayName")
        photoUrl = try fields.string("photoUrl")
        emailVerified = try fields.bool("emailVerified")
        disableUser = try fields.bool("disableUser")
        validSince = try fields.int64("validSince")
        customAttributes = try fields.string("customAttributes")
        deleteAttribute =
            try fields.enumNames("deleteAttribute", names: UpdateAccountRequest.deletableAttributes) ?? []
        deleteProvider = try fields.strings("deleteProvider") ?? []
        linkProviderUserInfo = try fields.object("linkProviderUserInfo").map { fields throws(WireError) in
            try AdminLinkedProvider(fields: fields)
        }
        if let mfa = try fields.object("mfa") {
            var enrollments: [AdminMFAEnrollment] = []
            for entry in try mfa.objects("enrollments") ?? [] { enrollments.append(try AdminMFAEnrollment(fields: entry)) }
            mfaEnrollments = enrollments
        }
    }
}

/// `POST /v1/projects/{p}/accounts:delete`.
public struct AdminDeleteAccountRequest: Sendable, Equatable {
    public var localId: String?

    public init(fields: RequestFields) throws(WireError) {
        localId = try fields.string("localId")
    }
}

/// `POST /v1/projects/{p}/accounts:batchDelete` (PROTOCOL.md §3.14).
public struct BatchDeleteRequest: Sendable, Equatable {
    public var localIds: [String]
    /// Deletes enabled accounts too; without it they are reported as errors and kept.
    public var force: Bool

    public init(localIds: [String], force: Bool) {
        self.localIds = localIds
        self.force = force
    }

    public init(fields: RequestFields) throws(WireError) {
        localIds = try fields.strings("localIds") ?? []
        force = try fields.bool("force") ?? false
    }
}

/// `errors` is left out when every account was deleted (or did not exist).
public struct BatchDeleteResponse: Codable, Sendable, Equatable {
    public struct Failure: Codable, Sendable, Equatable {
        public var index: Int
        public var localId: String
        public var message: String

        public init(index: Int, localId: String, message: String) {
            self.index = index
            self.localId = localId
            self.message = message
        }
    }

    public var kind: String = "identitytoolkit#BatchDeleteAccountsResponse"
    public var errors: [Failure]?

    public init(errors: [Failure]) { self.errors = errors.isEmpty ? nil : errors }
}

/// `GET /v1/projects/{p}/accounts:batchGet?maxResults=&nextPageToken=` (PROTOCOL.md §3.14).
public struct BatchGetRequest: Sendable, Equatable {
    public var maxResults: Int64?
    public var nextPageToken: String?

    public init(maxResults: Int64? = nil, nextPageToken: String? = nil) {
        self.maxResults = maxResults
        self.nextPageToken = nextPageToken
    }

    /// Reads the query string's parameters (a POST body's fields read the same).
    public init(fields: RequestFields) throws(WireError) {
        maxResults = try fields.int64("maxResults")
        nextPageToken = try fields.string("nextPageToken")
    }
}

/// `nextPageToken` is left out on the last page.
public struct BatchGetResponse: Codable, Sendable, Equatable {
    public var kind: String = "identitytoolkit#DownloadAccountResponse"
    public var users: [UserRecord]
    public var nextPageToken: String?

    public init(users: [UserRecord], nextPageToken: String?) {
        self.users = users
        self.nextPageToken = nextPageToken
    }
}

/// `POST /v1/projects/{p}:createSessionCookie`: a session cookie for a signed-in user's ID token.
public struct CreateSessionCookieRequest: Sendable, Equatable {
    public var idToken: String?
    /// Seconds the cookie is valid; Firebase's default is 14 days.
    public var validDuration: Int64?

    public init(idToken: String?, validDuration: Int64? = nil) {
        self.idToken = idToken
        self.validDuration = validDuration
    }

    public init(fields: RequestFields) throws(WireError) {
        idToken = try fields.string("idToken")
        validDuration = try fields.int64("validDuration")
    }
}

public struct CreateSessionCookieResponse: Codable, Sendable, Equatable {
    public var sessionCookie: String

    public init(sessionCookie: String) { self.sessionCookie = sessionCookie }
}
