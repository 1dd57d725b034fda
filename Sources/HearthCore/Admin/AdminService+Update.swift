public import HearthProtocol

extension AdminService {
    /// `POST …/accounts:update` by an administrator (PROTOCOL.md §3.6, request (A)).
    ///
    /// `validSince` revokes every session that exists now, as `hearth users revoke` does: whatever value is
    /// sent, `validSince` becomes the later of that value and the time of the call, so it never moves back
    /// (which would bring revoked sessions back). A new email or password moves it too, as Firebase does; the
    /// password is hashed through ``PasswordHashing`` (its policy applies).
    /// `mfa.enrollments` replaces the second factors: phone factors by number; an entry naming an existing
    /// factor by `mfaEnrollmentId` keeps it (a TOTP factor needs no `phoneInfo`); an empty list removes all.
    /// Recorded as done by `caller`.
    public func update(_ request: AdminUpdateAccountRequest, by caller: Caller) throws -> UpdateAccountResponse {
        guard let localID = request.localId, !localID.isEmpty else { throw WireError(.missingLocalID) }
        let email = try request.email.map(AccountFieldRules.checkedEmail)
        if let phone = request.phoneNumber { try AccountFieldRules.checkPhoneNumber(phone) }
        let claims = try request.customAttributes.map(CustomClaims.validated)
        let profile = try ProfileChange(
            displayName: request.displayName, photoURL: request.photoUrl, deleteAttribute: request.deleteAttribute,
            deleteProvider: request.deleteProvider)
        let linked = try request.linkProviderUserInfo.map(Self.linkedIdentity)
        let passwordHash = try request.password.map(hashNewPassword)
        let now = time.nowMillis
        // Row locks: the body reads the account first, and an email or identity taken meanwhile by another account
        // meets its unique key (the body runs again and answers as if it had seen it). Phone numbers have no unique
        // key, so an update that sets one is checked serializably.
        let isolation: WriteIsolation = request.phoneNumber == nil ? .rowLocks : .serializable
        let account = try store.writeRetryingUniqueness(isolation) { writer -> Account in
            guard var account = try writer.account(localID: localID) else { throw WireError(.userNotFound) }
            let before = account
            try Self.requireUnique(email: email, phoneNumber: request.phoneNumber, for: localID, writer)
            if email != nil || request.phoneNumber != nil || linked != nil || passwordHash != nil {
                account.isAnonymous = false
            }
            if let email, email != account.email {
                account.email = email
                account.emailVerified = false
                account.revokeSessions(atMillis: now)
            }
            if let passwordHash {
                account.passwordHash = passwordHash
                account.revokeSessions(atMillis: now)
            }
            if account.email != before.email || passwordHash != nil {
                // Codes issued before (a reset, a change of email) must not undo the change (recovery codes stay).
                try writer.deleteOOBCodes(localID: localID, keeping: .recoverEmail)
            }
            if let verified = request.emailVerified { account.emailVerified = verified }
            if let phone = request.phoneNumber { account.phoneNumber = phone }
            if let disabled = request.disableUser { account.disabled = disabled }
            if let claims { account.customAttributes = claims }
            if let validSince = request.validSince {
                let (requested, overflow) = validSince.multipliedReportingOverflow(by: 1000)
                account.revokeSessions(atMillis: overflow ? now : max(requested, now))
            }
            profile.apply(to: &account)
            if let linked {
                if let owner = try writer.account(providerID: linked.providerID, rawID: linked.rawID),
                    owner.localID != localID
                {
                    throw WireError(
                        .federatedUserIDAlreadyLinked, "This credential is already associated with a different user account.")
                }
                account.providers.removeAll { $0.providerID == linked.providerID }
                account.providers.append(linked)
            }
            if let enrollments = request.mfaEnrollments {
                account.mfaEnrollments = try replacedEnrollments(of: account, with: enrollments, at: now)
            }
            try writer.updateAccount(account, queueingRevocationsOfDroppedTokensAtMillis: now)
            try audit.recordChanges(from: before, to: account, by: caller, in: writer)
            return account
        }
        revocationsQueued()
        return UpdateAccountResponse(account)
    }

    /// The identity `linkProviderUserInfo` links; `password` and `phone` are not identities Hearth stores
    /// (they follow from the account's password and phone number).
    private static func linkedIdentity(_ provider: AdminLinkedProvider) throws -> LinkedIdentity {
        guard let providerID = provider.providerId, !providerID.isEmpty else { throw WireError(.missingProviderID) }
        guard let rawID = provider.rawId, !rawID.isEmpty else { throw WireError(.missingRawID) }
        guard providerID != "password" && providerID != "phone" else {
            throw WireError(.invalidArgument, "Set the email or phoneNumber instead of linking the \(providerID) provider.")
        }
        return provider.identity(providerID: providerID, rawID: rawID)
    }

    private func replacedEnrollments(of account: Account, with requested: [AdminMFAEnrollment], at now: Int64) throws
        -> [MFAEnrollment]
    {
        var result: [MFAEnrollment] = []
        for entry in requested {
            let existing = account.mfaEnrollments.first { $0.enrollmentID == entry.mfaEnrollmentId }
            let displayName = entry.displayName.flatMap { $0.isEmpty ? nil : String($0.prefix(256)) }
            if let existing, existing.kind == .totp, entry.phoneInfo == nil {
                var kept = existing
                kept.displayName = displayName ?? existing.displayName
                result.append(kept)
                continue
            }
            guard let phone = entry.phoneInfo else {
                throw WireError(.invalidMFAPhoneNumber, "Invalid format.")
            }
            try AccountFieldRules.checkPhoneNumber(phone, code: .invalidMFAPhoneNumber)
            if result.contains(where: { $0.phoneNumber == phone }) { continue }
            let kept = existing.flatMap { $0.kind == .phone ? $0 : nil }
            result.append(
                MFAEnrollment(
                    enrollmentID: kept?.enrollmentID ?? Identifiers.localID(), kind: .phone,
                    displayName: displayName ?? kept?.displayName, enrolledAtMillis: kept?.enrolledAtMillis ?? now,
                    phoneNumber: phone))
        }
        guard result.count <= maximumFactors else {
            throw WireError(.secondFactorLimitExceeded, "An account may have at most \(maximumFactors) second factors.")
        }
        return result
    }
}

extension AdminLinkedProvider {
    /// The identity this provider entry describes, once its provider and raw id are known to be set.
    func identity(providerID: String, rawID: String) -> LinkedIdentity {
        LinkedIdentity(
            providerID: providerID, rawID: rawID, email: email?.lowercased(), displayName: displayName,
            photoURL: photoUrl, screenName: screenName)
    }
}
