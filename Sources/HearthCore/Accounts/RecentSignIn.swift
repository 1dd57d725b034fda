import HearthProtocol

extension AuthenticatedUser {
    /// How old (seconds since `auth_time`) a sign-in may be to change how its account signs in, as Firebase allows.
    static let recentSignInSeconds: Int64 = 300

    /// Refuses a change of how the account signs in (a password or email set or removed, a provider linked or unlinked,
    /// a second factor enrolled or removed, the account deleted) unless this token's sign-in happened within the last
    /// five minutes: `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`, so a stolen ID token (or a session left open) cannot be turned into
    /// a credential of the thief's own. A guest's account is exempt: it has no credential to protect and no way to sign
    /// in again, and it upgrades by exactly these calls (docs/SECURITY.md, "Changing how an account signs in").
    func requireRecentSignIn(nowSeconds: Int64) throws {
        guard account.isAnonymous || nowSeconds - session.authTime <= Self.recentSignInSeconds else {
            throw WireError(.credentialTooOldLoginAgain, "This operation is sensitive and requires recent authentication.")
        }
    }
}
