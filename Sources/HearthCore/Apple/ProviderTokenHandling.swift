/// What Hearth does with identity providers' own tokens beyond verifying sign-ins: Apple's authorization codes
/// exchanged for the refresh token it keeps (to revoke it when the account goes), and the wake-up of the
/// maintenance task after a write queued revocations.
public struct ProviderTokenHandling: Sendable {
    /// Apple's token endpoint with the project's client secret; nil when no Apple key is configured (codes sent with
    /// a sign-in are then not exchanged, and `revokeToken` is refused).
    public var apple: (any AppleCodeExchanging)?
    /// Called after a write that may have queued revocations (the maintenance task's `wake`), so they are tried at
    /// once rather than at its next pass.
    public var revocationsQueued: @Sendable () -> Void

    public init(apple: (any AppleCodeExchanging)? = nil, revocationsQueued: @escaping @Sendable () -> Void = {}) {
        self.apple = apple
        self.revocationsQueued = revocationsQueued
    }
}
