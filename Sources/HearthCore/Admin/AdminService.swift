import HearthCrypto
public import HearthProtocol

/// Firebase's admin account operations (`/v1/projects/{p}/accounts…`, PROTOCOL.md §3 (A) and §3.14), under
/// the rules the client operations keep: one account per email, federated ids unique, custom claims as
/// Firebase checks them. Callers are authorized at the request edge; every write is one transaction.
public final class AdminService: Sendable {
    let store: any HearthStore
    let time: any TimeSource
    let maximumFactors: Int
    /// Hashes the passwords administrators set.
    let passwords: any PasswordHashing
    /// The scope's password policy, which the passwords administrators set meet too.
    let scopeSettings: ScopeSettings
    /// Called after a write that may have queued provider-token revocations (the maintenance task's `wake`).
    let revocationsQueued: @Sendable () -> Void
    /// Records every change, as done by the operation's caller.
    let audit: AuditRecorder

    /// The most identifiers one `accounts:lookup` may name, and accounts one `batchDelete` may delete.
    public static let maximumBatch = 1000
    /// `batchGet`'s page size when the request names none (the emulator's default).
    public static let defaultPageSize = 20

    /// - Parameters:
    ///   - context: the store and clock; its audit log records every change, as done by the change's caller.
    ///   - maximumFactors: how many second factors an account may have (`MFAService.Limits`).
    ///   - passwords: hashes the passwords administrators set (create, update), held to `scopeSettings`' policy.
    ///   - revocationsQueued: called after deletions and updates that may have queued provider-token revocations.
    public init(
        context: ServiceContext, maximumFactors: Int, passwords: any PasswordHashing, scopeSettings: ScopeSettings,
        revocationsQueued: @escaping @Sendable () -> Void
    ) {
        audit = context.auditRecorder
        store = context.store
        time = context.time
        self.maximumFactors = maximumFactors
        self.passwords = passwords
        self.scopeSettings = scopeSettings
        self.revocationsQueued = revocationsQueued
    }

    // MARK: - create

    /// The hash of a password an administrator sets, once the scope's policy accepts it.
    func hashNewPassword(_ password: String) throws -> String {
        try passwords.hashNewPassword(password, under: scopeSettings.current().passwordPolicy)
    }

    /// `POST …/accounts`: a new account, with the caller's uid or a generated one, and a password hashed
    /// through ``PasswordHashing`` (the scope's password policy applies). Recorded as done by `caller`.
    public func create(_ request: AdminCreateAccountRequest, by caller: Caller) throws -> AdminCreateAccountResponse {
        if let localID = request.localId { try AccountFieldRules.checkLocalID(localID) }
        let email = try request.email.map(AccountFieldRules.checkedEmail)
        if let phone = request.phoneNumber { try AccountFieldRules.checkPhoneNumber(phone) }
        let claims = try request.customAttributes.flatMap(CustomClaims.validated)
        let profile = try ProfileChange(displayName: request.displayName, photoURL: request.photoUrl)
        let passwordHash = try request.password.map(hashNewPassword)
        let now = time.nowMillis
        let factors = try Self.createdFactors(request.mfaInfo, limit: maximumFactors, at: now)
        var account = Account(
            localID: request.localId ?? Identifiers.localID(), email: email,
            emailVerified: request.emailVerified ?? false, phoneNumber: request.phoneNumber, passwordHash: passwordHash,
            disabled: request.disabled ?? false, customAttributes: claims, createdAtMillis: now,
            validSinceMillis: now)
        profile.apply(to: &account)
        account.mfaEnrollments = factors
        try store.transaction { writer -> WriteOutcome<Void> in
            guard try writer.account(localID: account.localID) == nil else { throw WireError(.duplicateLocalID) }
            try Self.requireUnique(email: email, phoneNumber: account.phoneNumber, for: account.localID, writer)
            try writer.insertAccount(account)
            try recordCreated(account, by: caller, writer)
            return .commit(())
        }
        return AdminCreateAccountResponse(
            localId: account.localID, email: account.email, displayName: account.displayName)
    }

    /// The phone factors `mfaInfo` asks a new account to have: each an E.164 number (`INVALID_MFA_PHONE_NUMBER`),
    /// none twice (`DUPLICATE_MFA_ENROLLMENT_ID`), at most `limit`; ids made here, as the emulator does.
    static func createdFactors(_ requested: [AdminMFAEnrollment], limit: Int, at now: Int64) throws -> [MFAEnrollment] {
        var result: [MFAEnrollment] = []
        for entry in requested {
            guard let phone = entry.phoneInfo else { throw WireError(.invalidMFAPhoneNumber, "Invalid format.") }
            try AccountFieldRules.checkPhoneNumber(phone, code: .invalidMFAPhoneNumber)
            guard !result.contains(where: { $0.phoneNumber == phone }) else {
                throw WireError(.duplicateMFAEnrollment, "mfaInfo names the same phone number twice.")
            }
            result.append(
                MFAEnrollment(
                    enrollmentID: Identifiers.localID(), kind: .phone,
                    displayName: entry.displayName.flatMap { $0.isEmpty ? nil : String($0.prefix(256)) },
                    enrolledAtMillis: now, phoneNumber: phone))
        }
        guard result.count <= limit else {
            throw WireError(.secondFactorLimitExceeded, "An account may have at most \(limit) second factors.")
        }
        return result
    }

    /// Records `account_created` for an account this service just inserted.
    func recordCreated(_ account: Account, by caller: Caller, _ writer: any StoreWriter) throws {
        try audit.record(.accountCreated, localID: account.localID, by: caller, in: writer)
    }

    /// Refuses an email or phone number another account has (`EMAIL_EXISTS`, `PHONE_NUMBER_EXISTS`).
    static func requireUnique(email: String?, phoneNumber: String?, for localID: String, _ reader: any StoreReader)
        throws
    {
        if let email, let owner = try reader.account(email: email), owner.localID != localID {
            throw WireError(.emailExists, "The email address is already in use by another account.")
        }
        if let phoneNumber, let owner = try reader.account(phoneNumber: phoneNumber), owner.localID != localID {
            throw WireError(.phoneNumberExists, "The phone number is already in use by another account.")
        }
    }

    // MARK: - lookup

    /// `POST …/accounts:lookup`: every account any identifier names, each once, in the order of the request's
    /// lists (uids, emails, phone numbers, federated ids); `users` left out when none matched. Each carries
    /// `validSinceMillis` besides Firebase's `validSince` (seconds), for revocation checks in milliseconds.
    public func lookup(_ request: AdminLookupRequest) throws -> LookupResponse {
        if !request.initialEmail.isEmpty {
            throw WireError(.notImplemented, "Lookup by initialEmail is not implemented by this Hearth server.")
        }
        guard request.count <= Self.maximumBatch else {
            throw WireError(.invalidArgument, "A lookup may name at most \(Self.maximumBatch) identifiers.")
        }
        let accounts = try store.read { reader -> [Account] in
            var found: [Account?] = []
            for localID in request.localId { found.append(try reader.account(localID: localID)) }
            for email in request.email { found.append(try reader.account(email: email)) }
            for phone in request.phoneNumber { found.append(try reader.account(phoneNumber: phone)) }
            for identity in request.federatedUserId {
                found.append(try reader.account(providerID: identity.providerId, rawID: identity.rawId))
            }
            var seen = Set<String>()
            return found.compactMap { $0 }.filter { seen.insert($0.localID).inserted }
        }
        return LookupResponse(users: accounts.map { account in
            var record = UserRecord(account, in: store.scope)
            record.validSinceMillis = String(account.validSinceMillis)
            return record
        })
    }

    // MARK: - delete

    /// `POST …/accounts:delete`: the account, its identities and second factors; its sessions answer
    /// `USER_NOT_FOUND` from then on, and its provider tokens are queued for revocation in the same write.
    /// Recorded as done by `caller`.
    public func delete(_ request: AdminDeleteAccountRequest, by caller: Caller) throws -> DeleteAccountResponse {
        guard let localID = request.localId, !localID.isEmpty else { throw WireError(.missingLocalID) }
        let now = time.nowMillis
        try store.transaction { writer -> WriteOutcome<Void> in
            guard try writer.deleteAccount(localID: localID, queueingRevocationsAtMillis: now) else {
                throw WireError(.userNotFound)
            }
            try audit.record(.accountDeleted, localID: localID, by: caller, in: writer)
            return .commit(())
        }
        revocationsQueued()
        return DeleteAccountResponse()
    }

    /// `POST …/accounts:batchDelete`: deletes the disabled accounts among `localIds` (every one with
    /// `force`); an enabled one without `force` is reported as `NOT_DISABLED` and kept, an unknown one
    /// skipped, as Firebase does. Provider tokens of the deleted accounts are queued for revocation in the same write.
    /// Recorded as done by `caller`.
    public func batchDelete(_ request: BatchDeleteRequest, by caller: Caller) throws -> BatchDeleteResponse {
        guard (1...Self.maximumBatch).contains(request.localIds.count) else {
            throw WireError(.localIDListExceedsLimit, "Send 1 to \(Self.maximumBatch) localIds.")
        }
        let now = time.nowMillis
        let failures = try store.transaction { writer -> WriteOutcome<[BatchDeleteResponse.Failure]> in
            var failures: [BatchDeleteResponse.Failure] = []
            for (index, localID) in request.localIds.enumerated() {
                guard let account = try writer.account(localID: localID) else { continue }
                guard account.disabled || request.force else {
                    let message = WireError(.notDisabled, "Disable the account before batch deletion.").message
                    failures.append(.init(index: index, localId: localID, message: message))
                    continue
                }
                try writer.deleteAccount(localID: localID, queueingRevocationsAtMillis: now)
                try audit.record(.accountDeleted, localID: localID, by: caller, in: writer)
            }
            return .commit(failures)
        }
        revocationsQueued()
        return BatchDeleteResponse(errors: failures)
    }

    // MARK: - batchGet

    /// `GET …/accounts:batchGet`: one page of every account, ordered by uid. `nextPageToken` (opaque; it
    /// names the page's last uid) is set when more accounts follow, so accounts added meanwhile never move
    /// an account into a page already read or out of the next one.
    ///
    /// Password hashes are redacted as Firebase redacts them, unless `encodePasswordHash` is given: then each
    /// record's `passwordHash` is the stored hash (Argon2id PHC or an imported `$hearth-import-v1$` string) as it
    /// encodes it. Only `hearth users export`, which reads the store as its operator, asks for them.
    ///
    /// With `revealsPasswordHashes` (the admin API's `batchGet`, as Firebase answers administrators) each record
    /// carries `passwordHash` and `salt` in base64url: an imported hash as it was imported (its bytes and salt), a
    /// hash Hearth made as its PHC string (the salt is inside it, so none beside), as `batchCreate` takes them back.
    public func batchGet(
        _ request: BatchGetRequest, encodePasswordHash: ((String) -> String)? = nil, revealsPasswordHashes: Bool = false
    ) throws -> BatchGetResponse {
        let requested = request.maxResults ?? Int64(Self.defaultPageSize)
        guard requested >= 1 else { throw WireError(.invalidArgument, "maxResults must be at least 1.") }
        let pageSize = Int(min(requested, Int64(Self.maximumBatch)))
        let after = try request.nextPageToken.flatMap { $0.isEmpty ? nil : try PageToken.localID(from: $0) }
        let accounts = try store.read { try $0.accounts(after: after, limit: pageSize + 1) }
        let page = accounts.prefix(pageSize)
        let next = accounts.count > pageSize ? page.last.map { PageToken.token(after: $0.localID) } : nil
        let users = page.map { account in
            var record = UserRecord(account, in: store.scope)
            if let encodePasswordHash, let stored = account.passwordHash { record.passwordHash = encodePasswordHash(stored) }
            if revealsPasswordHashes, let stored = account.passwordHash {
                (record.passwordHash, record.salt) = Self.revealed(stored)
            }
            return record
        }
        return BatchGetResponse(users: users, nextPageToken: next)
    }
}

extension AdminService {
    /// A stored hash as the admin API shows it (base64url): an imported one's hash and salt, else the PHC text.
    static func revealed(_ stored: String) -> (hash: String, salt: String?) {
        if let imported = try? ImportedPasswordHash(stored: stored) {
            return (Base64URL.encode(imported.hash), imported.salt.isEmpty ? nil : Base64URL.encode(imported.salt))
        }
        return (Base64URL.encode(Array(stored.utf8)), nil)
    }
}

/// `batchGet`'s `nextPageToken`: the last uid of the page, base64url-encoded, so that clients treat it as
/// opaque.
enum PageToken {
    static func token(after localID: String) -> String { Base64URL.encode(Array(localID.utf8)) }

    /// - Throws: `INVALID_PAGE_SELECTION` for text no page ever answered.
    static func localID(from token: String) throws -> String {
        guard let bytes = Base64URL.decode(token), let localID = String(validating: bytes, as: UTF8.self),
            (1...128).contains(localID.count)
        else { throw WireError(.invalidPageSelection, "The page token is not one this server issued.") }
        return localID
    }
}
