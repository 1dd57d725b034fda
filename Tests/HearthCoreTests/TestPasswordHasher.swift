import HearthCore
import HearthCrypto
import HearthProtocol
import Synchronization

/// A fast stand-in for the Argon2id hasher in unit tests (never shipped): `$test-v<version>$<salt>$<sha256>`,
/// a policy of at least 6 characters (`WEAK_PASSWORD`), a rehash when a stored hash has another version (as
/// Argon2id with other parameters), and counts of every verification so tests see that one was spent.
final class TestPasswordHasher: PasswordHashing {
    /// The version new hashes get; hashes of other versions are rehashed on a successful check.
    let version: Int
    private let counts = Mutex((verifications: 0, emptyVerifications: 0))
    /// When set, every call throws it (as the real hasher does when its gate fills between `isBusy` and the call).
    let failure: Mutex<WireError?> = Mutex(nil)
    /// What `isBusy` answers (the real hasher: its gate and queue are full).
    let busy = Mutex(false)

    init(version: Int = 1) { self.version = version }

    var verifications: Int { counts.withLock { $0.verifications } }
    var emptyVerifications: Int { counts.withLock { $0.emptyVerifications } }

    func hashNewPassword(_ password: String) throws -> String {
        if let error = failure.withLock({ $0 }) { throw error }
        guard password.count >= 6 else { throw WireError(.weakPassword, "Password should be at least 6 characters") }
        return hash(password, salt: Base64URL.encode(SecureRandom.bytes(count: 8)), version: version)
    }

    func verify(_ password: String, against stored: String) throws -> PasswordCheck {
        if let error = failure.withLock({ $0 }) { throw error }
        counts.withLock { $0.verifications += 1 }
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[1].hasPrefix("test-v"), let storedVersion = Int(parts[1].dropFirst(6)) else {
            return .mismatch
        }
        guard hash(password, salt: String(parts[2]), version: storedVersion) == stored else { return .mismatch }
        return .match(rehash: storedVersion == version ? nil : try hashNewPassword(password))
    }

    func verifyNothing(_ password: String) throws {
        if let error = failure.withLock({ $0 }) { throw error }
        counts.withLock {
            $0.verifications += 1
            $0.emptyVerifications += 1
        }
    }

    var isBusy: Bool { busy.withLock { $0 } }

    private func hash(_ password: String, salt: String, version: Int) -> String {
        "$test-v\(version)$\(salt)$" + SHA256.hash(salt + password).map { String($0, radix: 16) }.joined()
    }
}
