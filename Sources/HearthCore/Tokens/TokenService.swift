import Foundation
public import HearthProtocol
import JOSE

/// Mints ID and refresh tokens, refreshes sessions, and authenticates presented ID tokens.
///
/// ID tokens follow PROTOCOL.md §5.1: RS256 with `kid`, `iss`/`aud` of the project, `auth_time`
/// fixed for the session, `firebase.identities` and `firebase.sign_in_provider`, custom claims merged
/// under the reserved names. Refresh tokens are `<session id>.<256-bit secret>` (`RefreshTokenText`);
/// the store keeps their SHA-256.
///
/// Sessions follow `SessionPolicy`: each refresh rotates the refresh token; the replaced token, presented
/// again within the grace window, is answered with the same successor (a retried lost response), and
/// after it, like any older token of the session, revokes the whole session (reuse of a stolen token).
/// An account keeps at most `maximumSessionsPerAccount` live sessions.
///
/// A token service acts in its store's scope (``StoreScope``). A tenant's writes `firebase.tenant` into its ID tokens
/// (and so into session cookies) and names the tenant in its refresh tokens (`RefreshTokenText`); each service
/// refuses an ID token of another scope with `TENANT_ID_MISMATCH` (the project's refuses every tenant's token, a
/// tenant's refuses the project's) and a refresh token of another scope with `INVALID_REFRESH_TOKEN`.
public final class TokenService: Sendable {
    private let project: ProjectConfiguration
    private let store: any HearthStore
    private let keys: SigningKeyRing
    let time: any TimeSource
    let policy: SessionPolicy
    private let audit: AuditRecorder
    /// The tenant of this service's scope; nil for the project.
    let tenantID: String?

    /// - Parameters:
    ///   - context: the project, store and clock; its audit log records the revocation of a session whose old
    ///     refresh token came back (reuse).
    ///   - keys: the session signing keys.
    public init(context: ServiceContext, keys: SigningKeyRing, policy: SessionPolicy) {
        audit = context.auditRecorder
        project = context.project
        store = context.store
        tenantID = context.store.scope.tenant
        self.keys = keys
        time = context.time
        self.policy = policy
    }

    /// A refresh token for a new session, stored (by hash) through `writer`. If the account then has
    /// more live sessions than the policy allows, the oldest ones (by sign-in) are revoked in the same
    /// transaction. The ID token is minted separately, after the transaction commits, so signing never
    /// holds the store's write lock.
    public func newRefreshToken(for account: Account, session: Session, writer: any StoreWriter) throws -> String {
        let sessionID = RefreshTokenText.newSessionID()
        let token = RefreshTokenText(sessionID: sessionID, secret: Identifiers.secret(), tenantID: tenantID)
        let now = time.nowMillis
        let sessionClaimsText = session.sessionClaims.map {
            String(decoding: JSONValue.object($0).jsonData(sortedKeys: true), as: UTF8.self)
        }
        // Make room first, so the new session is never the one revoked.
        let beyondCap = try writer.liveSessionIDs(
            localID: account.localID, skippingNewest: policy.maximumSessionsPerAccount - 1)
        for oldest in beyondCap {
            try writer.revokeSession(oldest, atMillis: now)
        }
        try writer.insertRefreshSession(
            RefreshSession(
                sessionID: sessionID, localID: account.localID, signInProvider: session.signInProvider,
                authTime: session.authTime, secondFactor: session.secondFactor,
                secondFactorIdentifier: session.secondFactorIdentifier, sessionClaims: sessionClaimsText,
                startedAtMillis: now, currentTokenHash: token.hash))
        return token.text
    }

    /// The `expiresIn` value clients get with every ID token.
    public var expiresIn: String { String(project.idTokenLifetime) }

    /// An ID token for `account` in `session`.
    public func mintIDToken(for account: Account, session: Session) throws -> String {
        let nowMillis = time.nowMillis
        let now = nowMillis / 1000
        var claims: [String: JSONValue] = [:]
        if let name = account.displayName { claims["name"] = .string(name) }
        if let picture = account.photoURL { claims["picture"] = .string(picture) }
        if let custom = account.customAttributes, case .object(let object)? = try? JSONValue(parsing: Data(custom.utf8)) {
            for (key, value) in object where !ReservedClaims.protected.contains(key) && !ReservedClaims.forbidden.contains(key) {
                claims[key] = value
            }
        }
        for (key, value) in session.sessionClaims ?? [:]
        where !ReservedClaims.protected.contains(key) && !ReservedClaims.forbidden.contains(key) {
            claims[key] = value
        }
        claims["iss"] = .string(project.issuer)
        claims["aud"] = .string(project.projectID)
        claims["auth_time"] = .integer(session.authTime)
        claims["user_id"] = .string(account.localID)
        claims["sub"] = .string(account.localID)
        claims["iat"] = .integer(now)
        claims["exp"] = .integer(now + project.idTokenLifetime)
        if let email = account.email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(account.emailVerified)
        }
        if let phone = account.phoneNumber { claims["phone_number"] = .string(phone) }
        var firebase: [String: JSONValue] = [
            "identities": .object(Self.identities(of: account)),
            "sign_in_provider": .string(session.signInProvider),
        ]
        if let factor = session.secondFactor { firebase["sign_in_second_factor"] = .string(factor) }
        if let identifier = session.secondFactorIdentifier { firebase["second_factor_identifier"] = .string(identifier) }
        if let tenantID { firebase["tenant"] = .string(tenantID) }
        firebase[Self.issuedAtMillisClaim] = .integer(nowMillis)
        claims["firebase"] = .object(firebase)
        return try keys.current().signer.sign(payload: JSONValue.object(claims).jsonData())
    }

    /// The tenant a refresh token's text names (tenant sessions only), without checking anything else: where a
    /// refresh without `tenantId` is served. Nil for the project's tokens and for text that names no tenant.
    public static func tenantID(ofRefreshToken text: String) -> String? {
        RefreshTokenText(text).tenantID
    }

    /// `firebase.identities`: each provider's ids, plus `email` and `phone` when the account has them.
    static func identities(of account: Account) -> [String: JSONValue] {
        var identities: [String: JSONValue] = [:]
        for identity in account.providers {
            let existing = identities[identity.providerID]?.arrayValue ?? []
            identities[identity.providerID] = .array(existing + [.string(identity.rawID)])
        }
        if let email = account.email { identities["email"] = .array([.string(email)]) }
        if let phone = account.phoneNumber { identities["phone"] = .array([.string(phone)]) }
        return identities
    }

    /// Exchanges a refresh token for a new ID token and, with rotation, a new refresh token
    /// (`securetoken /v1/token`).
    ///
    /// Refuses with `TOKEN_EXPIRED` once the account's `validSinceMillis` has moved past the session's
    /// sign-in (revocation) or the session was revoked (reuse detected, or the session cap),
    /// `USER_DISABLED` and `USER_NOT_FOUND` as Firebase does. Presenting the token the session's last
    /// rotation replaced is answered with the same successor within the grace window; presenting it later,
    /// or any older token of the session, revokes the session, commits that, and answers `TOKEN_EXPIRED`.
    ///
    /// A rotation rewrites the session's row; the account's `lastRefreshAtMillis` is written only when it
    /// is a minute or more old. With rotation, every refresh writes, so its checks run in that one write
    /// transaction (a refused token holds the writer for a primary-key lookup; the per-client bucket of
    /// refresh failures bounds how many). Without rotation, the checks run in a read, and most refreshes
    /// write nothing.
    /// - Parameter caller: who refreshes; its address is recorded with a revocation for reuse.
    public func refresh(_ request: RefreshTokenRequest, by caller: Caller) throws -> RefreshTokenResponse {
        guard let grantType = request.grantType, !grantType.isEmpty else { throw WireError(.missingGrantType) }
        guard grantType == "refresh_token" else { throw WireError(.invalidGrantType) }
        guard let text = request.refreshToken, !text.isEmpty else {
            throw WireError(.missingRefreshToken)
        }
        let presented = RefreshTokenText(text)
        // A token of another scope: its session is not in this scope's store either, but say so before reading.
        guard presented.tenantID == tenantID else { throw WireError(.invalidRefreshToken) }
        let now = time.nowMillis
        let refreshed: Refreshed
        if policy.rotatesRefreshTokens {
            refreshed = try store.transaction(.rowLocks) { writer in try exchange(presented, at: now, caller: caller, writer: writer) }
        } else {
            let (session, account) = try store.read { reader in try Self.checkedSession(of: presented, reader) }
            if presented.matches(session.currentTokenHash), !Self.lastRefreshIsDue(account, at: now) {
                refreshed = Refreshed(session: session, account: account, refreshToken: presented.text)
            } else {
                refreshed = try store.transaction(.rowLocks) { writer in try exchange(presented, at: now, caller: caller, writer: writer) }
            }
        }
        let session = refreshed.session
        let carried = Session(
            signInProvider: session.signInProvider, authTime: session.authTime, secondFactor: session.secondFactor,
            secondFactorIdentifier: session.secondFactorIdentifier,
            sessionClaims: session.sessionClaims.flatMap { try? JSONValue(parsing: Data($0.utf8)).objectValue })
        // Signed after the write, so signing never holds the store's write lock.
        let idToken = try mintIDToken(for: refreshed.account, session: carried)
        return RefreshTokenResponse(
            idToken: idToken, expiresIn: expiresIn, refreshToken: refreshed.refreshToken,
            userId: refreshed.account.localID, projectId: project.projectNumber)
    }

    /// What a refresh answers from: the session, its account, and the refresh token to return.
    private struct Refreshed {
        let session: RefreshSession
        let account: Account
        let refreshToken: String
    }

    /// How precisely `Account.lastRefreshAtMillis` is kept: a refresh writes it only when it is older.
    static let lastRefreshPrecisionMillis: Int64 = 60_000

    /// Whether a refresh at `now` must write the account's `lastRefreshAtMillis`: it is unset, a minute or
    /// more old, or ahead of the clock.
    static func lastRefreshIsDue(_ account: Account, at now: Int64) -> Bool {
        guard let last = account.lastRefreshAtMillis, last <= now else { return true }
        return last <= now - lastRefreshPrecisionMillis
    }

    /// The session `token` belongs to and its account, if that session may still refresh; otherwise the
    /// wire error to answer (thrown, so inside a write it rolls back, before anything was written).
    private static func checkedSession(of token: RefreshTokenText, _ reader: any StoreReader) throws
        -> (RefreshSession, Account)
    {
        let found =
            if let sessionID = token.sessionID {
                try reader.refreshSession(id: sessionID)
            } else {
                try reader.refreshSession(legacyTokenHash: token.hash)
            }
        guard let session = found else { throw WireError(.invalidRefreshToken) }
        guard let account = try reader.account(localID: session.localID) else { throw WireError(.userNotFound) }
        guard !account.disabled else { throw WireError(.userDisabled) }
        guard session.revokedAtMillis == nil, session.startedAtMillis >= account.validSinceMillis else {
            throw sessionEnded
        }
        return (session, account)
    }

    static let tenantMismatch = WireError(
        .tenantIDMismatch, "The token belongs to another tenant than the one the request names.")

    private static let sessionEnded = WireError(
        .tokenExpired, "The user's credential is no longer valid. The user must sign in again.")

    /// The check-and-rotate of one refresh, in one write transaction: concurrent refreshes of one token
    /// see each other's rotation, so a session never forks. A refusal for reuse commits the revocation. Its rules
    /// are about one session and its account, which the writer reads first: the write runs with `.rowLocks`, so
    /// refreshes of one session wait for each other and refreshes of other sessions never conflict.
    private func exchange(_ presented: RefreshTokenText, at now: Int64, caller: Caller, writer: any StoreWriter) throws
        -> WriteOutcome<Refreshed>
    {
        let (session, account) = try Self.checkedSession(of: presented, writer)
        let next: String
        if presented.matches(session.currentTokenHash) {
            if policy.rotatesRefreshTokens {
                next = try rotate(session, replacing: presented, at: now, writer: writer)
            } else {
                next = presented.text
            }
        } else if let successor = successorWithinGrace(of: presented, in: session, at: now) {
            next = successor
        } else {
            // The replaced token after the grace window, or an older one: reuse.
            try writer.revokeSession(session.sessionID, atMillis: now)
            try audit.record(
                .sessionsRevoked, localID: account.localID, by: caller.triggeringSystem,
                detail: "reason=refresh_token_reuse", in: writer)
            return .commitThenFail(Self.sessionEnded)
        }
        if Self.lastRefreshIsDue(account, at: now) { try writer.recordRefresh(localID: account.localID, atMillis: now) }
        return .commit(Refreshed(session: session, account: account, refreshToken: next))
    }

    /// Replaces the session's current token `presented` by a new one, which it returns.
    private func rotate(
        _ session: RefreshSession, replacing presented: RefreshTokenText, at now: Int64, writer: any StoreWriter
    ) throws -> String {
        let secret = Identifiers.secret()
        let next = RefreshTokenText(sessionID: session.sessionID, secret: secret, tenantID: tenantID)
        try writer.rotateRefreshSession(
            id: session.sessionID, replacing: presented.hash, with: next.hash, atMillis: now,
            sealedSuccessor: SuccessorSeal.seal(secret, under: presented.text))
        return next.text
    }

    /// The session's current token, if `presented` is the token it replaced and the grace window is still
    /// open (a client retrying a lost response), and the sealed successor is that current token.
    private func successorWithinGrace(of presented: RefreshTokenText, in session: RefreshSession, at now: Int64)
        -> String?
    {
        guard let replaced = session.replaced, presented.matches(replaced.tokenHash),
            now - replaced.replacedAtMillis < policy.reuseGraceMillis,
            let secret = SuccessorSeal.open(replaced.sealedSuccessor, under: presented.text)
        else { return nil }
        let successor = RefreshTokenText(sessionID: session.sessionID, secret: secret, tenantID: tenantID)
        return successor.matches(session.currentTokenHash) ? successor.text : nil
    }

    /// Checks a presented Hearth ID token: signature with a published key (reloading keys once for an
    /// unknown `kid`), issuer, audience, expiry, then that the account exists, is enabled and has not
    /// revoked the token.
    public func authenticate(idToken: String?) throws -> AuthenticatedUser {
        try verified(idToken: idToken).user
    }

    /// The lifetimes a session cookie may have, in seconds (5 minutes to 14 days, as Firebase's).
    public static let sessionCookieLifetimes: ClosedRange<Int64> = 300...1_209_600

    /// Where Hearth writes, inside the `firebase` claim (which custom claims cannot set), the millisecond at which it
    /// signed an ID token, a session cookie or a console session. Revocation (`validSince`) is kept in milliseconds;
    /// `iat` has whole seconds only, so a token signed in the same second as a revocation, before it, would pass a
    /// comparison in seconds. Where Hearth checks cookies and console sessions itself, it compares this time.
    public static let issuedAtMillisClaim = "hearth_issued_at_ms"

    /// A session cookie (`createSessionCookie`) for the holder of `idToken`: the ID token's claims, issued now
    /// for `validDuration` seconds (14 days by default) by `https://session.firebase.google.com/<project>`,
    /// signed with the same keys, with the time it was signed in milliseconds (``issuedAtMillisClaim``). The ID
    /// token is checked as `authenticate(idToken:)` checks it, and must also have been signed no earlier than the
    /// account's `validSince`, to the millisecond, so that a token revoked in the second of its own `iat` cannot
    /// become a cookie signed after the revocation.
    ///
    /// - Throws: `INVALID_DURATION`, `TOKEN_EXPIRED` for a revoked token, or what `authenticate(idToken:)` throws.
    public func mintSessionCookie(idToken: String?, validDuration: Int64?) throws -> String {
        let lifetime = validDuration ?? Self.sessionCookieLifetimes.upperBound
        guard Self.sessionCookieLifetimes.contains(lifetime) else {
            throw WireError(.invalidDuration, "The session cookie duration must be between 5 minutes and 14 days.")
        }
        var claims = try unrevokedToMillisecond(idToken: idToken).claims
        claims["iss"] = .string(Self.sessionCookieIssuer(project.projectID))
        return try signCookie(claims, lifetime: lifetime)
    }

    /// The `iss` of an app's session cookies, as Firebase's.
    static func sessionCookieIssuer(_ projectID: String) -> String { "https://session.firebase.google.com/\(projectID)" }

    /// The `iss` of console sessions: no ID token, session cookie or admin access token has it.
    public static let consoleSessionIssuer = "hearth:console-session"

    /// The `aud` of console sessions for `projectID`.
    public static func consoleSessionAudience(_ projectID: String) -> String { "hearth:console:\(projectID)" }

    /// A session of the admin console for the holder of `idToken`, for `lifetime` seconds: only the uid, the
    /// sign-in's `auth_time` and provider (and second factor), under the console's own issuer and audience
    /// (``consoleSessionIssuer``), so that an app's session cookie, which `createSessionCookie` mints for any ID
    /// token, never opens the console, and a console session never passes for an app's cookie. The ID token is
    /// checked as for ``mintSessionCookie(idToken:validDuration:)``.
    ///
    /// - Throws: `TOKEN_EXPIRED` for a revoked token, or what `authenticate(idToken:)` throws.
    public func mintConsoleSession(idToken: String?, lifetime: Int64) throws -> String {
        let verified = try unrevokedToMillisecond(idToken: idToken)
        var firebase: [String: JSONValue] = ["sign_in_provider": .string(verified.user.session.signInProvider)]
        if let factor = verified.user.session.secondFactor { firebase["sign_in_second_factor"] = .string(factor) }
        let claims: [String: JSONValue] = [
            "iss": .string(Self.consoleSessionIssuer), "aud": .string(Self.consoleSessionAudience(project.projectID)),
            "sub": .string(verified.user.account.localID), "auth_time": .integer(verified.user.session.authTime),
            "firebase": .object(firebase),
        ]
        return try signCookie(claims, lifetime: lifetime)
    }

    /// The account of a console session (``mintConsoleSession(idToken:lifetime:)``) that is still valid: signed
    /// with a published key, the console's issuer and this project's audience, unexpired, its account existing and
    /// enabled, and signed no earlier than the account's `validSince`, compared in milliseconds. Nil for anything
    /// else: an app's session cookie, an ID token, an expired or revoked session.
    /// - Throws: only the store's errors.
    public func consoleSessionAccount(_ session: String) throws -> Account? {
        guard let verified = try? keys.verify(session),
            case .object(let claims)? = try? JSONValue(parsing: verified.payload),
            (try? Self.consoleSessionPolicy(project).check(claims, now: time.nowSeconds)) != nil,
            let subject = claims["sub"]?.stringValue, !subject.isEmpty,
            let issuedAtMillis = Self.issuedAtMillis(claims)
        else { return nil }
        guard let account = try store.read({ try $0.account(localID: subject) }), !account.disabled,
            issuedAtMillis >= account.validSinceMillis
        else { return nil }
        return account
    }

    /// `claims` issued now for `lifetime` seconds, with the millisecond they were signed, signed with the session keys.
    /// Console sessions: the console's issuer and audience, unexpired, not issued in the future.
    private static func consoleSessionPolicy(_ project: ProjectConfiguration) -> ClaimsPolicy {
        .ownTokens(
            issuer: consoleSessionIssuer, audience: consoleSessionAudience(project.projectID), project: project,
            required: [.expiresAt, .issuedAt])
    }

    private func signCookie(_ claims: [String: JSONValue], lifetime: Int64) throws -> String {
        var claims = claims
        let nowMillis = time.nowMillis
        claims["iat"] = .integer(nowMillis / 1000)
        claims["exp"] = .integer(nowMillis / 1000 + lifetime)
        var firebase = claims["firebase"]?.objectValue ?? [:]
        firebase[Self.issuedAtMillisClaim] = .integer(nowMillis)
        claims["firebase"] = .object(firebase)
        return try keys.current().signer.sign(payload: JSONValue.object(claims).jsonData())
    }

    /// The millisecond a Hearth token was signed (``issuedAtMillisClaim``), if it says so and agrees with its `iat`.
    static func issuedAtMillis(_ claims: [String: JSONValue]) -> Int64? {
        guard case .integer(let millis)? = claims["firebase"]?.objectValue?[issuedAtMillisClaim],
            let issuedAt = NumericDate(claims["iat"])?.secondsSince1970, millis >= 0, millis / 1000 == issuedAt
        else { return nil }
        return millis
    }

    /// An ID token checked as `authenticate(idToken:)` checks it, and not revoked to the millisecond: signed no
    /// earlier than the account's `validSince` (a token from before Hearth wrote ``issuedAtMillisClaim`` counts as
    /// signed at the start of its `iat` second, so it is refused in the second of a revocation).
    private func unrevokedToMillisecond(idToken: String?) throws -> (claims: [String: JSONValue], user: AuthenticatedUser) {
        let verified = try verified(idToken: idToken)
        let issuedAtMillis = Self.issuedAtMillis(verified.claims) ?? verified.user.issuedAt * 1000
        guard issuedAtMillis >= verified.user.account.validSinceMillis else { throw WireError(.tokenExpired) }
        return verified
    }

    private func verified(idToken: String?) throws -> (claims: [String: JSONValue], user: AuthenticatedUser) {
        guard let idToken, !idToken.isEmpty else { throw WireError(.missingIDToken) }
        let verified: VerifiedJWT
        do {
            verified = try keys.verify(idToken)
        } catch {
            throw WireError(.invalidIDToken)
        }
        guard case .object(let claims)? = try? JSONValue(parsing: verified.payload),
            let subject = claims["sub"]?.stringValue, !subject.isEmpty, subject.count <= 128,
            let firebase = claims["firebase"]?.objectValue,
            let provider = firebase["sign_in_provider"]?.stringValue
        else { throw WireError(.invalidIDToken) }
        // Signed by this server for another scope (a tenant's token at the project, or at another tenant).
        guard firebase["tenant"]?.stringValue == tenantID else { throw Self.tenantMismatch }
        let policy = ClaimsPolicy.ownTokens(
            issuer: project.issuer, audience: project.projectID, project: project,
            required: [.issuedAt, .expiresAt, .authTime])
        let times: TokenTimes
        do {
            times = try policy.check(claims, now: time.nowSeconds).times
        } catch .expired {
            throw WireError(.tokenExpired)
        } catch {
            throw WireError(.invalidIDToken)
        }
        guard let issuedAt = times.issuedAt?.secondsSince1970, let authTime = times.authTime?.secondsSince1970 else {
            throw WireError(.invalidIDToken)
        }
        guard let account = try store.read({ try $0.account(localID: subject) }) else {
            throw WireError(.userNotFound)
        }
        guard !account.disabled else { throw WireError(.userDisabled) }
        // Second precision, as Firebase compares `iat` with `validSince`.
        guard issuedAt >= account.validSinceMillis / 1000 else { throw WireError(.tokenExpired) }
        let session = Session(
            signInProvider: provider, authTime: authTime,
            secondFactor: firebase["sign_in_second_factor"]?.stringValue,
            secondFactorIdentifier: firebase["second_factor_identifier"]?.stringValue)
        return (claims, AuthenticatedUser(account: account, session: session, issuedAt: issuedAt))
    }
}
