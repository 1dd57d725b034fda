import Foundation

/// The requests the Firebase iOS SDK sends after `Auth.auth().useEmulator(withHost:port:)`
/// (PROTOCOL.md §1.2, §4.1): legacy v3 paths, `?key=`, JSON bodies, the iOS headers, and a JSON
/// refresh body with camelCase keys.
struct FirebaseIOSClient {
    let server: HearthProcess
    var apiKey = "AIzaSyTest-iOS-key"

    private var iosHeaders: [(String, String)] {
        [
            ("X-Client-Version", "iOS/FirebaseSDK/11.5.0/FirebaseCore-iOS"),
            ("X-Ios-Bundle-Identifier", "com.example.portfolio"),
            ("X-Firebase-GMPID", "1:123:ios:abc"),
            ("Accept-Language", "en"),
        ]
    }

    private func relyingParty(_ name: String) -> String {
        "/www.googleapis.com/identitytoolkit/v3/relyingparty/\(name)?key=\(apiKey)"
    }

    /// `verifyAssertion` as `Auth.signIn(with: GoogleAuthProvider.credential(withIDToken:accessToken:))` sends it.
    func verifyAssertion(idToken: String?, accessToken: String?, linking firebaseIDToken: String? = nil, autoCreate: Bool = true) throws -> HTTPResult {
        var items = [URLQueryItem(name: "providerId", value: "google.com")]
        if let idToken { items.append(URLQueryItem(name: "id_token", value: idToken)) }
        if let accessToken { items.append(URLQueryItem(name: "access_token", value: accessToken)) }
        return try verifyAssertion(postBody: items, linking: firebaseIDToken, autoCreate: autoCreate)
    }

    /// `verifyAssertion` with `postBody` made of `items` by URLComponents, as the iOS SDK makes it.
    func verifyAssertion(postBody items: [URLQueryItem], linking firebaseIDToken: String?, autoCreate: Bool = true) throws
        -> HTTPResult
    {
        var components = URLComponents()
        components.queryItems = items
        var body: [String: Any] = [
            "requestUri": "http://localhost", "postBody": components.percentEncodedQuery ?? "",
            "returnSecureToken": true, "returnIdpCredential": true, "autoCreate": autoCreate,
        ]
        if let firebaseIDToken { body["idToken"] = firebaseIDToken }
        return try server.postJSON(relyingParty("verifyAssertion"), body, headers: iosHeaders)
    }

    /// `signupNewUser` as `Auth.signInAnonymously()` sends it.
    func signUpAnonymously() throws -> HTTPResult {
        try server.postJSON(relyingParty("signupNewUser"), ["returnSecureToken": true], headers: iosHeaders)
    }

    func getAccountInfo(idToken: String) throws -> HTTPResult {
        try server.postJSON(relyingParty("getAccountInfo"), ["idToken": idToken], headers: iosHeaders)
    }

    func setAccountInfo(_ body: [String: Any]) throws -> HTTPResult {
        try server.postJSON(relyingParty("setAccountInfo"), body, headers: iosHeaders)
    }

    func deleteAccount(idToken: String, localID: String) throws -> HTTPResult {
        try server.postJSON(relyingParty("deleteAccount"), ["idToken": idToken, "localId": localID], headers: iosHeaders)
    }

    /// `Auth.revokeToken(withAuthorizationCode:)` as the iOS SDK sends it (`FIRRevokeTokenRequest`, Identity Platform
    /// v2): `tokenType` "3" (an authorization code) and the Firebase ID token of the signed-in user.
    func revokeToken(providerID: String, token: String, idToken: String?) throws -> HTTPResult {
        var body: [String: Any] = ["providerId": providerID, "tokenType": "3", "token": token]
        body["idToken"] = idToken
        return try server.postJSON("/identitytoolkit.googleapis.com/v2/accounts:revokeToken?key=\(apiKey)", body, headers: iosHeaders)
    }

    /// `SecureTokenRequest` as iOS sends it: JSON, camelCase.
    func refresh(_ refreshToken: String) throws -> HTTPResult {
        try server.postJSON(
            "/securetoken.googleapis.com/v1/token?key=\(apiKey)",
            ["grantType": "refresh_token", "refreshToken": refreshToken], headers: iosHeaders)
    }

    /// The form body the JS SDK and the REST documentation use.
    func refreshWithForm(_ refreshToken: String) throws -> HTTPResult {
        let body = "grant_type=refresh_token&refresh_token=\(refreshToken)"
        return try server.request(
            "POST", "/securetoken.googleapis.com/v1/token?key=\(apiKey)",
            headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Data(body.utf8))
    }
}

/// Signed-in state as a client keeps it.
struct SignedIn {
    var localID: String
    var idToken: String
    var refreshToken: String

    init(_ result: HTTPResult) throws {
        let json = result.json
        guard result.status == 200, let localID = json["localId"] as? String, let idToken = json["idToken"] as? String,
            let refreshToken = json["refreshToken"] as? String
        else { throw RawHTTP.Failure(description: "not a sign-in: \(result.status) \(result.text)") }
        self.localID = localID
        self.idToken = idToken
        self.refreshToken = refreshToken
    }
}

/// JWT helpers for reading tokens in tests (no verification).
enum JWTParts {
    static func decode(_ segment: Substring) -> [String: Any] {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    static func header(_ token: String) -> [String: Any] { decode(token.split(separator: ".")[0]) }
    static func claims(_ token: String) -> [String: Any] { decode(token.split(separator: ".")[1]) }
}
