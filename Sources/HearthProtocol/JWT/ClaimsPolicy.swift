public import Foundation

/// The registered claims of a JWT as one rule set, shared by every checker in Hearth (provider ID tokens, custom
/// tokens, service-account assertions and access tokens, Apple client secrets, Hearth's own ID tokens and console
/// sessions, and HearthVerify), so that each reads `iss`, `aud` and the times the same way.
///
/// - `iss` must be one of ``issuers`` (when given); `aud`, a string or an array of strings (RFC 7519 §4.1.3), must
///   contain one of ``audiences`` (when given).
/// - Times are ``NumericDate``s. One leeway rule: a clock may be ``leeway`` seconds off, so `exp + leeway > now`,
///   and `iat`, `auth_time` and `nbf` each `- leeway <= now`. ``expiryLeeway`` replaces ``leeway`` for `exp` alone,
///   for tokens whose `exp` Hearth wrote itself and enforces to the second (Firebase's `TOKEN_EXPIRED` at `exp`).
/// - The time claims in ``required`` must be present; every time claim present is checked.
/// - With ``maximumLifetime``, `exp` must be after `iat` by at most that many seconds.
///
/// A refusal is a ``ClaimsViolation``, whose ``ClaimsViolation/code`` is stable; each checker maps it to its own
/// wire error. The checks run in this order: `iss`, `aud`, `exp`, `iat`, `auth_time`, `nbf`, lifetime.
///
/// ```swift
/// let policy = ClaimsPolicy(issuers: [issuer], audiences: [projectID], leeway: 300, required: [.expiresAt, .issuedAt])
/// let checked = try policy.check(claims, now: Date())
/// ```
public struct ClaimsPolicy: Sendable {
    /// A registered time claim.
    public enum TimeClaim: String, Sendable, Hashable, CaseIterable {
        case expiresAt = "exp"
        case issuedAt = "iat"
        case authTime = "auth_time"
        case notBefore = "nbf"
    }

    /// The accepted `iss` values; nil when the checker establishes the issuer otherwise.
    public var issuers: Set<String>?
    /// The accepted `aud` values; nil when the checker checks the audience otherwise.
    public var audiences: Set<String>?
    /// Seconds a clock may be off, for every time claim (unless ``expiryLeeway`` is set, for `exp`).
    public var leeway: TimeInterval
    /// The leeway for `exp` when it differs from ``leeway``.
    public var expiryLeeway: TimeInterval?
    /// The time claims a token must carry.
    public var required: Set<TimeClaim>
    /// The longest `exp - iat` accepted, in seconds; nil for no limit.
    public var maximumLifetime: Int64?

    public init(
        issuers: Set<String>? = nil, audiences: Set<String>? = nil, leeway: TimeInterval,
        expiryLeeway: TimeInterval? = nil, required: Set<TimeClaim> = [.expiresAt], maximumLifetime: Int64? = nil
    ) {
        self.issuers = issuers
        self.audiences = audiences
        self.leeway = leeway
        self.expiryLeeway = expiryLeeway
        self.required = required
        self.maximumLifetime = maximumLifetime
    }

    /// Every check, on a payload's claims.
    ///
    /// - Returns: the issuer, the audience that matched, and the times.
    public func check(_ claims: [String: JSONValue], now: Date) throws(ClaimsViolation) -> CheckedClaims {
        let issuer = try checkIssuer(claims["iss"]?.stringValue)
        let audience = try checkAudience(Self.audiences(claims["aud"]))
        let times = try checkTimes(TokenTimes(claims), now: now)
        return CheckedClaims(issuer: issuer, audience: audience, times: times)
    }

    /// ``check(_:now:)`` for a clock that reads whole seconds.
    public func check(_ claims: [String: JSONValue], now: Int64) throws(ClaimsViolation) -> CheckedClaims {
        try check(claims, now: Date(timeIntervalSince1970: TimeInterval(now)))
    }

    /// The `iss` check alone: returns `issuer`, or nil when the policy has no ``issuers``.
    @discardableResult
    public func checkIssuer(_ issuer: String?) throws(ClaimsViolation) -> String? {
        guard let issuers else { return issuer }
        guard let issuer else { throw .missing("iss") }
        guard issuers.contains(issuer) else { throw .wrongIssuer(issuer) }
        return issuer
    }

    /// The `aud` check alone, on its values (nil when absent or neither a string nor strings): returns the first that
    /// is accepted, or nil when the policy has no ``audiences``.
    @discardableResult
    public func checkAudience(_ values: [String]?) throws(ClaimsViolation) -> String? {
        guard let audiences else { return nil }
        guard let values else { throw .missing("aud") }
        guard let accepted = values.first(where: audiences.contains) else { throw .wrongAudience(values) }
        return accepted
    }

    /// The time checks alone.
    @discardableResult
    public func checkTimes(_ times: TokenTimes, now: Date) throws(ClaimsViolation) -> TokenTimes {
        if let expiresAt = try present(times.expiresAt, .expiresAt) {
            guard expiresAt.isAfter(now, leeway: expiryLeeway ?? leeway) else { throw .expired(expiresAt) }
        }
        if let issuedAt = try present(times.issuedAt, .issuedAt) {
            guard issuedAt.isReached(by: now, leeway: leeway) else { throw .issuedInFuture(issuedAt) }
        }
        if let authTime = try present(times.authTime, .authTime) {
            guard authTime.isReached(by: now, leeway: leeway) else { throw .authenticatedInFuture(authTime) }
        }
        if let notBefore = try present(times.notBefore, .notBefore) {
            guard notBefore.isReached(by: now, leeway: leeway) else { throw .notYetValid(notBefore) }
        }
        if let maximumLifetime {
            guard let issuedAt = times.issuedAt, let expiresAt = times.expiresAt else { throw .missing("iat") }
            let lifetime = expiresAt.secondsSince1970 - issuedAt.secondsSince1970
            guard lifetime > 0, lifetime <= maximumLifetime else { throw .lifetimeTooLong(maximum: maximumLifetime) }
        }
        return times
    }

    private func present(_ time: NumericDate?, _ claim: TimeClaim) throws(ClaimsViolation) -> NumericDate? {
        if time == nil, required.contains(claim) { throw .missing(claim.rawValue) }
        return time
    }

    /// `aud` as a list: a string is a list of one; nil when absent or not strings.
    public static func audiences(_ claim: JSONValue?) -> [String]? {
        switch claim {
        case .string(let audience)?: return [audience]
        case .array(let items)?:
            let audiences = items.compactMap(\.stringValue)
            return audiences.count == items.count ? audiences : nil
        default: return nil
        }
    }
}

/// The time claims of a token, each nil when absent or not a ``NumericDate``.
public struct TokenTimes: Sendable, Equatable {
    public var expiresAt: NumericDate?
    public var issuedAt: NumericDate?
    public var authTime: NumericDate?
    public var notBefore: NumericDate?

    public init(
        expiresAt: NumericDate? = nil, issuedAt: NumericDate? = nil, authTime: NumericDate? = nil,
        notBefore: NumericDate? = nil
    ) {
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.authTime = authTime
        self.notBefore = notBefore
    }

    /// The times a payload's claims carry.
    public init(_ claims: [String: JSONValue]) {
        self.init(
            expiresAt: NumericDate(claims["exp"]), issuedAt: NumericDate(claims["iat"]),
            authTime: NumericDate(claims["auth_time"]), notBefore: NumericDate(claims["nbf"]))
    }
}

/// What ``ClaimsPolicy/check(_:now:)`` accepted.
public struct CheckedClaims: Sendable, Equatable {
    /// `iss`, when the policy checks it.
    public var issuer: String?
    /// The `aud` value the policy accepted, when it checks the audience.
    public var audience: String?
    public var times: TokenTimes
}

/// Why a ``ClaimsPolicy`` refused a token.
public enum ClaimsViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// A claim the policy needs is absent (or, for a time, not whole seconds between 1970 and 9999).
    case missing(String)
    /// `iss` is not an accepted issuer.
    case wrongIssuer(String)
    /// No `aud` value is an accepted audience.
    case wrongAudience([String])
    /// `exp` has passed (beyond the leeway).
    case expired(NumericDate)
    /// `iat` is in the future (beyond the leeway).
    case issuedInFuture(NumericDate)
    /// `auth_time` is in the future (beyond the leeway).
    case authenticatedInFuture(NumericDate)
    /// `nbf` is in the future (beyond the leeway).
    case notYetValid(NumericDate)
    /// `exp` is not after `iat`, or later than the maximum lifetime allows.
    case lifetimeTooLong(maximum: Int64)

    /// A stable code for logs and tests.
    public var code: String {
        switch self {
        case .missing: "missing_claim"
        case .wrongIssuer: "wrong_issuer"
        case .wrongAudience: "wrong_audience"
        case .expired: "expired"
        case .issuedInFuture: "issued_in_future"
        case .authenticatedInFuture: "auth_time_in_future"
        case .notYetValid: "not_yet_valid"
        case .lifetimeTooLong: "lifetime_too_long"
        }
    }

    public var description: String {
        switch self {
        case .missing(let claim): "\(code): \(claim)"
        case .wrongIssuer(let issuer): "\(code): \(issuer)"
        case .wrongAudience(let audiences): "\(code): \(audiences.joined(separator: ", "))"
        case .expired(let time), .issuedInFuture(let time), .authenticatedInFuture(let time), .notYetValid(let time):
            "\(code): \(time)"
        case .lifetimeTooLong(let maximum): "\(code): more than \(maximum) s"
        }
    }
}
