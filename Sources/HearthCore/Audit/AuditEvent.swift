/// One entry of the audit log: something that happened to an account, a key or the project, who did it
/// and from where. Written in the same store transaction as the change it records, so a committed change
/// always has its entry and a rolled-back one never does. Holds ids, provider ids, addresses and short
/// facts, never secrets (no tokens, passwords, codes or claim values).
public struct AuditEvent: Sendable, Equatable {
    /// The time-ordered key (``AuditEvent/newID(atMillis:)``): newest first is descending id order.
    public var id: String
    public var atMillis: Int64
    public var kind: AuditEventKind
    /// The account the event concerns; nil for project events (key rotations, lockouts of a client).
    public var localID: String?
    /// The provider (`google.com`, `password`, `apple.com`…) or factor (`phone`, `totp`) involved, if any.
    public var provider: String?
    /// The client address the request came from (as the edge saw it), if it came over HTTP.
    public var clientAddress: String?
    /// Who acted.
    public var actor: AuditActor
    /// A short fact for people (`fields=disabled,customAttributes`, `code=INVALID_IDP_RESPONSE`); never a secret.
    public var detail: String

    public init(
        id: String, atMillis: Int64, kind: AuditEventKind, localID: String? = nil, provider: String? = nil,
        clientAddress: String? = nil, actor: AuditActor, detail: String = ""
    ) {
        self.id = id
        self.atMillis = atMillis
        self.kind = kind
        self.localID = localID
        self.provider = provider
        self.clientAddress = clientAddress
        self.actor = actor
        self.detail = detail
    }

    /// A new id for an event at `millis`: the time as 13 zero-padded digits, `-`, and 12 random
    /// alphanumerics, so that ids sort by time (byte order) and never collide in practice.
    public static func newID(atMillis millis: Int64) -> String {
        idPrefix(atMillis: millis) + "-" + Identifiers.alphanumeric(length: 12)
    }

    /// The time part of the ids of events at `millis`: 13 digits, zero-padded.
    public static func idPrefix(atMillis millis: Int64) -> String {
        let digits = String(max(0, millis))
        return String(repeating: "0", count: max(0, 13 - digits.count)) + digits
    }
}

/// How many events of one kind one UTC day held for one provider: a bar of the console's charts
/// (`StoreReader.auditEventCounts(kind:sinceMillis:)`).
public struct AuditDayCount: Sendable, Equatable {
    /// Whole days since 1970-01-01 UTC.
    public var day: Int64
    /// The events' provider or factor; nil for events that name none.
    public var provider: String?
    public var count: Int

    public init(day: Int64, provider: String?, count: Int) {
        self.day = day
        self.provider = provider
        self.count = count
    }

    /// Milliseconds in a day: `atMillis / millisPerDay` is an event's day.
    public static let millisPerDay: Int64 = 86_400_000

    /// `counts` in the order every store answers them: by day, then by provider (nil first).
    public static func ordered(_ counts: [AuditDayCount]) -> [AuditDayCount] {
        counts.sorted { ($0.day, $0.provider ?? "") < ($1.day, $1.provider ?? "") }
    }
}

/// What an ``AuditEvent`` records. Stable raw values: they are stored, filtered on and shown.
public struct AuditEventKind: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// A sign-in that issued tokens (or stopped at the second factor: `detail` says `mfa_required`).
    public static let signIn = Self(rawValue: "sign_in")
    /// A sign-in refused; `detail` holds the wire code.
    public static let signInFailed = Self(rawValue: "sign_in_failed")
    /// A new account from a sign-up or a first federated sign-in (anonymous guests included).
    public static let signUp = Self(rawValue: "sign_up")
    public static let link = Self(rawValue: "link")
    public static let unlink = Self(rawValue: "unlink")
    public static let factorEnrolled = Self(rawValue: "factor_enrolled")
    public static let factorRemoved = Self(rawValue: "factor_removed")
    /// A wrong second-factor code (or an expired or unknown pending sign-in).
    public static let mfaFailed = Self(rawValue: "mfa_failed")
    /// A counter reached its limit and locked an email, an account or a client.
    public static let lockout = Self(rawValue: "lockout")
    /// Sessions ended: every one of an account (`validSince` moved, refresh-token reuse) or one.
    public static let sessionsRevoked = Self(rawValue: "sessions_revoked")
    public static let passwordChanged = Self(rawValue: "password_changed")
    public static let emailChanged = Self(rawValue: "email_changed")
    /// An account created by an administrator (admin API, console, `hearth users`).
    public static let accountCreated = Self(rawValue: "account_created")
    /// An administrator's change to an account; `detail` names the fields.
    public static let accountUpdated = Self(rawValue: "account_updated")
    public static let accountDisabled = Self(rawValue: "account_disabled")
    public static let accountEnabled = Self(rawValue: "account_enabled")
    public static let claimsChanged = Self(rawValue: "claims_changed")
    public static let accountDeleted = Self(rawValue: "account_deleted")
    public static let keyRotated = Self(rawValue: "key_rotated")
    /// A tenant was created, changed or deleted through the tenant API (`detail`: `tenant=<id>`, and the fields an
    /// update set).
    public static let tenantCreated = Self(rawValue: "tenant_created")
    public static let tenantUpdated = Self(rawValue: "tenant_updated")
    public static let tenantDeleted = Self(rawValue: "tenant_deleted")
    /// A provider configuration was created, changed or deleted through the admin API (`provider`: its id; `detail`:
    /// `config=<oauthIdpConfigs|defaultSupportedIdpConfigs>`, and the fields an update set; never the secret).
    public static let providerConfigCreated = Self(rawValue: "provider_config_created")
    public static let providerConfigUpdated = Self(rawValue: "provider_config_updated")
    public static let providerConfigDeleted = Self(rawValue: "provider_config_deleted")
    /// The configuration was changed through the config API (`detail`: `fields=<the update mask's paths>`; never a
    /// value).
    public static let projectConfigUpdated = Self(rawValue: "project_config_updated")

    /// Every kind, for filters and tests.
    public static let all: [Self] = [
        .signIn, .signInFailed, .signUp, .link, .unlink, .factorEnrolled, .factorRemoved, .mfaFailed, .lockout,
        .sessionsRevoked, .passwordChanged, .emailChanged, .accountCreated, .accountUpdated, .accountDisabled,
        .accountEnabled, .claimsChanged, .accountDeleted, .keyRotated, .tenantCreated, .tenantUpdated, .tenantDeleted,
        .providerConfigCreated, .providerConfigUpdated, .providerConfigDeleted, .projectConfigUpdated,
    ]
}

/// Who caused an ``AuditEvent``, stored as text: `user` (the account itself, through the client API),
/// `service-account:<email>`, `console:<uid>`, `owner` (the development admin credential), `command-line`
/// (`hearth users …`, `hearth keys …` on the server's machine) or `system` (maintenance, automatic rules).
public struct AuditActor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let user = Self(rawValue: "user")
    public static let owner = Self(rawValue: "owner")
    public static let commandLine = Self(rawValue: "command-line")
    public static let system = Self(rawValue: "system")
    public static func serviceAccount(email: String) -> Self { Self(rawValue: "service-account:\(email)") }
    public static func console(uid: String) -> Self { Self(rawValue: "console:\(uid)") }

    /// The actor an admin API caller stands for.
    public init(_ caller: AdminCaller) {
        switch caller {
        case .owner: self = .owner
        case .serviceAccount(let email): self = .serviceAccount(email: email)
        }
    }
}

/// Which audit events ``StoreReader/auditEvents(_:)`` returns: those matching every filter given, newest
/// first, a page at a time.
public struct AuditQuery: Sendable, Equatable {
    public var localID: String?
    public var kind: AuditEventKind?
    /// Only events at or after this time.
    public var sinceMillis: Int64?
    /// Only events whose id sorts before this one (byte order): the last id of the previous page.
    public var beforeID: String?
    /// At most this many (at least 1).
    public var limit: Int

    public init(
        localID: String? = nil, kind: AuditEventKind? = nil, sinceMillis: Int64? = nil, beforeID: String? = nil,
        limit: Int = 100
    ) {
        self.localID = localID
        self.kind = kind
        self.sinceMillis = sinceMillis
        self.beforeID = beforeID
        self.limit = limit
    }
}
