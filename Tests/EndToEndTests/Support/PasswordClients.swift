import Foundation

/// The password requests of the Firebase SDKs, byte for byte as they build them: the iOS SDK's legacy v3
/// `signupNewUser`, `verifyPassword` and `setAccountInfo` (`FIRSignUpNewUserRequest`, `FIRVerifyPasswordRequest`,
/// `FIRSetAccountInfoRequest`: `returnSecureToken`, `clientType: CLIENT_TYPE_IOS`), and the web SDK's v1
/// `accounts:signUp` / `signInWithPassword` / `update` (`createUserWithEmailAndPassword`,
/// `signInWithEmailAndPassword`, `linkWithCredential(EmailAuthProvider.credential(…))`, `updatePassword`).
struct PasswordClients {
    let server: HearthProcess
    var apiKey = "AIzaSyTest-password-key"

    private static let iosHeaders = [
        ("X-Client-Version", "iOS/FirebaseSDK/11.5.0/FirebaseCore-iOS"), ("X-Ios-Bundle-Identifier", "com.example.portfolio"),
    ]
    private static let webHeaders = [("X-Client-Version", "Chrome/JsCore/11.0.2/FirebaseCore-web"), ("Origin", "http://localhost")]

    private func relyingParty(_ name: String) -> String { "/www.googleapis.com/identitytoolkit/v3/relyingparty/\(name)?key=\(apiKey)" }
    private func v1(_ name: String) -> String { "/identitytoolkit.googleapis.com/v1/\(name)?key=\(apiKey)" }

    // MARK: iOS

    /// `Auth.createUser(withEmail:password:)`.
    func iosSignUp(email: String, password: String, displayName: String? = nil) throws -> HTTPResult {
        var body: [String: Any] = ["email": email, "password": password, "returnSecureToken": true, "clientType": "CLIENT_TYPE_IOS"]
        body["displayName"] = displayName
        return try server.postJSON(relyingParty("signupNewUser"), body, headers: Self.iosHeaders)
    }

    /// `Auth.signIn(withEmail:password:)`.
    func iosSignIn(email: String, password: String) throws -> HTTPResult {
        try server.postJSON(
            relyingParty("verifyPassword"),
            ["email": email, "password": password, "returnSecureToken": true, "clientType": "CLIENT_TYPE_IOS"],
            headers: Self.iosHeaders)
    }

    /// `User.updatePassword(to:)`.
    func iosUpdatePassword(idToken: String, password: String) throws -> HTTPResult {
        try server.postJSON(
            relyingParty("setAccountInfo"), ["idToken": idToken, "password": password, "returnSecureToken": true],
            headers: Self.iosHeaders)
    }

    // MARK: Web

    /// `createUserWithEmailAndPassword`.
    func webSignUp(email: String, password: String) throws -> HTTPResult {
        try server.postJSON(
            v1("accounts:signUp"),
            ["returnSecureToken": true, "email": email, "password": password, "clientType": "CLIENT_TYPE_WEB"],
            headers: Self.webHeaders)
    }

    /// `signInWithEmailAndPassword`.
    func webSignIn(email: String, password: String) throws -> HTTPResult {
        try server.postJSON(
            v1("accounts:signInWithPassword"),
            ["returnSecureToken": true, "email": email, "password": password, "clientType": "CLIENT_TYPE_WEB"],
            headers: Self.webHeaders)
    }

    /// `linkWithCredential(user, EmailAuthProvider.credential(email, password))`.
    func webLink(idToken: String, email: String, password: String) throws -> HTTPResult {
        try server.postJSON(
            v1("accounts:signUp"), ["idToken": idToken, "returnSecureToken": true, "email": email, "password": password],
            headers: Self.webHeaders)
    }

    /// `updatePassword` / `updateEmail`.
    func webUpdate(idToken: String, _ fields: [String: Any]) throws -> HTTPResult {
        try server.postJSON(
            v1("accounts:update"), fields.merging(["idToken": idToken, "returnSecureToken": true]) { $1 },
            headers: Self.webHeaders)
    }

    /// `signInAnonymously`.
    func webSignInAnonymously() throws -> HTTPResult {
        try server.postJSON(v1("accounts:signUp"), ["returnSecureToken": true], headers: Self.webHeaders)
    }

    /// The JS SDK's refresh (form body).
    func refresh(_ refreshToken: String) throws -> HTTPResult {
        try server.request(
            "POST", "/securetoken.googleapis.com/v1/token?key=\(apiKey)",
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("grant_type=refresh_token&refresh_token=\(refreshToken)".utf8))
    }
}
