import Foundation
import HearthAuth
import HearthSignIn

/// Human names of the sign-in providers the app knows.
enum ProviderName {
    static func of(_ providerID: String?) -> String {
        switch providerID {
        case "google.com": "Google"
        case "apple.com": "Apple"
        case "password": "Email and password"
        case let other?: other
        case nil: "provider"
        }
    }
}

/// Sign in with Apple, guests, linking, and account deletion.
extension PortfolioApp {
    // MARK: Apple

    /// Signs in with Apple (the dev Apple by default), then with that credential to Hearth.
    func signInWithApple(as email: String?, hideEmail: Bool) async throws {
        try await signIn(with: try await appleCredential(as: email, hideEmail: hideEmail))
    }

    /// An Apple credential: Apple's ID token, the raw nonce, and the name Apple gives on the first authorization.
    func appleCredential(as email: String?, hideEmail: Bool) async throws -> AuthCredential {
        let result = try await appleAuthorization(as: email, hideEmail: hideEmail)
        return OAuthProvider.appleCredential(withIDToken: result.idToken, rawNonce: result.rawNonce, fullName: result.fullName)
    }

    /// Sign in with Apple; headless (the dev Apple's `login_hint`) when `email` is given.
    func appleAuthorization(as email: String?, hideEmail: Bool) async throws -> AppleSignInResult {
        do {
            if email == nil { write("Opening Sign in with Apple in your browser…") }
            return try await apple.signIn(hint: email, hideMyEmail: hideEmail, headless: email != nil)
        } catch let error as SignInError {
            throw AppFailure(
                message: Self.describe(error, provider: "Apple"),
                status: error.code == .canceled ? ExitStatus.signInFailed : Self.status(of: error))
        }
    }

    // MARK: Guests

    /// Signs in as a guest (an anonymous account): portfolios now, a sign-in method later.
    func signInAsGuest() async throws {
        let result: AuthDataResult
        do {
            result = try await auth.signInAnonymously()
        } catch let error as AuthError {
            throw AppFailure(message: Self.describe(error, action: "sign in as a guest"), status: Self.status(of: error))
        }
        write("Welcome, guest!")
        write("  uid    \(result.user.uid)")
        write("Keep your portfolios by linking a sign-in method: portfolio link google (or apple)")
    }

    // MARK: Linking

    /// Links Google or Apple to the signed-in user. The uid stays, so a guest keeps its portfolios.
    func link(_ provider: String, as email: String?) async throws {
        guard let user = auth.currentUser else { throw AppFailure.notSignedIn() }
        let wasGuest = user.isAnonymous
        let credential =
            provider == "apple"
            ? try await appleCredential(as: email, hideEmail: false) : try await googleCredential(as: email)
        do {
            try await user.link(with: credential)
        } catch let error as AuthError {
            throw AppFailure(message: Self.describe(error, action: "link \(ProviderName.of(credential.provider))"), status: Self.status(of: error))
        }
        write("Linked \(ProviderName.of(credential.provider)) to your account.")
        write("  uid    \(user.uid)")
        if wasGuest { write("You are no longer a guest; your portfolios stay with you.") }
    }

    // MARK: Deleting the account

    /// Deletes the account after a typed confirmation. With Apple linked, first gets a fresh Apple authorization
    /// code (signing in with Apple again) and revokes the app's Apple tokens, as the App Store requires.
    func deleteAccount(as email: String?) async throws {
        guard let user = auth.currentUser else { throw AppFailure.notSignedIn() }
        write("This deletes your account \(user.email ?? user.uid) and everything it signs in with.")
        let answer = try prompter.ask("Type \"delete\" to confirm: ")
        guard answer == "delete" else {
            throw AppFailure(message: "Not deleted: you did not type \"delete\".", status: ExitStatus.failure)
        }
        if let appleIdentity = user.providerData.first(where: { $0.providerID == AuthProviderID.apple.rawValue }) {
            write("Sign in with Apple once more, so that Apple can be told to forget this app…")
            let authorization = try await appleAuthorization(as: email, hideEmail: false)
            guard authorization.userID == appleIdentity.uid else {
                throw AppFailure(
                    message: "That Apple ID is not the one linked to this account. Nothing was deleted.",
                    status: ExitStatus.failure)
            }
            do {
                try await auth.revokeToken(withAuthorizationCode: authorization.authorizationCode)
            } catch let error as AuthError {
                throw AppFailure(
                    message: Self.describe(error, action: "revoke your Apple tokens") + " Nothing was deleted.",
                    status: Self.status(of: error))
            }
            write("Apple tokens revoked.")
        }
        do {
            try await user.delete()
        } catch let error as AuthError {
            throw AppFailure(message: Self.describe(error, action: "delete your account"), status: Self.status(of: error))
        }
        google.signOut()
        write("Your account was deleted.")
    }
}
