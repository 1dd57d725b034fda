/// A refresh token an identity provider issued for one linked identity (Apple's, from the code exchange), with
/// the client it was issued to: revoking it must name that client.
///
/// Its descriptions never show the token, so a record that holds one can be printed or logged.
public struct ProviderRefreshToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The token as the provider issued it.
    public var token: String
    /// The client ID (bundle ID or services ID) the token was issued to.
    public var clientID: String

    public init(token: String, clientID: String) {
        self.token = token
        self.clientID = clientID
    }

    public var description: String { "ProviderRefreshToken(clientID: \(clientID), token: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["clientID": clientID, "token": "<redacted>"]) }
}

/// A provider token waiting to be revoked at its provider (Apple's `/auth/revoke`): queued in the same write
/// that deleted the account it belonged to, tried by the maintenance task until the provider confirms, and
/// deleted only then. The token is sealed at rest; its descriptions never show it.
public struct ProviderTokenRevocation: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// 28 random alphanumeric characters; the key of the queue.
    public var id: String
    /// `apple.com`, …: which `ProviderTokenRevoking` revokes it.
    public var providerID: String
    /// The client the token was issued to.
    public var clientID: String
    public var token: String
    /// OAuth's `token_type_hint`: `refresh_token` or `access_token`.
    public var tokenTypeHint: String
    /// The uid of the account the token belonged to (which may no longer exist), for logs.
    public var localID: String
    public var createdAtMillis: Int64
    /// Failed attempts so far.
    public var attempts: Int
    /// When it is due (again).
    public var nextAttemptAtMillis: Int64
    /// Why the last attempt failed (never the token).
    public var lastError: String?

    public init(
        id: String, providerID: String, clientID: String, token: String, tokenTypeHint: String, localID: String,
        createdAtMillis: Int64, attempts: Int = 0, nextAttemptAtMillis: Int64, lastError: String? = nil
    ) {
        self.id = id
        self.providerID = providerID
        self.clientID = clientID
        self.token = token
        self.tokenTypeHint = tokenTypeHint
        self.localID = localID
        self.createdAtMillis = createdAtMillis
        self.attempts = attempts
        self.nextAttemptAtMillis = nextAttemptAtMillis
        self.lastError = lastError
    }

    /// A new revocation (a random id), due at once: of `token` of `providerID`, issued to `clientID`, for the
    /// account `localID`.
    public init(
        providerID: String, clientID: String, token: String, tokenTypeHint: String, localID: String, atMillis: Int64
    ) {
        self.init(
            id: Identifiers.localID(), providerID: providerID, clientID: clientID, token: token,
            tokenTypeHint: tokenTypeHint, localID: localID, createdAtMillis: atMillis, nextAttemptAtMillis: atMillis)
    }

    /// A new revocation of `refreshToken` (of `identity` of the account `localID`), due at once.
    public init(revoking refreshToken: ProviderRefreshToken, of identity: LinkedIdentity, localID: String, atMillis: Int64) {
        self.init(
            providerID: identity.providerID, clientID: refreshToken.clientID, token: refreshToken.token,
            tokenTypeHint: "refresh_token", localID: localID, atMillis: atMillis)
    }

    /// The wait after the `attempts`-th failed attempt (1 or more): a minute, doubling each time, at most 6 hours.
    public static func retryDelayMillis(afterAttempts attempts: Int) -> Int64 {
        let minute: Int64 = 60_000
        let cap: Int64 = 6 * 3_600_000
        let doublings = min(max(attempts - 1, 0), 9)  // 2^9 minutes > 6 hours
        return min(minute << Int64(doublings), cap)
    }

    /// This revocation after a failed attempt at `millis`: one more attempt, due again after the backoff.
    public func failed(atMillis millis: Int64, error: String) -> ProviderTokenRevocation {
        var next = self
        next.attempts += 1
        next.nextAttemptAtMillis = millis + Self.retryDelayMillis(afterAttempts: next.attempts)
        next.lastError = error
        return next
    }

    public var description: String {
        "ProviderTokenRevocation(id: \(id), providerID: \(providerID), clientID: \(clientID), localID: \(localID), "
            + "attempts: \(attempts), token: <redacted>)"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "id": id, "providerID": providerID, "clientID": clientID, "token": "<redacted>",
                "tokenTypeHint": tokenTypeHint, "localID": localID, "createdAtMillis": createdAtMillis,
                "attempts": attempts, "nextAttemptAtMillis": nextAttemptAtMillis, "lastError": lastError as Any,
            ])
    }
}
