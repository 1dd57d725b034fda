import Foundation
import HearthProtocol
import JOSE

/// Accepts the admin access tokens `ServiceAccountTokenIssuer` issued, while the service account they were
/// issued to is live: a revoked account's tokens stop working on its next request, as each use reads the
/// account (one primary-key lookup). Refuses expired tokens, ID tokens and anything signed by another key.
/// Bearer tokens that are not JWTs (API keys, `owner`) are not its kind.
public struct ServiceAccountTokenVerifier: AdminTokenVerifier {
    /// The issuer whose tokens this accepts (its project, store, keys and clock).
    private let issuer: ServiceAccountTokenIssuer

    public init(issuer: ServiceAccountTokenIssuer) {
        self.issuer = issuer
    }

    /// What Google answers for a refused access token (HTTP 401 `UNAUTHENTICATED`).
    static let refusal = WireError(
        .unauthenticated,
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other "
            + "valid authentication credential.")

    public func caller(bearerToken token: String) throws -> AdminCaller? {
        guard token.utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count == 2 else { return nil }
        let (project, store, keys, time) = (issuer.project, issuer.store, issuer.keys, issuer.time)
        let verified: VerifiedJWT
        do {
            verified = try keys.verify(token)
        } catch is JOSEError {
            throw Self.refusal
        }
        let policy = ClaimsPolicy.ownTokens(
            issuer: AdminAccessToken.issuer, audience: AdminAccessToken.audience(projectID: project.projectID),
            project: project, required: [.issuedAt, .expiresAt])
        guard case .object(let claims)? = try? JSONValue(parsing: verified.payload),
            (try? policy.check(claims, now: time.nowSeconds)) != nil,
            let email = claims["sub"]?.stringValue,
            let keyID = claims[AdminAccessToken.keyIDClaim]?.stringValue
        else { throw Self.refusal }
        guard let account = try store.read({ try $0.serviceAccount(keyID: keyID) }), account.revokedAt == nil,
            account.email == email
        else { throw Self.refusal }
        return .serviceAccount(email: email)
    }
}
