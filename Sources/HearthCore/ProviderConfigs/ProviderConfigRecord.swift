/// One provider configuration made through Identity Platform's admin API, as the store keeps it: an
/// `oauthIdpConfigs` entry (an OpenID Connect provider `oidc.*`), a `defaultSupportedIdpConfigs` entry
/// (`google.com`, `apple.com`) or an `inboundSamlConfigs` entry (a SAML identity provider `saml.*`). A scoped
/// record: the project and each tenant have their own set, and the same id may exist once in each scope.
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
        /// `inboundSamlConfigs`: SAML 2.0 identity providers, ids `saml.<name>`.
        case saml
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
    /// The SAML settings of an `inboundSamlConfigs` entry; `nil` for the other kinds.
    public var saml: SAMLProviderSettings?
    public var createdAtMillis: Int64
    public var updatedAtMillis: Int64

    public init(
        kind: Kind, id: String, displayName: String? = nil, enabled: Bool = false, clientID: String? = nil,
        issuer: String? = nil, clientSecret: String? = nil, idTokenResponse: Bool = false, codeResponse: Bool = false,
        saml: SAMLProviderSettings? = nil, createdAtMillis: Int64, updatedAtMillis: Int64
    ) {
        self.saml = saml
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

/// What an `inboundSamlConfigs` entry says about the identity provider (`idpConfig`) and about Hearth as its service
/// provider (`spConfig`), with Identity Platform's meanings. Stored as JSON text (`provider_configs.saml_config`).
public struct SAMLProviderSettings: Sendable, Equatable, Codable {
    /// `idpConfig.idpEntityId`: the issuer the identity provider's responses and assertions name.
    public var idpEntityID: String?
    /// `idpConfig.ssoUrl`: where `createAuthUri` sends the browser (HTTP-Redirect binding).
    public var ssoURL: String?
    /// `idpConfig.signRequest`: stored and answered; Hearth does not sign its requests (docs/SECURITY.md).
    public var signRequest: Bool
    /// `idpConfig.idpCertificates[].x509Certificate`: the PEM certificates signatures verify with.
    public var idpCertificates: [String]
    /// `spConfig.spEntityId`: the audience assertions must name.
    public var spEntityID: String?
    /// `spConfig.callbackUri`: the assertion consumer service URL (the responses' `Destination` and `Recipient`).
    public var callbackURI: String?

    public init(
        idpEntityID: String? = nil, ssoURL: String? = nil, signRequest: Bool = false, idpCertificates: [String] = [],
        spEntityID: String? = nil, callbackURI: String? = nil
    ) {
        self.idpEntityID = idpEntityID
        self.ssoURL = ssoURL
        self.signRequest = signRequest
        self.idpCertificates = idpCertificates
        self.spEntityID = spEntityID
        self.callbackURI = callbackURI
    }
}
