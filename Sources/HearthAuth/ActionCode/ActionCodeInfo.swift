/// What an email action code is for (FirebaseAuth's `ActionCodeOperation`).
public enum ActionCodeOperation: Int, Sendable {
    case unknown = 0
    case passwordReset = 1
    case verifyEmail = 2
    case recoverEmail = 3
    case emailLink = 4
    case verifyAndChangeEmail = 5
    case revertSecondFactorAddition = 6

    /// From `resetPassword`'s `requestType`. The server sends the v1 names (`PASSWORD_RESET`, …); the iOS SDK
    /// matches the action page's mode names (`resetPassword`, …), so both are read.
    init(requestType: String?) {
        switch requestType {
        case "PASSWORD_RESET", "resetPassword": self = .passwordReset
        case "VERIFY_EMAIL", "verifyEmail": self = .verifyEmail
        case "RECOVER_EMAIL", "recoverEmail": self = .recoverEmail
        case "EMAIL_SIGNIN", "signIn": self = .emailLink
        case "VERIFY_AND_CHANGE_EMAIL", "verifyAndChangeEmail": self = .verifyAndChangeEmail
        case "REVERT_SECOND_FACTOR_ADDITION", "revertSecondFactorAddition": self = .revertSecondFactorAddition
        default: self = .unknown
        }
    }
}

/// What `Auth.checkActionCode(_:)` learns about a code (FirebaseAuth's `ActionCodeInfo`).
public struct ActionCodeInfo: Sendable, Equatable {
    public let operation: ActionCodeOperation
    /// The email the code is for; for a change of email, the new address.
    public let email: String
    /// For a change of email, the address before the change.
    public let previousEmail: String?

    /// As FirebaseAuth: when the server sends `newEmail`, that is `email` and the old address is `previousEmail`.
    init(operation: ActionCodeOperation, email: String, newEmail: String?) {
        self.operation = operation
        if let newEmail {
            self.email = newEmail
            previousEmail = email
        } else {
            self.email = email
            previousEmail = nil
        }
    }
}
