import Foundation

/// `getOobConfirmationCode` (v1 `accounts:sendOobCode`): asks the server to email a password reset, a
/// verification, a sign-in link or a verify-and-change-email code (PROTOCOL.md §3.8). The body holds only the
/// fields iOS sends for the request type.
struct GetOOBConfirmationCodeCall: BackendRequest {
    struct Body: Encodable, Sendable {
        var requestType: String
        var email: String?
        var newEmail: String?
        var idToken: String?
        var continueUrl: String?
        var iOSBundleId: String?
        /// Sent only when true, as iOS does.
        var canHandleCodeInApp: Bool?
        var clientType = Backend.clientType

        init(
            requestType: String, email: String? = nil, newEmail: String? = nil, idToken: String? = nil,
            settings: ActionCodeSettings?
        ) {
            self.requestType = requestType
            self.email = email
            self.newEmail = newEmail
            self.idToken = idToken
            continueUrl = settings?.url?.absoluteString
            iOSBundleId = settings?.iOSBundleID
            canHandleCodeInApp = settings?.handleCodeInApp == true ? true : nil
        }
    }

    /// The answer's `email` is not needed; `kind` and `email` are ignored.
    struct Response: Decodable, Sendable {}

    var body: Body
    var service: Service { .relyingParty("getOobConfirmationCode") }
}
