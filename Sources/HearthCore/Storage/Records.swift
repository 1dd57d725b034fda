/// A user account as the store keeps it.
///
/// Times are integers so that every store keeps them exactly: `…Millis` are milliseconds since 1970.
public struct Account: Sendable, Equatable {
    public var localID: String
    /// Lower-cased; unique across accounts when set (one account per email).
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var photoURL: String?
    public var phoneNumber: String?
    /// Reserved for password sign-in; `nil` for accounts without a password.
    public var passwordHash: String?
    public var disabled: Bool
    /// The developer's custom claims, as the text of a JSON object.
    public var customAttributes: String?
    public var createdAtMillis: Int64
    public var lastLoginAtMillis: Int64?
    /// When a refresh token of the account was last used (Firebase's `lastRefreshAt`, a "last active"
    /// time), to within a minute: `TokenService` writes it only when it is a minute or more old, so that a
    /// refresh writes the account at most once a minute.
    public var lastRefreshAtMillis: Int64?
    /// Sessions that started before this time are revoked (the wire's `validSince`, in milliseconds).
    public var validSinceMillis: Int64
    /// Federated identities linked to this account, in the order they were linked.
    public var providers: [LinkedIdentity]
    /// Enrolled second factors, in the order they were enrolled.
    public var mfaEnrollments: [MFAEnrollment]
    /// A guest made by `accounts:signUp` without email that has not been given an identity yet: linking a
    /// provider, or setting an email, phone number or password, clears it in the same write. Anonymous
    /// accounts older than the configured age are deleted by the maintenance task.
    public var isAnonymous: Bool
    /// When the password was last set (lookup's `passwordUpdatedAt`); `nil` if it never was.
    public var passwordUpdatedAtMillis: Int64?
    /// The email the account had before its first change of email (lookup's `initialEmail`), recorded by
    /// that change.
    public var initialEmail: String?
    /// Whether the account has signed in with an email link (lookup's `emailLinkSignin`): its email then
    /// counts as a `password` provider, as a password does (PROTOCOL.md §3.5).
    public var emailLinkSignIn: Bool

    public init(
        localID: String, email: String? = nil, emailVerified: Bool = false, displayName: String? = nil,
        photoURL: String? = nil, phoneNumber: String? = nil, passwordHash: String? = nil, disabled: Bool = false,
        customAttributes: String? = nil, createdAtMillis: Int64, lastLoginAtMillis: Int64? = nil,
        lastRefreshAtMillis: Int64? = nil, validSinceMillis: Int64, providers: [LinkedIdentity] = [],
        mfaEnrollments: [MFAEnrollment] = [], isAnonymous: Bool = false, passwordUpdatedAtMillis: Int64? = nil,
        initialEmail: String? = nil, emailLinkSignIn: Bool = false
    ) {
        self.localID = localID
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.phoneNumber = phoneNumber
        self.passwordHash = passwordHash
        self.disabled = disabled
        self.customAttributes = customAttributes
        self.createdAtMillis = createdAtMillis
        self.lastLoginAtMillis = lastLoginAtMillis
        self.lastRefreshAtMillis = lastRefreshAtMillis
        self.validSinceMillis = validSinceMillis
        self.providers = providers
        self.mfaEnrollments = mfaEnrollments
        self.isAnonymous = isAnonymous
        self.passwordUpdatedAtMillis = passwordUpdatedAtMillis
        self.initialEmail = initialEmail
        self.emailLinkSignIn = emailLinkSignIn
    }

    /// The linked identity for `providerID`, if any.
    public func identity(for providerID: String) -> LinkedIdentity? {
        providers.first { $0.providerID == providerID }
    }
}

/// One federated identity (for example a Google account) linked to an account.
/// `(providerID, rawID)` is unique across all accounts.
public struct LinkedIdentity: Sendable, Equatable {
    public var providerID: String
    /// The provider's stable user id (Google's `sub`).
    public var rawID: String
    public var email: String?
    public var displayName: String?
    public var photoURL: String?
    public var screenName: String?
    /// The provider's refresh token for this identity (Apple's), kept only so that Hearth can revoke it when
    /// the account is deleted. Sealed at rest; never in answers, exports or logs.
    public var providerRefreshToken: ProviderRefreshToken?

    public init(
        providerID: String, rawID: String, email: String? = nil, displayName: String? = nil,
        photoURL: String? = nil, screenName: String? = nil, providerRefreshToken: ProviderRefreshToken? = nil
    ) {
        self.providerID = providerID
        self.rawID = rawID
        self.email = email
        self.displayName = displayName
        self.photoURL = photoURL
        self.screenName = screenName
        self.providerRefreshToken = providerRefreshToken
    }
}

/// A second factor enrolled on an account. `enrollmentID` is unique across all accounts.
public struct MFAEnrollment: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case phone
        case totp
    }

    /// 28 random alphanumeric characters.
    public var enrollmentID: String
    public var kind: Kind
    public var displayName: String?
    public var enrolledAtMillis: Int64
    /// E.164 number of a phone factor.
    public var phoneNumber: String?
    /// The shared secret of a TOTP factor. Never returned to clients after enrolment.
    public var totpSecret: [UInt8]?
    /// The last TOTP time step a code was accepted for; a code is accepted at most once per factor.
    public var lastUsedTOTPStep: Int64?

    public init(
        enrollmentID: String, kind: Kind, displayName: String? = nil, enrolledAtMillis: Int64,
        phoneNumber: String? = nil, totpSecret: [UInt8]? = nil, lastUsedTOTPStep: Int64? = nil
    ) {
        self.enrollmentID = enrollmentID
        self.kind = kind
        self.displayName = displayName
        self.enrolledAtMillis = enrolledAtMillis
        self.phoneNumber = phoneNumber
        self.totpSecret = totpSecret
        self.lastUsedTOTPStep = lastUsedTOTPStep
    }
}

/// A sign-in that passed its first factor and waits for the second (`mfaPendingCredential`).
/// Stored by hash; single use; expires; ends after too many wrong codes.
public struct MFAPendingSignIn: Sendable, Equatable {
    /// Lower-case hex SHA-256 of the pending credential string.
    public var credentialHash: String
    public var localID: String
    /// The first factor (`google.com`, …), kept for the ID token's `firebase.sign_in_provider`.
    public var signInProvider: String
    /// Seconds since 1970.
    public var expiresAt: Int64
    /// Wrong codes so far.
    public var failedAttempts: Int
    public var createdAtMillis: Int64

    public init(
        credentialHash: String, localID: String, signInProvider: String, expiresAt: Int64, failedAttempts: Int = 0,
        createdAtMillis: Int64
    ) {
        self.credentialHash = credentialHash
        self.localID = localID
        self.signInProvider = signInProvider
        self.expiresAt = expiresAt
        self.failedAttempts = failedAttempts
        self.createdAtMillis = createdAtMillis
    }
}

/// A verification in progress (`sessionInfo`): an SMS code sent for enrolment or sign-in, or a TOTP
/// secret offered for enrolment. Stored by hash; codes by hash too.
public struct VerificationSession: Sendable, Equatable {
    public enum Purpose: String, Sendable, CaseIterable {
        case phoneEnrollment = "phone-enrollment"
        case phoneSignIn = "phone-sign-in"
        case totpEnrollment = "totp-enrollment"
    }

    /// Lower-case hex SHA-256 of the `sessionInfo` string.
    public var sessionHash: String
    public var purpose: Purpose
    public var localID: String
    /// E.164 number the code was sent to (phone purposes).
    public var phoneNumber: String?
    /// Lower-case hex SHA-256 of the code, salted with the session (phone purposes).
    public var codeHash: String?
    /// The offered secret (TOTP enrolment), kept until finalize.
    public var totpSecret: [UInt8]?
    /// For sign-in: the pending credential it belongs to, and the factor being used.
    public var pendingCredentialHash: String?
    public var enrollmentID: String?
    public var failedAttempts: Int
    /// Seconds since 1970.
    public var expiresAt: Int64
    public var createdAtMillis: Int64
    /// When its code was accepted (milliseconds since 1970); such a session no longer holds back a new
    /// SMS to the number (the resend interval), though it still counts against the hourly allowance.
    public var verifiedAtMillis: Int64?

    public init(
        sessionHash: String, purpose: Purpose, localID: String, phoneNumber: String? = nil, codeHash: String? = nil,
        totpSecret: [UInt8]? = nil, pendingCredentialHash: String? = nil, enrollmentID: String? = nil,
        failedAttempts: Int = 0, expiresAt: Int64, createdAtMillis: Int64, verifiedAtMillis: Int64? = nil
    ) {
        self.sessionHash = sessionHash
        self.purpose = purpose
        self.localID = localID
        self.phoneNumber = phoneNumber
        self.codeHash = codeHash
        self.totpSecret = totpSecret
        self.pendingCredentialHash = pendingCredentialHash
        self.enrollmentID = enrollmentID
        self.failedAttempts = failedAttempts
        self.expiresAt = expiresAt
        self.createdAtMillis = createdAtMillis
        self.verifiedAtMillis = verifiedAtMillis
    }
}

/// A signed-in session (a refresh-token family) as stored, with the state of its refresh token.
///
/// A session's refresh tokens read `<sessionID>.<secret>` (`RefreshTokenText`), so a refresh finds its
/// session by primary key. The store keeps only hashes: of the current token, and of the one it replaced
/// (`replaced`), which is all reuse detection needs: a token of the session that is neither is an older
/// one. So a rotation rewrites this one record and adds none. Sessions started before refresh tokens
/// named their session also have tokens without it (see `StoreReader.refreshSession(legacyTokenHash:)`).
public struct RefreshSession: Sendable, Equatable {
    /// 128 random bits (base64url), seen only inside the session's refresh tokens and in the store;
    /// sessions started before migration 5 keep their id, the hash of their first token.
    public var sessionID: String
    public var localID: String
    public var signInProvider: String
    /// Seconds since 1970 of the sign-in that started the session; kept across refreshes.
    public var authTime: Int64
    /// `phone` or `totp` when the session passed a second factor.
    public var secondFactor: String?
    public var secondFactorIdentifier: String?
    /// Extra claims fixed at sign-in (JSON object text), merged into every ID token of the session.
    public var sessionClaims: String?
    /// When the sign-in happened; compared with the account's `validSinceMillis` (sessions that started
    /// before it are revoked).
    public var startedAtMillis: Int64
    /// When the session was revoked (reuse detected, the account's session cap, or the purge for a
    /// deleted account or `validSince`); `nil` while live.
    public var revokedAtMillis: Int64?
    /// Lower-case hex SHA-256 of the session's current refresh token (the whole text); empty for a
    /// session carried over without one, which no token matches.
    public var currentTokenHash: String
    /// The token the current one replaced, if the session was ever rotated.
    public var replaced: ReplacedRefreshToken?

    public init(
        sessionID: String, localID: String, signInProvider: String, authTime: Int64, secondFactor: String? = nil,
        secondFactorIdentifier: String? = nil, sessionClaims: String? = nil, startedAtMillis: Int64,
        revokedAtMillis: Int64? = nil, currentTokenHash: String, replaced: ReplacedRefreshToken? = nil
    ) {
        self.sessionID = sessionID
        self.localID = localID
        self.signInProvider = signInProvider
        self.authTime = authTime
        self.secondFactor = secondFactor
        self.secondFactorIdentifier = secondFactorIdentifier
        self.sessionClaims = sessionClaims
        self.startedAtMillis = startedAtMillis
        self.revokedAtMillis = revokedAtMillis
        self.currentTokenHash = currentTokenHash
        self.replaced = replaced
    }
}

/// The refresh token a session's last rotation replaced. Presented again within the grace window, it is
/// answered with the session's current token, kept sealed under it (`SuccessorSeal`) so that the store
/// never holds a usable token; presented later, it is reuse.
public struct ReplacedRefreshToken: Sendable, Equatable {
    /// Lower-case hex SHA-256 of the replaced token.
    public var tokenHash: String
    public var replacedAtMillis: Int64
    /// The current token's secret, sealed under the replaced token.
    public var sealedSuccessor: [UInt8]

    public init(tokenHash: String, replacedAtMillis: Int64, sealedSuccessor: [UInt8]) {
        self.tokenHash = tokenHash
        self.replacedAtMillis = replacedAtMillis
        self.sealedSuccessor = sealedSuccessor
    }
}

/// A key that signs (or signed) tokens. The newest key that is not retired signs; retired keys stay
/// published until every token they signed has expired.
public struct SigningKeyRecord: Sendable, Equatable {
    public var keyID: String
    /// The one JWS algorithm this key is bound to (`RS256`).
    public var algorithm: String
    /// PKCS#8 PEM of the private key.
    public var privateKeyPEM: String
    /// Seconds since 1970.
    public var createdAt: Int64
    /// Seconds since 1970 when the key stopped signing; `nil` while it is current.
    public var retiredAt: Int64?

    public init(keyID: String, algorithm: String, privateKeyPEM: String, createdAt: Int64, retiredAt: Int64? = nil) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.privateKeyPEM = privateKeyPEM
        self.createdAt = createdAt
        self.retiredAt = retiredAt
    }
}

/// An account of the development identity provider (the local Google look-alike).
public struct DevIdPAccount: Sendable, Equatable {
    /// 21 decimal digits, stable for the account's lifetime, like Google's `sub`.
    public var subject: String
    /// Lower-cased; unique among dev accounts.
    public var email: String
    public var emailVerified: Bool
    public var name: String?
    public var givenName: String?
    public var familyName: String?
    public var pictureURL: String?
    public var hostedDomain: String?
    public var locale: String?
    public var createdAtMillis: Int64

    public init(
        subject: String, email: String, emailVerified: Bool = true, name: String? = nil, givenName: String? = nil,
        familyName: String? = nil, pictureURL: String? = nil, hostedDomain: String? = nil, locale: String? = nil,
        createdAtMillis: Int64
    ) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.givenName = givenName
        self.familyName = familyName
        self.pictureURL = pictureURL
        self.hostedDomain = hostedDomain
        self.locale = locale
        self.createdAtMillis = createdAtMillis
    }
}

/// A credential the development identity provider issued: an authorization code, an access token
/// or a refresh token. Stored by hash only.
public struct DevIdPGrant: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case authorizationCode = "code"
        case accessToken = "access"
        case refreshToken = "refresh"
    }

    /// Lower-case hex SHA-256 of the credential string.
    public var tokenHash: String
    public var kind: Kind
    public var subject: String
    public var clientID: String
    /// Space-separated granted scopes.
    public var scope: String
    /// For codes: the exact `redirect_uri` of the authorization request.
    public var redirectURI: String?
    /// For codes: the PKCE S256 challenge.
    public var codeChallenge: String?
    /// For codes (and the refresh tokens made from them): the `nonce` to put in ID tokens.
    public var nonce: String?
    /// The `aud` for ID tokens (a server client ID when the app asked for one, else `clientID`).
    public var audience: String?
    /// Seconds since 1970.
    public var expiresAt: Int64
    public var createdAt: Int64

    public init(
        tokenHash: String, kind: Kind, subject: String, clientID: String, scope: String, redirectURI: String? = nil,
        codeChallenge: String? = nil, nonce: String? = nil, audience: String? = nil, expiresAt: Int64, createdAt: Int64
    ) {
        self.tokenHash = tokenHash
        self.kind = kind
        self.subject = subject
        self.clientID = clientID
        self.scope = scope
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.nonce = nonce
        self.audience = audience
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }
}

extension Account {
    /// A sign-in at `millis` issued tokens: `lastLoginAt`, and `lastRefreshAt` (which Firebase sets whenever it
    /// issues tokens; refreshes keep it to within a minute).
    public mutating func recordSignIn(atMillis millis: Int64) {
        lastLoginAtMillis = millis
        lastRefreshAtMillis = millis
    }
}
