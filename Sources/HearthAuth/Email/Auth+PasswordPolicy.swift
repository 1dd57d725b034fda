import Synchronization

/// Checking a password before sending it, as the web SDK's `validatePassword(auth, password)` does.
///
/// ```swift
/// let status = try await Auth.auth().validatePassword(password)
/// if !status.isValid {
///     if !status.meetsMinPasswordLength { print("At least \(status.passwordPolicy.minPasswordLength) characters") }
///     if !status.meetsDigitsRequirement { print("Add a digit") }
/// }
/// ```
extension Auth {
    /// Checks `password` against the project's password policy. The policy is fetched once
    /// (`GET /v2/passwordPolicy`) and cached; it is fetched again after the server refuses a password with
    /// `.passwordDoesNotMeetRequirements`, in case it changed.
    ///
    /// - Throws: `AuthError`: `.networkError`, or the server's error if it has no policy.
    public func validatePassword(_ password: String) async throws -> PasswordValidationStatus {
        try await passwordPolicy().validate(password)
    }

    /// The cached policy, or a fresh one.
    func passwordPolicy() async throws(AuthError) -> PasswordPolicy {
        if let cached = passwordPolicyCache.withLock({ $0 }) { return cached }
        let policy = PasswordPolicy(try await backend.call(GetPasswordPolicyCall()).response)
        passwordPolicyCache.withLock { $0 = policy }
        return policy
    }

    /// Runs a call that sets a password; if the server refuses it for the policy, forgets the cached policy.
    func forgettingPasswordPolicyOnRefusal<T>(_ body: () async throws(AuthError) -> T) async throws(AuthError) -> T {
        do {
            return try await body()
        } catch {
            if error.code == .passwordDoesNotMeetRequirements { passwordPolicyCache.withLock { $0 = nil } }
            throw error
        }
    }
}
