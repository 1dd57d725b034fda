import HearthProtocol

/// How each kind of provider's verified claims become a ``FederatedProfile`` (PROTOCOL.md §4.2).
extension IdentityProvider {
    /// The profile of verified ID-token claims; `credential` adds what the request carries beside the token.
    func profile(of token: VerifiedIDToken, credential: IdpCredential) -> FederatedProfile {
        var profile: FederatedProfile = switch kind {
        case .google: Self.googleProfile(subject: token.subject, claims: token.claims, scopes: nil)
        case .apple: Self.appleProfile(subject: token.subject, claims: token.claims, user: credential.user)
        case .openID: Self.openIDProfile(id, subject: token.subject, claims: token.claims)
        }
        profile.clientID = token.clientID
        profile.authorizationCode = credential.authorizationCode
        return profile
    }

    /// Google: the standard claims, and `rawUserInfo` in the shape of Google's userinfo (as the emulator answers).
    static func googleProfile(subject: String, claims: [String: JSONValue], scopes: String?) -> FederatedProfile {
        var profile = standardProfile(googleID, subject: subject, claims: claims)
        profile.federatedID = "https://accounts.google.com/\(subject)"
        var raw: [String: JSONValue] = ["id": .string(subject), "verified_email": .bool(profile.emailVerified)]
        raw["email"] = profile.email.map(JSONValue.string)
        raw["name"] = profile.displayName.map(JSONValue.string)
        raw["given_name"] = profile.givenName.map(JSONValue.string)
        raw["family_name"] = profile.familyName.map(JSONValue.string)
        raw["picture"] = profile.photoURL.map(JSONValue.string)
        raw["hd"] = claims["hd"]?.stringValue.map(JSONValue.string)
        raw["locale"] = .string(claims["locale"]?.stringValue ?? "en")
        var defaultScopes = "openid https://www.googleapis.com/auth/userinfo.profile"
        if profile.email != nil { defaultScopes += " https://www.googleapis.com/auth/userinfo.email" }
        raw["granted_scopes"] = .string(scopes ?? defaultScopes)
        profile.rawUserInfo = raw
        return profile
    }

    /// Apple: the email (a private relay address like any other), verified when Apple says so in either spelling
    /// (or when it is a private relay address, which Apple always verifies); the name only from the request's `user`.
    private static func appleProfile(subject: String, claims: [String: JSONValue], user: String?) -> FederatedProfile {
        let name = AppleName(user: user)
        return FederatedProfile(
            providerID: appleID, rawID: subject, email: claims["email"]?.stringValue,
            emailVerified: flag(claims["email_verified"]) || flag(claims["is_private_email"]),
            displayName: name?.displayName, givenName: name?.firstName, familyName: name?.lastName,
            rawUserInfo: claims)
    }

    private static func openIDProfile(_ id: String, subject: String, claims: [String: JSONValue]) -> FederatedProfile {
        var profile = standardProfile(id, subject: subject, claims: claims)
        profile.rawUserInfo = claims
        return profile
    }

    private static func standardProfile(_ id: String, subject: String, claims: [String: JSONValue]) -> FederatedProfile {
        FederatedProfile(
            providerID: id, rawID: subject, email: claims["email"]?.stringValue, emailVerified: flag(claims["email_verified"]),
            displayName: claims["name"]?.stringValue, givenName: claims["given_name"]?.stringValue,
            familyName: claims["family_name"]?.stringValue, photoURL: claims["picture"]?.stringValue)
    }

    /// A boolean claim given as a boolean or as the string "true"/"false" (Apple sends both).
    private static func flag(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let flag): flag
        case .string(let text): text == "true"
        default: false
        }
    }
}
