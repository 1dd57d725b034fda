import Foundation
import HearthAuth
import TerminalQRCode

/// Reads answers from the terminal, or from piped input: a prompt is printed without a line break and
/// one line is read.
struct Prompter {
    func ask(_ question: String) throws -> String {
        FileHandle.standardOutput.write(Data(question.utf8))
        guard let line = readLine(strippingNewline: true) else {
            throw AppFailure(message: "No answer (input ended). Run the command again.", status: ExitStatus.signInFailed)
        }
        return line.trimmingCharacters(in: .whitespaces)
    }
}

extension PortfolioApp {
    /// The documents' second-factor step: "Select factor to sign in", a code for the chosen factor
    /// ("Verification code for <name>"), then the resolved sign-in.
    func resolveSecondFactor(_ resolver: MultiFactorResolver) async throws -> AuthDataResult {
        let hints = resolver.hints
        guard !hints.isEmpty else {
            throw AppFailure(message: "This account needs a second factor this app cannot use.", status: ExitStatus.signInFailed)
        }
        write("Select factor to sign in")
        for (index, hint) in hints.enumerated() { write("  \(index + 1). \(Self.describe(hint))") }
        var choice = 0
        if hints.count > 1 {
            let answer = try prompter.ask("Factor [1-\(hints.count)]: ")
            guard let number = Int(answer), (1...hints.count).contains(number) else {
                throw AppFailure(message: "'\(answer)' is not one of the factors. Run portfolio sign-in again.", status: ExitStatus.signInFailed)
            }
            choice = number - 1
        }
        let hint = hints[choice]
        let name = hint.displayName ?? Self.describe(hint)
        do {
            let assertion: MultiFactorAssertion
            if let phone = hint as? PhoneMultiFactorInfo {
                let provider = PhoneAuthProvider.provider(auth: auth)
                let verificationID = try await provider.verifyPhoneNumber(with: phone, multiFactorSession: resolver.session)
                let code = try prompter.ask("Verification code for \(name): ")
                assertion = PhoneMultiFactorGenerator.assertion(
                    with: provider.credential(withVerificationID: verificationID, verificationCode: code))
            } else {
                let code = try prompter.ask("Verification code for \(name): ")
                assertion = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: code)
            }
            return try await resolver.resolveSignIn(with: assertion)
        } catch let error as AuthError {
            throw AppFailure(message: Self.describeSecondFactorError(error), status: Self.status(of: error))
        }
    }

    // MARK: mfa commands

    /// `mfa list`: the enrolled factors.
    func listFactors() async throws {
        let user = try await refreshedUser()
        let factors = user.multiFactor.enrolledFactors
        guard !factors.isEmpty else {
            write("No second factors. Add one with `portfolio mfa enroll-totp` or `portfolio mfa enroll-phone +1…`.")
            return
        }
        for factor in factors {
            let enrolled = factor.enrollmentDate.formatted(Date.ISO8601FormatStyle().year().month().day())
            write("\(factor.uid)  \(factor.factorID.padding(toLength: 5, withPad: " ", startingAt: 0))  \(Self.describe(factor))  (enrolled \(enrolled))")
        }
    }

    /// `mfa enroll-totp [--name NAME]`: shows the secret, its otpauth URL and a QR code, then asks for a code.
    func enrollTOTP(name: String?) async throws {
        let user = try await refreshedUser()
        do {
            let session = try await user.multiFactor.getSession()
            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
            let url = secret.generateQRCodeURL(withAccountName: user.email ?? user.uid, issuer: "Portfolio")
            write("Add this key to your authenticator app (scan the QR code or type the secret):")
            write("  Secret  \(secret.sharedSecretKey())")
            write("  URL     \(url)")
            if let code = try? QRCode(encoding: url) { write(code.terminalText()) }
            let oneTimePassword = try prompter.ask("Code from the app: ")
            let assertion = TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: oneTimePassword)
            try await user.multiFactor.enroll(with: assertion, displayName: name ?? "Authenticator app")
        } catch let error as AuthError {
            throw AppFailure(message: Self.describeSecondFactorError(error), status: Self.status(of: error))
        }
        write("Enrolled \"\(name ?? "Authenticator app")\". Sign-ins will now ask for a code from the app.")
    }

    /// `mfa enroll-phone NUMBER [--name NAME]`: texts a code to the number, then asks for it.
    func enrollPhone(_ number: String, name: String?) async throws {
        let user = try await refreshedUser()
        do {
            let session = try await user.multiFactor.getSession()
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber(number, multiFactorSession: session)
            let code = try prompter.ask("Verification code sent to \(number): ")
            let assertion = PhoneMultiFactorGenerator.assertion(
                with: provider.credential(withVerificationID: verificationID, verificationCode: code))
            try await user.multiFactor.enroll(with: assertion, displayName: name ?? number)
        } catch let error as AuthError {
            throw AppFailure(message: Self.describeSecondFactorError(error), status: Self.status(of: error))
        }
        write("Enrolled \(number) as \"\(name ?? number)\". Sign-ins will now text a code to it.")
    }

    /// `mfa remove ID`.
    func removeFactor(_ id: String) async throws {
        let user = try await refreshedUser()
        do {
            try await user.multiFactor.unenroll(withFactorUID: id)
        } catch let error as AuthError {
            throw AppFailure(message: Self.describeSecondFactorError(error), status: Self.status(of: error))
        }
        write("Removed the second factor \(id).")
    }

    /// The signed-in user with a fresh profile (so the enrolled factors are current).
    private func refreshedUser() async throws -> User {
        guard let user = auth.currentUser else { throw AppFailure.notSignedIn() }
        do {
            try await user.reload()
        } catch let error as AuthError {
            throw AppFailure(message: Self.describe(error, action: "load your profile"), status: Self.status(of: error))
        }
        return auth.currentUser ?? user
    }

    static func describe(_ factor: MultiFactorInfo) -> String {
        if let phone = factor as? PhoneMultiFactorInfo {
            return "\(factor.displayName ?? "Phone") (\(phone.phoneNumber))"
        }
        return "\(factor.displayName ?? "Authenticator app") (authenticator app)"
    }

    static func describeSecondFactorError(_ error: AuthError) -> String {
        switch error.code {
        // The server says which: a wrong code, or one already used (wait for the app's next code).
        case .invalidVerificationCode: "\(error.message) Run the command again and enter the newest code."
        case .sessionExpired: "The code has expired. Run the command again for a new one."
        // The server says which limit: a code just sent to the number, or too many wrong codes.
        case .tooManyRequests: error.message
        case .invalidMultiFactorSession: "This sign-in has expired or was used up. Run portfolio sign-in again."
        case .unverifiedEmail: "Verify your email address before adding a second factor."
        case .secondFactorAlreadyEnrolled: "This phone number is already a second factor."
        case .maximumSecondFactorCountExceeded: "You already have the maximum number of second factors. Remove one first."
        case .invalidPhoneNumber: "Give the phone number in international form, e.g. +15555550100."
        case .multiFactorInfoNotFound: "No such second factor. See `portfolio mfa list`."
        case .operationNotAllowed: "This kind of second factor is not enabled on the server."
        default: describe(error, action: "complete the second factor")
        }
    }
}
