public import HearthProtocol

/// What a client call does, as far as sign-in switches are concerned (``SignInSwitches/permit(_:)``).
public enum SignInUse: Sendable, Equatable {
    /// `accounts:signUp` with an email, a password or an ID token (`withPassword`), or anonymous.
    case signUp(withPassword: Bool)
    /// `accounts:signInWithPassword`, `accounts:resetPassword`.
    case passwordSignIn
    /// `accounts:signInWithEmailLink`, and `sendOobCode` for `EMAIL_SIGNIN`.
    case emailLinkSignIn
    /// Any other client call.
    case other
}

/// The switches that allow or refuse client sign-in methods, one rule for a tenant's (`Tenant.switches`) and the
/// project's (the config API's `signIn`, `ProjectSettings.switches`).
public struct SignInSwitches: Sendable, Equatable {
    /// Every client call is refused (a tenant's `disableAuth`).
    public var disabled: Bool
    /// Password sign-up and sign-in (a tenant's `allowPasswordSignup`, the project's `signIn.email.enabled`).
    public var password: Bool
    /// Email-link sign-in (`enableEmailLinkSignin`; the project's `signIn.email.enabled` without
    /// `signIn.email.passwordRequired`).
    public var emailLink: Bool
    /// Anonymous sign-up (`enableAnonymousUser`, `signIn.anonymous.enabled`).
    public var anonymous: Bool
    /// Whom the refusals name: `this tenant`, `this project`.
    public var subject: String

    public init(disabled: Bool = false, password: Bool, emailLink: Bool, anonymous: Bool, subject: String) {
        self.disabled = disabled
        self.password = password
        self.emailLink = emailLink
        self.anonymous = anonymous
        self.subject = subject
    }

    /// The project's switches while the config API set none: every method allowed.
    public static let allAllowed = SignInSwitches(password: true, emailLink: true, anonymous: true, subject: "this project")

    /// Refuses a client call the switches forbid, with the emulator's codes: `PROJECT_DISABLED` for every call while
    /// `disabled`; `OPERATION_NOT_ALLOWED` for a password sign-up without `password` and an email-link sign-in
    /// without `emailLink`; `PASSWORD_LOGIN_DISABLED` for a password sign-in without `password`;
    /// `ADMIN_ONLY_OPERATION` for an anonymous sign-up without `anonymous`. Admin calls are not checked.
    public func permit(_ use: SignInUse) throws {
        guard !disabled else { throw WireError(.projectDisabled, "Sign-in is disabled for \(subject).") }
        switch use {
        case .signUp(withPassword: true) where !password:
            throw WireError(.operationNotAllowed, "Password sign-up is disabled for \(subject).")
        case .signUp(withPassword: false) where !anonymous:
            throw WireError(.adminOnlyOperation, "Anonymous sign-up is disabled for \(subject).")
        case .passwordSignIn where !password:
            throw WireError(.passwordLoginDisabled, "Password sign-in is disabled for \(subject).")
        case .emailLinkSignIn where !emailLink:
            throw WireError(.operationNotAllowed, "Email link sign-in is disabled for \(subject).")
        default:
            break
        }
    }
}
