import Foundation
public import HearthProtocol
import JOSE

/// Mints ID and refresh tokens, refreshes sessions, and authenticates presented ID tokens.
///
/// ID tokens follow PROTOCOL.md §5.1: RS256 with `kid`, `iss`/`aud` of the project, `auth_time`
/// fixed for the session, `firebase.identities` and `firebase.sign_in_provider`, custom claims merged
/// under the reserved names. Refresh tokens are 256-bit random strings; the store keeps their SHA-256.
///
/// Sessions follow `SessionPolicy`: each refresh rotates the refresh token; the rotated token, presented
/// again within the grace window, is answered with the same successor (a retried lost response), and
/// after it revokes the whole session (reuse of a stolen token). An account keeps at most
/// `maximumSessionsPerAccount` live sessions.
public final class TokenService: Sendable {
    private let project: ProjectConfiguration
    private let store: any HearthStore
    private let keys: SigningKeyRing
    private let time: any TimeSource
    private let policy: SessionPolicy

    public init(
        project: ProjectConfiguration, store: any HearthStore, keys: SigningKeyRing, time: any TimeSource,
        policy: SessionPolicy = SessionPolicy()
    ) {
        self.project = project
        self.store = store
        self.keys = keys
        self.time = time
        self.policy = policy
    }

    /// A refresh token for a new session, stored (by hash) through `writer`. If the account then has
    /// more live sessions than the policy allows, the oldest ones (by sign-in) are revoked in the same
    /// transaction. The ID token is minted separately, after the transaction commits, so signing never
    /// holds the store's write lock.
    public func newRefreshToken(for account: Account, session: Session, writer: any StoreWriter) throws -> String {
        let refreshToken = Identifiers.secret()
        let now = time.nowMillis
        let sessionClaimsText = session.sessionClaims.map {
            String(decoding: JSONValue.object($0).jsonData(sortedKeys: true), as: UTF8.self)
        }
        // Make room first, so the new session is never the one revoked.
        let beyondCap = try writer.liveSessionIDs(
            localID: account.localID, skippingNewest: policy.maximumSessionsPerAccount - 1)
        for sessionID in beyondCap {
            try writer.revokeSession(sessionID, atMillis: now)
        }
        try writer.insertRefreshToken(
            RefreshTokenRecord(
                tokenHash: Identifiers.hash(refreshToken), localID: account.localID,
                signInProvider: session.signInProvider, authTime: session.authTime, secondFactor: session.secondFactor,
                secondFactorIdentifier: session.secondFactorIdentifier, sessionClaims: sessionClaimsText,
                createdAtMillis: now))
        return refreshToken
    }

    /// The `expiresIn` value clients get with every ID token.
    public var expiresIn: String { String(project.idTokenLifetime) }

    /// An ID token for `account` in `session`.
    public func mintIDToken(for account: Account, session: Session) throws -> String {
        let now = time.nowSeconds
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
        claims["firebase"] = .object(firebase)
        return try keys.current().signer.sign(payload: JSONValue.object(claims).jsonData())
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
    /// `USER_DISABLED` and `USER_NOT_FOUND` as Firebase does. Presenting a rotated token after the
    /// grace window revokes its session, commits that, and answers `TOKEN_EXPIRED`.
    public func refresh(_ request: RefreshTokenRequest) throws -> RefreshTokenResponse {
        guard let grantType = request.grantType, !grantType.isEmpty else { throw WireError(.missingGrantType) }
        guard grantType == "refresh_token" else { throw WireError(.invalidGrantType) }
        guard let refreshToken = request.refreshToken, !refreshToken.isEmpty else {
            throw WireError(.missingRefreshToken)
        }
        let hash = Identifiers.hash(refreshToken)
        // Checks that need no write first, so refused tokens never wait for the writer.
        let (record, account) = try store.read { reader -> (RefreshTokenRecord?, Account?) in
            guard let record = try reader.refreshToken(hash: hash) else { return (nil, nil) }
            return (record, try reader.account(localID: record.localID))
        }
        guard let record else { throw WireError(.invalidRefreshToken) }
        guard let account else { throw WireError(.userNotFound) }
        guard !account.disabled else { throw WireError(.userDisabled) }
        guard record.revokedAtMillis == nil, record.sessionStartedAtMillis >= account.validSinceMillis else {
            throw Self.sessionEnded
        }
        let now = time.nowMillis
        let nextRefreshToken: String
        switch try store.write({ writer in try exchange(refreshToken, hash: hash, at: now, writer: writer) }) {
        case .issued(let token): nextRefreshToken = token
        case .refused(let error): throw error
        }
        let session = Session(
            signInProvider: record.signInProvider, authTime: record.authTime, secondFactor: record.secondFactor,
            secondFactorIdentifier: record.secondFactorIdentifier,
            sessionClaims: record.sessionClaims.flatMap { try? JSONValue(parsing: Data($0.utf8)).objectValue })
        // Signed after the write, so signing never holds the store's write lock.
        let idToken = try mintIDToken(for: account, session: session)
        return RefreshTokenResponse(
            idToken: idToken, expiresIn: expiresIn, refreshToken: nextRefreshToken, userId: account.localID,
            projectId: project.projectNumber)
    }

    /// What a refresh's write decided. A refusal is thrown only after the write returns, so that what
    /// the write did (revoking a reused token's session) is committed.
    private enum Exchange {
        case issued(refreshToken: String)
        case refused(WireError)
    }

    private static let sessionEnded = WireError(
        .tokenExpired, "The user's credential is no longer valid. The user must sign in again.")

    /// The check-and-rotate of one refresh, in one write transaction: concurrent refreshes of one token
    /// see each other's rotation, so a session never forks.
    private func exchange(_ presented: String, hash: String, at now: Int64, writer: any StoreWriter) throws -> Exchange {
        // Read again: a refresh of the same token may have committed since the read.
        guard let record = try writer.refreshToken(hash: hash) else { return .refused(WireError(.invalidRefreshToken)) }
        guard record.revokedAtMillis == nil else { return .refused(Self.sessionEnded) }
        if let rotatedAt = record.rotatedAtMillis {
            if now - rotatedAt < policy.reuseGraceMillis,
                let successor = SuccessorSeal.open(record.sealedSuccessor, under: presented),
                try writer.refreshToken(hash: Identifiers.hash(successor)) != nil
            {
                try writer.recordRefresh(localID: record.localID, atMillis: now)
                return .issued(refreshToken: successor)
            }
            try writer.revokeSession(record.sessionID, atMillis: now)
            return .refused(Self.sessionEnded)
        }
        var next = presented
        if policy.rotatesRefreshTokens {
            next = Identifiers.secret()
            do {
                try writer.insertRefreshToken(record.successor(hash: Identifiers.hash(next), at: now))
            } catch let error as StoreError where error.code == .notFound {
                return .refused(WireError(.userNotFound))  // the account was deleted since the read
            }
            try writer.markRefreshTokenRotated(
                hash: hash, atMillis: now, sealedSuccessor: SuccessorSeal.seal(next, under: presented))
        }
        try writer.recordRefresh(localID: record.localID, atMillis: now)
        return .issued(refreshToken: next)
    }

    /// Checks a presented Hearth ID token: signature with a published key (reloading keys once for an
    /// unknown `kid`), issuer, audience, expiry, then that the account exists, is enabled and has not
    /// revoked the token.
    public func authenticate(idToken: String?) throws -> AuthenticatedUser {
        guard let idToken, !idToken.isEmpty else { throw WireError(.missingIDToken) }
        let verified: VerifiedJWT
        do {
            verified = try verifySignature(idToken)
        } catch {
            throw WireError(.invalidIDToken)
        }
        guard case .object(let claims)? = try? JSONValue(parsing: verified.payload),
            claims["iss"]?.stringValue == project.issuer,
            claims["aud"]?.stringValue == project.projectID,
            let subject = claims["sub"]?.stringValue, !subject.isEmpty, subject.count <= 128,
            let issuedAt = NumericDate(claims["iat"])?.secondsSince1970,
            let expiresAt = NumericDate(claims["exp"])?.secondsSince1970,
            let authTime = NumericDate(claims["auth_time"])?.secondsSince1970,
            let firebase = claims["firebase"]?.objectValue,
            let provider = firebase["sign_in_provider"]?.stringValue
        else { throw WireError(.invalidIDToken) }
        let now = time.nowSeconds
        guard issuedAt <= now + project.clockSkew else { throw WireError(.invalidIDToken) }
        guard expiresAt > now else { throw WireError(.tokenExpired) }
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
        return AuthenticatedUser(account: account, session: session, issuedAt: issuedAt)
    }

    private func verifySignature(_ token: String) throws -> VerifiedJWT {
        do {
            return try keys.current().verification.verify(token)
        } catch let error as JOSEError where error.code == .unknownKeyID {
            return try keys.reload().verification.verify(token)
        }
    }
}
