import Foundation
import HearthCore
import HearthOutbound
import HearthProviders
import HearthServer
import HearthCommandLine

extension Settings {
    /// `"console": {"requireSignIn": true, "provider": "google.com", "clientId": "…", "clientSecret": "…",
    /// "authorizationUri": "…", "tokenUri": "…", "sessionHours": 8}` (docs/CONFIGURATION.md, "Admin console"). The
    /// client secret also comes from `HEARTH_CONSOLE_CLIENT_SECRET`, `requireSignIn` from `HEARTH_CONSOLE_REQUIRE_SIGN_IN`.
    struct ConsoleSettings: Decodable {
        /// In `--dev`, whether loopback visitors must sign in too (outside `--dev` everyone must).
        var requireSignIn: Bool?
        /// `google.com` (the default) or a configured `oidc.*` provider.
        var provider: String?
        /// The console's OAuth client at the provider; one of the client IDs Hearth accepts for it.
        var clientId: String?
        /// Its client secret; never logged.
        var clientSecret: String?
        /// The provider's authorization endpoint (Google's by default).
        var authorizationUri: String?
        /// The provider's token endpoint (Google's by default, else the `oidc.*` provider's `tokenUri`).
        var tokenUri: String?
        /// How long a console session lasts: 1 to 336 hours (default 8).
        var sessionHours: Int?

        static let keys: Set<String> = [
            "requireSignIn", "provider", "clientId", "clientSecret", "authorizationUri", "tokenUri", "sessionHours",
        ]
    }

    mutating func applyConsole(_ file: ConsoleSettings?, fileObject: [String: Any], path: String) throws {
        guard let file else { return }
        try Self.checkKeys(of: "console", in: fileObject, known: ConsoleSettings.keys, path: path)
        console = file
    }

    mutating func applyConsole(environment: [String: String]) throws {
        if let value = environment["HEARTH_CONSOLE_CLIENT_SECRET"], !value.isEmpty { console.clientSecret = value }
        if let value = environment["HEARTH_CONSOLE_REQUIRE_SIGN_IN"], !value.isEmpty {
            console.requireSignIn = try Self.flag(value, source: "HEARTH_CONSOLE_REQUIRE_SIGN_IN")
        }
    }

    /// The console settings must be usable (checked at startup, before the store opens).
    func checkConsole() throws {
        _ = try consoleOptions(timeout: 1)
    }

    /// The console's options: without `console.clientId`, in `--dev` the dev Google signs administrators in, and
    /// outside `--dev` nobody can sign in (the console answers that it is not configured).
    func consoleOptions(timeout: TimeInterval) throws -> ConsoleOptions {
        let hours = console.sessionHours ?? 8
        guard (1...336).contains(hours) else { throw UsageError("console.sessionHours must be between 1 and 336") }
        var options = ConsoleOptions(requiresSignIn: console.requireSignIn ?? false, sessionLifetime: Int64(hours) * 3600)
        guard let clientID = console.clientId else {
            if console.clientSecret != nil || console.authorizationUri != nil || console.tokenUri != nil || console.provider != nil {
                throw UsageError("console: set clientId to configure the console's sign-in provider")
            }
            return options
        }
        guard let secret = console.clientSecret, !secret.isEmpty else {
            throw UsageError("console.clientSecret (or HEARTH_CONSOLE_CLIENT_SECRET) is needed with console.clientId")
        }
        let providerID = console.provider ?? IdentityProvider.googleID
        let authorization: URL
        let token: URL
        if providerID == IdentityProvider.googleID {
            guard googleClientIDs.contains(clientID) else {
                throw UsageError("console.clientId must be one of googleClientIds (Hearth checks the audience of its ID tokens)")
            }
            authorization = try Self.providerURL(console.authorizationUri ?? "https://accounts.google.com/o/oauth2/v2/auth", setting: "console.authorizationUri")
            token = try Self.providerURL(console.tokenUri ?? "https://oauth2.googleapis.com/token", setting: "console.tokenUri")
        } else {
            guard let provider = openIDProviders.first(where: { $0.providerId == providerID }) else {
                throw UsageError("console.provider must be google.com or a provider in oidcProviders, not '\(providerID)'")
            }
            guard provider.clientIds.contains(clientID) else {
                throw UsageError("console.clientId must be one of the clientIds of \(providerID)")
            }
            guard let authorizationURI = console.authorizationUri, let tokenURI = console.tokenUri ?? provider.tokenUri else {
                throw UsageError("console: authorizationUri and tokenUri are needed for \(providerID)")
            }
            authorization = try Self.providerURL(authorizationURI, setting: "console.authorizationUri")
            token = try Self.providerURL(tokenURI, setting: "console.tokenUri")
        }
        let exchange = OpenIDCodeExchange(
            clientID: clientID, clientSecret: secret, tokenEndpoint: { token }, http: URLSessionOutboundHTTP(timeout: timeout))
        options.signIn = ConsoleSignInProvider(
            providerID: providerID, clientID: clientID, authorizationEndpoint: authorization.absoluteString,
            displayName: providerID == IdentityProvider.googleID ? "Google" : providerID
        ) { code, redirectURI, verifier in
            try exchange.tokens(code: code, redirectURI: redirectURI, codeVerifier: verifier).idToken
        }
        return options
    }
}
