import HearthProtocol

/// `accounts:revokeToken` (v2): revokes the user's Apple tokens with an authorization code; answers `{}`.
struct RevokeTokenCall: BackendRequest {
    typealias Response = RevokeTokenResponse
    var body: RevokeTokenRequest
    var service: Service { .identityPlatform("accounts:revokeToken") }
}
