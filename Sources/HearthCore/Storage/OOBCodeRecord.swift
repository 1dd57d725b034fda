/// An out-of-band action code (the `oobCode` of an email link: reset a password, verify or change an email,
/// sign in, recover an email). Stored by hash only; single use (consumed by deleting it); expires.
public struct OOBCodeRecord: Sendable, Equatable {
    /// The action, named as `requestType` names it on the wire.
    public enum Kind: String, Sendable, CaseIterable {
        case passwordReset = "PASSWORD_RESET"
        case verifyEmail = "VERIFY_EMAIL"
        case emailSignIn = "EMAIL_SIGNIN"
        case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
        case recoverEmail = "RECOVER_EMAIL"
    }

    /// Lower-case hex SHA-256 of the code.
    public var codeHash: String
    public var kind: Kind
    /// The account the code acts on; `nil` for a sign-in link to an email no account has yet.
    public var localID: String?
    /// The address the code was sent to (lower-cased); for `RECOVER_EMAIL` the address to restore.
    public var email: String
    /// `VERIFY_AND_CHANGE_EMAIL`: the address to change to; `RECOVER_EMAIL`: the address it replaced.
    public var newEmail: String?
    /// Where the action page sends the user afterwards (the request's `continueUrl`).
    public var continueURL: String?
    public var createdAtMillis: Int64
    /// The code is refused (`EXPIRED_OOB_CODE`) from this time on.
    public var expiresAtMillis: Int64

    public init(
        codeHash: String, kind: Kind, localID: String?, email: String, newEmail: String? = nil,
        continueURL: String? = nil, createdAtMillis: Int64, expiresAtMillis: Int64
    ) {
        self.codeHash = codeHash
        self.kind = kind
        self.localID = localID
        self.email = email
        self.newEmail = newEmail
        self.continueURL = continueURL
        self.createdAtMillis = createdAtMillis
        self.expiresAtMillis = expiresAtMillis
    }
}
