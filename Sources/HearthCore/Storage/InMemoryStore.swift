import Synchronization

/// A store that keeps everything in memory, for tests and throwaway servers.
///
/// `write` runs on a private copy of the state and publishes it only if the body returns, so a
/// throwing body changes nothing. Writers are serialised; readers see the last committed state.
public final class InMemoryStore: HearthStore {
    private let state = Mutex(State())

    public init() {}

    public func read<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        let snapshot = try state.withLock { state in
            guard !state.closed else { throw StoreError(.closed) }
            return state
        }
        return try body(Transaction(snapshot))
    }

    public func write<T>(_ body: (any StoreWriter) throws -> T) throws -> T {
        try state.withLock { state in
            guard !state.closed else { throw StoreError(.closed) }
            let transaction = Transaction(state)
            let result = try body(transaction)
            state = transaction.state
            return result
        }
    }

    public func close() {
        state.withLock { $0.closed = true }
    }

    struct State {
        var closed = false
        var accounts: [String: Account] = [:]
        var accountOrder: [String] = []
        var refreshTokens: [String: RefreshTokenRecord] = [:]
        var signingKeys: [SigningKeyRecord] = []
        var devAccounts: [DevIdPAccount] = []
        var devGrants: [String: DevIdPGrant] = [:]
        var mfaPendingSignIns: [String: MFAPendingSignIn] = [:]
        var verificationSessions: [String: VerificationSession] = [:]
    }

    /// One read or write transaction over a private copy of the state.
    final class Transaction: StoreWriter {
        var state: State

        init(_ state: State) { self.state = state }

        // MARK: Reading

        func account(localID: String) throws -> Account? { state.accounts[localID] }

        func account(email: String) throws -> Account? {
            let wanted = email.lowercased()
            return state.accounts.values.first { $0.email == wanted }
        }

        func account(providerID: String, rawID: String) throws -> Account? {
            state.accounts.values.first { account in
                account.providers.contains { $0.providerID == providerID && $0.rawID == rawID }
            }
        }

        func accountCount() throws -> Int { state.accounts.count }

        func refreshToken(hash: String) throws -> RefreshTokenRecord? { state.refreshTokens[hash] }

        func signingKeys() throws -> [SigningKeyRecord] { state.signingKeys }

        func devAccounts() throws -> [DevIdPAccount] { state.devAccounts }

        func devAccount(subject: String) throws -> DevIdPAccount? {
            state.devAccounts.first { $0.subject == subject }
        }

        func devAccount(email: String) throws -> DevIdPAccount? {
            let wanted = email.lowercased()
            return state.devAccounts.first { $0.email == wanted }
        }

        func devGrant(hash: String) throws -> DevIdPGrant? { state.devGrants[hash] }

        func mfaPendingSignIn(hash: String) throws -> MFAPendingSignIn? { state.mfaPendingSignIns[hash] }

        func verificationSession(hash: String) throws -> VerificationSession? { state.verificationSessions[hash] }

        func verificationSessionCount(phoneNumber: String, since millis: Int64) throws -> Int {
            state.verificationSessions.values.filter { $0.phoneNumber == phoneNumber && $0.createdAtMillis >= millis }.count
        }

        // MARK: Accounts

        func insertAccount(_ account: Account) throws {
            guard state.accounts[account.localID] == nil else { throw StoreError(.duplicateLocalID) }
            let stored = normalized(account)
            try checkUniqueness(of: stored)
            state.accounts[stored.localID] = stored
            state.accountOrder.append(stored.localID)
        }

        func updateAccount(_ account: Account) throws {
            guard state.accounts[account.localID] != nil else { throw StoreError(.notFound) }
            let stored = normalized(account)
            try checkUniqueness(of: stored)
            state.accounts[stored.localID] = stored
        }

        func recordRefresh(localID: String, atMillis: Int64) throws {
            state.accounts[localID]?.lastRefreshAtMillis = atMillis
        }

        func deleteAccount(localID: String) throws -> Bool {
            guard state.accounts.removeValue(forKey: localID) != nil else { return false }
            state.accountOrder.removeAll { $0 == localID }
            state.mfaPendingSignIns = state.mfaPendingSignIns.filter { $0.value.localID != localID }
            // Verification sessions stay (they throttle SMS) until deleteExpiredMFAState.
            return true
        }

        func deleteAllAccounts() throws -> Int {
            let count = state.accounts.count
            state.accounts = [:]
            state.accountOrder = []
            state.mfaPendingSignIns = [:]
            return count
        }

        private func normalized(_ account: Account) -> Account {
            var account = account
            account.email = account.email?.lowercased()
            return account
        }

        private func checkUniqueness(of account: Account) throws {
            for other in state.accounts.values where other.localID != account.localID {
                if let email = account.email, other.email == email { throw StoreError(.duplicateEmail) }
                for identity in account.providers
                where other.providers.contains(where: { $0.providerID == identity.providerID && $0.rawID == identity.rawID }) {
                    throw StoreError(.duplicateIdentity)
                }
            }
            var seen = Set<[String]>()
            for identity in account.providers where !seen.insert([identity.providerID, identity.rawID]).inserted {
                throw StoreError(.duplicateIdentity)
            }
            var enrollmentIDs = Set<String>()
            for enrollment in account.mfaEnrollments where !enrollmentIDs.insert(enrollment.enrollmentID).inserted {
                throw StoreError(.duplicateEnrollment)
            }
            for other in state.accounts.values where other.localID != account.localID {
                if other.mfaEnrollments.contains(where: { enrollmentIDs.contains($0.enrollmentID) }) {
                    throw StoreError(.duplicateEnrollment)
                }
            }
        }

        // MARK: Refresh tokens

        func insertRefreshToken(_ record: RefreshTokenRecord) throws {
            guard state.refreshTokens[record.tokenHash] == nil else { throw StoreError(.duplicateToken) }
            // Tokens are issued to existing accounts (they may outlive them: see deleteAccount).
            guard state.accounts[record.localID] != nil else { throw StoreError(.notFound) }
            state.refreshTokens[record.tokenHash] = record
        }

        func deleteRefreshTokens(localID: String) throws -> Int {
            let before = state.refreshTokens.count
            state.refreshTokens = state.refreshTokens.filter { $0.value.localID != localID }
            return before - state.refreshTokens.count
        }

        func deleteOrphanedRefreshTokens(createdBefore millis: Int64) throws -> Int {
            let before = state.refreshTokens.count
            state.refreshTokens = state.refreshTokens.filter {
                state.accounts[$0.value.localID] != nil || $0.value.createdAtMillis >= millis
            }
            return before - state.refreshTokens.count
        }

        // MARK: Signing keys

        func insertSigningKey(_ key: SigningKeyRecord) throws {
            guard !state.signingKeys.contains(where: { $0.keyID == key.keyID }) else {
                throw StoreError(.duplicateKeyID)
            }
            // Keep oldest first (by createdAt, then insertion order), whatever order keys arrive in.
            let index = state.signingKeys.lastIndex { $0.createdAt <= key.createdAt }.map { $0 + 1 } ?? 0
            state.signingKeys.insert(key, at: index)
        }

        func retireSigningKey(keyID: String, at seconds: Int64) throws {
            guard let index = state.signingKeys.firstIndex(where: { $0.keyID == keyID }) else {
                throw StoreError(.notFound)
            }
            state.signingKeys[index].retiredAt = seconds
        }

        func deleteSigningKey(keyID: String) throws -> Bool {
            let before = state.signingKeys.count
            state.signingKeys.removeAll { $0.keyID == keyID }
            return state.signingKeys.count != before
        }

        // MARK: Dev IdP

        func insertDevAccount(_ account: DevIdPAccount) throws {
            var account = account
            account.email = account.email.lowercased()
            if state.devAccounts.contains(where: { $0.subject == account.subject }) { throw StoreError(.duplicateLocalID) }
            if state.devAccounts.contains(where: { $0.email == account.email }) { throw StoreError(.duplicateEmail) }
            // Keep oldest first (by createdAtMillis, then insertion order), whatever order accounts arrive in.
            let index = state.devAccounts.lastIndex { $0.createdAtMillis <= account.createdAtMillis }.map { $0 + 1 } ?? 0
            state.devAccounts.insert(account, at: index)
        }

        // MARK: MFA

        func insertMFAPendingSignIn(_ pending: MFAPendingSignIn) throws {
            guard state.mfaPendingSignIns[pending.credentialHash] == nil else { throw StoreError(.duplicateToken) }
            guard state.accounts[pending.localID] != nil else { throw StoreError(.notFound) }
            state.mfaPendingSignIns[pending.credentialHash] = pending
        }

        func updateMFAPendingSignIn(_ pending: MFAPendingSignIn) throws {
            guard state.mfaPendingSignIns[pending.credentialHash] != nil else { throw StoreError(.notFound) }
            // Like insert: never attach a record to an account that does not exist (a later account
            // with that id would inherit it).
            guard state.accounts[pending.localID] != nil else { throw StoreError(.notFound) }
            state.mfaPendingSignIns[pending.credentialHash] = pending
        }

        func deleteMFAPendingSignIn(hash: String) throws -> Bool {
            state.mfaPendingSignIns.removeValue(forKey: hash) != nil
        }

        func insertVerificationSession(_ session: VerificationSession) throws {
            guard state.verificationSessions[session.sessionHash] == nil else { throw StoreError(.duplicateToken) }
            guard state.accounts[session.localID] != nil else { throw StoreError(.notFound) }
            state.verificationSessions[session.sessionHash] = session
        }

        func updateVerificationSession(_ session: VerificationSession) throws {
            guard let stored = state.verificationSessions[session.sessionHash] else { throw StoreError(.notFound) }
            // The session keeps its account (which may be gone: sessions outlive accounts).
            var session = session
            session.localID = stored.localID
            state.verificationSessions[session.sessionHash] = session
        }

        func deleteVerificationSession(hash: String) throws -> Bool {
            state.verificationSessions.removeValue(forKey: hash) != nil
        }

        func deleteExpiredMFAState(before seconds: Int64, keepSinceMillis: Int64) throws -> Int {
            let before = state.mfaPendingSignIns.count + state.verificationSessions.count
            state.mfaPendingSignIns = state.mfaPendingSignIns.filter { $0.value.expiresAt >= seconds }
            state.verificationSessions = state.verificationSessions.filter {
                $0.value.expiresAt >= seconds || $0.value.createdAtMillis >= keepSinceMillis
            }
            return before - state.mfaPendingSignIns.count - state.verificationSessions.count
        }

        func insertDevGrant(_ grant: DevIdPGrant) throws {
            guard state.devGrants[grant.tokenHash] == nil else { throw StoreError(.duplicateToken) }
            state.devGrants[grant.tokenHash] = grant
        }

        func deleteDevGrant(hash: String) throws -> Bool {
            state.devGrants.removeValue(forKey: hash) != nil
        }

        func deleteDevGrants(subject: String, clientID: String) throws -> Int {
            let before = state.devGrants.count
            state.devGrants = state.devGrants.filter { $0.value.subject != subject || $0.value.clientID != clientID }
            return before - state.devGrants.count
        }

        func deleteExpiredDevGrants(before seconds: Int64) throws -> Int {
            let before = state.devGrants.count
            state.devGrants = state.devGrants.filter { $0.value.expiresAt >= seconds }
            return before - state.devGrants.count
        }

        // MARK: Sessions (refresh-token rotation)

        func liveSessionIDs(localID: String, skippingNewest count: Int) throws -> [String] {
            let live = state.refreshTokens.values.filter {
                $0.localID == localID && $0.rotatedAtMillis == nil && $0.revokedAtMillis == nil
            }
            let newestFirst = live.sorted { a, b in
                a.createdAtMillis != b.createdAtMillis
                    ? a.createdAtMillis > b.createdAtMillis : b.tokenHash.utf8.lexicographicallyPrecedes(a.tokenHash.utf8)
            }
            return newestFirst.dropFirst(max(0, count)).map(\.sessionID)
        }

        func markRefreshTokenRotated(hash: String, atMillis millis: Int64, sealedSuccessor: [UInt8]) throws {
            guard let record = state.refreshTokens[hash], record.rotatedAtMillis == nil, record.revokedAtMillis == nil
            else { throw StoreError(.notFound) }
            state.refreshTokens[hash]?.rotatedAtMillis = millis
            state.refreshTokens[hash]?.sealedSuccessor = sealedSuccessor
        }

        func revokeSession(_ sessionID: String, atMillis millis: Int64) throws -> Int {
            let hashes = state.refreshTokens.values
                .filter { $0.sessionID == sessionID && $0.revokedAtMillis == nil }.map(\.tokenHash)
            for hash in hashes { state.refreshTokens[hash]?.revokedAtMillis = millis }
            return hashes.count
        }

        func purgeRefreshTokens(after cursor: String?, limit: Int, rotatedBefore: Int64, revokedBefore: Int64) throws
            -> RefreshTokenPurgeStep
        {
            precondition(limit >= 1, "purgeRefreshTokens needs a limit of at least 1")
            let start = (cursor ?? "").utf8
            // Byte order of the UTF-8, as SQLite's BINARY collation compares.
            let page = state.refreshTokens.keys
                .filter { start.lexicographicallyPrecedes($0.utf8) }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                .prefix(limit)
            var deleted = 0
            for hash in page {
                guard let record = state.refreshTokens[hash] else { continue }
                let account = state.accounts[record.localID]
                let spent =
                    record.rotatedAtMillis.map { $0 < rotatedBefore } == true
                    || record.revokedAtMillis.map { $0 < revokedBefore } == true
                    || (account == nil && record.createdAtMillis < revokedBefore)
                    || account.map {
                        record.sessionStartedAtMillis < $0.validSinceMillis && $0.validSinceMillis < revokedBefore
                    } == true
                if spent {
                    state.refreshTokens.removeValue(forKey: hash)
                    deleted += 1
                }
            }
            return RefreshTokenPurgeStep(deleted: deleted, next: page.count == limit ? page.last : nil)
        }
    }
}
