import HearthCore
import HearthProtocol
import JOSE

/// Checks the ES256 signature of an Apple client secret: the seam where HearthCrypto's P-256 verification
/// plugs in (in `--dev`, with the public half of `dev-apple-client-key.p8`).
public protocol AppleClientSecretChecking: Sendable {
    /// Whether `jwt` (a compact JWS with `alg` ES256) is signed by the P-256 key known as `keyID`.
    func signatureIsValid(_ jwt: String, keyID: String) -> Bool
}

/// A checker for servers without ES256 verification: every signature is refused, so every client secret is.
public struct RefusingAppleClientSecretChecker: AppleClientSecretChecking {
    public init() {}
    public func signatureIsValid(_ jwt: String, keyID: String) -> Bool { false }
}

/// The client authentication of Apple's token and revoke endpoints: `client_secret` is an ES256 JWT whose
/// header names the key (`kid`) and whose claims are `iss` = team ID, `sub` = client ID,
/// `aud` = `https://appleid.apple.com`, `iat` and `exp` (in the future, at most 180 days after `iat`).
struct DevAppleClientAuthentication {
    static let audience = "https://appleid.apple.com"
    static let maximumLifetime: Int64 = 180 * 86400

    /// Throws `invalid_client` (HTTP 400, as Apple answers) unless `secret` authenticates `clientID`.
    static func check(
        _ secret: String?, clientID: String, teamIDs: Set<String>, now: Int64, skew: Int64,
        signatures: any AppleClientSecretChecking
    ) throws(OAuthError) {
        guard let secret, !secret.isEmpty else { throw refusal("Missing client_secret.") }
        guard let (header, payload) = try? InsecureJWT.decodeWithoutVerifying(secret),
            case .object(let claims)? = try? JSONValue(parsing: payload)
        else { throw refusal("The client secret is not a JWT.") }
        guard header.alg == "ES256" else { throw refusal("The client secret must be signed with ES256.") }
        guard let keyID = header.kid, !keyID.isEmpty else { throw refusal("The client secret has no kid.") }
        guard let team = claims["iss"]?.stringValue, teamIDs.contains(team) else {
            throw refusal("The client secret's iss is not a known team ID.")
        }
        guard claims["sub"]?.stringValue == clientID else { throw refusal("The client secret's sub is not the client_id.") }
        guard claims["aud"]?.stringValue == audience else { throw refusal("The client secret's aud must be \(audience).") }
        if let problem = AssertionLifetime.problem(claims, now: now, skew: skew, maximumLifetime: maximumLifetime) {
            throw refusal(problem)
        }
        guard signatures.signatureIsValid(secret, keyID: keyID) else {
            throw refusal("The client secret's signature is not valid.")
        }
    }

    private static func refusal(_ description: String) -> OAuthError { OAuthError("invalid_client", description) }
}
