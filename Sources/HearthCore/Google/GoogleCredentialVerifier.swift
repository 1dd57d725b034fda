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
public final class GoogleCredentialVerifier: Sendable {
    public static let providerID = "google.com"

    private let issuers: [any GoogleIssuer]
    private let clientIDs: Set<String>
    private let time: any TimeSource
    private let clockSkew: Int64

    public init(issuers: [any GoogleIssuer], clientIDs: Set<String>, time: any TimeSource, clockSkew: Int64 = 300) {
        self.issuers = issuers
        self.clientIDs = clientIDs
        self.time = time
        self.clockSkew = clockSkew
    }

    public func verify(idToken: String?, accessToken: String?, nonce: String?) throws -> FederatedProfile {
        if let idToken, !idToken.isEmpty {
            return try verify(idToken: idToken, accessToken: accessToken, nonce: nonce)
        }
        if let accessToken, !accessToken.isEmpty {
            return try verify(accessToken: accessToken)
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
        guard let expiresAt = Self.seconds(claims["exp"]), let issuedAt = Self.seconds(claims["iat"]) else {
            throw Self.invalid("The id_token has no exp or iat.")
        }
        guard expiresAt + clockSkew > now else { throw Self.invalid("The id_token has expired.") }
        guard issuedAt - clockSkew <= now else { throw Self.invalid("The id_token was issued in the future.") }
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

    private func verify(accessToken: String) throws -> FederatedProfile {
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
            return Self.profile(subject: info.subject, claims: userInfo, scopes: info.scope)
        }
        throw Self.invalid("The access_token is not valid.")
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

    /// NumericDates Hearth accepts: from 1970 to the end of the year 9999, in seconds.
    private static let plausibleSeconds: ClosedRange<Int64> = 0...253_402_300_799

    /// A NumericDate in whole seconds; nil when absent, not a number, or outside ``plausibleSeconds`` (`1e20`,
    /// `Int64.max`, negative times).
    private static func seconds(_ value: JSONValue?) -> Int64? {
        let seconds: Int64? = switch value {
        case .integer(let number): number
        case .double(let number): Int64(exactly: number.rounded(.down))
        default: nil
        }
        return seconds.flatMap { plausibleSeconds.contains($0) ? $0 : nil }
    }

    private static func invalid(_ detail: String) -> WireError { WireError(.invalidIdpResponse, detail) }
}
