public import Foundation
public import HearthProtocol

/// A user as the admin API reports it: firebase-admin's `UserRecord`.
public struct UserRecord: Sendable, Equatable {
    /// The user's uid (`localId`).
    public var uid: String
    /// The email address, if the user has one.
    public var email: String?
    /// Whether the email address was verified; `false` when absent.
    public var emailVerified: Bool
    /// The display name, if set.
    public var displayName: String?
    /// The profile photo URL (`photoUrl`).
    public var photoURL: String?
    /// The phone number in E.164 form.
    public var phoneNumber: String?
    /// Whether the account is disabled (its tokens no longer refresh); `false` when absent.
    public var disabled: Bool
    /// The custom claims set with ``AdminAuth/setCustomUserClaims(uid:_:)``; nil when none (`{}` counts as none,
    /// as in firebase-admin).
    public var customClaims: [String: JSONValue]?
    /// The linked sign-in providers (`providerUserInfo`).
    public var providerData: [UserInfo]
    /// When the account was made and last used.
    public var metadata: UserMetadata
    /// Tokens issued before this moment are revoked (`validSince`); nil when never set.
    public var tokensValidAfterTime: Date?
    /// The enrolled second factors (`mfaInfo`).
    public var multiFactor: [MultiFactorInfo]
    /// The tenant the user belongs to (`tenantId`); nil for the project's users.
    public var tenantID: String?

    /// Reads a record from the admin wire format (PROTOCOL.md §3.5).
    ///
    /// - Throws: ``HearthAdminError`` `.unexpectedResponse` when `customAttributes` is not a JSON object.
    init(wire: HearthProtocol.UserRecord) throws(HearthAdminError) {
        uid = wire.localId
        email = wire.email
        emailVerified = wire.emailVerified ?? false
        displayName = wire.displayName
        photoURL = wire.photoUrl
        phoneNumber = wire.phoneNumber
        disabled = wire.disabled ?? false
        customClaims = try Self.claims(from: wire.customAttributes)
        providerData = (wire.providerUserInfo ?? []).map(UserInfo.init(wire:))
        metadata = UserMetadata(
            creationTime: Self.millis(wire.createdAt), lastSignInTime: Self.millis(wire.lastLoginAt),
            lastRefreshTime: wire.lastRefreshAt.flatMap(RFC3339.date(from:)))
        tokensValidAfterTime = wire.validSince.flatMap(Int64.init).map { Date(timeIntervalSince1970: TimeInterval($0)) }
        multiFactor = (wire.mfaInfo ?? []).map(MultiFactorInfo.init(wire:))
        tenantID = wire.tenantId
    }

    private static func claims(from text: String?) throws(HearthAdminError) -> [String: JSONValue]? {
        guard let text, !text.isEmpty else { return nil }
        guard let claims = (try? JSONValue(parsing: Data(text.utf8)))?.objectValue else {
            throw HearthAdminError(.unexpectedResponse, message: "a user's customAttributes is not a JSON object")
        }
        return claims.isEmpty ? nil : claims
    }

    /// A millisecond string (`createdAt`, `lastLoginAt`) as a date.
    private static func millis(_ text: String?) -> Date? {
        text.flatMap(Int64.init).map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
    }
}

/// When a user was created, last signed in and last refreshed a token: firebase-admin's `UserMetadata`.
public struct UserMetadata: Sendable, Equatable {
    /// `createdAt`.
    public var creationTime: Date?
    /// `lastLoginAt`.
    public var lastSignInTime: Date?
    /// `lastRefreshAt`.
    public var lastRefreshTime: Date?

    /// Creates metadata (for ``UserImportRecord``).
    public init(creationTime: Date? = nil, lastSignInTime: Date? = nil, lastRefreshTime: Date? = nil) {
        self.creationTime = creationTime
        self.lastSignInTime = lastSignInTime
        self.lastRefreshTime = lastRefreshTime
    }
}

/// One linked provider of a user: firebase-admin's `UserInfo`.
public struct UserInfo: Sendable, Equatable {
    /// The provider's id, such as `google.com`, `password` or `phone`.
    public var providerID: String
    /// The user's id at the provider (`rawId`).
    public var uid: String
    /// The email the provider reported.
    public var email: String?
    /// The name the provider reported.
    public var displayName: String?
    /// The photo URL the provider reported (`photoUrl`).
    public var photoURL: String?
    /// The phone number, for the `phone` provider.
    public var phoneNumber: String?

    /// Creates an entry (for ``UserImportRecord``).
    public init(
        providerID: String, uid: String, email: String? = nil, displayName: String? = nil, photoURL: String? = nil,
        phoneNumber: String? = nil
    ) {
        self.providerID = providerID
        self.uid = uid
        self.email = email
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
    }

    /// The entry as `providerUserInfo[]` (import) and `linkProviderUserInfo` (update) carry it.
    var wire: JSONValue {
        var entry: [String: JSONValue] = ["providerId": .string(providerID), "rawId": .string(uid)]
        entry["email"] = email.map(JSONValue.string)
        entry["displayName"] = displayName.map(JSONValue.string)
        entry["photoUrl"] = photoURL.map(JSONValue.string)
        entry["phoneNumber"] = phoneNumber.map(JSONValue.string)
        return .object(entry)
    }

    init(wire: ProviderUserInfo) {
        self.init(
            providerID: wire.providerId, uid: wire.rawId ?? wire.federatedId ?? "", email: wire.email,
            displayName: wire.displayName, photoURL: wire.photoUrl, phoneNumber: wire.phoneNumber)
    }
}

/// One enrolled second factor: firebase-admin's `PhoneMultiFactorInfo` / `TotpMultiFactorInfo`.
public struct MultiFactorInfo: Sendable, Equatable {
    /// `phone` or `totp`.
    public var factorID: String
    /// The enrollment's id (`mfaEnrollmentId`).
    public var uid: String
    /// The name the user gave the factor.
    public var displayName: String?
    /// When it was enrolled (`enrolledAt`).
    public var enrollmentTime: Date?
    /// The phone number, for a phone factor.
    public var phoneNumber: String?

    /// Creates a phone factor (for ``UserImportRecord``); `uid` may be empty for the server to choose one.
    public init(phoneNumber: String, uid: String = "", displayName: String? = nil, enrollmentTime: Date? = nil) {
        self.factorID = "phone"
        self.uid = uid
        self.displayName = displayName
        self.enrollmentTime = enrollmentTime
        self.phoneNumber = phoneNumber
    }

    /// The factor as `mfaInfo[]` (import) and `mfa.enrollments[]` (update) carry it (firebase-admin-node's
    /// `convertMultiFactorInfoToServerFormat`); an empty ``uid`` is left out for the server to choose one.
    var wire: JSONValue {
        var entry: [String: JSONValue] = [:]
        entry["mfaEnrollmentId"] = uid.isEmpty ? nil : .string(uid)
        entry["phoneInfo"] = phoneNumber.map(JSONValue.string)
        entry["displayName"] = displayName.map(JSONValue.string)
        entry["enrolledAt"] = enrollmentTime.map { .string(Self.rfc3339($0)) }
        return .object(entry)
    }

    private static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    init(wire: MFAEnrollmentInfo) {
        factorID = wire.totpInfo != nil ? "totp" : "phone"
        uid = wire.mfaEnrollmentId
        displayName = wire.displayName
        enrollmentTime = wire.enrolledAt.flatMap(RFC3339.date(from:))
        phoneNumber = wire.phoneInfo
    }
}
