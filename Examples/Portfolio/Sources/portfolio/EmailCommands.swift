import Foundation
import HearthAuth

/// Email and password: sign-up, sign-in, password reset and email verification.
extension PortfolioApp {
    // MARK: sign-up, sign-in

    /// `sign-up [--email E]`: asks for the email (unless given) and a new password twice (not shown), checks it
    /// against the project's password policy, then creates the account and signs in.
    func signUp(email givenEmail: String?) async throws {
        let email = try givenEmail ?? prompter.ask("Email: ")
        let password = try prompter.askNewPassword("Password: ")
        // A courtesy before sending: the server decides (a server without a policy is no obstacle, and a policy
        // that is not enforced only advises).
        if let status = try? await auth.validatePassword(password), !status.isValid,
            status.passwordPolicy.enforcementState == "ENFORCE"
        {
            throw AppFailure(message: Self.describe(status), status: ExitStatus.signInFailed)
        }
        let result: AuthDataResult
        do {
            result = try await auth.createUser(withEmail: email, password: password)
        } catch let error as AuthError {
            throw AppFailure(
                message: Self.describe(error, action: "create your account"), status: Self.status(of: error))
        }
        write("Welcome, \(result.user.email ?? email)!")
        write("  uid    \(result.user.uid)")
        write("  (new user: your account was just created)")
        write("Verify your email address: portfolio verify-email")
    }

    /// `sign-in --email E`: asks for the password (not shown), then signs in, with a second factor when the
    /// account has one.
    func signIn(email: String) async throws {
        let password = try prompter.askSecret("Password: ")
        try await signIn(with: EmailAuthProvider.credential(withEmail: email, password: password))
    }

    // MARK: reset-password

    /// `reset-password E`: emails a reset link. `reset-password E --code C`: checks the code, asks for the new
    /// password twice, and sets it.
    func resetPassword(email: String, code: String?) async throws {
        do {
            guard let code else {
                try await auth.sendPasswordReset(withEmail: email)
                write("If \(email) has an account, a password reset email is on its way.")
                write("Then: portfolio reset-password \(email) --code <oobCode from the link>")
                return
            }
            let codeEmail = try await auth.verifyPasswordResetCode(code)
            guard codeEmail.caseInsensitiveCompare(email) == .orderedSame else {
                throw AppFailure(message: "This code is for another email address.", status: ExitStatus.failure)
            }
            let password = try prompter.askNewPassword()
            try await auth.confirmPasswordReset(withCode: code, newPassword: password)
            write("Your password was changed. Sign in with it: portfolio sign-in --email \(email)")
        } catch let error as AuthError {
            throw AppFailure(
                message: Self.describe(error, action: "reset your password"), status: Self.status(of: error))
        }
    }

    // MARK: verify-email

    /// `verify-email`: emails the signed-in user a verification link. `verify-email --code C`: applies the code
    /// from the link (no sign-in needed), then shows the signed-in user's state.
    func verifyEmail(code: String?) async throws {
        do {
            guard let code else {
                guard let user = auth.currentUser else { throw AppFailure.notSignedIn() }
                guard let email = user.email else {
                    throw AppFailure(
                        message: "Your account has no email address to verify.", status: ExitStatus.failure)
                }
                try await user.sendEmailVerification()
                write("A verification email is on its way to \(email).")
                write("Then: portfolio verify-email --code <oobCode from the link>")
                return
            }
            try await auth.applyActionCode(code)
            if let user = auth.currentUser {
                try await user.reload()
                write(user.isEmailVerified ? "\(user.email ?? "Your email") is verified." : "The code was used.")
            } else {
                write("Your email address is verified.")
            }
        } catch let error as AuthError {
            throw AppFailure(message: Self.describe(error, action: "verify your email"), status: Self.status(of: error))
        }
    }

    // MARK: helpers

    /// What a password lacks, in one line.
    static func describe(_ status: PasswordValidationStatus) -> String {
        let policy = status.passwordPolicy
        var missing: [String] = []
        if !status.meetsMinPasswordLength { missing.append("at least \(policy.minPasswordLength) characters") }
        if !status.meetsMaxPasswordLength, let max = policy.maxPasswordLength {
            missing.append("at most \(max) characters")
        }
        if !status.meetsLowercaseRequirement { missing.append("a lowercase letter") }
        if !status.meetsUppercaseRequirement { missing.append("an uppercase letter") }
        if !status.meetsDigitsRequirement { missing.append("a digit") }
        if !status.meetsSymbolsRequirement {
            let symbols = policy.allowedNonAlphanumericCharacters
            missing.append(symbols.isEmpty ? "a symbol" : "one of \(symbols)")
        }
        return "The password needs \(missing.joined(separator: ", ")). Run the command again."
    }
}
