public import Foundation

/// Email and password accounts (FirebaseAuth's `createUser(withEmail:password:)` and
/// `signIn(withEmail:password:)`).
///
/// ```swift
/// let result = try await Auth.auth().createUser(withEmail: "ada@example.com", password: password)
/// try await result.user.sendEmailVerification()
///
/// do {
///     try await Auth.auth().signIn(withEmail: "ada@example.com", password: password)
/// } catch let error as AuthError where error.code == .invalidCredential || error.code == .wrongPassword {
///     // Wrong email or password (the server does not say which when email enumeration protection is on).
/// } catch let error as AuthError where error.code == .secondFactorRequired {
///     // Finish with error.resolver, as for any other sign-in.
/// }
/// ```
extension Auth {
    /// Creates an account with an email and password (`signupNewUser`) and signs it in.
    ///
    /// - Throws: `AuthError`: `.weakPassword` (the message says why), `.passwordDoesNotMeetRequirements`,
    ///   `.emailAlreadyInUse`, `.invalidEmail`, `.missingEmail`, `.operationNotAllowed`, `.tooManyRequests`,
    ///   `.networkError`.
    @discardableResult
    public func createUser(withEmail email: String, password: String) async throws -> AuthDataResult {
        guard !password.isEmpty else { throw AuthError(code: .weakPassword, message: "Missing password") }
        guard !email.isEmpty else { throw AuthError(code: .missingEmail) }
        let response = try await forgettingPasswordPolicyOnRefusal { () async throws(AuthError) in
            try await backend.call(SignUpWithPasswordCall(body: .init(email: email, password: password))).response
        }
        return try await signInLocally(response, isNewUser: true)
    }

    /// Signs in with an email and password (`verifyPassword`).
    ///
    /// - Throws: `AuthError`: `.invalidCredential` (wrong email or password with email enumeration protection
    ///   on), `.wrongPassword`, `.userNotFound`, `.userDisabled`, `.invalidEmail`, `.tooManyRequests`,
    ///   `.operationNotAllowed`, `.secondFactorRequired` (with a `resolver`), `.networkError`.
    @discardableResult
    public func signIn(withEmail email: String, password: String) async throws -> AuthDataResult {
        try await signIn(withEmailCredential: EmailCredential(email: email, proof: .password(password)))
    }

    /// Signs in with an email and the sign-in link sent to it (`emailLinkSignin`). Check the link with
    /// `isSignIn(withEmailLink:)` first.
    ///
    /// - Throws: `AuthError`: `.invalidActionCode` (also for a link that is not a sign-in link),
    ///   `.expiredActionCode`, `.invalidEmail` (not the email the link was sent to), `.userDisabled`,
    ///   `.secondFactorRequired`, `.networkError`.
    @discardableResult
    public func signIn(withEmail email: String, link: String) async throws -> AuthDataResult {
        try await signIn(withEmailCredential: EmailCredential(email: email, proof: .link(link)))
    }

    /// Whether `link` is an email sign-in link: its query has `mode=signIn` and an `oobCode`.
    public func isSignIn(withEmailLink link: String) -> Bool {
        Self.signInCode(inEmailLink: link) != nil
    }

    // MARK: - Internals

    /// Signs in with an email credential: the shared end of `signIn(withEmail:…)` and `signIn(with:)`.
    func signIn(withEmailCredential credential: EmailCredential) async throws(AuthError) -> AuthDataResult {
        let response = try await emailSignIn(credential, linkingIDToken: nil)
        return try await signInLocally(response, isNewUser: response.isNewUser ?? false)
    }

    /// Signs in with the tokens of an email sign-in response.
    private func signInLocally(_ response: EmailSignInResponse, isNewUser: Bool) async throws(AuthError)
        -> AuthDataResult
    {
        let user = try await signInLocally(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn)
        return AuthDataResult(
            user: user,
            additionalUserInfo: AdditionalUserInfo(
                providerID: EmailAuthProvider.id, profile: nil, username: nil, isNewUser: isNewUser),
            credential: nil)
    }

    /// The server's answer to an email credential: `verifyPassword` (or, when linking to the user of
    /// `linkingIDToken`, `signupNewUser`) for a password, `emailLinkSignin` for a link. A response that asks for
    /// a second factor becomes `.secondFactorRequired`.
    func emailSignIn(_ credential: EmailCredential, linkingIDToken: String?) async throws(AuthError)
        -> EmailSignInResponse
    {
        let response: EmailSignInResponse
        switch credential.proof {
        case .password(let password):
            if let linkingIDToken {
                response = try await forgettingPasswordPolicyOnRefusal { () async throws(AuthError) in
                    try await backend.call(
                        SignUpWithPasswordCall(
                            body: .init(email: credential.email, password: password, idToken: linkingIDToken))
                    ).response
                }
            } else {
                // iOS refuses an empty password before sending anything.
                guard !password.isEmpty else { throw AuthError(code: .wrongPassword) }
                response = try await backend.call(
                    VerifyPasswordCall(body: .init(email: credential.email, password: password))
                ).response
            }
        case .link(let link):
            guard let code = Self.signInCode(inEmailLink: link) else {
                throw AuthError(code: .invalidActionCode, message: "The link is not an email sign-in link.")
            }
            response = try await backend.call(
                EmailLinkSignInCall(body: .init(email: credential.email, oobCode: code, idToken: linkingIDToken))
            ).response
        }
        if let secondFactor = Self.secondFactorRequired(
            pendingCredential: response.mfaPendingCredential, mfaInfo: response.mfaInfo, idToken: response.idToken,
            email: response.email, auth: self)
        {
            throw secondFactor
        }
        return response
    }

    /// The `oobCode` of an email sign-in link (`mode=signIn`), as iOS reads it from the link's query.
    static func signInCode(inEmailLink link: String) -> String? {
        guard let items = URLComponents(string: link)?.queryItems,
            items.first(where: { $0.name == "mode" })?.value == "signIn",
            let code = items.first(where: { $0.name == "oobCode" })?.value, !code.isEmpty
        else { return nil }
        return code
    }
}
