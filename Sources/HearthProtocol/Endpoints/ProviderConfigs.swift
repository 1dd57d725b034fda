/// A provider configuration as Identity Platform's admin API sends and answers it: `oauthIdpConfigs` (OpenID Connect,
/// ids `oidc.*`), `defaultSupportedIdpConfigs` (`google.com`, `apple.com`) and `inboundSamlConfigs` (SAML, ids
/// `saml.*`: `idpConfig` and `spConfig`), with firebase-admin's field names. A field left out of a request is `nil`.
public struct ProviderConfigFields: Sendable, Equatable {
    public var displayName: String?
    public var enabled: Bool?
    public var clientId: String?
    /// `oauthIdpConfigs` only.
    public var issuer: String?
    public var clientSecret: String?
    /// `responseType.idToken` (`oauthIdpConfigs` only).
    public var idTokenResponse: Bool?
    /// `responseType.code` (`oauthIdpConfigs` only).
    public var codeResponse: Bool?
    /// `idpConfig.idpEntityId` (`inboundSamlConfigs` only, as the rest of `idpConfig` and `spConfig`).
    public var idpEntityId: String?
    /// `idpConfig.ssoUrl`.
    public var ssoUrl: String?
    /// `idpConfig.signRequest`.
    public var signRequest: Bool?
    /// `idpConfig.idpCertificates[].x509Certificate`, in order.
    public var idpCertificates: [String]?
    /// `spConfig.spEntityId`.
    public var spEntityId: String?
    /// `spConfig.callbackUri`.
    public var callbackUri: String?

    /// The fields of `inboundSamlConfigs`, by wire name; an `updateMask` may also name ``samlMaskPaths``.
    public static let samlFields = ["displayName", "enabled", "idpConfig", "spConfig"]
    /// The nested paths an `inboundSamlConfigs` `updateMask` may name (firebase-admin names the leaves it sends).
    public static let samlMaskPaths = [
        "idpConfig.idpEntityId", "idpConfig.ssoUrl", "idpConfig.signRequest", "idpConfig.idpCertificates",
        "spConfig.spEntityId", "spConfig.callbackUri",
    ]

    /// The fields of `oauthIdpConfigs`, by wire name (also what an `updateMask` may name, with `responseType.idToken`
    /// and `responseType.code`).
    public static let oauthFields = ["displayName", "enabled", "clientId", "issuer", "clientSecret", "responseType"]
    /// The fields of `defaultSupportedIdpConfigs`.
    public static let defaultSupportedFields = ["enabled", "clientId", "clientSecret"]
    /// Output-only fields a request may carry (SDKs send back what they read); ignored.
    static let outputOnly = ["name", "locked"]

    public init(
        displayName: String? = nil, enabled: Bool? = nil, clientId: String? = nil, issuer: String? = nil,
        clientSecret: String? = nil, idTokenResponse: Bool? = nil, codeResponse: Bool? = nil
    ) {
        self.displayName = displayName
        self.enabled = enabled
        self.clientId = clientId
        self.issuer = issuer
        self.clientSecret = clientSecret
        self.idTokenResponse = idTokenResponse
        self.codeResponse = codeResponse
    }

    /// Reads a request body whose resource has the fields `allowed` (``oauthFields`` or ``defaultSupportedFields``). A
    /// field of the wrong type, or one the resource does not have, is `INVALID_ARGUMENT`.
    public init(fields: RequestFields, allowed: [String]) throws(WireError) {
        for key in fields.values.keys.sorted() where !allowed.contains(key) && !Self.outputOnly.contains(key) {
            throw WireError(
                .invalidArgument, "Invalid JSON payload received. Unknown name \"\(TenantFields.shown(key))\".")
        }
        displayName = try fields.string("displayName")
        enabled = try fields.bool("enabled")
        clientId = try fields.string("clientId")
        issuer = try fields.string("issuer")
        clientSecret = try fields.string("clientSecret")
        if let responseType = try fields.object("responseType") {
            for key in responseType.values.keys.sorted() where key != "idToken" && key != "code" {
                throw WireError(
                    .invalidArgument,
                    "Invalid JSON payload received. Unknown name \"responseType.\(TenantFields.shown(key))\".")
            }
            idTokenResponse = try responseType.bool("idToken")
            codeResponse = try responseType.bool("code")
        }
        if let idpConfig = try fields.object("idpConfig") {
            try Self.checkKeys(of: idpConfig, in: "idpConfig", ["idpEntityId", "ssoUrl", "signRequest", "idpCertificates"])
            idpEntityId = try idpConfig.string("idpEntityId")
            ssoUrl = try idpConfig.string("ssoUrl")
            signRequest = try idpConfig.bool("signRequest")
            if let certificates = try idpConfig.objects("idpCertificates") {
                idpCertificates = try certificates.map { certificate throws(WireError) in
                    try Self.checkKeys(of: certificate, in: "idpConfig.idpCertificates", ["x509Certificate"])
                    return try certificate.string("x509Certificate") ?? ""
                }
            }
        }
        if let spConfig = try fields.object("spConfig") {
            try Self.checkKeys(of: spConfig, in: "spConfig", ["spEntityId", "callbackUri", "spCertificates"])
            spEntityId = try spConfig.string("spEntityId")
            callbackUri = try spConfig.string("callbackUri")
        }
    }

    private static func checkKeys(of object: RequestFields, in parent: String, _ allowed: [String]) throws(WireError) {
        for key in object.values.keys.sorted() where !allowed.contains(key) {
            throw WireError(
                .invalidArgument, "Invalid JSON payload received. Unknown name \"\(parent).\(TenantFields.shown(key))\".")
        }
    }
}

/// `idpConfig` of an `inboundSamlConfigs` answer.
public struct SAMLIdpConfig: Encodable, Sendable, Equatable {
    /// One `idpCertificates` entry.
    public struct Certificate: Encodable, Sendable, Equatable {
        public var x509Certificate: String

        public init(x509Certificate: String) { self.x509Certificate = x509Certificate }
    }

    public var idpEntityId: String?
    public var ssoUrl: String?
    public var signRequest: Bool
    public var idpCertificates: [Certificate]

    public init(idpEntityId: String?, ssoUrl: String?, signRequest: Bool, idpCertificates: [String]) {
        self.idpEntityId = idpEntityId
        self.ssoUrl = ssoUrl
        self.signRequest = signRequest
        self.idpCertificates = idpCertificates.map(Certificate.init(x509Certificate:))
    }
}

/// `spConfig` of an `inboundSamlConfigs` answer; `spCertificates` is always empty (Hearth signs no requests).
public struct SAMLSpConfig: Encodable, Sendable, Equatable {
    public var spEntityId: String?
    public var callbackUri: String?
    public var spCertificates: [SAMLIdpConfig.Certificate] = []

    public init(spEntityId: String?, callbackUri: String?) {
        self.spEntityId = spEntityId
        self.callbackUri = callbackUri
    }
}

/// `responseType` of an `oauthIdpConfigs` answer.
public struct OAuthResponseType: Encodable, Sendable, Equatable {
    public var idToken: Bool
    public var code: Bool

    public init(idToken: Bool, code: Bool) {
        self.idToken = idToken
        self.code = code
    }
}

/// One provider configuration as the admin API answers it. `clientSecret` is never the secret itself: Hearth answers
/// a masked value (`****` and at most its last four characters). `locked` (Hearth's own field) is `true` for a
/// provider the config file declares, which the API cannot change.
public struct ProviderConfigResponse: Encodable, Sendable, Equatable {
    /// `projects/{p}/oauthIdpConfigs/{id}`, `projects/{p}/tenants/{t}/defaultSupportedIdpConfigs/{id}`, ….
    public var name: String
    public var displayName: String?
    public var enabled: Bool
    public var clientId: String?
    public var issuer: String?
    public var clientSecret: String?
    public var responseType: OAuthResponseType?
    /// `inboundSamlConfigs` only.
    public var idpConfig: SAMLIdpConfig?
    /// `inboundSamlConfigs` only.
    public var spConfig: SAMLSpConfig?
    public var locked: Bool?

    public init(
        name: String, displayName: String? = nil, enabled: Bool, clientId: String? = nil, issuer: String? = nil,
        clientSecret: String? = nil, responseType: OAuthResponseType? = nil, idpConfig: SAMLIdpConfig? = nil,
        spConfig: SAMLSpConfig? = nil, locked: Bool? = nil
    ) {
        self.idpConfig = idpConfig
        self.spConfig = spConfig
        self.name = name
        self.displayName = displayName
        self.enabled = enabled
        self.clientId = clientId
        self.issuer = issuer
        self.clientSecret = clientSecret
        self.responseType = responseType
        self.locked = locked
    }
}

/// One page of a provider-configuration listing, under the collection's own key (`oauthIdpConfigs`,
/// `defaultSupportedIdpConfigs` or `inboundSamlConfigs`); `nextPageToken` only when a page may follow.
public struct ListProviderConfigsResponse: Encodable, Sendable, Equatable {
    public var collection: String
    public var configs: [ProviderConfigResponse]
    public var nextPageToken: String?

    public init(collection: String, configs: [ProviderConfigResponse], nextPageToken: String?) {
        self.collection = collection
        self.configs = configs
        self.nextPageToken = nextPageToken
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(configs, forKey: Key(collection))
        try container.encodeIfPresent(nextPageToken, forKey: Key("nextPageToken"))
    }
}

/// A listing's query: `pageSize` (1 to 100, firebase-admin's maximum; 100 when left out) and `pageToken` (the
/// previous page's `nextPageToken`).
public struct ListProviderConfigsRequest: Sendable, Equatable {
    public static let maximumPageSize = 100

    public var pageSize: Int
    public var pageToken: String?

    public init(pageSize: Int = maximumPageSize, pageToken: String? = nil) {
        self.pageSize = pageSize
        self.pageToken = pageToken
    }

    /// A page size that is not an integer from 1 to 100 is `INVALID_PAGE_SELECTION`.
    public init(fields: RequestFields) throws(WireError) {
        (pageSize, pageToken) = try fields.pageSelection(
            default: Self.maximumPageSize, range: 1...Self.maximumPageSize)
    }
}
