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
    private let completion: SignInCompletion
    /// The tenant of the store's scope; nil for the project.
    private let tenantID: String?

    /// - Parameters:
    ///   - context: the project, store, clock and rate limiter; its audit log records sign-ins, accounts made by
    ///     them, and refused tokens.
    ///   - mfa: the project's second factors (a custom token asks for none, as in the emulator).
    public init(context: ServiceContext, tokens: TokenService, mfa: MFAService, acceptsUnsignedTokens: Bool) {
        audit = context.auditRecorder
        completion = SignInCompletion(tokens: tokens, mfa: mfa, audit: audit)
        project = context.project
        store = context.store
        tenantID = context.store.scope.tenant
        self.tokens = tokens
        time = context.time
        limiter = context.rateLimiter
        self.acceptsUnsignedTokens = acceptsUnsignedTokens
    }

    /// Signs in with `request.token`. A refusal (other than throttling) is recorded as `sign_in_failed`, without
    /// the token or its uid.
    /// - Parameter caller: who signs in; its address is limited and recorded.
    public func signIn(_ request: SignInWithCustomTokenRequest, by caller: Caller) throws
        -> SignInWithCustomTokenResponse
    {
        do {
            return try exchange(request, by: caller)
        } catch let refusal as RecordedRefusal {
            throw refusal.error
        } catch let error as WireError where error.code != .tooManyAttemptsTryLater {
            audit.recordRefusal(.signInFailed, provider: Self.providerID, by: caller, code: error.code, in: store)
            throw error
        }
    }

    /// The `sign_in_provider` of custom-token sessions.
    static let providerID = "custom"

    private func exchange(_ request: SignInWithCustomTokenRequest, by caller: Caller) throws
        -> SignInWithCustomTokenResponse
    {
        guard let token = request.token, !token.isEmpty else { throw WireError(.missingCustomToken) }
        let claims = try verifiedClaims(token)
        guard claims["aud"]?.stringValue == Self.audience else {
            throw Self.invalid("Invalid aud (audience). Firebase ID tokens and other tokens cannot be used here.")
        }
        // `auth_for_tenant(t).create_custom_token` names the tenant; such a token signs in to that tenant only, and
        // a tenant takes only its own tokens (as the emulator checks).
        let tenant = claims["tenant_id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        guard tenant == tenantID else {
            throw WireError(.tenantIDMismatch, "The custom token is for another tenant than the request names.")
        }
        guard let uid = (claims["uid"] ?? claims["user_id"])?.stringValue, !uid.isEmpty else {
            throw WireError(.missingIdentifier)
        }
        guard uid.count <= Self.maximumUIDLength else {
            throw Self.invalid("The uid must be at most \(Self.maximumUIDLength) characters.")
        }
        let sessionClaims = try Self.checkedClaims(claims["claims"])

        var authentication = Authentication(.uid(uid), signInProvider: Self.providerID)
        authentication.sessionClaims = sessionClaims
        authentication.asksSecondFactor = false
        let now = time.nowMillis
        let takes = RateLimitTakes(limiter)
        let decision = try store.write { writer in
            try completion.signIn(
                authentication, SignInCompletion.Context(writer: writer, nowMillis: now, caller: caller, takes: takes))
        }
        switch decision {
        case .session(let signedIn):
            return SignInWithCustomTokenResponse(signedIn, try tokens.issue(signedIn))
        case .refused(let error):
            throw RecordedRefusal(error: error)
        case .secondFactor, .needsConfirmation:
            throw WireError(.internalError)
        }
    }

    /// A refusal the sign-in's write recorded already (a disabled account).
    private struct RecordedRefusal: Error {
        let error: WireError
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
