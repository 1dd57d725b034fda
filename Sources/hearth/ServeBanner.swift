import HearthCore
import HearthDevProviders

extension ServeCommand {
    /// The lines `hearth serve` prints once it answers: where to go, the database, secrets at rest and the providers.
    static func printBanner(
        settings: Settings, publicURL: String, project: ProjectConfiguration, sealer: any SecretSealer,
        providers: [String]
    ) {
        let secretsAtRest = (sealer as? KeyringSecretSealer).map { "encrypted (AES-256-GCM, key \($0.currentKeyID))" }
            ?? "not encrypted (set HEARTH_ENCRYPTION_KEY, see docs/DEPLOYMENT.md)"
        var lines = [
            "Hearth is listening on \(publicURL) — project \(project.projectID)\(settings.development ? ", development mode" : "")",
            "  Identity Toolkit   \(publicURL)/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=…",
            "  Token refresh      \(publicURL)/securetoken.googleapis.com/v1/token?key=…",
            "  JWKS               \(publicURL)/.well-known/jwks.json",
            "  OpenID discovery   \(publicURL)/\(project.projectID)/.well-known/openid-configuration  (iss \(project.issuer))",
            "  Database           \(settings.databaseLocation.bannerDescription)",
            "  Secrets at rest    \(secretsAtRest)",
            "  Sign-in providers  \(providers.joined(separator: ", "))",
            "  Admin console      \(publicURL)/console",
        ]
        if settings.development {
            lines.append("  Dev Google IdP     \(publicURL)/dev/google/.well-known/openid-configuration")
            lines.append("  Try signing in     \(publicURL)/dev/google/try")
            lines.append("  Dev Apple          \(publicURL)/dev/apple/.well-known/openid-configuration")
            lines.append("  Dev SAML IdP       \(publicURL)/dev/saml/metadata")
            lines.append(
                "  Any non-empty API key works; Google client ID \(Settings.developmentClientID), Apple client ID "
                    + DevAppleConfiguration.developmentClientID)
        }
        printLine(lines.joined(separator: "\n"))
    }
}
