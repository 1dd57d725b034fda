/// Turns passwords into the hashes an ``Account`` stores (`passwordHash`) and checks passwords against them.
///
/// Hashing is deliberately slow, so implementations run it under a bounded gate (DESIGN decision 3): when
/// the gate and its short queue are full they throw `WireError(.tooManyAttemptsTryLater)` at once instead
/// of tying up the HTTP worker threads that refreshes, lookups and JWKS need.
public protocol PasswordHashing: Sendable {
    /// The hash to store for a new password (sign-up, change, reset, admin create), which the caller has held to
    /// its scope's password policy (``hashNewPassword(_:under:)``).
    func hashNewPassword(_ password: String) throws -> String
    /// Whether `password` matches `stored` (Hearth's own hash or an imported one).
    func verify(_ password: String, against stored: String) throws -> PasswordCheck
    /// Spends the time of one verification without any stored hash, so that an unknown email answers in
    /// about the time a wrong password does (email enumeration protection).
    func verifyNothing(_ password: String) throws
    /// Whether hashing would be refused right now (`TOO_MANY_ATTEMPTS_TRY_LATER`): a caller can refuse a request
    /// on that before doing any other work for it (such as counting a sign-in attempt in the store).
    var isBusy: Bool { get }
}

extension PasswordHashing {
    /// The hash to store for a new password that `policy` accepts: `WEAK_PASSWORD` /
    /// `PASSWORD_DOES_NOT_MEET_REQUIREMENTS` before any hashing when it does not.
    public func hashNewPassword(_ password: String, under policy: PasswordPolicy) throws -> String {
        try policy.check(password)
        return try hashNewPassword(password)
    }
}

/// The outcome of ``PasswordHashing/verify(_:against:)``.
public enum PasswordCheck: Sendable, Equatable {
    case mismatch
    /// The password is right; `rehash` is the hash to store instead of the old one when that was an imported
    /// hash or Argon2id with other parameters than the configured ones (computed while the password is at hand).
    case match(rehash: String?)
}

/// Checks one family of stored hashes that Hearth does not write itself (hashes imported from Firebase,
/// bcrypt, PBKDF2, salted SHA, …); ``PasswordHashing`` implementations consult them for any hash that is
/// not their own.
public protocol StoredPasswordHashVerifier: Sendable {
    /// Whether `stored` is a hash of this family.
    func recognizes(_ stored: String) -> Bool
    /// Whether `password` matches `stored`, compared in constant time. Throws for a malformed hash.
    func verify(_ password: String, against stored: String) throws -> Bool
}
