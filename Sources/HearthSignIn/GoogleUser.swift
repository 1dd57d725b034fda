import Foundation

/// The result of an interactive sign-in: the `GIDSignInResult` counterpart.
public struct SignInResult: Sendable {
    public let user: GoogleUser
    /// Google's one-time `server_code` for the backend (present when ``SignInConfiguration/serverClientID`` is
    /// set); nil on restore.
    public let serverAuthCode: String?

    public init(user: GoogleUser, serverAuthCode: String?) {
        self.user = user
        self.serverAuthCode = serverAuthCode
    }
}

/// A signed-in user and their tokens: the `GIDGoogleUser` counterpart.
///
/// The tokens are updated in place by ``refreshTokensIfNeeded()``, so keep the object and read
/// ``accessToken`` right before each use:
///
/// ```swift
/// let user = try await signIn.restorePreviousSignIn()
/// try await user.refreshTokensIfNeeded()
/// request.setValue("Bearer \(user.accessToken.tokenString)", forHTTPHeaderField: "Authorization")
/// ```
public final class GoogleUser: Sendable, CustomStringConvertible {
    private let state: Locked<SessionState>
    private let client: OAuthClient
    let refresher = RefreshCoalescer()
    /// Where refreshed sessions are saved, while this user is the current one.
    private let slot: SessionSlot
    let generation: UInt64

    init(state: SessionState, client: OAuthClient, slot: SessionSlot) {
        self.state = Locked(state)
        self.client = client
        self.slot = slot
        self.generation = slot.newGeneration()
    }

    var session: SessionState { state.current }

    /// The ID token's `sub`: the stable account ID.
    public var userID: String? { state.current.userID }

    public var profile: ProfileData? { state.current.profile?.profileData }

    public var idToken: SignInToken? {
        let session = state.current
        return session.idToken.map { SignInToken(tokenString: $0, expirationDate: session.idTokenExpiry) }
    }

    public var accessToken: SignInToken {
        let session = state.current
        return SignInToken(tokenString: session.accessToken, expirationDate: session.accessTokenExpiry)
    }

    /// Empty when the token response had no refresh token.
    public var refreshToken: SignInToken {
        let session = state.current
        return SignInToken(tokenString: session.refreshToken, expirationDate: session.refreshTokenExpiry)
    }

    /// The token response's `scope`, split on spaces (Google answers with long forms such as
    /// `https://www.googleapis.com/auth/userinfo.email`).
    public var grantedScopes: [String]? { state.current.grantedScopes }

    /// The configuration signed in with; `hostedDomain` is the ID token's `hd` claim, as in GIDSignIn.
    public var configuration: SignInConfiguration {
        var configuration = client.configuration
        configuration.hostedDomain = state.current.hostedDomain
        return configuration
    }

    public var description: String {
        let session = state.current
        return "GoogleUser(userID: \(session.userID ?? "nil"), email: \(session.profile?.email ?? "nil"), tokens: <redacted>)"
    }

    /// Refreshes the tokens when the access token or the ID token expires within 60 seconds; otherwise does nothing.
    ///
    /// Concurrent callers share one refresh request. The refreshed session is saved.
    ///
    /// - Returns: this user, with fresh tokens.
    /// - Throws: ``SignInError`` `.refreshTokenExpired` when the refresh token is known to be expired or the server
    ///   answers `invalid_grant` (the user must sign in again; the stored session is kept until ``GoogleSignIn/signOut()``);
    ///   `.unknown` for other failures, including a refreshed ID token that fails verification.
    @discardableResult
    public func refreshTokensIfNeeded() async throws -> GoogleUser {
        try await refreshIfNeeded(within: 60)
        return self
    }

    /// Whether a token expires within `interval` of now.
    func needsRefresh(within interval: TimeInterval) -> Bool {
        let session = state.current
        let now = client.clock()
        if let expiry = session.accessTokenExpiry, expiry.timeIntervalSince(now) < interval { return true }
        if session.idToken != nil, let expiry = session.idTokenExpiry, expiry.timeIntervalSince(now) < interval { return true }
        return false
    }

    func refreshIfNeeded(within interval: TimeInterval) async throws {
        try await refresher.run(
            if: { [self] in needsRefresh(within: interval) },
            perform: { [self] in try await refresh() })
    }

    /// One refresh-token grant; updates the tokens in place and saves the session.
    private func refresh() async throws {
        let before = state.current
        if let expiry = before.refreshTokenExpiry, expiry <= client.clock() {
            throw SignInError(.refreshTokenExpired, "The refresh token expired; sign in again.")
        }
        guard !before.refreshToken.isEmpty else {
            throw SignInError(.refreshTokenExpired, "There is no refresh token; sign in again.")
        }
        let response = try await client.refresh(before.refreshToken)
        let idToken: ValidatedIDToken? =
            if let token = response.idToken {
                try await client.validateIDToken(token, nonce: nil, subject: before.userID)
            } else {
                nil
            }
        let now = client.clock()
        state.withLock { session in
            session.accessToken = response.accessToken
            session.accessTokenExpiry = response.expiresIn.map { now.addingTimeInterval($0) }
            if let refreshToken = response.refreshToken {
                session.refreshToken = refreshToken
                session.refreshTokenExpiry = response.refreshTokenExpiresIn.map { now.addingTimeInterval($0) }
            }
            if let scopes = response.grantedScopes { session.grantedScopes = scopes }
            if let idToken { session.apply(idToken) }
        }
        slot.saveIfCurrent(generation, state.current)
    }
}

/// One refresh in flight per user: callers that arrive while it runs wait for it instead of sending their own
/// (the fix for GIDSignIn issue #431's lost completions).
actor RefreshCoalescer {
    private var inFlight: Task<Void, any Error>?
    /// How many callers waited for another caller's refresh (for tests).
    private(set) var joinedCallers = 0

    func run(if needed: @Sendable () -> Bool, perform: @escaping @Sendable () async throws -> Void) async throws {
        if let inFlight {
            joinedCallers += 1
            return try await inFlight.value
        }
        guard needed() else { return }
        let task = Task { try await perform() }
        inFlight = task
        defer { inFlight = nil }
        try await task.value
    }
}
