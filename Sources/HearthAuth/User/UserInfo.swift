public import Foundation
public import HearthProtocol

/// A user's identity at one provider (FirebaseAuth's `UserInfo`). `User` conforms too, with
/// `providerID` `firebase`.
public protocol UserInfo: Sendable {
    /// `google.com`, `password`, `phone`, … (`firebase` for a `User`).
    var providerID: String { get }
    /// The user's ID at that provider.
    var uid: String { get }
    var displayName: String? { get }
    var email: String? { get }
    var photoURL: URL? { get }
    var phoneNumber: String? { get }
}

/// When the account was created and last signed in, from `createdAt` / `lastLoginAt`.
public struct UserMetadata: Sendable, Equatable {
    public var creationDate: Date?
    public var lastSignInDate: Date?

    public init(creationDate: Date? = nil, lastSignInDate: Date? = nil) {
        self.creationDate = creationDate
        self.lastSignInDate = lastSignInDate
    }

    /// Reads the wire's millisecond strings.
    init(record: UserRecord) {
        creationDate = Self.date(milliseconds: record.createdAt)
        lastSignInDate = Self.date(milliseconds: record.lastLoginAt)
    }

    private static func date(milliseconds: String?) -> Date? {
        guard let milliseconds, let value = Double(milliseconds) else { return nil }
        return Date(timeIntervalSince1970: value / 1000)
    }
}

/// One entry of `User.providerData`, from `providerUserInfo[]`.
struct ProviderData: UserInfo, Equatable {
    var providerID: String
    var uid: String
    var displayName: String?
    var email: String?
    var photoURL: URL?
    var phoneNumber: String?

    /// `uid` is `rawId`, falling back to `federatedId` (iOS reads the latter, JS the former;
    /// Hearth fills both).
    init(_ info: ProviderUserInfo) {
        providerID = info.providerId
        uid = info.rawId ?? info.federatedId ?? ""
        displayName = info.displayName
        email = info.email
        photoURL = info.photoUrl.flatMap { URL(string: $0) }
        phoneNumber = info.phoneNumber
    }
}

/// What a sign-in or link returns.
public struct AuthDataResult: Sendable {
    /// The signed-in (or linked) user.
    public var user: User
    /// Provider details of this sign-in.
    public var additionalUserInfo: AdditionalUserInfo?
    /// The provider credential the server echoed back (`oauthIdToken`/`oauthAccessToken`), if any.
    public var credential: AuthCredential?
}

/// Provider details of one sign-in.
public struct AdditionalUserInfo: Sendable {
    /// The provider used, e.g. `google.com`.
    public var providerID: String
    /// The provider's profile (`rawUserInfo`): for Google `email`, `name`, `picture`, `given_name`, ….
    public var profile: [String: JSONValue]?
    /// The provider's user name (`screenName`), for providers that have one.
    public var username: String?
    /// Whether this sign-in created the account.
    public var isNewUser: Bool

    public init(providerID: String, profile: [String: JSONValue]?, username: String?, isNewUser: Bool) {
        self.providerID = providerID
        self.profile = profile
        self.username = username
        self.isNewUser = isNewUser
    }

    init(response: SignInWithIdpResponse, fallbackProviderID: String) {
        providerID = response.providerId ?? fallbackProviderID
        profile = response.rawUserInfo.flatMap { try? JSONValue(parsing: Data($0.utf8)) }?.objectValue
        username = response.screenName
        isNewUser = response.isNewUser ?? false
    }
}
