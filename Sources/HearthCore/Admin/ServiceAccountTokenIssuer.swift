import Foundation
import HearthProtocol
import JOSE

/// Hearth's OAuth token endpoint for service accounts: the JWT-bearer grant (RFC 7523 §2.1), exactly as
/// google-auth's `service_account.Credentials` uses it. The assertion is an RS256 JWT signed with the
/// account's key (`kid` = `private_key_id`), `iss` its email, `aud` this endpoint (google-auth always sends
/// Google's `https://oauth2.googleapis.com/token`, which is accepted too), `iat`/`exp` at most an hour apart.
/// The answer is a short-lived admin access token (an RS256 JWT of the session signing keys, see
/// `AdminAccessToken`), checked on every use by `ServiceAccountTokenVerifier`.
public final class ServiceAccountTokenIssuer: Sendable {
    public static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    /// The audiences google-auth (Python) and Google's older libraries put in the assertion.
    static let googleTokenAudiences: Set<String> = [
        "https://oauth2.googleapis.com/token", "https://accounts.google.com/o/oauth2/token",
        "https://www.googleapis.com/oauth2/v4/token",
    ]

    let project: ProjectConfiguration
    let store: any HearthStore
    let keys: SigningKeyRing
    let time: any TimeSource

    public init(project: ProjectConfiguration, store: any HearthStore, keys: SigningKeyRing, time: any TimeSource) {
        self.project = project
        self.store = store
        self.keys = keys
        self.time = time
    }

    /// The response to one token request.
    /// - Parameter tokenEndpoint: this endpoint's URL (`<public-url>/oauth2/token`), an accepted `aud`.
    /// - Throws: `OAuthError` for anything the client sent wrong; `StoreError` when the store fails.
    public func grant(grantType: String?, assertion: String?, tokenEndpoint: String) throws -> AccessTokenResponse {
        guard let grantType, !grantType.isEmpty else { throw OAuthError.invalidRequest("grant_type is missing.") }
        guard grantType == Self.grantType else {
            throw OAuthError("unsupported_grant_type", "Only the JWT-bearer grant (\(Self.grantType)) is supported.")
        }
        guard let assertion, !assertion.isEmpty else { throw OAuthError.invalidRequest("assertion is missing.") }
        let verified = try ServiceAccountAssertion.verify(assertion, store: store, refusal: OAuthError.invalidGrant)
        let claims = verified.claims
        guard let audience = claims["aud"]?.stringValue,
            audience == tokenEndpoint || Self.googleTokenAudiences.contains(audience)
        else { throw OAuthError.invalidGrant("Invalid JWT: the aud claim must be this token endpoint.") }
        let now = time.nowSeconds
        if let problem = AssertionLifetime.problem(claims, now: now, skew: project.clockSkew) {
            throw OAuthError.invalidGrant("Invalid JWT: \(problem)")
        }
        if let subject = claims["sub"]?.stringValue, subject.lowercased() != verified.account.email {
            throw OAuthError("unauthorized_client", "A service account may only act as itself (no sub other than its email).")
        }
        let lifetime = AdminAccessToken.lifetime(project)
        let token: [String: JSONValue] = [
            "iss": .string(AdminAccessToken.issuer),
            "aud": .string(AdminAccessToken.audience(projectID: project.projectID)),
            "sub": .string(verified.account.email),
            AdminAccessToken.keyIDClaim: .string(verified.account.keyID),
            "scope": claims["scope"].flatMap(\.stringValue).map(JSONValue.string) ?? .string(""),
            "iat": .integer(now),
            "exp": .integer(now + lifetime),
        ]
        let signed = try keys.current().signer.sign(payload: JSONValue.object(token).jsonData())
        return AccessTokenResponse(accessToken: signed, expiresIn: lifetime)
    }
}

/// The token endpoint's answer, as google-auth reads it (`access_token`, `expires_in`, `token_type`).
public struct AccessTokenResponse: Codable, Sendable, Equatable {
    public var accessToken: String
    public var expiresIn: Int64
    public var tokenType = "Bearer"

    public init(accessToken: String, expiresIn: Int64) {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
    }
}
