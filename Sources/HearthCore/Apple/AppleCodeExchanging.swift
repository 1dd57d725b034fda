/// Apple's token endpoint as the core uses it: an authorization code a sign-in or `revokeToken` carries, exchanged
/// with the project's client secret (`AppleTokenClient` in HearthProviders).
public protocol AppleCodeExchanging: Sendable {
    /// Exchanges an authorization code for Apple's tokens (`grant_type=authorization_code`); the ID token is not
    /// verified.
    ///
    /// - Parameters:
    ///   - clientID: the bundle ID or services ID the code was issued to.
    ///   - redirectURI: the `redirect_uri` of the authorization request (web flow); `nil` for codes from an app.
    func exchange(code: String, clientID: String, redirectURI: String?) throws(AppleClientError) -> AppleTokenResponse
}
