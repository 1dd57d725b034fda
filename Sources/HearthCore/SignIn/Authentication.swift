import HearthProtocol

/// What one first-factor sign-in proved (DESIGN.md decision 19). Every method — a provider's ID token, a password,
/// an email link, a custom token, a guest's sign-up — makes one, and the one ``SignInCompletion`` turns it into a
/// session, a pending second factor, or a request for confirmation, inside the method's write.
struct Authentication {
    /// Which account the sign-in is for, and how it is found.
    enum Subject {
        /// A provider's identity and what its credential proves about its email: the account that has the identity;
        /// else the account with the email, joined (taken over when its email was never verified) only when the
        /// provider is trusted for the address and asked to confirm otherwise; else a new account.
        case identity(FederatedProfile, EmailProof)
        /// An address an email link proved: the account with it (taken over when its email was never verified),
        /// else a new account.
        case provenEmail(String)
        /// The account `localID`, found before the write (a password checked against its hash); `ifGone` refuses
        /// the sign-in when it was deleted since.
        case existing(localID: String, ifGone: WireError)
        /// The account with this uid, made when there is none (a custom token from the project's backend).
        case uid(String)
        /// A new account, as given (a password sign-up, a guest).
        case new(Account)
    }

    var subject: Subject
    /// The session's `firebase.sign_in_provider`.
    var signInProvider: String
    /// The provider the audit log names (`emailLink` for a link, whose sessions say `password`).
    var recordedProvider: String
    /// Claims every ID token of the session carries (a custom token's `claims`).
    var sessionClaims: [String: JSONValue]?
    /// Whether the sign-in may make a new account (`signInWithIdp`'s `autoCreate`).
    var createsAccount = true
    /// Whether an enrolled second factor is asked for (not after a custom token, as in the Firebase emulator).
    var asksSecondFactor = true
    /// Whether the completion takes the sign-in's rate-limit token (`signInPerAccount`, or `accountCreationPerClient`
    /// for a new account); false when the method took it already, before work worth shedding (a password hash).
    var takesRateLimit = true
    /// What the method checks and changes on the account it signs in to, once found: a refusal is committed with
    /// the sign-in's other writes (a password that changed since it was checked), and nothing is changed then.
    var prepare: (inout Account) -> WireError? = { _ in nil }

    init(_ subject: Subject, signInProvider: String, recordedProvider: String? = nil) {
        self.subject = subject
        self.signInProvider = signInProvider
        self.recordedProvider = recordedProvider ?? signInProvider
    }

    /// The session a completed sign-in starts at `millis`.
    func session(atMillis millis: Int64) -> Session {
        Session(signInProvider: signInProvider, authTime: millis / 1000, sessionClaims: sessionClaims)
    }
}

/// What linking adds to the signed-in account (the SDKs' `link(with:)`): a provider's identity, an address an email
/// link proved, or an email and password. Linking goes through the same completion as signing in.
enum Attachment {
    case identity(FederatedProfile, EmailProof)
    case provenEmail(String)
    /// An email (checked) and the hash of a new password; the display name the request sets, if any.
    case password(email: String, hash: String, displayName: String?)

    /// The session's `firebase.sign_in_provider` after linking, and the provider the audit log names.
    var providers: (signIn: String, recorded: String) {
        switch self {
        case .identity(let profile, _): (profile.providerID, profile.providerID)
        case .provenEmail: ("password", EmailActionService.emailLinkProvider)
        case .password: ("password", "password")
        }
    }
}
