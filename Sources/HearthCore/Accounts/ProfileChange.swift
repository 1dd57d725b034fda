import HearthProtocol

/// The profile changes an account's owner (`accounts:update`) and an administrator make alike: display
/// name and photo (an empty value removes it), `deleteAttribute` and `deleteProvider`. Checked when made,
/// so a bad change is refused before anything is read or written.
struct ProfileChange {
    private let displayName: String?
    private let photoURL: String?
    private let deletedAttributes: Set<String>
    private let deletedProviders: [String]

    /// The longest display name an account may have, in characters.
    static let maximumDisplayNameLength = 256

    init(displayName: String?, photoURL: String?, deleteAttribute: [String] = [], deleteProvider: [String] = []) throws {
        let deleted = Set(deleteAttribute)
        if deleted.contains("PROVIDER") || deleted.contains("RAW_USER_INFO") {
            throw WireError(.operationNotAllowed, "deleteAttribute PROVIDER and RAW_USER_INFO are not supported.")
        }
        if let displayName, displayName.count > Self.maximumDisplayNameLength {
            throw WireError(.invalidDisplayName, "The display name must be at most 256 characters.")
        }
        if let photoURL, !photoURL.isEmpty, !AccountService.isAbsoluteURL(photoURL) || photoURL.count > 2048 {
            throw WireError(.invalidPhotoURL, "The photo URL must be an absolute URL.")
        }
        self.displayName = displayName
        self.photoURL = photoURL
        deletedAttributes = deleted
        deletedProviders = deleteProvider
    }

    /// Whether the change removes a way to sign in (a provider, the password or the email), which needs a recent
    /// sign-in.
    var removesWayIn: Bool {
        !deletedProviders.isEmpty || deletedAttributes.contains("EMAIL") || deletedAttributes.contains("PASSWORD")
    }

    func apply(to account: inout Account) {
        if let displayName { account.displayName = displayName.isEmpty ? nil : displayName }
        if let photoURL { account.photoURL = photoURL.isEmpty ? nil : photoURL }
        if deletedAttributes.contains("DISPLAY_NAME") { account.displayName = nil }
        if deletedAttributes.contains("PHOTO_URL") { account.photoURL = nil }
        if deletedAttributes.contains("EMAIL") {
            account.email = nil
            account.emailVerified = false
        }
        if deletedAttributes.contains("PASSWORD") { account.passwordHash = nil }
        for provider in deletedProviders {
            switch provider {
            case "phone": account.phoneNumber = nil
            case "password": account.passwordHash = nil
            default: account.providers.removeAll { $0.providerID == provider }
            }
        }
    }
}

extension UpdateAccountResponse {
    /// The answer to an update of `account`: its profile as it now is.
    init(_ account: Account) {
        self.init(localId: account.localID)
        email = account.email
        emailVerified = account.emailVerified
        displayName = account.displayName
        photoUrl = account.photoURL
        providerUserInfo = UserRecord(account).providerUserInfo ?? []
    }
}

extension Account {
    /// Ends every session that exists at `millis` (moves `validSinceMillis` there, never back): their
    /// refresh tokens answer `TOKEN_EXPIRED`, and ID tokens issued before that second stop being accepted.
    mutating func revokeSessions(atMillis millis: Int64) {
        validSinceMillis = max(validSinceMillis, millis)
    }
}

extension StoreWriter {
    /// Ends every session `account` has, in this write: moves its `validSinceMillis` to `millis`
    /// (``Account/revokeSessions(atMillis:)``) and revokes each live session row as well, so that a session started
    /// earlier within that same millisecond (a squatter's password sign-in racing a takeover) ends too. For writes
    /// that take an account away from whoever held it; a session the same write starts afterwards is not touched.
    func endSessions(of account: inout Account, atMillis millis: Int64) throws {
        account.revokeSessions(atMillis: millis)
        for sessionID in try liveSessionIDs(localID: account.localID, skippingNewest: 0) {
            try revokeSession(sessionID, atMillis: millis)
        }
    }
}
