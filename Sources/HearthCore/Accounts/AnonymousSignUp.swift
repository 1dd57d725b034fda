public import HearthProtocol

extension AccountService {
    /// `accounts:signUp` without email and password: a new anonymous account (no identities, no email) and a
    /// session whose ID tokens say `firebase.sign_in_provider: anonymous`. Linking a provider later
    /// (`signInWithIdp` with this account's ID token) upgrades it in place. Counts against the client's
    /// `accountCreationPerClient` bucket. A request with an email, password, `idToken` or `localId` is
    /// ``PasswordAccounts/signUp(_:by:)``'s.
    ///
    /// - Throws: `TOO_MANY_ATTEMPTS_TRY_LATER`, and what ``PasswordAccounts/signUp(_:by:)`` throws.
    public func signUp(_ request: SignUpRequest, by caller: Caller) throws -> SignUpResponse {
        if request.email != nil || request.password != nil || request.idToken != nil || request.localId != nil {
            return try passwords.signUp(request, by: caller)
        }
        guard limiter.take(.accountCreationPerClient, key: caller.client) else {
            throw WireError(.tooManyAttemptsTryLater, "Too many sign-ups; try again later.")
        }
        let nowMillis = time.nowMillis
        var authentication = Authentication(
            .new(
                Account(
                    localID: Identifiers.localID(), displayName: request.displayName.flatMap { $0.isEmpty ? nil : $0 },
                    createdAtMillis: nowMillis, validSinceMillis: nowMillis, isAnonymous: true)),
            signInProvider: "anonymous")
        authentication.takesRateLimit = false
        let takes = RateLimitTakes(limiter)
        let decision = try store.write { writer in
            try completion.signIn(
                authentication,
                SignInCompletion.Context(writer: writer, nowMillis: nowMillis, caller: caller, takes: takes))
        }
        guard case .session(let signedIn) = decision else { throw WireError(.internalError) }
        return SignUpResponse(signedIn, try tokens.issue(signedIn))
    }
}
