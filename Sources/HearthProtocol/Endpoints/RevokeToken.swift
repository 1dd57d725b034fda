/// `POST /v2/accounts:revokeToken` (iOS `Auth.revokeToken(withAuthorizationCode:)`): revokes the user's tokens at
/// the provider (Apple). iOS sends `tokenType` as the string `"3"` (authorization code); `"1"` is a refresh token
/// and `"2"` an access token. The answer is `{}`.
public struct RevokeTokenRequest: Encodable, Sendable, Equatable {
    /// `tokenType` values.
    public enum TokenType: String, Sendable {
        case refreshToken = "1"
        case accessToken = "2"
        case authorizationCode = "3"
    }

    public var providerId: String?
    public var tokenType: String?
    public var token: String?
    /// The Firebase ID token of the user whose provider tokens are revoked.
    public var idToken: String?
    public var tenantId: String?
    public var redirectUri: String?

    public init(
        providerId: String?, tokenType: TokenType?, token: String?, idToken: String?, tenantId: String? = nil,
        redirectUri: String? = nil
    ) {
        self.providerId = providerId
        self.tokenType = tokenType?.rawValue
        self.token = token
        self.idToken = idToken
        self.tenantId = tenantId
        self.redirectUri = redirectUri
    }

    /// Reads the body; `tokenType` as a number or a string (`"3"`, or the enum names `REFRESH_TOKEN`,
    /// `ACCESS_TOKEN`, `CODE`), kept as its number's text.
    public init(fields: RequestFields) throws(WireError) {
        providerId = try fields.string("providerId")
        token = try fields.string("token")
        idToken = try fields.string("idToken")
        tenantId = try fields.string("tenantId")
        redirectUri = try fields.string("redirectUri")
        let names = ["REFRESH_TOKEN": "1", "ACCESS_TOKEN": "2", "CODE": "3"]
        tokenType = try fields.string("tokenType").map { names[$0] ?? $0 }
    }

    /// The token type, when it is one of the three known ones.
    public var knownTokenType: TokenType? { tokenType.flatMap(TokenType.init(rawValue:)) }
}

/// The `revokeToken` response: an empty object.
public struct RevokeTokenResponse: Codable, Sendable, Equatable {
    public init() {}
}
