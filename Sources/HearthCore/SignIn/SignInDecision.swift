import HearthProtocol

/// How a completed sign-in ended, decided inside its write by ``SignInCompletion``.
enum SignInDecision {
    /// A session started (its refresh token stored); the ID token is minted after the write commits.
    case session(SignedIn)
    /// The account has second factors: a pending sign-in was recorded instead of a session.
    case secondFactor(Account, credential: String, factors: [MFAEnrollmentInfo])
    /// The credential's email belongs to another account that this provider may not join: nothing changed.
    case needsConfirmation(Account)
    /// Refused; the write still commits (the refusal's audit event, and a method's counted attempt), and the method
    /// answers the error after it.
    case refused(WireError)

    /// The sign-in metric's outcome label.
    var metricsOutcome: String {
        switch self {
        case .session: MetricsOutcome.success
        case .secondFactor: MetricsOutcome.secondFactorRequired
        case .needsConfirmation: MetricsOutcome.needsConfirmation
        case .refused(let error): MetricsOutcome.failure(error)
        }
    }
}

/// A session that a sign-in (first factor, second factor, or linking) started, as every response is filled from it.
struct SignedIn {
    var account: Account
    var session: Session
    /// The new session's refresh token (stored by hash in the write that started it).
    var refreshToken: String
    var isNewUser: Bool
    /// Linking (`idToken` + credential) rather than signing in.
    var linked = false
    /// The identity replaced another identity of the same provider on the email's account (`emailRecycled`).
    var emailRecycled = false
}

/// The tokens of a ``SignedIn``, minted after its write committed.
struct IssuedTokens {
    var idToken: String
    var refreshToken: String
    var expiresIn: String
}

extension TokenService {
    /// Mints the ID token of a session the write that just committed started: the one place a sign-in's tokens
    /// are issued.
    func issue(_ signedIn: SignedIn) throws -> IssuedTokens {
        IssuedTokens(
            idToken: try mintIDToken(for: signedIn.account, session: signedIn.session),
            refreshToken: signedIn.refreshToken, expiresIn: expiresIn)
    }
}
