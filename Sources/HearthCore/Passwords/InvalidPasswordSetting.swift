/// A password setting (``Argon2Parameters``, ``PasswordPolicy``) out of its range; `message` names the
/// setting, its range and the value given.
public struct InvalidPasswordSetting: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
