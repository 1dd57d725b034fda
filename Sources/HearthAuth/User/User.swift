public import Foundation
import HearthProtocol
import Synchronization

/// A signed-in user (FirebaseAuth's `User`).
///
/// Properties are a snapshot of the account, refreshed by `reload()` and by this object's own
/// updates. `getIDToken()` returns a token for your backend, refreshing it when fewer than five
/// minutes remain; concurrent callers share one refresh.
///
/// ```swift
/// if let user = Auth.auth().currentUser {
///     let token = try await user.getIDToken()
///     request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
/// }
/// ```
public final class User: UserInfo, Sendable, CustomStringConvertible {
    /// A token with less than this left is refreshed before it is handed out (as in FirebaseAuth).
    static let refreshMargin: TimeInterval = 5 * 60

    let backend: Backend
    let clock: @Sendable () -> Date
    let coalescer = TokenRefreshCoalescer()
    private let state: Mutex<State>

    private struct State {
        var profile: UserRecord
        var tokens: TokenState
        var isAnonymous: Bool
        /// The owning Auth, weak as in FirebaseAuth: Auth keeps its current user alive, not the reverse.
        weak var auth: Auth?
    }

    init(profile: UserRecord, tokens: TokenState, isAnonymous: Bool, auth: Auth) {
        backend = auth.backend
        clock = auth.clock
        state = Mutex(State(profile: profile, tokens: tokens, isAnonymous: isAnonymous, auth: auth))
    }

    // MARK: - Properties

    /// The user's ID, unique in the project.
    public var uid: String { state.withLock { $0.profile.localId } }
    public var email: String? { state.withLock { $0.profile.email } }
    public var displayName: String? { state.withLock { $0.profile.displayName } }
    /// From `photoUrl`.
    public var photoURL: URL? { state.withLock { $0.profile.photoUrl }.flatMap { URL(string: $0) } }
    public var phoneNumber: String? { state.withLock { $0.profile.phoneNumber } }
    public var isEmailVerified: Bool { state.withLock { $0.profile.emailVerified ?? false } }
    public var isAnonymous: Bool { state.withLock { $0.isAnonymous } }
    /// The linked providers, from `providerUserInfo`.
    public var providerData: [any UserInfo] {
        state.withLock { $0.profile.providerUserInfo ?? [] }.map { ProviderData($0) }
    }
    public var metadata: UserMetadata { UserMetadata(record: state.withLock { $0.profile }) }
    /// Always `firebase`.
    public var providerID: String { "firebase" }
    /// The Identity Platform tenant the user belongs to (its ID token's `firebase.tenant`); `nil` for the project's.
    public var tenantID: String? {
        AuthTokenResult.payload(of: state.withLock { $0.tokens.idToken })?["firebase"]?["tenant"]?.stringValue
    }
    /// The refresh token. A long-lived secret: never log it or send it anywhere but the server.
    public var refreshToken: String? { state.withLock { $0.tokens.refreshToken } }

    public var description: String { "User(uid: \(uid), tokens: <redacted>)" }

    // MARK: - Tokens

    /// The user's ID token, refreshed first if fewer than five minutes remain or if `forcingRefresh`.
    ///
    /// Concurrent callers share one refresh request. If the server says the session is dead
    /// (`USER_DISABLED`, `USER_NOT_FOUND`, `TOKEN_EXPIRED`, `INVALID_ID_TOKEN`), the user is signed
    /// out locally and the mapped error is thrown.
    public func getIDToken(forcingRefresh: Bool = false) async throws -> String {
        try await coalescer.token(
            forcing: forcingRefresh, cachedToken: { [self] in freshIDToken() },
            refresh: { [self] in try await refreshTokens() })
    }

    /// The ID token with its decoded claims.
    /// - Throws: `AuthErrorCode.malformedJWT` if the payload lacks `exp`, `auth_time`, `iat` or
    ///   `firebase.sign_in_provider`.
    public func getIDTokenResult(forcingRefresh: Bool = false) async throws -> AuthTokenResult {
        try AuthTokenResult(token: try await getIDToken(forcingRefresh: forcingRefresh))
    }

    /// The cached token if more than `refreshMargin` remains.
    private func freshIDToken() -> String? {
        let now = clock()
        return state.withLock { state in
            state.tokens.expirationDate.timeIntervalSince(now) > Self.refreshMargin ? state.tokens.idToken : nil
        }
    }

    /// One Secure Token request; only the coalescer calls this.
    private func refreshTokens() async throws(AuthError) -> String {
        let refreshToken = state.withLock { $0.tokens.refreshToken }
        return try await signingOutIfSessionIsDead { () async throws(AuthError) -> String in
            let reply = try await backend.call(SecureTokenCall(body: RefreshTokenRequest(refreshToken: refreshToken)))
            let response = reply.response
            // iOS reads `access_token` and fails on an empty one (PROTOCOL.md §3.13).
            guard !response.accessToken.isEmpty else {
                throw AuthError(code: .internalError, message: "The token response has no access_token.")
            }
            let tokens = TokenState(
                idToken: response.accessToken,
                refreshToken: response.refreshToken.isEmpty ? refreshToken : response.refreshToken,
                expiresIn: response.expiresIn, now: clock())
            try apply(tokens: tokens, profile: nil)
            return tokens.idToken
        }
    }

    // MARK: - Account

    /// Fetches the profile again (`getAccountInfo`).
    public func reload() async throws {
        let token = try await getIDToken()
        try await signingOutIfSessionIsDead { () async throws(AuthError) in
            let record = try await Self.lookup(idToken: token, backend: backend)
            try apply(tokens: nil, profile: record)
        }
    }

    /// Deletes the account (`deleteAccount`), then signs out.
    public func delete() async throws {
        let token = try await getIDToken()
        let uid = self.uid
        try await signingOutIfSessionIsDead { () async throws(AuthError) in
            _ = try await backend.call(DeleteAccountCall(body: DeleteAccountRequest(idToken: token, localId: uid)))
        }
        auth?.signOutByForce(self)
    }

    /// Links another provider's identity to this user (`verifyAssertion` with the user's ID token; for an
    /// `EmailAuthProvider` credential `signupNewUser` or `emailLinkSignin` with it).
    ///
    /// - Throws: `.providerAlreadyLinked` if the user already has this provider; `.credentialAlreadyInUse`
    ///   (with `updatedCredential`) if another account has this identity; `.emailAlreadyInUse` if the
    ///   identity's email belongs to another account.
    @discardableResult
    public func link(with credential: AuthCredential) async throws -> AuthDataResult {
        if providerData.contains(where: { $0.providerID == credential.provider }) {
            throw AuthError(
                code: .providerAlreadyLinked, message: "The user already has a \(credential.provider) identity linked.")
        }
        if let email = credential.emailCredential { return try await link(withEmailCredential: email) }
        let token = try await getIDToken()
        return try await signingOutIfSessionIsDead { () async throws(AuthError) -> AuthDataResult in
            let reply = try await backend.call(
                VerifyAssertionCall(body: Auth.assertionRequest(for: credential, linkingIDToken: token)))
            let response = try Auth.checkAssertion(reply, credential: credential, auth: auth)
            var tokens: TokenState?
            if let idToken = response.idToken, !idToken.isEmpty, let refreshToken = response.refreshToken {
                tokens = TokenState(
                    idToken: idToken, refreshToken: refreshToken, expiresIn: response.expiresIn, now: clock())
            }
            let record = try await Self.lookup(
                idToken: tokens?.idToken ?? state.withLock { $0.tokens.idToken }, backend: backend)
            try apply(tokens: tokens, profile: record, isAnonymous: false)
            return AuthDataResult(
                user: self,
                additionalUserInfo: AdditionalUserInfo(response: response, fallbackProviderID: credential.provider),
                credential: AuthCredential(echoedBy: response, fallbackProviderID: credential.provider))
        }
    }

    /// Removes a provider from the user (`setAccountInfo` with `deleteProvider`).
    /// - Throws: `.noSuchProvider` if the user has no identity of that provider.
    @discardableResult
    public func unlink(fromProvider providerID: String) async throws -> User {
        guard providerData.contains(where: { $0.providerID == providerID }) else {
            throw AuthError(code: .noSuchProvider, message: "The user has no \(providerID) identity linked.")
        }
        let token = try await getIDToken()
        var request = UpdateAccountRequest(idToken: token)
        request.deleteProvider = [providerID]
        request.returnSecureToken = true
        try await updateAccount(request) { profile, response in
            profile.providerUserInfo = response.providerUserInfo ?? []
            if providerID == "phone" { profile.phoneNumber = nil }
        }
        return self
    }

    /// A builder for display name and photo URL changes.
    public func createProfileChangeRequest() -> UserProfileChangeRequest {
        UserProfileChangeRequest(user: self)
    }

    /// Sends `setAccountInfo`, then applies `change` and any new tokens locally.
    func updateAccount(
        _ request: UpdateAccountRequest, change: @Sendable (inout UserRecord, UpdateAccountResponse) -> Void
    ) async throws(AuthError) {
        try await signingOutIfSessionIsDead { () async throws(AuthError) in
            let response = try await backend.call(SetAccountInfoCall(body: request)).response
            var tokens: TokenState?
            if let idToken = response.idToken, !idToken.isEmpty, let refreshToken = response.refreshToken {
                tokens = TokenState(
                    idToken: idToken, refreshToken: refreshToken, expiresIn: response.expiresIn, now: clock())
            }
            var profile = state.withLock { $0.profile }
            change(&profile, response)
            try apply(tokens: tokens, profile: profile)
        }
    }

    // MARK: - Internals

    var auth: Auth? { state.withLock { $0.auth } }

    /// The session as stored.
    var storedSession: StoredSession {
        state.withLock { state in
            StoredSession(
                uid: state.profile.localId, idToken: state.tokens.idToken, refreshToken: state.tokens.refreshToken,
                idTokenExpiration: state.tokens.expirationDate.timeIntervalSince1970, isAnonymous: state.isAnonymous,
                profile: state.profile)
        }
    }

    var tokens: TokenState { state.withLock { $0.tokens } }

    /// The account as last read from `getAccountInfo` (or changed locally since).
    var profile: UserRecord { state.withLock { $0.profile } }

    /// Replaces tokens and/or profile (and whether the user is anonymous: a linked guest no longer is), then
    /// saves the session (if this is still the current user) and tells ID-token listeners when the token changed.
    func apply(tokens: TokenState?, profile: UserRecord?, isAnonymous: Bool? = nil) throws(AuthError) {
        let tokenChanged = state.withLock { state -> Bool in
            var changed = false
            if let tokens {
                changed = tokens.idToken != state.tokens.idToken
                state.tokens = tokens
            }
            if let profile { state.profile = profile }
            if let isAnonymous { state.isAnonymous = isAnonymous }
            return changed
        }
        try auth?.userDidChange(self, tokenChanged: tokenChanged)
    }

    /// Runs `body`; if it fails because the session is dead, signs this user out locally first.
    func signingOutIfSessionIsDead<T>(
        _ body: () async throws(AuthError) -> T
    ) async throws(AuthError) -> T {
        do {
            return try await body()
        } catch {
            if error.invalidatesSession { auth?.signOutByForce(self) }
            throw error
        }
    }

    /// `getAccountInfo` for an ID token; the response must hold exactly one user.
    static func lookup(idToken: String, backend: Backend) async throws(AuthError) -> UserRecord {
        let response = try await backend.call(GetAccountInfoCall(body: LookupRequest(idToken: idToken))).response
        guard let users = response.users, users.count == 1 else {
            throw AuthError(code: .internalError, message: "getAccountInfo did not return exactly one user.")
        }
        var record = users[0]
        // Not needed on the client, and not to be written into the session store.
        record.passwordHash = nil
        return record
    }
}

/// Changes to a user's display name and photo URL, sent together by `commitChanges()`.
///
/// Only the properties you assign are sent; assigning `nil` deletes the attribute on the server.
///
/// ```swift
/// let change = user.createProfileChangeRequest()
/// change.displayName = "Ada"
/// change.photoURL = nil          // removes the photo
/// try await change.commitChanges()
/// ```
public final class UserProfileChangeRequest: Sendable {
    private let user: User
    private let changes = Mutex<Changes>(Changes())

    private struct Changes {
        var displayName: String?
        var displayNameWasSet = false
        var photoURL: URL?
        var photoURLWasSet = false
    }

    init(user: User) { self.user = user }

    public var displayName: String? {
        get { changes.withLock { $0.displayName } }
        set { changes.withLock { $0.displayName = newValue; $0.displayNameWasSet = true } }
    }

    public var photoURL: URL? {
        get { changes.withLock { $0.photoURL } }
        set { changes.withLock { $0.photoURL = newValue; $0.photoURLWasSet = true } }
    }

    /// Sends the changes (`setAccountInfo`); does nothing if nothing was assigned.
    public func commitChanges() async throws {
        let changes = self.changes.withLock { $0 }
        guard changes.displayNameWasSet || changes.photoURLWasSet else { return }
        var request = UpdateAccountRequest(idToken: try await user.getIDToken())
        var deleted: [String] = []
        if changes.displayNameWasSet {
            if let name = changes.displayName { request.displayName = name } else { deleted.append("DISPLAY_NAME") }
        }
        if changes.photoURLWasSet {
            if let url = changes.photoURL { request.photoUrl = url.absoluteString } else { deleted.append("PHOTO_URL") }
        }
        request.deleteAttribute = deleted.isEmpty ? nil : deleted
        request.returnSecureToken = true
        let newName = changes.displayName
        let newPhoto = changes.photoURL?.absoluteString
        try await user.updateAccount(request) { profile, _ in
            if changes.displayNameWasSet { profile.displayName = newName }
            if changes.photoURLWasSet { profile.photoUrl = newPhoto }
        }
    }
}
