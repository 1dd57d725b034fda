import HearthProtocol

/// Passwords, email verification and reauthentication on a signed-in user (FirebaseAuth's `User`).
///
/// ```swift
/// guard let user = Auth.auth().currentUser else { return }
/// do {
///     try await user.updatePassword(to: newPassword)
/// } catch let error as AuthError where error.code == .requiresRecentLogin {
///     try await user.reauthenticate(with: EmailAuthProvider.credential(withEmail: user.email!, password: oldPassword))
///     try await user.updatePassword(to: newPassword)
/// }
/// ```
extension User {
    /// Sets a new password (`setAccountInfo` with `password`). The server revokes the user's other sessions and
    /// answers new tokens, which this user keeps.
    ///
    /// - Throws: `AuthError`: `.weakPassword` (the message says why), `.passwordDoesNotMeetRequirements`,
    ///   `.requiresRecentLogin`, `.operationNotAllowed`, `.networkError`; session errors sign the user out.
    public func updatePassword(to password: String) async throws {
        guard !password.isEmpty else { throw AuthError(code: .weakPassword, message: "Missing password") }
        var request = UpdateAccountRequest(idToken: try await getIDToken())
        request.password = password
        request.returnSecureToken = true
        let update = { () async throws(AuthError) in
            try await self.updateAccount(request) { profile, response in
                if let providers = response.providerUserInfo { profile.providerUserInfo = providers }
            }
        }
        if let auth { try await auth.forgettingPasswordPolicyOnRefusal(update) } else { try await update() }
    }

    /// Emails the user a link that verifies their address (`getOobConfirmationCode`, `VERIFY_EMAIL`); the link's
    /// code is used with `Auth.applyActionCode(_:)` or on the action page.
    ///
    /// - Throws: `AuthError`: `.missingEmail` (the user has no email), `.tooManyRequests`, `.invalidContinueURI`,
    ///   `.networkError`; session errors sign the user out.
    public func sendEmailVerification(with actionCodeSettings: ActionCodeSettings? = nil) async throws {
        try await sendEmailAction(
            .init(requestType: "VERIFY_EMAIL", idToken: try await getIDToken(), settings: actionCodeSettings))
    }

    /// Emails `newEmail` a link that, once followed, makes it the user's email
    /// (`getOobConfirmationCode`, `VERIFY_AND_CHANGE_EMAIL`).
    ///
    /// - Throws: `AuthError`: `.emailAlreadyInUse`, `.invalidEmail`, `.requiresRecentLogin`, `.networkError`;
    ///   session errors sign the user out.
    public func sendEmailVerification(
        beforeUpdatingEmail newEmail: String, actionCodeSettings: ActionCodeSettings? = nil
    ) async throws {
        try await sendEmailAction(
            .init(
                requestType: "VERIFY_AND_CHANGE_EMAIL", newEmail: newEmail, idToken: try await getIDToken(),
                settings: actionCodeSettings))
    }

    /// Proves again that this is the user, for sensitive changes (`.requiresRecentLogin`): `verifyPassword` or
    /// `emailLinkSignin` for an `EmailAuthProvider` credential, `verifyAssertion` with `autoCreate: false` for
    /// Google, Apple and other providers. The user keeps the new tokens; nobody else is signed in.
    ///
    /// - Throws: `AuthError`: `.userMismatch` if the credential belongs to another account (or to none),
    ///   `.invalidCredential`, `.wrongPassword`, `.userDisabled`, `.secondFactorRequired`, `.networkError`.
    @discardableResult
    public func reauthenticate(with credential: AuthCredential) async throws -> AuthDataResult {
        guard let auth else { throw AuthError(code: .nullUser, message: "This user's Auth instance is gone.") }
        do {
            let tokens: TokenState
            let additionalUserInfo: AdditionalUserInfo
            var echoed: AuthCredential?
            if let email = credential.emailCredential {
                let response = try await auth.emailSignIn(email, linkingIDToken: nil)
                tokens = try TokenState(
                    signInIDToken: response.idToken, refreshToken: response.refreshToken,
                    expiresIn: response.expiresIn, now: clock())
                additionalUserInfo = AdditionalUserInfo(
                    providerID: EmailAuthProvider.id, profile: nil, username: nil, isNewUser: false)
            } else {
                let reply = try await backend.call(
                    VerifyAssertionCall(
                        body: Auth.assertionRequest(for: credential, linkingIDToken: nil, autoCreate: false)))
                let response = try Auth.checkAssertion(reply, credential: credential, auth: auth)
                tokens = try TokenState(
                    signInIDToken: response.idToken, refreshToken: response.refreshToken,
                    expiresIn: response.expiresIn, now: clock())
                additionalUserInfo = AdditionalUserInfo(response: response, fallbackProviderID: credential.provider)
                echoed = AuthCredential(echoedBy: response, fallbackProviderID: credential.provider)
            }
            let record = try await Self.lookup(idToken: tokens.idToken, backend: backend)
            guard record.localId == uid else { throw AuthError(code: .userMismatch) }
            try apply(tokens: tokens, profile: record)
            return AuthDataResult(user: self, additionalUserInfo: additionalUserInfo, credential: echoed)
        } catch let error as AuthError where error.code == .userNotFound {
            // As iOS: "no such user" for a reauthentication means the credential is not this user's.
            throw AuthError(code: .userMismatch, message: nil, serverCode: error.serverCode)
        }
    }

    // MARK: - Internals

    /// Adds an email credential to this user: `signupNewUser` with the user's ID token for a password,
    /// `emailLinkSignin` with it for a link. The user keeps the uid and gets new tokens.
    func link(withEmailCredential credential: EmailCredential) async throws -> AuthDataResult {
        guard let auth else { throw AuthError(code: .nullUser, message: "This user's Auth instance is gone.") }
        let token = try await getIDToken()
        return try await signingOutIfSessionIsDead { () async throws(AuthError) -> AuthDataResult in
            let response = try await auth.emailSignIn(credential, linkingIDToken: token)
            let tokens = try TokenState(
                signInIDToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn,
                now: clock())
            let record = try await Self.lookup(idToken: tokens.idToken, backend: backend)
            try apply(tokens: tokens, profile: record, isAnonymous: false)
            return AuthDataResult(user: self, additionalUserInfo: nil, credential: nil)
        }
    }

    private func sendEmailAction(_ body: GetOOBConfirmationCodeCall.Body) async throws {
        try await signingOutIfSessionIsDead { () async throws(AuthError) in
            _ = try await backend.call(GetOOBConfirmationCodeCall(body: body))
        }
    }
}
