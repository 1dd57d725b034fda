/// A provider configuration as Identity Platform's admin API sends and answers it: `oauthIdpConfigs` (OpenID Connect,
/// ids `oidc.*`) and `defaultSupportedIdpConfigs` (`google.com`, `apple.com`), with firebase-admin's field names. A
/// field left out of a request is `nil`.
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
    public var locked: Bool?

    public init(
        name: String, displayName: String? = nil, enabled: Bool, clientId: String? = nil, issuer: String? = nil,
        clientSecret: String? = nil, responseType: OAuthResponseType? = nil, locked: Bool? = nil
    ) {
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

/// One page of a provider-configuration listing, under the collection's own key (`oauthIdpConfigs` or
/// `defaultSupportedIdpConfigs`); `nextPageToken` only when a page may follow.
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
