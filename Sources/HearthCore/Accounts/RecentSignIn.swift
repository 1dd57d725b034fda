import HearthProtocol

extension TokenService {
    /// Refuses a change of how `user`'s account signs in (a password or email set or removed, a provider linked or
    /// unlinked, a second factor enrolled or removed, the account deleted) unless the token's sign-in happened within
    /// the session policy's recent-sign-in window (five minutes by default, as Firebase): `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`,
    /// so that a stolen ID token (or a session left open) cannot be turned into a credential of the thief's own. A
    /// guest's account is exempt: it has no credential to protect and no way to sign in again, and it upgrades by
    /// exactly these calls (docs/SECURITY.md, "Changing how an account signs in").
    func requireRecentSignIn(_ user: AuthenticatedUser) throws {
        guard user.account.isAnonymous || time.nowSeconds - user.session.authTime <= policy.recentSignInWindow else {
            throw WireError(.credentialTooOldLoginAgain, "This operation is sensitive and requires recent authentication.")
        }
    }
}
