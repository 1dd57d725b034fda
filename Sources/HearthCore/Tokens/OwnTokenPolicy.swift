import Foundation
import HearthProtocol

extension ClaimsPolicy {
    /// The policy for tokens Hearth signed itself (ID tokens, console sessions, admin access tokens): its `iss` and
    /// `aud`, `iat` no later than now within the project's clock skew (another instance may have signed it), and
    /// `exp` to the second, since Hearth wrote it and Firebase clients expect `TOKEN_EXPIRED` at `exp`.
    static func ownTokens(
        issuer: String, audience: String, project: ProjectConfiguration, required: Set<TimeClaim>
    ) -> ClaimsPolicy {
        ClaimsPolicy(
            issuers: [issuer], audiences: [audience], leeway: TimeInterval(project.clockSkew), expiryLeeway: 0,
            required: required)
    }
}
