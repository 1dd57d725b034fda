import Foundation
public import HearthProtocol
import JOSE

/// `accounts:signInWithCustomToken` (PROTOCOL.md §3.4, §5.5): a backend signs a JWT with its service
/// account's key naming a `uid`; the client exchanges it for a session of that account, which is created
/// if it does not exist. `claims` in the token ride along in every ID token of the session
/// (`Session.sessionClaims`); `firebase.sign_in_provider` is `custom`. As in the emulator, no second factor
/// is asked for.
///
/// With `acceptsUnsignedTokens` (development only), the unsigned `alg: none` tokens firebase-admin makes in
/// emulator mode are accepted too, without their `iss`, `iat` or `exp` checked, as the emulator does.
public final class CustomTokenSignIn: Sendable {
    /// The `aud` of every custom token.
    public static let audience =
        "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
    /// The longest `uid` Firebase accepts.
    static let maximumUIDLength = 128

    private let project: ProjectConfiguration
    private let store: any HearthStore
    private let tokens: TokenService
    private let time: any TimeSource
    private let limiter: RateLimiter
    private let acceptsUnsignedTokens: Bool
    private let audit: AuditRecorder

    /// - Parameter audit: records sign-ins, accounts made by them, and refused tokens.
    public init(
        project: ProjectConfiguration, store: any HearthStore, tokens: TokenService, time: any TimeSource,
        limiter: RateLimiter, acceptsUnsignedTokens: Bool, audit: AuditLog = AuditLog()
    ) {
        self.audit = AuditRecorder(audit, time: time)
        self.project = project
        self.store = store
        self.tokens = tokens
        self.time = time
        self.limiter = limiter
        self.acceptsUnsignedTokens = acceptsUnsignedTokens
    }

    /// Signs in with `request.token`. A refusal (other than throttling) is recorded as `sign_in_failed`, without
    /// the token or its uid.
    /// - Parameter client: the caller's address as limits see it; nil for in-process callers.
    public func signIn(_ request: SignInWithCustomTokenRequest, client: String? = nil) throws
        -> SignInWithCustomTokenResponse
    {
        do {
            return try exchange(request, client: client)
        } catch let error as WireError where error.code != .tooManyAttemptsTryLater {
            audit.recordRefusal(.signInFailed, provider: Self.providerID, client: client, code: error.code, in: store)
            throw error
        }
    }

    /// The `sign_in_provider` of custom-token sessions.
    static let providerID = "custom"

    private func exchange(_ request: SignInWithCustomTokenRequest, client: String?) throws
        -> SignInWithCustomTokenResponse
    {
        guard let token = request.token, !token.isEmpty else { throw WireError(.missingCustomToken) }
        let claims = try verifiedClaims(token)
        guard claims["aud"]?.stringValue == Self.audience else {
            throw Self.invalid("Invalid aud (audience). Firebase ID tokens and other tokens cannot be used here.")
        }
        if let tenant = claims["tenant_id"]?.stringValue, !tenant.isEmpty {
            throw WireError(.tenantIDMismatch, "This Hearth server has no tenants.")
        }
        guard let uid = (claims["uid"] ?? claims["user_id"])?.stringValue, !uid.isEmpty else {
            throw WireError(.missingIdentifier)
        }
        guard uid.count <= Self.maximumUIDLength else {
            throw Self.invalid("The uid must be at most \(Self.maximumUIDLength) characters.")
        }
        let sessionClaims = try Self.checkedClaims(claims["claims"])

        let now = time.nowMillis
        let session = Session(signInProvider: Self.providerID, authTime: now / 1000, sessionClaims: sessionClaims)
        let takes = RateLimitTakes(limiter)
        let (account, refreshToken, isNewUser) = try store.write { writer -> (Account, String, Bool) in
            var account: Account
            let isNewUser: Bool
            if let existing = try writer.account(localID: uid) {
                guard !existing.disabled else { throw WireError(.userDisabled) }
                account = existing
                isNewUser = false
            } else {
                account = Account(localID: uid, createdAtMillis: now, validSinceMillis: now)
                isNewUser = true
            }
            let bucket: RateLimiter.Bucket = isNewUser ? .accountCreationPerClient : .signInPerAccount
            guard takes.take(bucket, key: isNewUser ? client : uid) else {
                throw WireError(.tooManyAttemptsTryLater, "Too many sign-ins; try again later.")
            }
            account.recordSignIn(atMillis: now)
            isNewUser ? try writer.insertAccount(account) : try writer.updateAccount(account)
            try audit.record(
                isNewUser ? .signUp : .signIn, localID: uid, provider: Self.providerID, client: client, in: writer)
            return (account, try tokens.newRefreshToken(for: account, session: session, writer: writer), isNewUser)
        }
        return SignInWithCustomTokenResponse(
            idToken: try tokens.mintIDToken(for: account, session: session), refreshToken: refreshToken,
            expiresIn: tokens.expiresIn, isNewUser: isNewUser)
    }

    /// The token's claims once its signature (or, in development, its being unsigned) and, for signed
    /// tokens, its signer and lifetime are accepted.
    private func verifiedClaims(_ token: String) throws -> [String: JSONValue] {
        guard let (header, payload) = try? InsecureJWT.decodeWithoutVerifying(token),
            case .object(let unverified)? = try? JSONValue(parsing: payload)
        else { throw Self.invalid("Invalid assertion format.") }
        if header.alg.lowercased() == "none" {
            guard acceptsUnsignedTokens else {
                throw Self.invalid("Unsigned custom tokens are accepted only by a development server (--dev).")
            }
            return unverified
        }
        let verified = try ServiceAccountAssertion.verify(token, store: store, refusal: Self.invalid)
        let claims = verified.claims
        guard claims["sub"]?.stringValue?.lowercased() == verified.account.email else {
            throw Self.invalid("The token's sub must be its signer's email, like its iss.")
        }
        if let problem = AssertionLifetime.problem(claims, now: time.nowSeconds, skew: project.clockSkew) {
            throw Self.invalid(problem)
        }
        return claims
    }

    /// The token's `claims`, checked by the rules of a user's custom claims (`CustomClaims.check`), so claims
    /// that fit one fit the other.
    static func checkedClaims(_ value: JSONValue?) throws -> [String: JSONValue]? {
        guard let value, value != .null else { return nil }
        guard case .object(let claims) = value else {
            throw WireError(.invalidClaims, "The claims must be a JSON object.")
        }
        try CustomClaims.check(claims, text: String(decoding: value.jsonData(), as: UTF8.self))
        return claims.isEmpty ? nil : claims
    }

    private static func invalid(_ detail: String) -> WireError { WireError(.invalidCustomToken, detail) }
}
