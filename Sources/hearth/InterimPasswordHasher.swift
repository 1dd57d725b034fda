import HearthCore
import HearthProtocol

/// Until the Argon2id hasher is merged (the `argon2` lane), `hearth` refuses to set or check passwords, as it
/// did before password sign-in existed. Removed by the merge.
struct InterimPasswordHasher: PasswordHashing {
    func hashNewPassword(_ password: String) throws -> String { throw Self.refusal }
    func verify(_ password: String, against stored: String) throws -> PasswordCheck { throw Self.refusal }
    func verifyNothing(_ password: String) throws { throw Self.refusal }
    private static let refusal = WireError(.operationNotAllowed, "Password sign-in is not enabled on this Hearth server.")
}
