public import HearthProtocol

extension EmailActionService {
    /// `accounts:sendOobCode` (PROTOCOL.md §3.8): issues a code and emails its link.
    ///
    /// - `PASSWORD_RESET` and `EMAIL_SIGNIN` name the `email`; `VERIFY_EMAIL` and `VERIFY_AND_CHANGE_EMAIL` the
    ///   signed-in user (`idToken`; administrators name the `email` instead), the latter also the `newEmail`, which
    ///   gets the link.
    /// - With enumeration protection on, a client's password reset for an email no account has is answered exactly
    ///   as for one that has, and so is a change of email to an address another account has: nothing is sent. Sign-in
    ///   links go to any address (they sign up new users).
    /// - A client's change of email needs a recent sign-in.
    /// - Clients are limited per client address, per address the email goes to (known or not) and, for a change of
    ///   email, per account (``EmailChangeLimits``), all charged before the target is looked up; administrators are
    ///   not, and may ask for the code and link back (`returnOobLink`) instead of an email.
    /// - Delivery happens after the code is committed. When it fails, the client is told (`UNAVAILABLE`; it may
    ///   ask again, and the unsent code just expires), except where that would tell a known email from an unknown
    ///   one: then the failure is only reported to the operator.
    public func sendOobCode(_ request: SendOobCodeRequest, by caller: Caller) throws -> SendOobCodeResponse {
        guard let typeName = request.requestType, !typeName.isEmpty else {
            throw WireError(.missingReqType)
        }
        guard let kind = OOBCodeRecord.Kind(rawValue: typeName), kind != .recoverEmail else {
            throw WireError(.invalidArgument, "Invalid value at 'request_type': \(typeName)")
        }
        let returnsLink = request.returnOobLink == true
        if returnsLink, !caller.isAdministrator {
            throw WireError(.insufficientPermission, "Only administrators may ask for the link back (returnOobLink).")
        }
        let continueURL = request.continueUrl.flatMap { $0.isEmpty ? nil : $0 }
        if continueURL != nil || !(request.linkDomain ?? "").isEmpty {
            let current = try currentSettings()
            if let continueURL { _ = try current.continueURL(continueURL) }
            if let linkDomain = request.linkDomain, !linkDomain.isEmpty { try current.checkLinkDomain(linkDomain) }
        }
        if kind == .emailSignIn, continueURL == nil {
            throw WireError(.missingContinueURI, "A sign-in link needs a continue URL.")
        }
        let pending = try target(of: kind, request, caller: caller)
        let issued = try transaction(caller) { writer, ledger -> WriteOutcome<(code: String?, target: Target)> in
            // Every quota that can be charged before the target is looked up is, so that a spent quota answers the
            // same whether or not an account has the address; a refusal commits the charges made.
            if !caller.isAdministrator, let refusal = try charge(pending, &ledger) {
                return .commitThenFail(refusal)
            }
            let target: Target
            do {
                target = try pending.resolved(writer)
            } catch let error as WireError {
                return .commitThenFail(error)
            }
            if !caller.isAdministrator, pending.knownAddress == nil,
                try !ledger.charge([(LimitKeys.emailsToAddress(target.address), settings.sendsPerEmail)])
            {
                return .commitThenFail(WireError(.tooManyAttemptsTryLater, "Too many emails to this address; try again later."))
            }
            guard target.exists else { return .commit((nil, target)) }
            let code = try issue(
                kind, localID: target.localID, email: target.email, newEmail: target.newEmail, continueURL: continueURL,
                writer: writer)
            return .commit((code, target))
        }
        guard let code = issued.code else { return SendOobCodeResponse(email: pending.answeredEmail ?? issued.target.email) }
        let committed = issued.target
        let delivered = deliver(
            kind, code: code, to: committed.address, email: committed.email, newEmail: committed.newEmail,
            displayName: committed.displayName, continueURL: continueURL, locale: request.locale, send: !returnsLink)
        if !delivered, !(pending.mayBeUnknown && kind == .passwordReset || pending.hidesTakenAddress) {
            throw WireError(.unavailable, "The email could not be sent; try again later.")
        }
        return returnsLink
            ? SendOobCodeResponse(email: committed.email, oobCode: code, oobLink: link(kind, code: code, continueURL: continueURL, locale: request.locale))
            : SendOobCodeResponse(email: pending.answeredEmail ?? committed.email)
    }

    /// Charges a client's request (the ledger's caller) to the quotas known before its target is looked up: the
    /// client's, a change of email's per account, and the address's when the request names it. The refusal, if one
    /// is used up.
    private func charge(_ pending: PendingTarget, _ ledger: inout LimitLedger) throws -> WireError? {
        if let client = ledger.caller.client,
            try !ledger.charge([(LimitKeys.emailsFromClient(client), settings.sendsPerClient)])
        {
            return WireError(.tooManyAttemptsTryLater, "Too many emails asked for; try again later.")
        }
        if pending.kind == .verifyAndChangeEmail, let localID = pending.localID,
            let refusal = try settings.emailChanges.charge(localID: localID, &ledger)
        {
            return refusal
        }
        if let address = pending.knownAddress,
            try !ledger.charge([(LimitKeys.emailsToAddress(address), settings.sendsPerEmail)])
        {
            return pending.kind == .passwordReset
                ? WireError(.resetPasswordExceedLimit, "Too many password reset emails; try again later.")
                : WireError(.tooManyAttemptsTryLater, "Too many emails to this address; try again later.")
        }
        return nil
    }

    /// Whom a request's code is for, as far as can be told before the transaction.
    private func target(of kind: OOBCodeRecord.Kind, _ request: SendOobCodeRequest, caller: Caller) throws
        -> PendingTarget
    {
        let hides = try !caller.isAdministrator && scopeSettings.current().emailEnumerationProtection
        switch kind {
        case .passwordReset, .emailSignIn:
            let email = try Self.requiredEmail(request.email)
            return PendingTarget(kind: kind, byEmail: email, newEmail: nil, mayBeUnknown: kind == .emailSignIn || hides)
        case .verifyEmail, .verifyAndChangeEmail:
            let newEmail = kind == .verifyAndChangeEmail
                ? try Self.requiredEmail(request.newEmail, missing: .missingNewEmail) : nil
            if caller.isAdministrator {
                return PendingTarget(kind: kind, byEmail: try Self.requiredEmail(request.email), newEmail: newEmail)
            }
            let user = try tokens.authenticate(idToken: request.idToken)
            if kind == .verifyAndChangeEmail { try tokens.requireRecentSignIn(user) }
            return PendingTarget(
                kind: kind, localID: user.account.localID, newEmail: newEmail,
                hidesTakenAddress: hides && kind == .verifyAndChangeEmail)
        case .recoverEmail:
            throw WireError(.invalidArgument, "RECOVER_EMAIL codes are only sent by Hearth itself.")
        }
    }

    static func requiredEmail(_ text: String?, missing: ErrorCode = .missingEmail) throws -> String {
        guard let text, !text.isEmpty else { throw WireError(missing) }
        return try AccountFieldRules.checkedEmail(text)
    }

    /// A request's target before the transaction looks it up.
    struct PendingTarget {
        var kind: OOBCodeRecord.Kind
        var byEmail: String?
        var localID: String?
        var newEmail: String?
        /// Whether an email no account has is answered like a known one (enumeration protection, sign-in links).
        var mayBeUnknown = false
        /// Whether a change to an address another account has is answered like any other, with nothing sent
        /// (enumeration protection).
        var hidesTakenAddress = false

        init(kind: OOBCodeRecord.Kind, byEmail: String, newEmail: String?, mayBeUnknown: Bool = false) {
            self.kind = kind
            self.byEmail = byEmail
            self.newEmail = newEmail
            self.mayBeUnknown = mayBeUnknown
        }

        init(kind: OOBCodeRecord.Kind, localID: String, newEmail: String?, hidesTakenAddress: Bool) {
            self.kind = kind
            self.localID = localID
            self.newEmail = newEmail
            self.hidesTakenAddress = hidesTakenAddress
        }

        /// The `email` of the answer when known before the transaction (the request's).
        var answeredEmail: String? { byEmail }

        /// The address the email goes to, when the request names it (every kind but a client's `VERIFY_EMAIL`).
        var knownAddress: String? { newEmail ?? byEmail }

        func resolved(_ reader: any StoreReader) throws -> Target {
            let account = try byEmail.map { try reader.account(email: $0) } ?? localID.map { try reader.account(localID: $0) } ?? nil
            guard let account else {
                if mayBeUnknown, let byEmail {
                    return Target(localID: nil, email: byEmail, newEmail: nil, address: byEmail, exists: kind == .emailSignIn)
                }
                throw byEmail != nil && kind == .passwordReset
                    ? WireError(.emailNotFound, "There is no user record corresponding to this identifier.")
                    : WireError(.userNotFound, "There is no user record corresponding to this identifier.")
            }
            if account.disabled {
                guard mayBeUnknown, kind == .passwordReset, let byEmail else { throw WireError(.userDisabled) }
                return Target(localID: nil, email: byEmail, newEmail: nil, address: byEmail, exists: false)
            }
            switch kind {
            case .verifyEmail:
                guard let email = account.email else { throw WireError(.missingEmail, "The user has no email to verify.") }
                return Target(
                    localID: account.localID, email: email, newEmail: nil, address: email, exists: true,
                    displayName: account.displayName)
            case .verifyAndChangeEmail:
                guard let newEmail else { throw WireError(.missingNewEmail) }
                let taken = try reader.account(email: newEmail).map { $0.localID != account.localID } ?? false
                if taken, !hidesTakenAddress {
                    throw WireError(.emailExists, "The email address is already in use by another account.")
                }
                return Target(
                    localID: account.localID, email: account.email ?? "", newEmail: newEmail, address: newEmail,
                    exists: !taken, displayName: account.displayName)
            default:
                let email = account.email ?? byEmail ?? ""
                return Target(
                    localID: account.localID, email: email, newEmail: nil, address: email, exists: true,
                    displayName: account.displayName)
            }
        }
    }

    /// Whom a code is for, once looked up: the account (none for a sign-in link to a new address), the emails of
    /// the code, the address the email goes to, and whether a code is issued at all.
    struct Target {
        var localID: String?
        var email: String
        var newEmail: String?
        var address: String
        var exists: Bool
        /// The account's display name, for a template's `%DISPLAY_NAME%`.
        var displayName: String? = nil
    }
}
