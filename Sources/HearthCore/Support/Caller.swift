/// Who asks for an operation: the client address the request came from (for rate limits, lockouts and the audit log)
/// and the ``AuditActor`` it is done by. Every operation that limits, locks out or records takes one, and none has a
/// default: each call site says who calls.
public struct Caller: Sendable, Equatable {
    /// The client as limits name it (an IPv4 address, an IPv6 /64) and the audit log records it; nil when the
    /// operation did not come over HTTP, or when its audit events record no address (admin calls).
    public let client: String?
    /// Who the operation is done by, as its audit events record it.
    public let actor: AuditActor

    public init(client: String?, actor: AuditActor) {
        self.client = client
        self.actor = actor
    }

    /// An end user acting on their own account through the client API, from `client`.
    public static func user(client: String?) -> Caller { Caller(client: client, actor: .user) }

    /// The administrator the admin API's edge accepted (its bearer token's owner or service account).
    public static func administrator(_ administrator: AdminCaller, client: String?) -> Caller {
        Caller(client: client, actor: AuditActor(administrator))
    }

    /// The console's administrator `uid`, signed in to the console.
    public static func console(uid: String, client: String?) -> Caller {
        Caller(client: client, actor: .console(uid: uid))
    }

    /// The operator of `hearth users` and `hearth keys` on the server's machine.
    public static let commandLine = Caller(client: nil, actor: .commandLine)

    /// The system's own work: maintenance, and the rules that act by themselves.
    public static let system = Caller(client: nil, actor: .system)

    /// Whether an administrator calls (anyone but the account's own user): admin email actions skip the client's
    /// limits and enumeration protection, and account changes are recorded field by field.
    public var isAdministrator: Bool { actor != .user }

    /// The same client, for what a rule does by itself on this caller's request (a lockout, a session cap): the
    /// audit log records the system as the actor, and this caller's address.
    var triggeringSystem: Caller { Caller(client: client, actor: .system) }
}
