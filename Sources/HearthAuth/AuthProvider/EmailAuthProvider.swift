/// Credentials for email and password, or email and a sign-in link (FirebaseAuth's `EmailAuthProvider`), for
/// `Auth.signIn(with:)`, `User.reauthenticate(with:)` and `User.link(with:)`.
///
/// ```swift
/// let credential = EmailAuthProvider.credential(withEmail: "ada@example.com", password: password)
/// try await Auth.auth().currentUser?.reauthenticate(with: credential)
/// ```
public enum EmailAuthProvider {
    /// `password`.
    public static let id = "password"

    /// A credential from an email and its password.
    public static func credential(withEmail email: String, password: String) -> AuthCredential {
        AuthCredential(email: EmailCredential(email: email, proof: .password(password)))
    }

    /// A credential from an email and the sign-in link sent to it (`Auth.sendSignInLink(toEmail:actionCodeSettings:)`).
    public static func credential(withEmail email: String, link: String) -> AuthCredential {
        AuthCredential(email: EmailCredential(email: email, proof: .link(link)))
    }
}

/// An email with the proof that goes with it. Both proofs are secrets and never printed.
struct EmailCredential: Sendable {
    enum Proof: Sendable {
        case password(String)
        /// A sign-in link; its `oobCode` is what is sent.
        case link(String)
    }

    var email: String
    var proof: Proof
}
