import Foundation
import HearthCommandLine
import HearthCore
import HearthOutbound
import HearthProviders
import HearthServer

extension Settings {
    /// `"apple": {"clientIds": ["com.example.app"], "teamId": "…", "keyId": "…", "privateKeyFile": "/path/AuthKey.p8",
    /// "endpoint": "https://appleid.apple.com"}` (docs/CONFIGURATION.md, "Sign in with Apple and other OpenID
    /// providers"). The team ID, key ID and `.p8` key sign the client secret of a code exchange with Apple.
    struct AppleSettings: Decodable {
        /// Bundle IDs and services IDs: the `aud` values of Apple ID tokens that may sign in.
        var clientIds: [String]?
        var teamId: String?
        var keyId: String?
        /// The path of the `.p8` private key Apple issued for `keyId`.
        var privateKeyFile: String?
        /// Apple's base URL (`/auth/keys`, `/auth/token`, `/auth/revoke`); another only for a fake Apple in tests.
        var endpoint: String?

        static let keys: Set<String> = ["clientIds", "teamId", "keyId", "privateKeyFile", "endpoint"]
    }

    /// One of `"oidcProviders": [{"providerId": "oidc.acme", "issuer": "https://…", "clientIds": ["…"],
    /// "jwksUri": "…", "clientSecret": "…", "tokenUri": "…"}]`; without `jwksUri` the keys are found by OpenID
    /// discovery, and so is the token endpoint without `tokenUri`.
    struct OpenIDProviderSettings: Decodable {
        var providerId: String
        var issuer: String
        var clientIds: [String]
        var jwksUri: String?
        /// Enables the code flow: authorization codes are exchanged as the first client ID with it; never logged.
        var clientSecret: String?
        /// The token endpoint for code exchanges.
        var tokenUri: String?
        /// Whether the provider's `email_verified` proves the address (default false): only then does its verified email
        /// sign in to an existing account with that email, and count as verified on the accounts it makes.
        var trustedForEmailVerification: Bool?

        static let keys: Set<String> = [
            "providerId", "issuer", "clientIds", "jwksUri", "clientSecret", "tokenUri", "trustedForEmailVerification",
        ]
    }

    /// The `apple` and `oidcProviders` sections of the config file; unknown keys inside them are an error.
    mutating func applyProviders(
        apple fileApple: AppleSettings?, openID: [OpenIDProviderSettings]?, fileObject: [String: Any], path: String
    ) throws {
        let given = ((fileObject["apple"] as? [String: Any])?.keys).map(Array.init) ?? []
        if let unknown = given.first(where: { !AppleSettings.keys.contains($0) }) {
            throw UsageError("config file \(path): unknown setting 'apple.\(unknown)'")
        }
        for entry in fileObject["oidcProviders"] as? [[String: Any]] ?? [] {
            if let unknown = entry.keys.first(where: { !OpenIDProviderSettings.keys.contains($0) }) {
                throw UsageError("config file \(path): unknown setting 'oidcProviders[].\(unknown)'")
            }
        }
        apple = fileApple ?? apple
        openIDProviders = openID ?? openIDProviders
    }

    /// The provider settings in effect must be usable, wherever each came from.
    func checkProviders() throws {
        if let endpoint = apple.endpoint { _ = try Self.providerURL(endpoint, setting: "apple.endpoint") }
        if let file = apple.privateKeyFile, !FileManager.default.isReadableFile(atPath: file) {
            throw UsageError("apple.privateKeyFile: cannot read \(file)")
        }
        var seen: Set<String> = []
        for provider in openIDProviders {
            let id = provider.providerId
            guard id.hasPrefix("oidc."), id.count > "oidc.".count else {
                throw UsageError("oidcProviders: providerId '\(id)' must start with 'oidc.' followed by a name")
            }
            guard seen.insert(id).inserted else { throw UsageError("oidcProviders: '\(id)' is configured twice") }
            _ = try Self.providerURL(provider.issuer, setting: "oidcProviders \(id) issuer")
            if let jwks = provider.jwksUri { _ = try Self.providerURL(jwks, setting: "oidcProviders \(id) jwksUri") }
            if let token = provider.tokenUri { _ = try Self.providerURL(token, setting: "oidcProviders \(id) tokenUri") }
            if provider.clientSecret?.isEmpty == true {
                throw UsageError("oidcProviders \(id): clientSecret must not be empty (leave it out for ID tokens only)")
            }
            guard !provider.clientIds.isEmpty, !provider.clientIds.contains(where: \.isEmpty) else {
                throw UsageError("oidcProviders \(id): clientIds must list at least one client ID")
            }
        }
    }

    /// An identity provider's URL: absolute https, or http on a loopback host (a local test provider).
    static func providerURL(_ text: String, setting: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            scheme == "https" || (scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host))
        else {
            throw UsageError("\(setting) must be an absolute https URL (http only on 127.0.0.1, ::1 or localhost), not '\(text)'")
        }
        return url
    }

    /// Whether any sign-in provider is configured (outside `--dev`, serving needs one).
    var hasIdentityProvider: Bool {
        !googleClientIDs.isEmpty || !(apple.clientIds ?? []).isEmpty || !openIDProviders.isEmpty
    }

    /// The Apple and `oidc.*` registry entries (Google's comes from the project's client IDs).
    ///
    /// Apple: ID tokens with `iss` `https://appleid.apple.com`, keys at `<endpoint>/auth/keys` (in `--dev` the platform
    /// adds the dev Apple, in-process).
    func identityProviders(time: any TimeSource, timeout: TimeInterval) throws -> [IdentityProvider] {
        let http = URLSessionOutboundHTTP(timeout: timeout)
        let endpoint = try Self.providerURL(apple.endpoint ?? IdentityProvider.appleIssuer, setting: "apple.endpoint")
        let apple = RemoteOpenIDIssuer(
            issuerNames: [IdentityProvider.appleIssuer], keys: .jwks(endpoint.appendingPathComponent("auth/keys")),
            http: http, time: time)
        let openID = try openIDProviders.map { provider in
            let keys: RemoteOpenIDIssuer.KeySource = if let jwks = provider.jwksUri {
                .jwks(try Self.providerURL(jwks, setting: "oidcProviders \(provider.providerId) jwksUri"))
            } else {
                .discovery(issuer: provider.issuer)
            }
            let tokenEndpoint: RemoteOpenIDIssuer.TokenEndpointSource = if let token = provider.tokenUri {
                .url(try Self.providerURL(token, setting: "oidcProviders \(provider.providerId) tokenUri"))
            } else {
                .discovery(issuer: provider.issuer)
            }
            let issuer = RemoteOpenIDIssuer(
                issuerNames: [provider.issuer], keys: keys, tokenEndpoint: tokenEndpoint, http: http, time: time)
            // Codes are exchanged as the first client ID, the one the secret belongs to.
            var codeExchange: OpenIDCodeExchange?
            if let secret = provider.clientSecret, let clientID = provider.clientIds.first {
                codeExchange = OpenIDCodeExchange(
                    clientID: clientID, clientSecret: secret, tokenEndpoint: issuer.tokenEndpoint, http: http)
            }
            return IdentityProvider.openID(
                id: provider.providerId, issuer: issuer, clientIDs: Set(provider.clientIds), codeExchange: codeExchange,
                trustedForEmail: provider.trustedForEmailVerification ?? false)
        }
        return [.apple(issuers: [apple], clientIDs: Set(self.apple.clientIds ?? []))] + openID
    }

    /// How an enabled `oidc.*` configuration made through the admin API becomes a registry entry: its issuer's keys
    /// and token endpoint by discovery (`<issuer>/.well-known/openid-configuration`), its client ID the audience, and
    /// with the code response type and a client secret, codes exchanged as that client.
    static func apiOpenIDProvider(time: any TimeSource, timeout: TimeInterval) -> OpenIDProviderMaking {
        let http = URLSessionOutboundHTTP(timeout: timeout)
        return { record in
            guard let issuerName = record.issuer, let clientID = record.clientID else { return nil }
            let issuer = RemoteOpenIDIssuer(
                issuerNames: [issuerName], keys: .discovery(issuer: issuerName),
                tokenEndpoint: .discovery(issuer: issuerName), http: http, time: time)
            var codeExchange: OpenIDCodeExchange?
            if record.codeResponse, let secret = record.clientSecret {
                codeExchange = OpenIDCodeExchange(
                    clientID: clientID, clientSecret: secret, tokenEndpoint: issuer.tokenEndpoint, http: http)
            }
            return IdentityProvider.openID(
                id: record.id, issuer: issuer, clientIDs: [clientID], codeExchange: codeExchange)
        }
    }
}
