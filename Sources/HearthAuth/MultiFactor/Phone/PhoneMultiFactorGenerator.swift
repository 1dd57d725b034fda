/// Makes phone second-factor assertions (FirebaseAuth's `PhoneMultiFactorGenerator`).
///
/// ```swift
/// let provider = PhoneAuthProvider.provider(auth: auth)
/// let verificationID = try await provider.verifyPhoneNumber(with: hint, multiFactorSession: resolver.session)
/// let credential = provider.credential(withVerificationID: verificationID, verificationCode: smsCode)
/// let result = try await resolver.resolveSignIn(with: PhoneMultiFactorGenerator.assertion(with: credential))
/// ```
public enum PhoneMultiFactorGenerator {
    /// `phone`.
    public static let factorID = "phone"

    /// An assertion from a credential made with `PhoneAuthProvider.credential(withVerificationID:verificationCode:)`.
    public static func assertion(with credential: PhoneAuthCredential) -> PhoneMultiFactorAssertion {
        PhoneMultiFactorAssertion(credential: credential)
    }
}
