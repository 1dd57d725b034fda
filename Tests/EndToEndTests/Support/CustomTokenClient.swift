import Foundation

/// What a client app does with a custom token its backend made: `accounts:signInWithCustomToken` (v1, as the
/// Firebase SDKs send it), then refreshes of the session it got.
struct CustomTokenClient {
    let server: HearthProcess
    var apiKey = "any-key"

    /// A signed-in session from a custom token.
    struct Session {
        var idToken: String
        var refreshToken: String
        var isNewUser: Bool
    }

    /// Signs in with `token`; throws with the server's answer when it is refused.
    func signIn(_ token: String) throws -> Session {
        let result = try server.postJSON(
            "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=\(apiKey)",
            ["token": token, "returnSecureToken": true])
        guard result.status == 200, let idToken = result.json["idToken"] as? String,
            let refreshToken = result.json["refreshToken"] as? String
        else { throw RawHTTP.Failure(description: "custom-token sign-in refused: \(result.status) \(result.text)") }
        return Session(idToken: idToken, refreshToken: refreshToken, isNewUser: result.json["isNewUser"] as? Bool ?? false)
    }

    /// Refreshes `session` (form body, as the JS SDK sends it) and, when that works, keeps the new tokens (refresh
    /// tokens rotate). Returns the server's answer.
    @discardableResult
    func refresh(_ session: inout Session) throws -> HTTPResult {
        let result = try FirebaseIOSClient(server: server, apiKey: apiKey).refreshWithForm(session.refreshToken)
        if result.status == 200, let idToken = result.json["id_token"] as? String,
            let refreshToken = result.json["refresh_token"] as? String
        {
            session.idToken = idToken
            session.refreshToken = refreshToken
        }
        return result
    }
}
