import HearthCore
import Synchronization

/// What the dev Apple remembers between requests, in memory only (a restart forgets it: codes, tokens, which
/// apps a person already authorized, and the revocation list). Codes and tokens are kept by SHA-256 hash.
final class DevAppleGrants: Sendable {
    /// A code, access token or refresh token the dev Apple issued.
    struct Grant: Sendable {
        enum Kind: Sendable { case code, accessToken, refreshToken }
        var kind: Kind
        /// The dev account's subject (the dev Google's `sub`).
        var accountSubject: String
        /// The Apple-style `sub` of that account.
        var appleSubject: String
        var clientID: String
        var redirectURI: String?
        var nonce: String?
        var authTime: Int64
        var expiresAt: Int64
    }

    /// A person's authorization of one client: made on the first sign-in, gone after a revocation.
    struct Authorization: Sendable {
        var hidesEmail: Bool
        var sharesEmail: Bool
    }

    private struct State {
        var grants: [String: Grant] = [:]
        var authorizations: [String: Authorization] = [:]
        var revocations: [DevAppleRevocation] = []
    }

    private let state = Mutex(State())

    private static func pair(_ accountSubject: String, _ clientID: String) -> String { accountSubject + "\u{0}" + clientID }

    /// The person's authorization of `clientID`, recording it if this is the first one; returns it and whether it is new.
    /// The first authorization's email choice stays, as Apple asks only once.
    func authorize(accountSubject: String, clientID: String, hidesEmail: Bool, sharesEmail: Bool)
        -> (authorization: Authorization, isFirst: Bool)
    {
        state.withLock { state in
            let key = Self.pair(accountSubject, clientID)
            if var existing = state.authorizations[key] {
                existing.sharesEmail = existing.sharesEmail || sharesEmail
                state.authorizations[key] = existing
                return (existing, false)
            }
            let new = Authorization(hidesEmail: hidesEmail, sharesEmail: sharesEmail)
            state.authorizations[key] = new
            return (new, true)
        }
    }

    func authorization(accountSubject: String, clientID: String) -> Authorization? {
        state.withLock { $0.authorizations[Self.pair(accountSubject, clientID)] }
    }

    /// Stores `grant` under `hash`, dropping expired grants first.
    func insert(_ grant: Grant, hash: String, now: Int64) {
        state.withLock { state in
            state.grants = state.grants.filter { $0.value.expiresAt > now }
            state.grants[hash] = grant
        }
    }

    /// Removes and returns the code with `hash`: a code is good for one exchange, even a failed one.
    func takeCode(hash: String) -> Grant? {
        state.withLock { state in
            guard let grant = state.grants[hash], grant.kind == .code else { return nil }
            state.grants[hash] = nil
            return grant
        }
    }

    /// The live access or refresh token with `hash`.
    func token(hash: String, now: Int64) -> Grant? {
        state.withLock { state in
            guard let grant = state.grants[hash], grant.kind != .code, grant.expiresAt > now else { return nil }
            return grant
        }
    }

    /// Revokes `clientID`'s token with `hash` and with it the person's whole authorization of that client (every
    /// code and token, and the "first sign-in" memory), as Apple does; records the revocation. Unknown tokens and
    /// other clients' tokens change nothing.
    func revoke(hash: String, clientID: String, now: Int64) {
        state.withLock { state in
            guard let grant = state.grants[hash], grant.kind != .code, grant.expiresAt > now, grant.clientID == clientID
            else { return }
            state.grants = state.grants.filter {
                $0.value.accountSubject != grant.accountSubject || $0.value.clientID != grant.clientID
            }
            state.authorizations[Self.pair(grant.accountSubject, grant.clientID)] = nil
            state.revocations.append(
                DevAppleRevocation(
                    subject: grant.appleSubject, clientID: grant.clientID,
                    tokenType: grant.kind == .refreshToken ? "refresh_token" : "access_token", revokedAt: now))
        }
    }

    var revocations: [DevAppleRevocation] { state.withLock { $0.revocations } }
}

/// A revocation the dev Apple performed (never the token itself), for `GET /dev/apple/revocations`.
public struct DevAppleRevocation: Sendable, Equatable {
    /// The Apple-style `sub` of the person.
    public var subject: String
    public var clientID: String
    /// `refresh_token` or `access_token`: the kind of token presented.
    public var tokenType: String
    /// Seconds since 1970.
    public var revokedAt: Int64

    public init(subject: String, clientID: String, tokenType: String, revokedAt: Int64) {
        self.subject = subject
        self.clientID = clientID
        self.tokenType = tokenType
        self.revokedAt = revokedAt
    }
}
