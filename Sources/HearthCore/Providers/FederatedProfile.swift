public import HearthProtocol

/// A provider account as a verified credential describes it: who it is, and what `signInWithIdp` echoes.
public struct FederatedProfile: Sendable, Equatable {
    /// `google.com`, `apple.com`, `oidc.<name>`.
    public var providerID: String
    /// The provider's `sub`.
    public var rawID: String
    /// The response's `federatedId`: `https://accounts.google.com/<sub>` for Google, else the `sub`.
    public var federatedID: String
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String?
    public var givenName: String?
    public var familyName: String?
    public var photoURL: String?
    /// The response's `rawUserInfo` (sent as a JSON string): Google's userinfo shape, else the token's claims.
    public var rawUserInfo: [String: JSONValue]
    /// The project's client ID the credential was issued to (the ID token's matching `aud`): the client ID a code
    /// exchange with the provider must name. Nil for an access token alone.
    public var clientID: String?
    /// The provider's authorization code (`code`) the client sent along, unused by verification: after signing in,
    /// it can be exchanged at the provider for tokens to keep (Apple's refresh token).
    public var authorizationCode: String?
    /// The provider's refresh token got by exchanging `authorizationCode` (Apple's), to keep on the identity.
    public var providerRefreshToken: ProviderRefreshToken?

    public init(
        providerID: String, rawID: String, federatedID: String? = nil, email: String? = nil,
        emailVerified: Bool = false, displayName: String? = nil, givenName: String? = nil, familyName: String? = nil,
        photoURL: String? = nil, rawUserInfo: [String: JSONValue] = [:], clientID: String? = nil,
        authorizationCode: String? = nil
    ) {
        self.providerID = providerID
        self.rawID = rawID
        self.federatedID = federatedID ?? rawID
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.givenName = givenName
        self.familyName = familyName
        self.photoURL = photoURL
        self.rawUserInfo = rawUserInfo
        self.clientID = clientID
        self.authorizationCode = authorizationCode
    }
}
