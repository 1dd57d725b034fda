import Foundation
import HearthProtocol
import HearthCrypto
import JOSE

/// A Google account as a verified credential describes it.
public struct FederatedProfile: Sendable, Equatable {
    public var providerID: String
    /// Google's `sub`.
    public var rawID: String
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var givenName: String?
    public var familyName: String?
    public var photoURL: String?
    public var locale: String?
    public var hostedDomain: String?
    public var grantedScopes: String?

    public init(
        providerID: String, rawID: String, email: String? = nil, emailVerified: Bool = false,
        displayName: String? = nil, givenName: String? = nil, familyName: String? = nil, photoURL: String? = nil,
        locale: String? = nil, hostedDomain: String? = nil, grantedScopes: String? = nil
    ) {
        self.providerID = providerID
        self.rawID = rawID
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.givenName = givenName
        self.familyName = familyName
        self.photoURL = photoURL
        self.locale = locale
        self.hostedDomain = hostedDomain
        self.grantedScopes = grantedScopes
    }
}

/// Verifies Google credentials for `signInWithIdp`: an ID token (signature against the issuer's keys,
/// `iss`, `aud`, `exp`/`iat` with skew, `nonce`, `at_hash`), or an access token alone (the issuer's
/// tokeninfo must name one of our client IDs; the profile comes from its userinfo).
///
/// Access-token checks call the issuer over the network, so they are bounded (``OutboundCallLimits``):
/// a verified token is remembered by its SHA-256 until it expires, and only a few checks run at once,
/// in all and per client address; the rest are refused at once with `TOO_MANY_ATTEMPTS_TRY_LATER`
/// rather than holding an HTTP worker thread.
public final class GoogleCredentialVerifier: Sendable {
    public static let providerID = "google.com"

    private let issuers: [any GoogleIssuer]
    private let clientIDs: Set<String>
    private let time: any TimeSource
    private let clockSkew: Int64
    private let accessTokenLifetime: Int64
    private let verifiedAccessTokens: AccessTokenCache
    private let accessTokenChecks: OutboundCallLimiter

    public init(
        issuers: [any GoogleIssuer], clientIDs: Set<String>, time: any TimeSource, clockSkew: Int64 = 300,
        limits: OutboundCallLimits = OutboundCallLimits()
    ) {
        self.issuers = issuers
        self.clientIDs = clientIDs
        self.time = time
        self.clockSkew = clockSkew
        accessTokenLifetime = limits.accessTokenCacheLifetime
        verifiedAccessTokens = AccessTokenCache(capacity: limits.accessTokenCacheSize)
        accessTokenChecks = OutboundCallLimiter(
            total: limits.maxConcurrentChecks, perClient: limits.maxConcurrentChecksPerClient)
    }

    /// Verifies an ID token (with the access token's `at_hash` when both are given), else an access token alone.
    ///
    /// - Parameter clientAddress: the address the request came from, to bound access-token checks per client;
    ///   nil when unknown (only the server-wide bound applies).
    /// - Throws: `INVALID_IDP_RESPONSE` for a credential that does not verify, `MISSING_OR_INVALID_NONCE`, or
    ///   `TOO_MANY_ATTEMPTS_TRY_LATER` when too many access-token checks are running.
    public func verify(idToken: String?, accessToken: String?, nonce: String?, clientAddress: String?) throws
        -> FederatedProfile
    {
        if let idToken, !idToken.isEmpty {
            return try verify(idToken: idToken, accessToken: accessToken, nonce: nonce)
        }
        if let accessToken, !accessToken.isEmpty {
            return try verify(accessToken: accessToken, clientAddress: clientAddress)
        }
        throw WireError(.invalidIdpResponse, "Neither an id_token nor an access_token was given for google.com.")
    }

    private func verify(idToken: String, accessToken: String?, nonce: String?) throws -> FederatedProfile {
        guard let unverified = try? InsecureJWT.decodeWithoutVerifying(idToken),
            case .object(let unverifiedClaims)? = try? JSONValue(parsing: unverified.payload)
        else { throw Self.invalid("Unable to parse Google id_token.") }
        guard let issuerName = unverifiedClaims["iss"]?.stringValue,
            let issuer = issuers.first(where: { $0.issuerNames.contains(issuerName) })
        else { throw Self.invalid("The id_token was not issued by a trusted issuer.") }

        let verified: VerifiedJWT
        do {
            verified = try verifySignature(idToken, issuer: issuer)
        } catch let error as JOSEError {
            throw Self.invalid("The id_token signature could not be verified (\(error.code)).")
        }
        guard case .object(let claims)? = try? JSONValue(parsing: verified.payload),
            claims["iss"]?.stringValue == issuerName
        else { throw Self.invalid("Unable to parse Google id_token.") }

        let audiences: [String] = switch claims["aud"] {
        case .string(let audience): [audience]
        case .array(let items): items.compactMap(\.stringValue)
        default: []
        }
        guard audiences.contains(where: clientIDs.contains) else {
            throw Self.invalid("The id_token audience is not a client ID of this project.")
        }
        let now = time.nowSeconds
        guard let expiresAt = NumericDate(claims["exp"]), let issuedAt = NumericDate(claims["iat"]) else {
            throw Self.invalid("The id_token's exp or iat is missing or not whole seconds between 1970 and 9999.")
        }
        guard expiresAt.isAfter(now, leeway: clockSkew) else { throw Self.invalid("The id_token has expired.") }
        guard issuedAt.isReached(by: now, leeway: clockSkew) else {
            throw Self.invalid("The id_token was issued in the future.")
        }
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw Self.invalid("The id_token has no subject.")
        }
        if let nonce, !nonce.isEmpty {
            let claimed = claims["nonce"]?.stringValue
            let hashedNonce = Identifiers.hex(SHA256.hash(nonce))
            guard let claimed, claimed == nonce || claimed == hashedNonce else {
                throw WireError(.missingOrInvalidNonce, "The nonce in the id_token does not match the given nonce.")
            }
        }
        if let accessToken, !accessToken.isEmpty, let atHash = claims["at_hash"]?.stringValue {
            let digest = SHA256.hash(accessToken)
            guard atHash == Base64URL.encode(digest.prefix(digest.count / 2)) else {
                throw Self.invalid("The access_token does not belong to the id_token (at_hash).")
            }
        }
        return Self.profile(subject: subject, claims: claims, scopes: nil)
    }

    private func verifySignature(_ token: String, issuer: any GoogleIssuer) throws -> VerifiedJWT {
        do {
            return try issuer.verificationKeys(forceRefresh: false).verify(token)
        } catch let error as JOSEError where error.code == .unknownKeyID {
            return try issuer.verificationKeys(forceRefresh: true).verify(token)
        }
    }

    /// An access token alone: remembered if verified before, else checked with the issuers (tokeninfo, then
    /// userinfo) within the outbound bounds, and remembered until it expires.
    private func verify(accessToken: String, clientAddress: String?) throws -> FederatedProfile {
        let key = AccessTokenCache.key(accessToken)
        if let known = verifiedAccessTokens.profile(forKey: key, now: time.nowSeconds) { return known }
        return try accessTokenChecks.run(client: clientAddress) {
            for issuer in issuers {
                guard let info = try? issuer.accessTokenInfo(accessToken) else { continue }
                let parties = [info.audience, info.authorizedParty].compactMap { $0 }
                guard parties.contains(where: clientIDs.contains) else {
                    throw Self.invalid("The access_token was not issued to a client ID of this project.")
                }
                guard info.expiresIn > 0 else { throw Self.invalid("The access_token has expired.") }
                let userInfo = try issuer.userInfo(accessToken: accessToken)
                guard userInfo["sub"]?.stringValue == info.subject else {
                    throw Self.invalid("The userinfo subject does not match the access_token.")
                }
                let profile = Self.profile(subject: info.subject, claims: userInfo, scopes: info.scope)
                let remembered = min(info.expiresIn, accessTokenLifetime)
                verifiedAccessTokens.remember(profile, forKey: key, expiresAt: time.nowSeconds + remembered)
                return profile
            }
            throw Self.invalid("The access_token is not valid.")
        }
    }

    private static func profile(subject: String, claims: [String: JSONValue], scopes: String?) -> FederatedProfile {
        let verified: Bool = switch claims["email_verified"] {
        case .bool(let flag): flag
        case .string(let text): text == "true"
        default: false
        }
        return FederatedProfile(
            providerID: providerID, rawID: subject, email: claims["email"]?.stringValue, emailVerified: verified,
            displayName: claims["name"]?.stringValue, givenName: claims["given_name"]?.stringValue,
            familyName: claims["family_name"]?.stringValue, photoURL: claims["picture"]?.stringValue,
            locale: claims["locale"]?.stringValue, hostedDomain: claims["hd"]?.stringValue, grantedScopes: scopes)
    }

    private static func invalid(_ detail: String) -> WireError { WireError(.invalidIdpResponse, detail) }
}
