import HearthProtocol

/// Which emails a provider is trusted to verify, as Firebase decides when a new credential's email belongs to an
/// existing account: a trusted provider's verified email links to (or takes over an unverified) account with that
/// email; any other answers `needConfirmation`, so that an IdP that lets its users claim a "verified" address (the
/// nOAuth pattern) cannot sign anyone in to another user's account.
public enum EmailTrust: Sendable, Equatable {
    /// Google: `gmail.com` and `googlemail.com` addresses, and addresses of the Google-hosted domain the token names
    /// in `hd` (Google Workspace).
    case googleAccounts
    /// Apple: its private relay (`privaterelay.appleid.com`) and its own mail domains (`icloud.com`, `me.com`, `mac.com`).
    case appleAddresses
    /// Every address the provider says is verified (an operator's choice for a provider it trusts).
    case everyVerifiedEmail
    /// None: the provider's `email_verified` is not proof for Hearth.
    case none

    /// Whether `profile` proves its owner has `profile.email`.
    public func vouches(for profile: FederatedProfile) -> Bool {
        guard profile.emailVerified, let email = profile.email?.lowercased(), let at = email.lastIndex(of: "@") else {
            return false
        }
        let domain = email[email.index(after: at)...]
        switch self {
        case .googleAccounts:
            return domain == "gmail.com" || domain == "googlemail.com"
                || profile.rawUserInfo["hd"]?.stringValue?.lowercased() == String(domain)
        case .appleAddresses:
            return ["privaterelay.appleid.com", "icloud.com", "me.com", "mac.com"].contains(domain)
        case .everyVerifiedEmail:
            return true
        case .none:
            return false
        }
    }
}

/// What one verified provider credential proves about its email, under its provider's ``EmailTrust``.
struct EmailProof {
    /// The `emailVerified` an account gets from this credential: the provider's `email_verified`, except from a
    /// provider whose word on emails Hearth does not take (``EmailTrust/none``), whose addresses stay unverified until
    /// the user proves them (an email link or a verification code).
    let verified: Bool
    /// Whether the credential proves its holder owns the address, so that it may sign in to the account that has
    /// it (taking the account over when that account's email was never verified).
    let owned: Bool

    init(_ profile: FederatedProfile, trust: EmailTrust) {
        verified = trust != .none && profile.emailVerified
        owned = trust.vouches(for: profile)
    }
}
