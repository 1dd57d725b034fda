/// Identifies a multi-factor flow to the server (FirebaseAuth's `MultiFactorSession`).
///
/// For enrolment it comes from `user.multiFactor.getSession()` and wraps the user's ID token; for
/// sign-in it is `MultiFactorResolver.session` and wraps the pending credential the first factor
/// left. Pass it to `PhoneAuthProvider.verifyPhoneNumber` or `TOTPMultiFactorGenerator.generateSecret`.
/// It holds secrets and prints as `<redacted>`.
public final class MultiFactorSession: Sendable, CustomStringConvertible, CustomReflectable {
    enum Kind: Sendable {
        /// Enrolling a factor for `user`, proven by `idToken`.
        case enrollment(idToken: String, user: User)
        /// Finishing a sign-in; `mfaPendingCredential` proves the first factor.
        case signIn(pendingCredential: String?)
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .enrollment: "MultiFactorSession(enrollment, <redacted>)"
        case .signIn: "MultiFactorSession(sign-in, <redacted>)"
        }
    }

    public var customMirror: Mirror { Mirror(self, children: ["session": "<redacted>"]) }
}
