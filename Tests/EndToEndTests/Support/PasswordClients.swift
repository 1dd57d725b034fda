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

    private func ios(_ name: String, _ body: [String: Any]) throws -> HTTPResult {
        try server.postJSON("/www.googleapis.com/identitytoolkit/v3/relyingparty/\(name)?key=\(apiKey)", body, headers: Self.iosHeaders)
    }

    private func web(_ name: String, _ body: [String: Any]) throws -> HTTPResult {
        try server.postJSON("/identitytoolkit.googleapis.com/v1/\(name)?key=\(apiKey)", body, headers: Self.webHeaders)
    }

    // MARK: iOS

    /// `Auth.createUser(withEmail:password:)`.
    func iosSignUp(email: String, password: String, displayName: String? = nil) throws -> HTTPResult {
        var body: [String: Any] = ["email": email, "password": password, "returnSecureToken": true, "clientType": "CLIENT_TYPE_IOS"]
        body["displayName"] = displayName
        return try ios("signupNewUser", body)
    }

    /// `Auth.signIn(withEmail:password:)`.
    func iosSignIn(email: String, password: String) throws -> HTTPResult {
        try ios("verifyPassword", ["email": email, "password": password, "returnSecureToken": true, "clientType": "CLIENT_TYPE_IOS"])
    }

    /// `User.updatePassword(to:)`.
    func iosUpdatePassword(idToken: String, password: String) throws -> HTTPResult {
        try ios("setAccountInfo", ["idToken": idToken, "password": password, "returnSecureToken": true])
    }

    // MARK: Web

    /// `createUserWithEmailAndPassword`.
    func webSignUp(email: String, password: String) throws -> HTTPResult {
        try web("accounts:signUp", ["returnSecureToken": true, "email": email, "password": password, "clientType": "CLIENT_TYPE_WEB"])
    }

    /// `signInWithEmailAndPassword`.
    func webSignIn(email: String, password: String) throws -> HTTPResult {
        try web(
            "accounts:signInWithPassword",
            ["returnSecureToken": true, "email": email, "password": password, "clientType": "CLIENT_TYPE_WEB"])
    }

    /// `linkWithCredential(user, EmailAuthProvider.credential(email, password))`.
    func webLink(idToken: String, email: String, password: String) throws -> HTTPResult {
        try web("accounts:signUp", ["idToken": idToken, "returnSecureToken": true, "email": email, "password": password])
    }

    /// `updatePassword` / `updateEmail`.
    func webUpdate(idToken: String, _ fields: [String: Any]) throws -> HTTPResult {
        try web("accounts:update", fields.merging(["idToken": idToken, "returnSecureToken": true]) { $1 })
    }

    /// `signInAnonymously`.
    func webSignInAnonymously() throws -> HTTPResult {
        try web("accounts:signUp", ["returnSecureToken": true])
    }

    /// The JS SDK's refresh (form body).
    func refresh(_ refreshToken: String) throws -> HTTPResult {
        try server.request(
            "POST", "/securetoken.googleapis.com/v1/token?key=\(apiKey)",
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("grant_type=refresh_token&refresh_token=\(refreshToken)".utf8))
    }
}
