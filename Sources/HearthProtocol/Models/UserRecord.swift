/// A user as `accounts:lookup` returns it (`UserInfo` in the Identity Toolkit API).
///
/// Timestamps follow the wire rules of PROTOCOL.md §1.4: `createdAt`/`lastLoginAt` are millisecond
/// strings, `validSince` a seconds string, `lastRefreshAt` RFC 3339 with milliseconds.
public struct UserRecord: Codable, Sendable, Equatable {
    public var localId: String
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    public var phoneNumber: String?
    public var disabled: Bool?
    public var passwordHash: String?
    /// The hash's salt (base64url), for administrators' `batchGet` only.
    public var salt: String?
    public var passwordUpdatedAt: Double?
    public var validSince: String?
    /// `validSince` to the millisecond (a Hearth extension, in admin lookups only): HearthAdmin compares it with the
    /// millisecond a session cookie was signed.
    public var validSinceMillis: String?
    public var createdAt: String?
    public var lastLoginAt: String?
    public var lastRefreshAt: String?
    public var customAttributes: String?
    public var providerUserInfo: [ProviderUserInfo]?
    public var mfaInfo: [MFAEnrollmentInfo]?
    /// The email before the account's first change of email.
    public var initialEmail: String?
    /// Whether the user has signed in with an email link.
    public var emailLinkSignin: Bool?
    /// The tenant the account belongs to; absent for the project's own accounts.
    public var tenantId: String?

    public init(localId: String) { self.localId = localId }
}

/// One linked provider of a user. `rawId` and `federatedId` both hold the provider's user id:
/// iOS reads `federatedId`, the JS SDK reads `rawId` (PROTOCOL.md §3.5).
public struct ProviderUserInfo: Codable, Sendable, Equatable {
    public var providerId: String
    public var rawId: String?
    public var federatedId: String?
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var screenName: String?
    public var phoneNumber: String?

    public init(
        providerId: String, rawId: String? = nil, federatedId: String? = nil, email: String? = nil,
        displayName: String? = nil, photoUrl: String? = nil, screenName: String? = nil, phoneNumber: String? = nil
    ) {
        self.providerId = providerId
        self.rawId = rawId
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.screenName = screenName
        self.phoneNumber = phoneNumber
    }
}
