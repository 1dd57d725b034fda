/// `POST /securetoken.googleapis.com/v1/token` (PROTOCOL.md §3.13). Accepts a form or JSON body with
/// `grant_type`/`grantType` and `refresh_token`/`refreshToken`. Encodes as the iOS SDK sends it
/// (JSON, camelCase); `formBody` is the JS SDK's form.
public struct RefreshTokenRequest: Encodable, Sendable, Equatable {
    public var grantType: String?
    public var refreshToken: String?

    public init(grantType: String? = "refresh_token", refreshToken: String?) {
        self.grantType = grantType
        self.refreshToken = refreshToken
    }

    public init(fields: RequestFields) throws(WireError) {
        grantType = try fields.string("grantType")
        refreshToken = try fields.string("refreshToken")
    }

    /// The form body the JS SDK and REST documentation send.
    public var formBody: String {
        FormEncoding.encode([("grant_type", grantType ?? ""), ("refresh_token", refreshToken ?? "")])
    }
}

/// The token response, in snake_case. `access_token` equals `id_token` (iOS reads the former) and
/// `expires_in` is a string.
public struct RefreshTokenResponse: Codable, Sendable, Equatable {
    public var accessToken: String
    public var expiresIn: String
    public var tokenType: String
    public var refreshToken: String
    public var idToken: String
    public var userId: String
    public var projectId: String

    public init(idToken: String, expiresIn: String, refreshToken: String, userId: String, projectId: String) {
        accessToken = idToken
        self.expiresIn = expiresIn
        tokenType = "Bearer"
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.userId = userId
        self.projectId = projectId
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case userId = "user_id"
        case projectId = "project_id"
    }
}
