import HearthCore
import HearthDevProviders
import HearthHTTP
import HearthServer

/// A step of `hearth serve`, once the listening port is known: where the server is reached and the project it serves.
struct ServeSite {
    /// The public URL, without a trailing slash (`--public-url`, else the bound address).
    let publicURL: String
    let project: ProjectConfiguration
    let crossOrigin: CrossOriginRules

    init(_ serve: ServeSettings, port: UInt16) {
        let settings = serve.settings
        let displayHost = settings.host == "0.0.0.0" || settings.host == "::" ? "127.0.0.1" : settings.host
        let hostForURL = displayHost.contains(":") ? "[\(displayHost)]" : displayHost
        publicURL = (settings.publicURL ?? "http://\(hostForURL):\(port)").trimmingSuffix("/")
        let projectID = serve.projectID
        let issuer = settings.firebaseIssuer ?? settings.development ? "https://securetoken.google.com/\(projectID)" : "\(publicURL)/\(projectID)"
        var clientIDs = Set(settings.googleClientIDs)
        if settings.development { clientIDs.insert(Settings.developmentClientID) }
        project = ProjectConfiguration(
            projectID: projectID, projectNumber: settings.resolvedProjectNumber(projectID: projectID), issuer: issuer,
            apiKeys: settings.development ? .anyNonEmpty : .only(Set(settings.apiKeys)), googleClientIDs: clientIDs,
            mfa: settings.mfaPolicy, displayName: settings.emailActions.appName,
            emailEnumerationProtection: settings.passwordSignIn.emailEnumerationProtection)
        crossOrigin = CrossOriginRules(
            publicURL: publicURL, development: settings.development, trustedOrigins: settings.trustedOrigins)
    }

    /// The dev IdP of `--dev`, whose development client may also come back to the playground and the console.
    func devIdentityProvider(development: Bool) -> DevIdPConfiguration? {
        guard development else { return nil }
        return DevIdPConfiguration(
            issuer: "\(publicURL)/dev/google",
            clients: [DevIdPClient.development(
                clientID: Settings.developmentClientID,
                extraRedirectURIs: [
                    IdentityServer.playgroundCallbackURI(publicURL: publicURL),
                    IdentityServer.consoleCallbackURI(publicURL: publicURL),
                ])])
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var result = self
        while result.hasSuffix(suffix) { result.removeLast(suffix.count) }
        return result
    }
}
