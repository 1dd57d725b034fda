/// Revokes a provider token at its provider (Apple's `POST /auth/revoke` with the client ID, a client secret,
/// the token and its type hint). The maintenance task calls it, outside any store transaction, for each queued
/// revocation of the provider it is registered for, and deletes the revocation only when it returns.
public protocol ProviderTokenRevoking: Sendable {
    /// Returns once the provider has confirmed the revocation (a token it no longer knows counts as revoked).
    /// - Throws: a `RevocationFailure` saying whether to try again later; any other error is retried too.
    func revoke(_ revocation: ProviderTokenRevocation) throws
}

/// Why a revocation did not happen, and whether trying later may help.
public struct RevocationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Operator-facing; never the token or the client secret.
    public var reason: String
    /// Whether to keep the revocation and try again after the backoff (an unreachable provider, a 5xx, a client
    /// secret that cannot be made until the configuration is fixed). `false` only when the provider refuses the
    /// revocation for good; the revocation is then logged and dropped.
    public var retry: Bool

    public init(_ reason: String, retry: Bool) {
        self.reason = reason
        self.retry = retry
    }

    /// A failure worth another attempt later.
    public static func temporary(_ reason: String) -> RevocationFailure { RevocationFailure(reason, retry: true) }
    /// A refusal that no later attempt changes.
    public static func permanent(_ reason: String) -> RevocationFailure { RevocationFailure(reason, retry: false) }

    public var description: String { reason }
}
