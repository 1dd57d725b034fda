import HearthProtocol

/// The one place a sign-in completes (DESIGN.md decision 19), inside the write of the method that authenticated
/// the user: it finds or makes the account, applies the linking, one-account-per-email and takeover rules, refuses
/// a disabled account, takes the sign-in's rate-limit token, and decides — a session, a pending second factor, or
/// `needConfirmation` — recording the audit events of what it decided. Tokens are minted after the write commits,
/// from the ``SignedIn`` it returns (``TokenService/issue(_:)``).
struct SignInCompletion {
    let tokens: TokenService
    let mfa: MFAService
    let audit: AuditRecorder

    /// What one completion runs with: the write, the time of the sign-in, the caller (whose address limits account
    /// creation and is recorded, with its actor, in the audit events), and the rate-limit tokens of the request
    /// (taken once even when the store runs the body again).
    struct Context {
        let writer: any StoreWriter
        let nowMillis: Int64
        let caller: Caller
        let takes: RateLimitTakes
    }

    // MARK: Signing in

    /// Completes a sign-in by `authentication`.
    /// - Throws: `USER_NOT_FOUND` (no account and none may be made), `TOO_MANY_ATTEMPTS_TRY_LATER`, store errors;
    ///   a disabled account or a failed `prepare` is ``SignInDecision/refused(_:)``, with its audit event written: the
    ///   write commits, and the method answers the error afterwards.
    func signIn(_ authentication: Authentication, _ context: Context) throws -> SignInDecision {
        let writer = context.writer
        var found: Found
        switch try locate(authentication, writer) {
        case .confirm(let account): return .needsConfirmation(account)
        case .refuse(let error, let localID): return try refuse(error, localID: localID, authentication, context)
        case .found(let account): found = account
        }
        if !found.isNew, let refusal = authentication.prepare(&found.account) {
            return try refuse(refusal, localID: found.account.localID, authentication, context)
        }
        if authentication.takesRateLimit {
            let (bucket, key) = found.isNew
                ? (RateLimiter.Bucket.accountCreationPerClient, context.caller.client)
                : (.signInPerAccount, found.account.localID)
            guard context.takes.take(bucket, key: key) else {
                throw WireError(.tooManyAttemptsTryLater, "Too many sign-ins; try again later.")
            }
        }
        if found.takesOver { try writer.takeOver(&found.account, atMillis: context.nowMillis) }
        found.join?(&found.account)
        var account = found.account
        let localID = account.localID
        let provider = authentication.recordedProvider
        if let before = found.before {
            // A join or takeover: the identity linked, and in a takeover every way in that dropped.
            try audit.recordChanges(from: before, to: account, by: context.caller, in: writer)
        }
        if found.isNew {
            try audit.record(.signUp, localID: localID, provider: provider, by: context.caller, in: writer)
        }
        if authentication.asksSecondFactor, !mfa.requiredFactors(of: account, in: writer).isEmpty {
            try save(account, isNew: found.isNew, context)
            try audit.record(
                .signIn, localID: localID, provider: provider, by: context.caller,
                detail: AuditRecorder.mfaRequired, in: writer)
            let pending = try mfa.startPendingSignIn(
                for: account, signInProvider: authentication.signInProvider, writer: writer)
            return .secondFactor(account, credential: pending.credential, factors: pending.mfaInfo)
        }
        account.recordSignIn(atMillis: context.nowMillis)
        try save(account, isNew: found.isNew, context)
        if !found.isNew {
            try audit.record(.signIn, localID: localID, provider: provider, by: context.caller, in: writer)
        }
        let session = authentication.session(atMillis: context.nowMillis)
        return .session(
            SignedIn(
                account: account, session: session,
                refreshToken: try tokens.newRefreshToken(for: account, session: session, writer: writer),
                isNewUser: found.isNew, emailRecycled: found.emailRecycled))
    }

    /// The account a sign-in is for, before anything of it changes.
    private struct Found {
        var account: Account
        var isNew = false
        /// The account as stored, when the sign-in joins it by email (its events are recorded as changes).
        var before: Account?
        /// The account's email was never verified and this sign-in proved it: every other way in drops.
        var takesOver = false
        /// What joining the account by email adds (the identity, the proven email).
        var join: ((inout Account) -> Void)?
        var emailRecycled = false
    }

    private enum Located {
        case found(Found)
        case confirm(Account)
        case refuse(WireError, localID: String?)
    }

    private func locate(_ authentication: Authentication, _ writer: any StoreWriter) throws -> Located {
        let now = tokens.time.nowMillis
        /// An existing account, unless disabled.
        func existing(_ account: Account, _ found: Found? = nil) -> Located {
            guard !account.disabled else { return .refuse(WireError(.userDisabled), localID: account.localID) }
            return .found(found ?? Found(account: account))
        }
        switch authentication.subject {
        case .identity(let profile, let proof):
            if var account = try writer.account(providerID: profile.providerID, rawID: profile.rawID) {
                guard !account.disabled else { return .refuse(WireError(.userDisabled), localID: account.localID) }
                account.refresh(from: profile, email: proof)
                if account.email == nil, let email = profile.email, try writer.account(email: email) == nil {
                    account.email = email
                    account.emailVerified = proof.verified
                }
                return .found(Found(account: account))
            }
            guard authentication.createsAccount else {
                throw WireError(.userNotFound, "There is no user record corresponding to this identifier.")
            }
            if let email = profile.email, let account = try writer.account(email: email) {
                // Only a provider trusted for the address may join (or take over) the account that has it.
                guard proof.owned else { return .confirm(account) }
                let recycled = account.providers.contains { $0.providerID == profile.providerID && $0.rawID != profile.rawID }
                return existing(
                    account,
                    Found(
                        account: account, before: account, takesOver: !account.emailVerified,
                        join: { joined in
                            joined.providers.removeAll { $0.providerID == profile.providerID }
                            joined.providers.append(profile.linkedIdentity)
                            joined.displayName = profile.displayName ?? joined.displayName
                            joined.photoURL = profile.photoURL ?? joined.photoURL
                            joined.emailVerified = true
                        }, emailRecycled: recycled && account.emailVerified))
            }
            return .found(
                Found(
                    account: Account(
                        localID: Identifiers.localID(), email: profile.email, emailVerified: proof.verified,
                        displayName: profile.displayName, photoURL: profile.photoURL, createdAtMillis: now,
                        validSinceMillis: now, providers: [profile.linkedIdentity]),
                    isNew: true))
        case .provenEmail(let email):
            let proven: (inout Account) -> Void = { account in
                account.email = email
                account.emailVerified = true
                account.emailLinkSignIn = true
                account.isAnonymous = false
            }
            if let account = try writer.account(email: email) {
                return existing(
                    account, Found(account: account, before: account, takesOver: !account.emailVerified, join: proven))
            }
            var account = Account(localID: Identifiers.localID(), createdAtMillis: now, validSinceMillis: now)
            proven(&account)
            return .found(Found(account: account, isNew: true))
        case .existing(let localID, let ifGone):
            guard let account = try writer.account(localID: localID) else { return .refuse(ifGone, localID: localID) }
            return existing(account)
        case .uid(let uid):
            if let account = try writer.account(localID: uid) { return existing(account) }
            return .found(Found(account: Account(localID: uid, createdAtMillis: now, validSinceMillis: now), isNew: true))
        case .new(let account):
            return .found(Found(account: account, isNew: true))
        }
    }

    /// A refused sign-in, recorded in its write.
    private func refuse(_ error: WireError, localID: String?, _ authentication: Authentication, _ context: Context) throws
        -> SignInDecision
    {
        try audit.record(
            .signInFailed, localID: localID, provider: authentication.recordedProvider, by: context.caller,
            detail: AuditRecorder.detail(of: error.code), in: context.writer)
        return .refused(error)
    }

    /// Stores the account (a dropped provider token, an Apple one say, is queued for revocation).
    private func save(_ account: Account, isNew: Bool, _ context: Context) throws {
        if isNew {
            try context.writer.insertAccount(account)
        } else {
            try context.writer.updateAccount(account, queueingRevocationsOfDroppedTokensAtMillis: context.nowMillis)
        }
    }

    // MARK: Linking

    /// Links `attachment` to the signed-in account `localID` and starts a session of it (no second factor is asked
    /// for: the user is signed in already). Setting a password also ends the account's other sessions and voids the
    /// codes issued before, as a change of password does.
    /// - Throws: `USER_NOT_FOUND`, `FEDERATED_USER_ID_ALREADY_LINKED`, `PROVIDER_ALREADY_LINKED`, `EMAIL_EXISTS`.
    func link(_ attachment: Attachment, to localID: String, _ context: Context) throws -> SignInDecision {
        let writer = context.writer
        guard var account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
        guard context.takes.take(.signInPerAccount, key: localID) else {
            throw WireError(.tooManyAttemptsTryLater, "Too many sign-ins; try again later.")
        }
        switch attachment {
        case .identity(let profile, let proof):
            if try writer.account(providerID: profile.providerID, rawID: profile.rawID) != nil {
                throw WireError(
                    .federatedUserIDAlreadyLinked, "This credential is already associated with a different user account.")
            }
            if account.identity(for: profile.providerID) != nil {
                throw WireError(.providerAlreadyLinked, "The user already has an account of this provider linked.")
            }
            if let email = profile.email {
                try requireAvailable(email, for: localID, writer)
                if account.email == nil {
                    account.email = email
                    account.emailVerified = proof.verified
                } else if account.email == email && proof.verified {
                    account.emailVerified = true
                }
            }
            account.providers.append(profile.linkedIdentity)
            account.displayName = account.displayName ?? profile.displayName
            account.photoURL = account.photoURL ?? profile.photoURL
        case .provenEmail(let email):
            try requireAvailable(email, for: localID, writer)
            account.email = email
            account.emailVerified = true
            account.emailLinkSignIn = true
            account.recordSignIn(atMillis: context.nowMillis)
        case .password(let email, let hash, let displayName):
            guard account.passwordHash == nil else {
                throw WireError(.providerAlreadyLinked, "The user already has a password; change it with accounts:update.")
            }
            try requireAvailable(email, for: localID, writer)
            if account.email != email {
                account.email = email
                account.emailVerified = false
            }
            account.passwordHash = hash
            account.displayName = displayName ?? account.displayName
            account.recordSignIn(atMillis: context.nowMillis)
            account.revokeSessions(atMillis: context.nowMillis)
            try writer.deleteOOBCodes(localID: localID, keeping: .recoverEmail)
        }
        account.isAnonymous = false
        try writer.updateAccount(account)
        let providers = attachment.providers
        try audit.record(.link, localID: localID, provider: providers.recorded, by: context.caller, in: writer)
        let session = Session(signInProvider: providers.signIn, authTime: context.nowMillis / 1000)
        return .session(
            SignedIn(
                account: account, session: session,
                refreshToken: try tokens.newRefreshToken(for: account, session: session, writer: writer),
                isNewUser: false, linked: true))
    }

    /// `EMAIL_EXISTS` when an account other than `localID` has `email`.
    func requireAvailable(_ email: String, for localID: String?, _ reader: any StoreReader) throws {
        if let owner = try reader.account(email: email), owner.localID != localID {
            throw WireError(.emailExists, "The email address is already in use by another account.")
        }
    }
}
