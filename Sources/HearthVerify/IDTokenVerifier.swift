import Dispatch
public import Foundation
public import HearthOutbound
public import HearthProtocol
import JOSE

/// Verifies Hearth (and Firebase) ID tokens: the RS256 signature against the server's JWKS, then the claims.
///
/// A token is accepted when, in this order:
/// 1. it is a compact JWS with `alg` `RS256` and a `kid` naming a key in the JWKS (the key's own algorithm decides,
///    `none` and HMAC are never accepted, and there is no fallback to another key), and the signature verifies;
/// 2. `aud` is the project ID (a string, or an array containing it);
/// 3. `iss` is one of the configured issuers;
/// 4. `sub` is a non-empty string of at most 128 characters (it becomes ``VerifiedToken/uid``);
/// 5. `exp` is later than now minus the clock skew;
/// 6. `iat` is no later than now plus the clock skew;
/// 7. `auth_time` is present and no later than now plus the clock skew;
/// 8. `firebase.tenant` is what ``tenantCheck`` requires (any tenant or none, by default).
///
/// Keys live in HearthProtocol's `KeySetCache`, the cache Hearth's server uses for Google's keys: kept for the JWKS
/// response's `max-age` (see ``keyLifetimeRange``), fetched by one caller at a time while the others wait, refetched
/// when a token names an unknown `kid` at most once per ``unknownKeyRefetchInterval``, and after a failed fetch not
/// fetched again for ``failedFetchRetryInterval`` (doubling while failures continue), the old keys staying in use.
/// Copies of a verifier share one cache, and every method is safe to call from many threads at once.
///
/// ```swift
/// let verifier = IDTokenVerifier(hearthURL: URL(string: "http://127.0.0.1:9099")!, projectID: "demo-hearth")
/// guard let token = BearerToken.extract(fromAuthorizationHeader: request.header("Authorization")) else { … }
/// do {
///     let user = try verifier.verify(token)
///     // user.uid, user.email, user.claims["role"] …
/// } catch {
///     // 401 (or 503 for error.httpStatus == 503), WWW-Authenticate: error.wwwAuthenticateHeader
/// }
/// ```
public struct IDTokenVerifier: Sendable {
    /// How long keys are cached when the JWKS response has no `max-age`, in seconds.
    public static let defaultKeyLifetime: TimeInterval = keyCachePolicy.defaultLifetime
    /// Bounds applied to a response's `max-age`: at least 30 s (so `no-cache` and `no-store` cannot make every
    /// verify fetch: such keys are used for 30 s, then fetched again) and at most a day (so a removed key is not
    /// trusted for long).
    public static let keyLifetimeRange: ClosedRange<TimeInterval> = keyCachePolicy.lifetimeRange
    /// The shortest time between two refetches caused by unknown `kid`s, in seconds.
    public static let unknownKeyRefetchInterval: TimeInterval = keyCachePolicy.unknownKeyRefetchInterval
    /// How long after a failed fetch the next attempt waits, in seconds; it doubles with each further consecutive
    /// failure, up to ``maximumFailedFetchRetryInterval``.
    public static let failedFetchRetryInterval: TimeInterval = keyCachePolicy.failureBackoff.lowerBound
    /// The longest wait between fetches while fetching keeps failing, in seconds.
    public static let maximumFailedFetchRetryInterval: TimeInterval = keyCachePolicy.failureBackoff.upperBound
    private static let keyCachePolicy = KeySetCachePolicy()
    /// Tokens longer than this many bytes are refused without parsing (Hearth's are about 1 KB).
    public static let maximumTokenLength = 16 * 1024

    /// The project ID every token's `aud` must be.
    public let projectID: String
    /// The `iss` values a token may carry.
    public let issuers: [String]
    /// The first of ``issuers``, the one error reasons name.
    public var issuer: String { issuers[0] }
    /// Where the keys come from.
    public let jwksURL: URL
    /// How far the clocks of Hearth and this backend may disagree, in seconds.
    public let clockSkew: TimeInterval
    /// Which tenant's tokens are accepted; ``TenantCheck/any`` unless made with ``requiring(_:)``.
    public private(set) var tenantCheck = TenantCheck.any

    /// Which Identity Platform tenant (`firebase.tenant`) a token must belong to.
    public enum TenantCheck: Sendable, Equatable {
        /// Tokens of the project and of every tenant (firebase-admin's project-level `verify_id_token`).
        case any
        /// Only the project's own tokens: a token that names a tenant is refused.
        case projectOnly
        /// Only the tokens of this tenant (firebase-admin's `auth_for_tenant(id).verify_id_token`).
        case tenant(String)
    }

    private let clock: @Sendable () -> Date
    /// `iss` ∈ ``issuers``, `aud` ∋ ``projectID``, and `exp`, `iat`, `auth_time` (and `nbf` when present) with ``clockSkew``.
    private let claimsPolicy: ClaimsPolicy
    private let http: any OutboundHTTP
    let cache: KeySetCache<JWTKeySet>

    /// Creates a verifier for any issuer and key location.
    ///
    /// - Parameters:
    ///   - projectID: the project ID, which every token's `aud` must be.
    ///   - issuer: the `iss` to require. Hearth's is `"<hearth URL>/<projectID>"` in production; with `--dev` or `--firebase-issuer`
    ///     (the firebase-admin style) it is `"https://securetoken.google.com/<projectID>"`.
    ///   - jwksURL: the key set, such as `<hearth URL>/.well-known/jwks.json`.
    ///   - clockSkew: seconds of clock difference to tolerate in `exp`, `iat`, `auth_time` and `nbf` (0…300).
    ///   - http: how the key set is fetched (a GET of `jwksURL`; a 10-second timeout by default).
    ///   - clock: the current time.
    public init(
        projectID: String, issuer: String, jwksURL: URL, clockSkew: TimeInterval = 60,
        http: any OutboundHTTP = URLSessionOutboundHTTP(timeout: 10), clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.init(projectID: projectID, issuers: [issuer], jwksURL: jwksURL, clockSkew: clockSkew, http: http, clock: clock)
    }

    /// Creates a verifier that accepts any of several issuer names for the keys at `jwksURL`; see
    /// ``init(projectID:issuer:jwksURL:clockSkew:http:clock:)``.
    public init(
        projectID: String, issuers: [String], jwksURL: URL, clockSkew: TimeInterval = 60,
        http: any OutboundHTTP = URLSessionOutboundHTTP(timeout: 10), clock: @escaping @Sendable () -> Date = Date.init
    ) {
        precondition(!projectID.isEmpty, "IDTokenVerifier needs a project ID")
        precondition(!issuers.isEmpty && !issuers.contains(""), "IDTokenVerifier needs issuers")
        precondition((0...300).contains(clockSkew), "clockSkew must be between 0 and 300 seconds")
        self.projectID = projectID
        self.issuers = issuers
        self.jwksURL = jwksURL
        self.clockSkew = clockSkew
        self.claimsPolicy = ClaimsPolicy(
            issuers: Set(issuers), audiences: [projectID], leeway: clockSkew,
            required: [.expiresAt, .issuedAt, .authTime])
        self.clock = clock
        self.http = http
        self.cache = KeySetCache(policy: Self.keyCachePolicy, clock: clock)
    }

    /// Creates a verifier for a Hearth server: keys from `<hearthURL>/.well-known/jwks.json`, and either of the
    /// issuer names Hearth can give its tokens, `<hearthURL>/<projectID>` (its default) and
    /// `https://securetoken.google.com/<projectID>` (with `--dev`, or `--firebase-issuer`). Both name tokens
    /// signed with that server's keys.
    ///
    /// - Parameters:
    ///   - hearthURL: the server's public URL (`--public-url`), such as `http://127.0.0.1:9099`.
    ///   - projectID: the project ID (`--project-id`; `demo-hearth` with `--dev`).
    ///   - clockSkew: seconds of clock difference to tolerate (0…300).
    public init(hearthURL: URL, projectID: String, clockSkew: TimeInterval = 60) {
        let base = hearthURL.absoluteString.hasSuffix("/") ? String(hearthURL.absoluteString.dropLast()) : hearthURL.absoluteString
        guard let jwksURL = URL(string: base + "/.well-known/jwks.json") else {
            preconditionFailure("a URL with a path appended is still a URL")
        }
        self.init(
            projectID: projectID, issuers: [base + "/" + projectID, "https://securetoken.google.com/" + projectID],
            jwksURL: jwksURL, clockSkew: clockSkew)
    }

    /// This verifier, accepting only the tokens `check` allows (refused ones throw
    /// ``VerificationError/Code/wrongTenant``); it shares the key cache with this one.
    ///
    /// ```swift
    /// let acme = verifier.requiring(.tenant("acme-x4k2q"))
    /// ```
    public func requiring(_ check: TenantCheck) -> IDTokenVerifier {
        var copy = self
        copy.tenantCheck = check
        return copy
    }

    /// Verifies a token, blocking the calling thread while keys are fetched (only when they are missing, expired,
    /// or the token's `kid` is new).
    ///
    /// Safe to call from synchronous request handlers on any thread. In async code Swift picks the `async` overload
    /// instead, which never blocks the cooperative thread pool.
    ///
    /// - Parameter token: the compact ID token, as sent (see ``BearerToken/extract(fromAuthorizationHeader:)``).
    /// - Returns: the verified token.
    /// - Throws: ``VerificationError``; its code says why.
    public func verify(_ token: String) throws(VerificationError) -> VerifiedToken {
        guard let verified = try attemptVerify(token, mayBlock: true) else {
            preconditionFailure("a verify that may block always finishes")
        }
        return verified
    }

    /// Verifies a token without blocking the cooperative thread pool: with warm keys it runs inline; when keys must
    /// be fetched or waited for, that happens on a Dispatch thread.
    ///
    /// - Parameter token: the compact ID token.
    /// - Returns: the verified token.
    /// - Throws: ``VerificationError``.
    public func verify(_ token: String) async throws(VerificationError) -> VerifiedToken {
        if let verified = try attemptVerify(token, mayBlock: false) { return verified }
        return try await Self.offPool { () throws(VerificationError) -> VerifiedToken in
            try self.verify(token)
        }
    }

    /// Verifies a token, then asks Hearth whether its user is disabled or deleted, or its sessions were revoked
    /// after the token was issued (one `accounts:lookup` request per call; blocking).
    ///
    /// - Parameters:
    ///   - token: the compact ID token.
    ///   - checkRevoked: where and how to ask Hearth.
    /// - Returns: the verified token.
    /// - Throws: ``VerificationError``: any code of `verify(_:)`, or ``VerificationError/Code/revoked``,
    ///   ``VerificationError/Code/userDisabled``, ``VerificationError/Code/userNotFound``,
    ///   ``VerificationError/Code/revocationCheckFailed``.
    public func verify(_ token: String, checkRevoked: RevocationCheck) throws(VerificationError) -> VerifiedToken {
        let verified = try verify(token)
        try checkRevoked.check(token: token, verified: verified)
        return verified
    }

    /// `verify(_:checkRevoked:)` for async code: key fetches and the lookup run on a Dispatch thread.
    public func verify(_ token: String, checkRevoked: RevocationCheck) async throws(VerificationError) -> VerifiedToken {
        let verified: VerifiedToken = try await verify(token)
        try await Self.offPool { () throws(VerificationError) -> Void in
            try checkRevoked.check(token: token, verified: verified)
        }
        return verified
    }

    // MARK: - Internals

    /// Verifies `token`; returns `nil` only when `mayBlock` is false and keys would have to be fetched or waited for.
    func attemptVerify(_ token: String, mayBlock: Bool) throws(VerificationError) -> VerifiedToken? {
        guard !token.isEmpty else {
            throw VerificationError(.missingToken, reason: "no ID token was given")
        }
        guard token.utf8.count <= Self.maximumTokenLength else {
            throw VerificationError(.malformedToken, reason: "the token is longer than \(Self.maximumTokenLength) bytes")
        }
        guard let lookup = try keys(mayBlock: mayBlock) else { return nil }
        let jwt: VerifiedJWT
        switch Self.checkSignature(token, with: lookup.keys) {
        case .success(let verified):
            jwt = verified
        case .failure(let error) where error.code == .unknownKeyID:
            // Refuse tokens that could never verify before letting them cause a fetch, and do not fetch again
            // when this call has just fetched.
            try Self.requireRS256Header(token)
            guard !lookup.justFetched else { throw Self.translate(error) }
            guard let newer = try keysAfterUnknownKeyID(mayBlock: mayBlock) else { return nil }
            jwt = try Self.checkSignature(token, with: newer).mapError(Self.translate).get()
        case .failure(let error):
            throw Self.translate(error)
        }
        return try checkClaims(of: jwt)
    }

    /// The cached keys, or fetched ones when `mayBlock`; nil when getting them would block and `mayBlock` is false.
    private func keys(mayBlock: Bool) throws(VerificationError) -> KeySetCache<JWTKeySet>.Lookup? {
        do throws(KeySetUnavailable) {
            return mayBlock ? try cache.keys(fetch: fetchKeys) : try cache.keysWithoutWaiting()
        } catch {
            throw Self.keysUnavailable(error)
        }
    }

    /// Keys to retry an unknown `kid` with; nil when getting them would block and `mayBlock` is false.
    private func keysAfterUnknownKeyID(mayBlock: Bool) throws(VerificationError) -> JWTKeySet? {
        do throws(KeySetUnavailable) {
            return mayBlock
                ? try cache.keysAfterUnknownKeyID(fetch: fetchKeys) : try cache.keysAfterUnknownKeyIDWithoutWaiting()
        } catch {
            throw Self.keysUnavailable(error)
        }
    }

    private func fetchKeys() throws -> KeySetCache<JWTKeySet>.Fetched {
        try JWTKeySet.fetch(from: jwksURL, over: http)
    }

    private static func keysUnavailable(_ error: KeySetUnavailable) -> VerificationError {
        VerificationError(.keysUnavailable, reason: "no verification keys: fetching the JWKS failed: \(error.reason)")
    }

    private static func checkSignature(_ token: String, with keys: JWTKeySet) -> Result<VerifiedJWT, JOSEError> {
        do throws(JOSEError) {
            return .success(try keys.verify(token))
        } catch {
            return .failure(error)
        }
    }

    /// Throws ``VerificationError/Code/unsupportedAlgorithm`` unless the header says RS256.
    private static func requireRS256Header(_ token: String) throws(VerificationError) {
        let header: JWSHeader
        do throws(JOSEError) {
            header = try InsecureJWT.decodeWithoutVerifying(token).header
        } catch {
            throw translate(error)
        }
        guard header.alg == JWSAlgorithm.rs256.rawValue else {
            throw VerificationError(
                .unsupportedAlgorithm, reason: "alg \(VerificationError.quoted(header.alg)) is not RS256")
        }
    }

    private static func translate(_ error: JOSEError) -> VerificationError {
        switch error.code {
        case .unsupportedAlgorithm, .algorithmMismatch:
            VerificationError(.unsupportedAlgorithm, reason: error.reason)
        case .missingKeyID:
            VerificationError(.missingKeyID, reason: error.reason)
        case .unknownKeyID:
            VerificationError(.unknownKeyID, reason: error.reason + " (the JWKS was refetched or was fetched recently)")
        case .invalidSignature:
            VerificationError(.invalidSignature, reason: error.reason)
        default:
            VerificationError(.malformedToken, reason: error.reason)
        }
    }

    private func checkClaims(of jwt: VerifiedJWT) throws(VerificationError) -> VerifiedToken {
        // One strict parse gives both the claims checked here and the `claims` dictionary the caller may read.
        let parsed: JSONValue
        do throws(JSONValue.ParseError) {
            parsed = try JSONValue(parsing: jwt.payload)
        } catch {
            throw VerificationError(
                .malformedToken, reason: "the payload is not valid JSON (byte \(error.offset): \(error.reason))")
        }
        guard case .object(let payload) = parsed else {
            throw VerificationError(.malformedToken, reason: "the payload is not a JSON object")
        }
        let claims: IDTokenClaims
        do throws(IDTokenClaims.ClaimTypeError) {
            claims = try IDTokenClaims(payload)
        } catch {
            throw VerificationError(.malformedToken, reason: "claim \"\(error.claim)\" is not \(error.expected)")
        }

        do throws(ClaimsViolation) {
            try claimsPolicy.checkAudience(claims.audiences)
        } catch {
            throw audienceError(claims.audience)
        }
        do throws(ClaimsViolation) {
            try claimsPolicy.checkIssuer(claims.issuer)
        } catch {
            throw issuerError(claims.issuer)
        }
        guard let subjectClaim = claims.subject else {
            throw VerificationError(.missingClaim, reason: "the token has no \"sub\" claim")
        }
        guard let uid = subjectClaim, !uid.isEmpty, uid.unicodeScalars.count <= 128 else {
            throw VerificationError(.invalidSubject, reason: "sub must be a non-empty string of at most 128 characters")
        }

        let now = clock()
        let times: TokenTimes
        do throws(ClaimsViolation) {
            times = try claimsPolicy.checkTimes(claims.times, now: now)
        } catch {
            throw Self.timeError(error, now: now)
        }
        guard let expiresAt = times.expiresAt, let issuedAt = times.issuedAt, let authTime = times.authTime else {
            preconditionFailure("the policy requires exp, iat and auth_time")
        }

        try checkTenant(claims.tenant)
        return VerifiedToken(
            uid: uid, email: claims.email, emailVerified: claims.emailVerified ?? false,
            signInProvider: claims.signInProvider, signInSecondFactor: claims.signInSecondFactor,
            tenantID: claims.tenant, authTime: authTime.date, issuedAt: issuedAt.date, expiresAt: expiresAt.date, claims: payload)
    }

    private func checkTenant(_ tenant: String?) throws(VerificationError) {
        switch (tenantCheck, tenant) {
        case (.any, _), (.projectOnly, nil):
            return
        case (.tenant(let required), let tenant?) where tenant == required:
            return
        case (.projectOnly, let tenant?):
            throw VerificationError(
                .wrongTenant, reason: "the token belongs to tenant \(VerificationError.quoted(tenant)), not to the project")
        case (.tenant(let required), let tenant):
            throw VerificationError(
                .wrongTenant,
                reason: "the token belongs to \(tenant.map { "tenant " + VerificationError.quoted($0) } ?? "the project"),"
                    + " expected tenant \(VerificationError.quoted(required))")
        }
    }

    private func audienceError(_ audience: IDTokenClaims.Audience?) -> VerificationError {
        switch audience {
        case nil:
            VerificationError(.missingClaim, reason: "the token has no \"aud\" claim")
        case .one(let audience):
            VerificationError(
                .wrongAudience, reason: "aud is \(VerificationError.quoted(audience)), expected \(VerificationError.quoted(projectID))")
        case .several:
            VerificationError(.wrongAudience, reason: "aud does not include \(VerificationError.quoted(projectID))")
        }
    }

    private func issuerError(_ tokenIssuer: String?) -> VerificationError {
        guard let tokenIssuer else {
            return VerificationError(.missingClaim, reason: "the token has no \"iss\" claim")
        }
        return VerificationError(
            .wrongIssuer,
            reason: "iss is \(VerificationError.quoted(tokenIssuer)), expected "
                + issuers.map(VerificationError.quoted).joined(separator: " or "))
    }

    /// The error for a time claim the policy refused.
    private static func timeError(_ violation: ClaimsViolation, now: Date) -> VerificationError {
        switch violation {
        case .missing(let claim):
            VerificationError(.missingClaim, reason: "the token has no \"\(claim)\" claim")
        case .expired(let expiresAt):
            VerificationError(.expired, reason: "the token expired \(seconds(from: expiresAt.date, to: now)) ago")
        case .issuedInFuture(let issuedAt):
            VerificationError(
                .issuedInFuture, reason: "the token is issued \(seconds(from: now, to: issuedAt.date)) in the future")
        case .authenticatedInFuture(let authTime):
            VerificationError(
                .authTimeInFuture,
                reason: "the token's auth_time is \(seconds(from: now, to: authTime.date)) in the future")
        case .notYetValid(let notBefore):
            VerificationError(
                .notYetValid, reason: "the token is not valid for \(seconds(from: now, to: notBefore.date)) more")
        case .wrongIssuer, .wrongAudience, .lifetimeTooLong:
            VerificationError(.malformedToken, reason: "\(violation)")
        }
    }

    /// Whole seconds from `start` to `end`, rounded up, for a reason (both are NumericDates or the clock, so the
    /// difference fits an `Int`).
    private static func seconds(from start: Date, to end: Date) -> String {
        "\(Int(end.timeIntervalSince(start).rounded(.up))) s"
    }

    /// Runs blocking work on a Dispatch thread and resumes the caller with its result.
    static func offPool<T: Sendable>(
        _ work: @escaping @Sendable () throws(VerificationError) -> T
    ) async throws(VerificationError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, VerificationError>, Never>) in
            DispatchQueue.global().async {
                do throws(VerificationError) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
