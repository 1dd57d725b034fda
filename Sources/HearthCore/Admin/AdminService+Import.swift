public import HearthProtocol

extension AdminService {
    /// `POST …/accounts:batchCreate`: imports up to 1,000 users, in one transaction.
    ///
    /// Password hashes (`passwordHash`, `salt`) are made as the request's hash options say (see
    /// ``ImportedHashScheme``); options outside Firebase's ranges or Hearth's work caps refuse the whole request
    /// (`INVALID_HASH_ALGORITHM`, `INVALID_HASH_ROUNDS`, …), and a hash that cannot be right refuses its row. Without
    /// a hash algorithm, a row may carry a hash Hearth wrote itself (as `hearth users export` writes it).
    ///
    /// As Firebase reports them: a request with no users is `MISSING_USER_ACCOUNT`; with `sanityCheck`, two
    /// rows with one email or federated id refuse the whole request (`DUPLICATE_EMAIL`, `DUPLICATE_RAW_ID`),
    /// and without `allowOverwrite` so do two rows with one uid (`DUPLICATE_LOCAL_ID`). Any other bad row is
    /// reported in `error[]` by its index and skipped; the others are imported. Imported accounts keep
    /// `createdAt` and `lastLoginAt`; `validSince` is the import time, and second factors get new ids.
    /// Recorded as done by `caller`.
    public func batchCreate(_ request: BatchCreateRequest, by caller: Caller) throws -> BatchCreateResponse {
        guard !request.users.isEmpty else { throw WireError(.missingUserAccount) }
        guard request.users.count <= Self.maximumBatch else {
            throw WireError(.invalidArgument, "A batchCreate may import at most \(Self.maximumBatch) users.")
        }
        try Self.refuseDuplicateRows(request)
        let scheme = try request.hashOptions.hashAlgorithm.map { _ throws(WireError) in
            try ImportedHashScheme(options: request.hashOptions)
        }
        let now = time.nowMillis
        let failures = try store.transaction { writer -> WriteOutcome<[BatchCreateResponse.Failure]> in
            var failures: [BatchCreateResponse.Failure] = []
            for (index, row) in request.users.enumerated() {
                do {
                    try importRow(
                        row, scheme: scheme, allowOverwrite: request.allowOverwrite, at: now, by: caller, writer)
                } catch let refusal as RowRefusal {
                    failures.append(.init(index: index, message: refusal.message))
                }
            }
            return .commit(failures)
        }
        return BatchCreateResponse(error: failures)
    }

    /// Why one imported row was skipped; its message goes into `error[]`.
    private struct RowRefusal: Error {
        let message: String
    }

    private static func refuseDuplicateRows(_ request: BatchCreateRequest) throws {
        if request.sanityCheck {
            var emails = Set<String>()
            var identities = Set<[String]>()
            for row in request.users {
                if let email = row.email?.lowercased(), !emails.insert(email).inserted {
                    throw WireError(.duplicateEmail, email)
                }
                for provider in row.providerUserInfo {
                    guard let providerID = provider.providerId, let rawID = provider.rawId else { continue }
                    guard identities.insert([providerID, rawID]).inserted else {
                        throw WireError(.duplicateRawID, "Provider id(\(providerID)), Raw id(\(rawID))")
                    }
                }
            }
        }
        if !request.allowOverwrite {
            var localIDs = Set<String>()
            for row in request.users where !localIDs.insert(row.localId ?? "").inserted {
                throw WireError(.duplicateLocalID, row.localId ?? "")
            }
        }
    }

    private func importRow(
        _ row: ImportedUser, scheme: ImportedHashScheme?, allowOverwrite: Bool, at now: Int64, by caller: Caller,
        _ writer: any StoreWriter
    ) throws {
        guard let localID = row.localId, !localID.isEmpty else { throw RowRefusal(message: "localId is missing") }
        guard localID.count <= 128 else { throw RowRefusal(message: "localId must be at most 128 characters.") }
        guard !row.hasRawPassword else {
            throw RowRefusal(message: "rawPassword is not supported; import the password's hash with its hashAlgorithm.")
        }
        let existing = try writer.account(localID: localID)
        if existing != nil && !allowOverwrite {
            throw RowRefusal(message: "localId belongs to an existing account - can not overwrite.")
        }
        var account = Account(
            localID: localID, emailVerified: row.emailVerified ?? false, disabled: row.disabled ?? false,
            createdAtMillis: row.createdAt ?? now, lastLoginAtMillis: row.lastLoginAt, validSinceMillis: now)
        account.customAttributes = try Self.rowValue { try row.customAttributes.flatMap(CustomClaims.validated) }
        try Self.rowValue { try ProfileChange(displayName: row.displayName, photoURL: row.photoUrl) }.apply(to: &account)
        if let email = row.email {
            account.email = try Self.rowValue { try AccountFieldRules.checkedEmail(email) }
            if let owner = try writer.account(email: email), owner.localID != localID {
                throw RowRefusal(message: "email exists in other account in database")
            }
        }
        if let phone = row.phoneNumber {
            guard PhoneNumbers.isE164(phone) else { throw RowRefusal(message: "phone number format is invalid") }
            if let owner = try writer.account(phoneNumber: phone), owner.localID != localID {
                throw RowRefusal(message: "phone number exists in other account in database")
            }
            account.phoneNumber = phone
        }
        for provider in row.providerUserInfo where provider.providerId != "password" && provider.providerId != "phone" {
            guard let providerID = provider.providerId, !providerID.isEmpty, let rawID = provider.rawId, !rawID.isEmpty
            else { throw RowRefusal(message: "federatedId or (providerId & rawId) is required") }
            if let owner = try writer.account(providerID: providerID, rawID: rawID), owner.localID != localID {
                throw RowRefusal(message: "raw id exists in other account in database")
            }
            account.providers.removeAll { $0.providerID == providerID }
            account.providers.append(provider.identity(providerID: providerID, rawID: rawID))
        }
        if let passwordHash = row.passwordHash, !passwordHash.isEmpty {
            do {
                account.passwordHash = try ImportedPasswordHash.storedHash(passwordHash: passwordHash, salt: row.salt, scheme: scheme)
            } catch {
                throw RowRefusal(message: error.message)
            }
        }
        account.mfaEnrollments = try importedFactors(row, of: account, at: now)
        if let existing {
            try writer.updateAccount(account, queueingRevocationsOfDroppedTokensAtMillis: now)
            try audit.recordChanges(from: existing, to: account, by: caller, in: writer)
        } else {
            try writer.insertAccount(account)
            try recordCreated(account, by: caller, writer)
        }
    }

    private func importedFactors(_ row: ImportedUser, of account: Account, at now: Int64) throws -> [MFAEnrollment] {
        guard !row.mfaInfo.isEmpty else { return [] }
        guard account.email != nil, account.emailVerified else {
            throw RowRefusal(message: "Second factor account requires email to be verified.")
        }
        guard row.mfaInfo.count <= maximumFactors else {
            throw RowRefusal(message: "An account may have at most \(maximumFactors) second factors.")
        }
        return try row.mfaInfo.map { factor in
            guard let phone = factor.phoneInfo else { throw RowRefusal(message: "Second factor not supported.") }
            guard PhoneNumbers.isE164(phone) else { throw RowRefusal(message: "Phone number format is invalid") }
            return MFAEnrollment(
                enrollmentID: Identifiers.localID(), kind: .phone,
                displayName: factor.displayName.flatMap { $0.isEmpty ? nil : String($0.prefix(256)) },
                enrolledAtMillis: now, phoneNumber: phone)
        }
    }

    /// `body`'s value, or a row refusal carrying the wire error's text (with Firebase's wording for claims).
    private static func rowValue<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as WireError {
            let message: String = switch error.code {
            case .invalidClaims: "Invalid custom claims provided."
            case .claimsTooLarge: "Custom claims provided are too large."
            case .forbiddenClaim: "Custom claims provided include a reserved claim."
            default: error.message
            }
            throw RowRefusal(message: message)
        }
    }
}
