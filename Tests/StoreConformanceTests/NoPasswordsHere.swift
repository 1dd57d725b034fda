import HearthCore
import HearthProtocol

/// The password hasher of fixtures whose tests never set or check a password: any use is refused.
struct NoPasswordsHere: PasswordHashing {
    func hashNewPassword(_ password: String) throws -> String { throw Self.unused }
    func verify(_ password: String, against stored: String) throws -> PasswordCheck { throw Self.unused }
    func verifyNothing(_ password: String) throws { throw Self.unused }
    private static let unused = WireError(.operationNotAllowed, "These tests do not use passwords.")
}
