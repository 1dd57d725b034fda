import HearthProtocol

/// Secure Token `v1/token`: a new ID token for a refresh token. iOS sends camelCase JSON
/// (`grantType`, `refreshToken`); the answer is snake_case.
struct SecureTokenCall: BackendRequest {
    typealias Response = RefreshTokenResponse
    var body: RefreshTokenRequest
    var service: Service { .secureToken }
}
