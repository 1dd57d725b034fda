import Foundation

/// The email-action requests of the Firebase SDKs against `hearth --dev`: the web SDK's v1 bodies
/// (`sendPasswordResetEmail`, `sendSignInLinkToEmail`, `sendEmailVerification`, `verifyBeforeUpdateEmail`,
/// `confirmPasswordReset`, `applyActionCode`, `signInWithEmailLink`, `fetchSignInMethodsForEmail`), the iOS SDK's
/// legacy v3 ones, the Admin SDK's `generate…Link` calls, and the emulator's code listing.
struct EmailActionClients {
    let server: HearthProcess
    static let project = "demo-hearth"

    // MARK: Web SDK (v1)

    func web(_ name: String, _ body: [String: Any]) throws -> HTTPResult {
        try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:\(name)?key=web-api-key", body,
            headers: [("X-Client-Version", "Chrome/JsCore/10.14.1/FirebaseCore-web"), ("Origin", "http://localhost:5173")])
    }

    // MARK: iOS SDK (legacy v3)

    func iOS(_ name: String, _ body: [String: Any]) throws -> HTTPResult {
        try server.postJSON(
            "/www.googleapis.com/identitytoolkit/v3/relyingparty/\(name)?key=ios-api-key", body,
            headers: [("X-Client-Version", "iOS/FirebaseSDK/11.5.0/FirebaseCore-iOS"), ("X-Ios-Bundle-Identifier", "com.example.portfolio")])
    }

    // MARK: Admin SDK and emulator helpers

    func admin(_ path: String, _ body: [String: Any]) throws -> HTTPResult {
        try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/projects/\(Self.project)/\(path)", body,
            headers: [("Authorization", "Bearer owner")])
    }

    /// Creates an account as `auth.create_user` does; returns its uid.
    func createUser(_ fields: [String: Any]) throws -> String {
        let result = try admin("accounts", fields)
        guard result.status == 200, let localID = result.json["localId"] as? String else {
            throw RawHTTP.Failure(description: "create_user refused: \(result.status) \(result.text)")
        }
        return localID
    }

    /// The account as the admin lookup returns it.
    func lookup(_ localID: String) throws -> [String: Any] {
        let result = try admin("accounts:lookup", ["localId": [localID]])
        return (result.json["users"] as? [[String: Any]])?.first ?? [:]
    }

    /// `GET /emulator/v1/projects/{p}/oobCodes`.
    func oobCodes() throws -> [[String: Any]] {
        let result = try server.request("GET", "/emulator/v1/projects/\(Self.project)/oobCodes")
        return result.json["oobCodes"] as? [[String: Any]] ?? []
    }

    /// The one listed code of `requestType` for `email`; throws when there is not exactly one.
    func code(_ requestType: String, for email: String) throws -> (code: String, link: String) {
        let matching = try oobCodes().filter { $0["requestType"] as? String == requestType && $0["email"] as? String == email }
        guard matching.count == 1, let code = matching[0]["oobCode"] as? String, let link = matching[0]["oobLink"] as? String
        else { throw RawHTTP.Failure(description: "expected one \(requestType) code for \(email), listed: \(try oobCodes())") }
        return (code, link)
    }

    /// A session of `uid` through an unsigned custom token (accepted by `--dev`, as the emulator does).
    func session(uid: String) throws -> CustomTokenClient.Session {
        try CustomTokenClient(server: server).signIn(ServiceAccountTests.unsignedToken(uid: uid))
    }
}

extension HTTPResult {
    /// `error.message` of the envelope, or "" when it has none.
    var wireError: String { errorMessage ?? "" }
}
