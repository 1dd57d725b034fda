/// One provider configuration made through Identity Platform's admin API, as the store keeps it: an
/// `oauthIdpConfigs` entry (an OpenID Connect provider `oidc.*`) or a `defaultSupportedIdpConfigs` entry
/// (`google.com`, `apple.com`). A scoped record: the project and each tenant have their own set, and the same id may
/// exist once in each scope.
///
/// `clientSecret` is plain in memory only: the SQL stores seal it on every write and open it on every read
/// (`SecretField.Kind.providerConfigClientSecret`), and the API never answers it in full
/// (``ProviderConfigRules/maskedSecret(_:)``).
public struct ProviderConfigRecord: Sendable, Equatable {
    /// Which collection of the admin API the configuration belongs to.
    public enum Kind: String, Sendable, CaseIterable {
        /// `oauthIdpConfigs`: OpenID Connect providers, ids `oidc.<name>`.
        case oauth
        /// `defaultSupportedIdpConfigs`: the built-in providers (`google.com`, `apple.com`).
        case defaultSupported = "default"
    }

    public var kind: Kind
    /// The provider id (the resource name's last part): `oidc.<name>`, `google.com` or `apple.com`.
    public var id: String
    public var displayName: String?
    public var enabled: Bool
    public var clientID: String?
    /// The OpenID issuer (an https URL); `nil` for the default-supported providers.
    public var issuer: String?
    /// Plain here, sealed at rest.
    public var clientSecret: String?
    /// `responseType.idToken`: sign-in with the provider's ID token.
    public var idTokenResponse: Bool
    /// `responseType.code`: the authorization-code flow (needs `clientSecret`).
    public var codeResponse: Bool
    public var createdAtMillis: Int64
    public var updatedAtMillis: Int64

    public init(
        kind: Kind, id: String, displayName: String? = nil, enabled: Bool = false, clientID: String? = nil,
        issuer: String? = nil, clientSecret: String? = nil, idTokenResponse: Bool = false, codeResponse: Bool = false,
        createdAtMillis: Int64, updatedAtMillis: Int64
    ) {
        self.kind = kind
        self.id = id
        self.displayName = displayName
        self.enabled = enabled
        self.clientID = clientID
        self.issuer = issuer
        self.clientSecret = clientSecret
        self.idTokenResponse = idTokenResponse
        self.codeResponse = codeResponse
        self.createdAtMillis = createdAtMillis
        self.updatedAtMillis = updatedAtMillis
    }

    /// The field its client secret is sealed for: bound to the kind and id (not the scope, as for every scoped secret).
    public var secretField: SecretField { SecretField.providerConfigSecret(kind: kind, id: id) }
}

extension SecretField {
    /// The field of the client secret of the provider configuration `kind`/`id`.
    public static func providerConfigSecret(kind: ProviderConfigRecord.Kind, id: String) -> SecretField {
        SecretField(.providerConfigClientSecret, recordID: "\(kind.rawValue)/\(id)")
    }
}
