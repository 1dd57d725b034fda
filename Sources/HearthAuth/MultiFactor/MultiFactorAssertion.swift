/// Proof that the user passed a second factor's challenge (FirebaseAuth's `MultiFactorAssertion`),
/// for `MultiFactor.enroll(with:displayName:)` or `MultiFactorResolver.resolveSignIn(with:)`.
///
/// Make one with `PhoneMultiFactorGenerator` or `TOTPMultiFactorGenerator`.
public class MultiFactorAssertion: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: every stored property, here and in the subclasses, is an immutable Sendable value.

    /// `phone` or `totp`.
    public let factorID: String

    init(factorID: String) { self.factorID = factorID }

    public var description: String { "MultiFactorAssertion(factorID: \(factorID), <redacted>)" }
}

/// Proof of a phone factor: the verification ID and the SMS code.
public final class PhoneMultiFactorAssertion: MultiFactorAssertion, @unchecked Sendable {
    let credential: PhoneAuthCredential

    init(credential: PhoneAuthCredential) {
        self.credential = credential
        super.init(factorID: PhoneMultiFactorGenerator.factorID)
    }
}

/// Proof of a TOTP factor: a one-time password, with the secret being enrolled or the ID of the
/// enrolled factor.
public final class TOTPMultiFactorAssertion: MultiFactorAssertion, @unchecked Sendable {
    enum Target: Sendable {
        /// Enrolment: the secret from `generateSecret(with:)` (its `sessionInfo` goes to the server).
        case secret(TOTPSecret)
        /// Sign-in: the enrolled factor's ID.
        case enrollmentID(String)
    }

    let target: Target
    let oneTimePassword: String

    init(target: Target, oneTimePassword: String) {
        self.target = target
        self.oneTimePassword = oneTimePassword
        super.init(factorID: TOTPMultiFactorGenerator.factorID)
    }
}
