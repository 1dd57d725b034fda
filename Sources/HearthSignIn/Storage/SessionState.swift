import Foundation
import HearthProtocol

/// Everything a signed-in user is made of, as stored in the ``SignInSessionStore`` (JSON, dates as seconds since
/// 1970). The client secret is not stored: it comes from the configuration in use.
struct SessionState: Codable, Sendable, Equatable {
    struct Profile: Codable, Sendable, Equatable {
        var email: String
        var name: String
        var givenName: String?
        var familyName: String?
        var picture: String?
    }

    var version = 1
    var clientID: String
    var serverClientID: String?
    var issuer: String
    var accessToken: String
    var accessTokenExpiry: Date?
    var refreshToken: String
    var refreshTokenExpiry: Date?
    var idToken: String?
    var idTokenExpiry: Date?
    var userID: String?
    /// The ID token's `hd` claim (Workspace domain).
    var hostedDomain: String?
    var grantedScopes: [String]?
    var profile: Profile?

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        // A struct of strings, dates and arrays always encodes.
        return (try? encoder.encode(self)) ?? Data()
    }

    static func decode(_ data: Data) -> SessionState? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let state = try? decoder.decode(SessionState.self, from: data), state.version == 1 else { return nil }
        return state
    }

    /// Whether this session belongs to `configuration`'s client at its issuer.
    func belongs(to configuration: SignInConfiguration) -> Bool {
        clientID == configuration.clientID && issuer == configuration.issuerString
    }

    /// Takes over an ID token's subject, expiry, `hd`, and (when it carries all of them) its profile claims.
    mutating func apply(_ idToken: ValidatedIDToken) {
        self.idToken = idToken.token
        idTokenExpiry = idToken.expiration
        userID = idToken.subject
        hostedDomain = idToken.string("hd")
        if let profile = Profile(completeClaims: idToken.claims) { self.profile = profile }
    }
}

extension SessionState.Profile {
    /// The profile from ID token claims, when they have `email`, `name`, `given_name`, `family_name` and `picture`
    /// (GIDSignIn's rule for skipping the userinfo request).
    init?(completeClaims claims: [String: JSONValue]) {
        guard let email = claims["email"]?.stringValue, let name = claims["name"]?.stringValue,
            let given = claims["given_name"]?.stringValue, let family = claims["family_name"]?.stringValue,
            let picture = claims["picture"]?.stringValue
        else { return nil }
        self.init(email: email, name: name, givenName: given, familyName: family, picture: picture)
    }

    /// The profile from userinfo, with the ID token's claims filling what it lacks; nil without any email.
    init?(claims: [String: JSONValue], userInfo: [String: JSONValue]) {
        func value(_ name: String) -> String? { userInfo[name]?.stringValue ?? claims[name]?.stringValue }
        guard let email = claims["email"]?.stringValue ?? userInfo["email"]?.stringValue else { return nil }
        self.init(
            email: email, name: value("name") ?? "", givenName: value("given_name"), familyName: value("family_name"),
            picture: value("picture"))
    }

    var profileData: ProfileData {
        ProfileData(email: email, name: name, givenName: givenName, familyName: familyName, pictureURL: picture)
    }
}
