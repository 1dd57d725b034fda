import Foundation
public import HearthProtocol

/// A user for ``AdminAuth/importUsers(_:)``: firebase-admin's `UserImportRecord`, without password hashes.
///
/// ```swift
/// var ada = UserImportRecord(uid: "ada")
/// ada.email = "ada@example.com"
/// ada.providerData = [UserInfo(providerID: "google.com", uid: "1234", email: "ada@example.com")]
/// let result = try await auth.importUsers([ada])
/// ```
public struct UserImportRecord: Sendable, Equatable {
    /// The uid to keep (1–128 characters).
    public var uid: String
    /// The email address.
    public var email: String?
    /// Whether the email counts as verified.
    public var emailVerified: Bool?
    /// The display name.
    public var displayName: String?
    /// The profile photo URL.
    public var photoURL: String?
    /// The phone number in E.164 form.
    public var phoneNumber: String?
    /// Whether the account is disabled.
    public var disabled: Bool?
    /// Custom claims (the rules of ``AdminAuth/setCustomUserClaims(uid:_:)`` apply).
    public var customClaims: [String: JSONValue]?
    /// When the user was created and last signed in (`lastRefreshTime` is not imported).
    public var metadata: UserMetadata?
    /// Linked providers.
    public var providerData: [UserInfo] = []
    /// Enrolled phone second factors.
    public var multiFactor: [MultiFactorInfo] = []

    /// Creates a record with only a uid.
    public init(uid: String) {
        self.uid = uid
    }

    /// The `batchCreate` row (firebase-admin-python's `ImportUserRecord.to_dict`, plus `mfaInfo`).
    func wire() throws(HearthAdminError) -> JSONValue {
        try AdminAuth.checkUID(uid)
        var row = CreateUserRequest.profile(
            email: email, emailVerified: emailVerified, displayName: displayName, photoURL: photoURL,
            phoneNumber: phoneNumber, disabled: disabled)
        row["localId"] = .string(uid)
        if let customClaims {
            row["customAttributes"] = .string(try CustomClaims.serialize(customClaims))
        }
        row["createdAt"] = metadata?.creationTime.map(Self.millis)
        row["lastLoginAt"] = metadata?.lastSignInTime.map(Self.millis)
        if !providerData.isEmpty { row["providerUserInfo"] = .array(providerData.map(\.wire)) }
        if !multiFactor.isEmpty { row["mfaInfo"] = .array(multiFactor.map(\.wire)) }
        return .object(row)
    }

    private static func millis(_ date: Date) -> JSONValue {
        .integer(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
