import HearthProtocol

/// How password guessing is bounded (docs/CONFIGURATION.md, "Passwords"): wrong passwords are counted per
/// email, whether or not it has an account (so a lockout says nothing about which emails exist), and per
/// client address across emails. Both are ``LimitCounter``s in the store, so they hold across sessions,
/// connections and server instances.
public struct PasswordLockouts: Sendable, Equatable {
    /// Wrong passwords for one email: 10 in a row lock it for a minute, each further lockout in the hour for
    /// twice as long; 100 in an hour lock it for the rest of the hour.
    public var perEmail = FailureLockout(burst: 10, lockout: 60, maximumPerWindow: 100, window: 3_600)
    /// Wrong passwords from one client address, across emails: 30 in a row lock it for a minute, doubling;
    /// 100 in an hour lock it for the rest of the hour.
    public var perClient = FailureLockout(burst: 30, lockout: 60, maximumPerWindow: 100, window: 3_600)

    public init() {}
}

extension LimitKeys {
    /// Wrong passwords for one email, named by its hash so that neither the store nor the log holds it.
    static func passwordFailures(email: String) -> String { "password-failure:email:\(Identifiers.hash(email))" }
    /// Wrong passwords from one client address, across emails.
    static func passwordClientFailures(_ client: String) -> String { "password-failure:client:\(client)" }
}

/// The counters one password sign-in is charged to, and how they move.
///
/// The attempt is counted as a failure *before* the password is checked, in the same write that sees
/// whether the email or the client is locked ("reserved"), and given back once the password proved right.
/// So concurrent guesses cannot all pass the lock check before any of them is counted: at most `burst`
/// guesses are ever checked before a lockout, and a locked key is refused without checking anything. An
/// attempt the hasher refused unchecked (its gate full) stays counted: a flood is no way round the lockout.
struct PasswordAttempt {
    private let emailKey: String
    private let clientKey: String?
    private let lockouts: PasswordLockouts

    static let locked = WireError(.tooManyAttemptsTryLater, "Too many unsuccessful sign-in attempts; try again later.")

    /// - Parameters:
    ///   - email: lower-cased.
    ///   - client: the caller's address as limits see it; nil for in-process callers (no client counter).
    init(email: String, client: String?, lockouts: PasswordLockouts) {
        emailKey = LimitKeys.passwordFailures(email: email)
        clientKey = client.map(LimitKeys.passwordClientFailures)
        self.lockouts = lockouts
    }

    /// Refuses (`TOO_MANY_ATTEMPTS_TRY_LATER`) while the email or the client is locked; otherwise counts the
    /// attempt as a failure under both.
    func reserve(_ ledger: inout LimitLedger) throws {
        if try ledger.lockedUntil(emailKey, lockouts.perEmail) != nil { throw Self.locked }
        if let clientKey, try ledger.lockedUntil(clientKey, lockouts.perClient) != nil { throw Self.locked }
        try ledger.recordFailure(emailKey, lockouts.perEmail)
        if let clientKey { try ledger.recordFailure(clientKey, lockouts.perClient) }
    }

    /// After the right password: the email's failures are forgotten (its owner proved the password), and the
    /// client gets its reserved failure back and starts a new streak (its window keeps counting the others).
    func succeeded(_ ledger: inout LimitLedger) throws {
        try ledger.reset(emailKey)
        if let clientKey { try ledger.recordSuccess(clientKey) }
    }
}

extension LimitLedger {
    /// Takes back the failure counted under `key` for an attempt that succeeded, and starts a new streak; the
    /// window keeps its other failures, and a lockout already started stays.
    func recordSuccess(_ key: String) throws {
        guard var counter = try writer.limitCounter(key: key) else { return }
        counter.count = max(0, counter.count - 1)
        counter.streak = 0
        try writer.saveLimitCounter(counter)
    }
}
