import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthAuth
import HearthSignIn

/// A failure the user can act on: one line of advice, and the exit status for scripts.
struct AppFailure: Error {
    var message: String
    var status: Int32

    static func notSignedIn() -> AppFailure {
        AppFailure(message: "Not signed in. Run `portfolio sign-in` first.", status: ExitStatus.notSignedIn)
    }
}

/// Exit statuses, documented in `portfolio --help`.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let notSignedIn: Int32 = 3
    static let unreachable: Int32 = 4
    static let sessionEnded: Int32 = 5
    static let signInFailed: Int32 = 6
    static let usage: Int32 = 64
}

/// The documents' app, in a terminal: Google sign-in (HearthSignIn), Firebase-style sign-in to Hearth
/// (HearthAuth), the user's profile, and the portfolio list from the app's own backend.
struct PortfolioApp {
    let settings: PortfolioSettings
    let auth: Auth
    let google: GoogleSignIn
    let apple: AppleSignIn
    let write: (String) -> Void
    let prompter: Prompter

    init(settings: PortfolioSettings, write: @escaping (String) -> Void) throws {
        self.settings = settings
        self.write = write
        prompter = Prompter()
        let hearthStore: any SessionStore
        let googleStore: any SignInSessionStore
        if let directory = settings.sessionDirectory {
            hearthStore = try FileSessionStore(directory: directory)
            googleStore = FileSignInSessionStore(fileURL: directory.appendingPathComponent("google-signin.json"))
        } else {
            hearthStore = try FileSessionStore()
            googleStore = FileSignInSessionStore.default()
        }
        auth = Auth(
            options: HearthOptions(apiKey: settings.apiKey, projectID: settings.projectID, clientID: settings.googleClientID),
            sessionStore: hearthStore)
        if let host = settings.hearthURL.host {
            auth.useEmulator(withHost: host, port: settings.hearthURL.port ?? (settings.hearthURL.scheme == "https" ? 443 : 80))
        }
        google = GoogleSignIn(
            configuration: SignInConfiguration(
                clientID: settings.googleClientID, issuer: settings.googleIssuer, clientSecret: settings.googleClientSecret),
            sessionStore: googleStore)
        apple = AppleSignIn(
            configuration: AppleSignInConfiguration(clientID: settings.appleClientID, issuer: settings.appleIssuer))
    }

    // MARK: sign-in

    /// Signs in with Google, then with that credential to Hearth. `email` uses the dev IdP's headless
    /// path (no browser); without it, a browser opens the Google (or dev IdP) account chooser.
    func signIn(as email: String?) async throws {
        try await signIn(with: try await googleCredential(as: email))
    }

    /// A Google credential from Google sign-in (headless with the dev IdP when `email` is given).
    func googleCredential(as email: String?) async throws -> AuthCredential {
        let googleResult: SignInResult
        do {
            if email == nil { write("Opening the sign-in page in your browser…") }
            googleResult = try await google.signIn(hint: email, headless: email != nil)
        } catch let error as SignInError {
            throw AppFailure(message: Self.describe(error), status: error.code == .canceled ? ExitStatus.signInFailed : Self.status(of: error))
        }
        guard let googleIDToken = googleResult.user.idToken?.tokenString else {
            throw AppFailure(message: "Google did not return an ID token. Try signing in again.", status: ExitStatus.signInFailed)
        }
        return GoogleAuthProvider.credential(withIDToken: googleIDToken, accessToken: googleResult.user.accessToken.tokenString)
    }

    /// Signs in to Hearth with a provider credential, with a second factor when the account has one.
    func signIn(with credential: AuthCredential) async throws {
        let result: AuthDataResult
        do {
            result = try await auth.signIn(with: credential)
        } catch let error as AuthError where error.code == .secondFactorRequired {
            guard let resolver = error.resolver else { throw AppFailure(message: error.message, status: ExitStatus.signInFailed) }
            result = try await resolveSecondFactor(resolver)
        } catch let error as AuthError {
            throw AppFailure(message: Self.describe(error, action: "sign in to Hearth"), status: Self.status(of: error))
        }
        let user = result.user
        write("Welcome, \(user.email ?? user.displayName ?? user.uid)!")
        write("  uid    \(user.uid)")
        if result.additionalUserInfo?.isNewUser == true { write("  (new user: your account was just created)") }
    }

    // MARK: whoami

    /// The documents' getFirebaseUserInfo: who is signed in.
    func whoAmI() async throws {
        guard let user = auth.currentUser else { throw AppFailure.notSignedIn() }
        do {
            try await user.reload()
        } catch let error as AuthError {
            throw AppFailure(message: Self.describe(error, action: "load your profile"), status: Self.status(of: error))
        }
        let current = auth.currentUser ?? user
        write("Welcome, \(current.email ?? current.uid)")
        write("  uid    \(current.uid)")
        write("  email  \(current.email ?? "-")\(current.isEmailVerified ? " (verified)" : "")")
        write("  name   \(current.displayName ?? "-")")
        write("  photo  \(current.photoURL?.absoluteString ?? "-")")
        let methods = current.providerData.map { ProviderName.of($0.providerID) }
        write("  via    \(current.isAnonymous ? "guest" : methods.isEmpty ? "-" : methods.joined(separator: ", "))")
    }

    // MARK: list

    /// The documents' getPortfolioList: the backend's answer for this user, with a fresh ID token.
    func list() async throws {
        guard let user = auth.currentUser else { throw AppFailure.notSignedIn() }
        var token = try await idToken(of: user, forcingRefresh: false)
        var (status, body) = try await fetchPortfolios(token: token)
        if status == 401 {
            // The backend refused a token we thought was good: refresh once, which also tells us whether
            // Hearth has ended the session (revoked, disabled, deleted).
            token = try await idToken(of: user, forcingRefresh: true)
            (status, body) = try await fetchPortfolios(token: token)
        }
        guard status == 200 else {
            let reason = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["error"] as? String
                ?? "HTTP \(status)"
            throw AppFailure(
                message: status == 401
                    ? "The portfolio API refused your session (\(reason)). Sign in again: portfolio sign-in"
                    : "The portfolio API failed: \(reason)",
                status: status == 401 ? ExitStatus.sessionEnded : ExitStatus.failure)
        }
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let portfolios = object["portfolio"] as? [[String: Any]]
        else { throw AppFailure(message: "The portfolio API sent an unexpected answer.", status: ExitStatus.failure) }
        write(object["message"] as? String ?? "Your portfolios")
        for portfolio in portfolios {
            write("  - \(portfolio["portfolioName"] as? String ?? "?")  (\(portfolio["portfolioId"] as? String ?? "?"))")
        }
        if portfolios.isEmpty { write("  (none)") }
    }

    private func fetchPortfolios(token: String) async throws -> (Int, Data) {
        var request = URLRequest(url: settings.apiURL.appendingPathComponent("portfolioList"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        } catch {
            throw AppFailure(
                message: "Cannot reach the portfolio API at \(settings.apiURL.absoluteString). Is portfolio-api running?",
                status: ExitStatus.unreachable)
        }
    }

    // MARK: token, sign-out

    /// Prints the current ID token (refreshed if needed), e.g. for `curl -H "Authorization: Bearer $(portfolio token)"`.
    func token() async throws {
        guard let user = auth.currentUser else { throw AppFailure.notSignedIn() }
        write(try await idToken(of: user, forcingRefresh: false))
    }

    func signOut() throws {
        let wasSignedIn = auth.currentUser != nil || google.hasPreviousSignIn()
        try auth.signOut()
        google.signOut()
        write(wasSignedIn ? "Signed out." : "Already signed out.")
    }

    // MARK: helpers

    private func idToken(of user: User, forcingRefresh: Bool) async throws -> String {
        do {
            return try await user.getIDToken(forcingRefresh: forcingRefresh)
        } catch let error as AuthError {
            throw AppFailure(message: Self.describe(error, action: "refresh your session"), status: Self.status(of: error))
        }
    }

    /// One line that says what happened and what to do.
    static func describe(_ error: AuthError, action: String) -> String {
        switch error.code {
        case .userTokenExpired, .invalidUserToken:
            return "Your session has ended (it was revoked or expired). Sign in again: portfolio sign-in"
        case .userDisabled:
            return "This account has been disabled. Contact the administrator."
        case .wrongPassword:
            return "Wrong email or password."
        case .invalidCredential where error.serverCode == "INVALID_LOGIN_CREDENTIALS",
            .userNotFound where error.serverCode == "EMAIL_NOT_FOUND":
            return "Wrong email or password."
        case .weakPassword, .passwordDoesNotMeetRequirements:
            return "The password is too weak: \(error.message)"
        case .invalidEmail, .missingEmail:
            return "That is not a valid email address."
        case .invalidActionCode, .expiredActionCode:
            return "The code is invalid, expired or already used. Ask for a new email."
        case .tooManyRequests:
            return "Too many attempts. Wait a while, then try again."
        case .userNotFound:
            return "This account no longer exists. Sign in again to create a new one: portfolio sign-in"
        case .networkError:
            return "Cannot reach Hearth to \(action). Is `hearth serve` running, and is HEARTH_URL right?"
        case .invalidAPIKey:
            return "Hearth refused the API key. Set HEARTH_API_KEY to a key of this project."
        case .accountExistsWithDifferentCredential:
            return "An account with this email already exists with another sign-in method (\(error.email ?? "unknown email"))."
        case .credentialAlreadyInUse:
            return "This \(ProviderName.of(error.updatedCredential?.provider)) account is already linked to another user."
        case .providerAlreadyLinked:
            return "Your account already has this sign-in method linked."
        case .emailAlreadyInUse:
            return "Another account already uses this email address (\(error.email ?? "unknown email"))."
        case .requiresRecentLogin:
            return "This needs a recent sign-in. Sign in again, then retry: portfolio sign-in"
        case .operationNotAllowed:
            return "Hearth does not allow this sign-in method for the project (\(error.message))."
        default:
            return "Could not \(action): \(error.message.isEmpty ? "\(error.code)" : error.message)"
        }
    }

    static func status(of error: AuthError) -> Int32 {
        switch error.code {
        case .userNotFound where error.serverCode == "EMAIL_NOT_FOUND": ExitStatus.signInFailed
        case .userTokenExpired, .invalidUserToken, .userDisabled, .userNotFound: ExitStatus.sessionEnded
        case .networkError: ExitStatus.unreachable
        default: ExitStatus.signInFailed
        }
    }

    static func describe(_ error: SignInError, provider: String = "Google") -> String {
        switch error.code {
        case .canceled: "Sign-in was cancelled."
        default: "\(provider) sign-in failed: \(error.message)"
        }
    }

    static func status(of error: SignInError) -> Int32 {
        error.message.localizedCaseInsensitiveContains("connect") || error.message.localizedCaseInsensitiveContains("reach")
            ? ExitStatus.unreachable : ExitStatus.signInFailed
    }
}
