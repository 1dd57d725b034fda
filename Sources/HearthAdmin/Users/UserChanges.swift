public import HearthProtocol

/// The properties of a new user: firebase-admin's `CreateRequest`. Unset properties are not sent.
///
/// ```swift
/// var request = CreateUserRequest()
/// request.email = "ada@example.com"
/// request.displayName = "Ada"
/// let user = try await auth.createUser(request)
/// ```
public struct CreateUserRequest: Sendable, Equatable {
    /// The uid to give the user; Hearth chooses one when nil.
    public var uid: String?
    /// The email address.
    public var email: String?
    /// Whether the email counts as verified.
    public var emailVerified: Bool?
    /// The phone number in E.164 form (`+15555550100`).
    public var phoneNumber: String?
    /// A password; Hearth answers `OPERATION_NOT_ALLOWED` while password sign-in is off.
    public var password: String?
    /// The display name.
    public var displayName: String?
    /// The profile photo URL.
    public var photoURL: String?
    /// Whether the account starts disabled.
    public var disabled: Bool?

    /// Creates an empty request.
    public init() {}

    var wire: JSONValue {
        var body = Self.profile(
            email: email, emailVerified: emailVerified, displayName: displayName, photoURL: photoURL,
            phoneNumber: phoneNumber, disabled: disabled)
        body["localId"] = uid.map(JSONValue.string)
        body["password"] = password.map(JSONValue.string)
        return .object(body)
    }

    /// The profile fields that `accounts` (create) and `accounts:batchCreate` (import) rows share; nil ones are
    /// left out.
    static func profile(
        email: String?, emailVerified: Bool?, displayName: String?, photoURL: String?, phoneNumber: String?, disabled: Bool?
    ) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        fields["email"] = email.map(JSONValue.string)
        fields["emailVerified"] = emailVerified.map(JSONValue.bool)
        fields["displayName"] = displayName.map(JSONValue.string)
        fields["photoUrl"] = photoURL.map(JSONValue.string)
        fields["phoneNumber"] = phoneNumber.map(JSONValue.string)
        fields["disabled"] = disabled.map(JSONValue.bool)
        return fields
    }
}

/// A profile property an update sets or removes.
public enum ProfileChange<Value: Sendable & Equatable>: Sendable, Equatable {
    /// Set the property to this value.
    case set(Value)
    /// Remove the property (firebase-admin's `None`/`null`).
    case remove
}

/// What to change about a user: firebase-admin's `UpdateRequest`. Unset properties stay as they are.
///
/// ```swift
/// var changes = UpdateUserRequest()
/// changes.disabled = true
/// changes.displayName = .remove
/// let user = try await auth.updateUser(uid: uid, changes)
/// ```
public struct UpdateUserRequest: Sendable, Equatable {
    /// A new email address.
    public var email: String?
    /// Whether the email counts as verified.
    public var emailVerified: Bool?
    /// A new phone number, or `.remove` to unlink the phone provider.
    public var phoneNumber: ProfileChange<String>?
    /// A new password (revokes the user's sessions, as in Firebase).
    public var password: String?
    /// A new display name, or `.remove`.
    public var displayName: ProfileChange<String>?
    /// A new photo URL, or `.remove`.
    public var photoURL: ProfileChange<String>?
    /// Disable (`true`) or enable (`false`) the account (`disableUser`).
    public var disabled: Bool?
    /// New custom claims (replacing all of them; `[:]` clears them).
    public var customClaims: [String: JSONValue]?
    /// Providers to unlink, such as `google.com`.
    public var providersToDelete: [String] = []
    /// A provider to link (`linkProviderUserInfo`), such as a Google account by its `sub`.
    public var providerToLink: UserInfo?
    /// The second factors the user should have afterwards, replacing all enrolled ones; `[]` removes them all.
    /// Phone factors only; a factor with an empty ``MultiFactorInfo/uid`` gets a new enrollment ID.
    public var multiFactor: [MultiFactorInfo]?

    /// Creates an empty change.
    public init() {}

    func wire(uid: String) throws(HearthAdminError) -> JSONValue {
        var body: [String: JSONValue] = ["localId": .string(uid)]
        var deleteAttributes: [JSONValue] = []
        var deleteProviders = providersToDelete.map(JSONValue.string)
        body["email"] = email.map(JSONValue.string)
        body["emailVerified"] = emailVerified.map(JSONValue.bool)
        body["password"] = password.map(JSONValue.string)
        body["disableUser"] = disabled.map(JSONValue.bool)
        switch displayName {
        case .set(let name)?: body["displayName"] = .string(name)
        case .remove?: deleteAttributes.append("DISPLAY_NAME")
        case nil: break
        }
        switch photoURL {
        case .set(let url)?: body["photoUrl"] = .string(url)
        case .remove?: deleteAttributes.append("PHOTO_URL")
        case nil: break
        }
        switch phoneNumber {
        case .set(let number)?: body["phoneNumber"] = .string(number)
        case .remove?: deleteProviders.append("phone")
        case nil: break
        }
        if let customClaims {
            body["customAttributes"] = .string(try CustomClaims.serialize(customClaims))
        }
        body["linkProviderUserInfo"] = providerToLink?.wire
        if let multiFactor {
            body["mfa"] = multiFactor.isEmpty ? .object([:]) : ["enrollments": .array(multiFactor.map(\.wire))]
        }
        if !deleteAttributes.isEmpty { body["deleteAttribute"] = .array(deleteAttributes) }
        if !deleteProviders.isEmpty { body["deleteProvider"] = .array(deleteProviders) }
        return .object(body)
    }
}

/// One way to name a user in ``AdminAuth/getUsers(_:)``: firebase-admin's `UserIdentifier`.
public enum UserIdentifier: Sendable, Hashable {
    /// By uid.
    case uid(String)
    /// By email.
    case email(String)
    /// By phone number (E.164).
    case phoneNumber(String)
    /// By the user's id at a linked provider, such as (`google.com`, the Google `sub`).
    case provider(providerID: String, providerUID: String)

    /// Whether `user` is the user this identifier names (firebase-admin's `_matches`; emails in any case, as
    /// Hearth stores them lowercased and finds them in any case).
    func matches(_ user: UserRecord) -> Bool {
        switch self {
        case .uid(let uid): user.uid == uid
        case .email(let email): user.email?.lowercased() == email.lowercased()
        case .phoneNumber(let number): user.phoneNumber == number
        case .provider(let providerID, let providerUID):
            user.providerData.contains { $0.providerID == providerID && $0.uid == providerUID }
        }
    }
}
