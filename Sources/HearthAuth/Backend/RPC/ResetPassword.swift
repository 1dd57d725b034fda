/// `resetPassword` (v1 `accounts:resetPassword`): with `newPassword` uses a password reset code; without, only
/// reads what the code is for (PROTOCOL.md §3.9).
struct ResetPasswordCall: BackendRequest {
    struct Body: Encodable, Sendable {
        var oobCode: String
        var newPassword: String?
    }

    struct Response: Decodable, Sendable {
        var email: String?
        /// The new email of a verify-and-change-email or recover-email code.
        var newEmail: String?
        var requestType: String?
    }

    var body: Body
    var service: Service { .relyingParty("resetPassword") }
}
