/// What one Hearth project is: its ids, issuer, accepted API keys and trusted Google clients.
public struct ProjectConfiguration: Sendable {
    /// Which API keys client calls may use.
    public enum APIKeyPolicy: Sendable, Equatable {
        /// Any non-empty key (development, like the Firebase emulator).
        case anyNonEmpty
        /// Only these keys.
        case only(Set<String>)

        public func accepts(_ key: String) -> Bool {
            switch self {
            case .anyNonEmpty: !key.isEmpty
            case .only(let keys): keys.contains(key)
            }
        }
    }

    public var projectID: String
    /// Sent as `project_id` in token responses (Firebase sends the project number).
    public var projectNumber: String
    /// `iss` of every ID token; `aud` is `projectID`.
    public var issuer: String
    public var apiKeys: APIKeyPolicy
    /// OAuth client IDs whose Google ID tokens (`aud`) and access tokens may sign in.
    public var googleClientIDs: Set<String>
    /// Lifetime of ID tokens, in seconds.
    public var idTokenLifetime: Int64
    /// Allowed clock difference when checking `iat`/`exp` of incoming tokens, in seconds.
    public var clockSkew: Int64
    /// Whether sign-ins ask enrolled users for a second factor, and which kinds may be enrolled.
    public var mfa: MFAPolicy
    /// The app's name as emails show it; the project id when `nil`.
    public var displayName: String?
    /// Email enumeration protection (Firebase's `emailPrivacyConfig.enableImprovedEmailPrivacy`, on by default as
    /// Firebase now ships it): password sign-in answers `INVALID_LOGIN_CREDENTIALS` for an unknown email and a
    /// wrong password alike, a password reset for an unknown email answers as for a known one and sends nothing,
    /// and `createAuthUri` tells nothing about the email: no answer says whether an email has an account.
    public var emailEnumerationProtection: Bool

    public init(
        projectID: String, projectNumber: String = "0", issuer: String, apiKeys: APIKeyPolicy,
        googleClientIDs: Set<String>, idTokenLifetime: Int64 = 3600, clockSkew: Int64 = 300, mfa: MFAPolicy = .disabled,
        displayName: String? = nil,
        emailEnumerationProtection: Bool = true
    ) {
        self.projectID = projectID
        self.projectNumber = projectNumber
        self.issuer = issuer
        self.apiKeys = apiKeys
        self.googleClientIDs = googleClientIDs
        self.idTokenLifetime = idTokenLifetime
        self.clockSkew = clockSkew
        self.mfa = mfa
        self.displayName = displayName
        self.emailEnumerationProtection = emailEnumerationProtection
    }
}

/// The project's multi-factor setting (Firebase's `mfa.state` and enabled providers).
public struct MFAPolicy: Sendable, Equatable {
    public enum Factor: String, Sendable, CaseIterable {
        case phone
        case totp
    }

    /// When enabled, a user with enrolled factors must pass one to finish signing in.
    public var enabled: Bool
    /// The kinds that may be enrolled (and used) while enabled.
    public var factors: Set<Factor>
    /// How many 30-second steps before and after the current one a TOTP code may be from (Firebase's
    /// `totpProviderConfig.adjacentIntervals`).
    public var totpAdjacentIntervals: Int64

    public init(enabled: Bool, factors: Set<Factor>, totpAdjacentIntervals: Int64 = 1) {
        self.enabled = enabled
        self.factors = factors
        self.totpAdjacentIntervals = totpAdjacentIntervals
    }

    public static let disabled = MFAPolicy(enabled: false, factors: [])
    /// `--dev`: both factors, as the Firebase emulator's default project allows SMS.
    public static let allFactors = MFAPolicy(enabled: true, factors: Set(Factor.allCases))
}
