public import HearthCore

/// Revokes queued Apple tokens for the maintenance task at Apple's `/auth/revoke`. Only Apple's refusal of the
/// request itself (`invalid_grant`, `invalid_request`) drops a revocation; an unreachable Apple, a refused client
/// secret or a key that cannot sign are kept and retried, since fixing the configuration or waiting may help.
public struct AppleTokenRevoker: ProviderTokenRevoking {
    private let client: AppleTokenClient

    public init(client: AppleTokenClient) {
        self.client = client
    }

    public func revoke(_ revocation: ProviderTokenRevocation) throws {
        let hint = AppleTokenTypeHint(rawValue: revocation.tokenTypeHint) ?? .refreshToken
        do {
            try client.revoke(token: revocation.token, tokenTypeHint: hint, clientID: revocation.clientID)
        } catch {
            let refusedForGood = error.code == .invalidGrant || error.code == .invalidRequest
            throw refusedForGood ? RevocationFailure.permanent(error.reason) : .temporary(error.reason)
        }
    }
}
