/// Where Hearth keeps everything that several server instances must share.
///
/// All access is closure-scoped: `read` sees a consistent snapshot, `write` runs its body as one
/// atomic transaction that is rolled back if the body throws. Write bodies are serializable: each
/// sees every write committed before it and none that commit during it, so a rule checked in a body
/// (one account per email, an attempt counter, a quota) holds under concurrent writers. A body that
/// must keep its changes and still answer an error returns a ``WriteOutcome`` through
/// ``HearthStore/transaction(_:)``; throwing always rolls back. Calls block the calling thread
/// (request handlers run on the HTTP server's worker threads), so implementations may do I/O.
///
/// A body may run more than once: a store on a database that refuses a transaction which raced with
/// another one (PostgreSQL's serialization failures) or lost its connection before committing rolls it
/// back and runs the body again. Only the last run's changes are kept and only its value is returned, so a
/// body must have no effect outside the store: no SMS or email sent, no in-memory counter or rate-limiter
/// token taken (see `RateLimitTakes`), nothing logged or reported. Do those after `write` returns, with
/// what it returned.
///
/// A body whose rules hold by unique constraints and by the rows it reads alone — a returning sign-in, a refresh,
/// a profile or admin change of one account — may ask for ``WriteIsolation/rowLocks`` instead: a store where
/// writers run concurrently then locks each account and refresh session the body reads through the writer until
/// the commit (PostgreSQL: `READ COMMITTED` with `SELECT … FOR UPDATE`), so two such bodies on one account run one
/// after the other, and bodies on different accounts never conflict. Rules that count rows and then insert (a
/// throttle, a quota, an attempt counter) stay ``WriteIsolation/serializable``. Hearth's row-locked bodies: a
/// `signInWithIdp` (and its linking), a refresh, a user's profile and credential changes, an admin update that sets no
/// phone number (phone numbers have no unique key), and the operator's changes of one account. Each reads its account
/// (or session) through the writer before it decides anything, and one that meets another write's new row at a unique
/// key runs again and decides by that row (`writeRetryingUniqueness`).
///
/// A store acts in one ``StoreScope`` (the project, where every store opens, or one tenant): every reader and writer
/// method reads and changes only the records of that scope, except the project-wide records and the store-wide
/// maintenance methods, which say so. ``scoped(to:)`` gives a view in another scope on the same database.
/// Every implementation must pass the storage conformance suite (`Tests/StoreConformanceTests`).
public protocol HearthStore: Sendable {
    /// The scope every reader and writer of this store acts in; `.project` for a store as opened.
    var scope: StoreScope { get }
    /// A view of the same store (the same connections or memory, and the same `close()`) whose readers and writers
    /// act in `scope`.
    func scoped(to scope: StoreScope) -> any HearthStore
    func read<T>(_ body: (any StoreReader) throws -> T) throws -> T
    /// Runs `body` as one write transaction, isolated as `isolation` says (a store that runs one writer at a time
    /// runs every write serializably).
    func write<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T
    /// Finishes pending work and releases resources; later calls fail with `StoreError.closed`.
    func close()
}

/// How a write body's rules are kept against concurrent writes (see ``HearthStore``).
public enum WriteIsolation: Sendable {
    /// Each write behaves as if it ran alone: a rule checked in the body holds whatever commits meanwhile.
    case serializable
    /// The accounts and refresh sessions the body reads through the writer stay locked until the commit; other
    /// rows may change under it, and unique constraints decide the races between new rows.
    case rowLocks
}

extension HearthStore {
    /// Runs `body` as one serializable write transaction.
    public func write<T>(_ body: (any StoreWriter) throws -> T) throws -> T { try write(.serializable, body) }
}

/// Queries available inside `read` and `write`.
public protocol StoreReader {
    func account(localID: String) throws -> Account?
    /// Looks up by email, ignoring case.
    func account(email: String) throws -> Account?
    func account(providerID: String, rawID: String) throws -> Account?
    /// Looks up by E.164 phone number (exact match); when several accounts have it, the one whose
    /// `localID` sorts first.
    func account(phoneNumber: String) throws -> Account?
    /// At most `limit` accounts (at least 1) whose `localID` sorts after `localID` (byte order of UTF-8;
    /// `nil` starts at the beginning), in that order: a page of a listing that stays stable while accounts
    /// are added, since a page starts after the last id of the one before.
    func accounts(after localID: String?, limit: Int) throws -> [Account]
    /// Number of accounts in the scope, for status output.
    func accountCount() throws -> Int
    /// Every scope that holds an account, in order: the project first (always listed), then tenants in byte order of
    /// their ids. Store-wide: the same from every scope. What the maintenance task and `StoreCopy` go through.
    func scopes() throws -> [StoreScope]
    /// The uids of at most `limit` anonymous accounts (at least 1; `Account.isAnonymous`) created before
    /// `millis` whose uid sorts after `localID` (byte order; `nil` starts at the beginning), in that order: what
    /// the maintenance task deletes, a page at a time.
    func anonymousAccountIDs(createdBefore millis: Int64, after localID: String?, limit: Int) throws -> [String]

    /// Every signing key, oldest first (by `createdAt`; keys created in the same second in insertion order).
    func signingKeys() throws -> [SigningKeyRecord]

    /// Every dev IdP account, oldest first (by `createdAtMillis`, then insertion order).
    func devAccounts() throws -> [DevIdPAccount]
    func devAccount(subject: String) throws -> DevIdPAccount?
    /// Looks up by email, ignoring case.
    func devAccount(email: String) throws -> DevIdPAccount?
    func devGrant(hash: String) throws -> DevIdPGrant?

    func mfaPendingSignIn(hash: String) throws -> MFAPendingSignIn?
    func verificationSession(hash: String) throws -> VerificationSession?
    /// The verification sessions created for `phoneNumber` at or after `millis`, oldest first (SMS
    /// throttling; ended sessions included until purged).
    func verificationSessions(phoneNumber: String, createdSince millis: Int64) throws -> [VerificationSession]

    // MARK: Limits

    /// The counter under `key`, if any (see `LimitCounter`).
    func limitCounter(key: String) throws -> LimitCounter?

    // MARK: Email action codes

    /// The action code whose hash is `hash`, expired or not; `nil` when there is none (never issued, used or purged).
    func oobCode(hash: String) throws -> OOBCodeRecord?


    // MARK: Sessions (refresh-token rotation)

    /// The session `id`; `nil` if there is none (never started, or deleted or purged).
    func refreshSession(id: String) throws -> RefreshSession?
    /// The session of a refresh token issued before tokens named their session (a bare secret, kept by
    /// hash in SQLite databases from before migration 5), by the token's hash; `nil` for an unknown token
    /// or one whose session is gone. Stores that never issued such tokens have none.
    func refreshSession(legacyTokenHash: String) throws -> RefreshSession?
    /// The ids of `localID`'s sessions that are not revoked, newest first (by `startedAtMillis`,
    /// then by id, both descending), without the first `count`: the sessions beyond a cap of `count`.
    func liveSessionIDs(localID: String, skippingNewest count: Int) throws -> [String]
    /// At most `limit` sessions (at least 1), revoked ones included, whose id sorts after `sessionID` (byte order of
    /// UTF-8; `nil` starts at the beginning), in that order: a page of every session, for copying a store.
    func refreshSessions(after sessionID: String?, limit: Int) throws -> [RefreshSession]

    // MARK: Service accounts

    /// Every service account, revoked ones included, oldest first (by `createdAt`, then insertion order).
    func serviceAccounts() throws -> [ServiceAccountRecord]
    /// The account whose key is `keyID`, revoked or not.
    func serviceAccount(keyID: String) throws -> ServiceAccountRecord?
    /// The live (unrevoked) account with this email, ignoring case.
    func serviceAccount(email: String) throws -> ServiceAccountRecord?

    // MARK: Provider-token revocations

    /// At most `limit` queued revocations (at least 1) due at `millis` (`nextAttemptAtMillis` at or before it),
    /// the longest due first (then by id).
    func dueProviderTokenRevocations(atMillis millis: Int64, limit: Int) throws -> [ProviderTokenRevocation]
    /// The queued revocation `id`, if any.
    func providerTokenRevocation(id: String) throws -> ProviderTokenRevocation?

    // MARK: Tenants (project-wide)

    /// The tenant `id`, if there is one. Project-wide: the same from every scope.
    func tenant(id: String) throws -> Tenant?
    /// At most `limit` tenants (at least 1) whose id sorts after `id` (byte order of UTF-8; `nil` starts at the
    /// beginning), in that order: a page of the tenant listing. Project-wide.
    func tenants(after id: String?, limit: Int) throws -> [Tenant]

    // MARK: Provider configurations (scoped)

    /// The provider configuration `kind`/`id` of the scope, if any (its client secret opened).
    func providerConfig(kind: ProviderConfigRecord.Kind, id: String) throws -> ProviderConfigRecord?
    /// At most `limit` configurations of `kind` (at least 1) whose id sorts after `id` (byte order of UTF-8; `nil`
    /// starts at the beginning), in that order: a page of the scope's listing.
    func providerConfigs(kind: ProviderConfigRecord.Kind, after id: String?, limit: Int) throws -> [ProviderConfigRecord]

    // MARK: Project configuration (scoped)

    /// The configuration the config API gave the scope (``ProjectConfigRecord``); `nil` while it was never set.
    func projectConfig() throws -> ProjectConfigRecord?

    // MARK: Audit log

    /// At most `query.limit` events (at least 1) matching every filter `query` gives, newest first (by id,
    /// descending). Served from indexes with any combination of filters, at any size.
    func auditEvents(_ query: AuditQuery) throws -> [AuditEvent]
    /// The scope's events of `kind` at or after `sinceMillis`, counted per UTC day and provider, by day then provider
    /// (nil first), days without events left out. Served from the kind's index (a range of it, not the whole log).
    func auditEventCounts(kind: AuditEventKind, sinceMillis: Int64) throws -> [AuditDayCount]
}

/// Changes available inside `write`.
public protocol StoreWriter: StoreReader {
    /// Throws `StoreError` `.duplicateLocalID`, `.duplicateEmail`, `.duplicateIdentity` or `.duplicateEnrollment`.
    func insertAccount(_ account: Account) throws
    /// Replaces the stored account (its linked identities and MFA enrolments included) with `account`.
    /// Throws `.notFound`, `.duplicateEmail`, `.duplicateIdentity` or `.duplicateEnrollment`.
    func updateAccount(_ account: Account) throws
    /// Sets only `lastRefreshAtMillis`; one row, cheap enough for a token refresh. Unknown ids are ignored.
    func recordRefresh(localID: String, atMillis: Int64) throws
    /// Deletes the account, its identities, MFA enrolments and pending MFA sign-ins. Returns whether
    /// it existed. Its identities' provider refresh tokens go with it unrevoked: Hearth deletes accounts with
    /// `deleteAccount(localID:queueingRevocationsAtMillis:)`, which queues their revocation first.
    ///
    /// Its refresh tokens stay, so that a later refresh is answered `USER_NOT_FOUND` (which makes
    /// clients sign out) rather than `INVALID_REFRESH_TOKEN`; the purge (`purgeSessions`, which revokes them
    /// when it first finds them) ends them.
    /// Its verification sessions stay too, so that the SMS they sent still count against their numbers
    /// (`verificationSessions(phoneNumber:createdSince:)`) and deleting and re-creating accounts cannot get round the
    /// throttle; only `deleteExpiredMFAState` purges them.
    @discardableResult func deleteAccount(localID: String) throws -> Bool
    /// Deletes every account of the scope with its identities, MFA enrolments and pending MFA sign-ins; refresh tokens
    /// and verification sessions stay, as for `deleteAccount`. Returns how many.
    @discardableResult func deleteAllAccounts() throws -> Int

    /// Throws `.duplicateKeyID` if the key id exists.
    func insertSigningKey(_ key: SigningKeyRecord) throws
    /// Marks a key retired. Throws `.notFound` for an unknown key id.
    func retireSigningKey(keyID: String, at seconds: Int64) throws
    /// Removes a key for good. Returns whether it existed.
    @discardableResult func deleteSigningKey(keyID: String) throws -> Bool

    /// Throws `.duplicateEmail` (dev accounts have unique emails) or `.duplicateLocalID` (subject).
    func insertDevAccount(_ account: DevIdPAccount) throws
    /// Throws `.duplicateToken` if the hash exists.
    func insertDevGrant(_ grant: DevIdPGrant) throws
    /// Deletes one grant; returns whether it existed (so a code can be consumed exactly once).
    @discardableResult func deleteDevGrant(hash: String) throws -> Bool
    /// Deletes every grant of `subject` for `clientID` (token revocation). Returns how many.
    @discardableResult func deleteDevGrants(subject: String, clientID: String) throws -> Int
    /// Deletes grants whose `expiresAt` is before `seconds`. Returns how many. (Dev IdP grants are project-wide.)
    @discardableResult func deleteExpiredDevGrants(before seconds: Int64) throws -> Int

    /// Throws `.duplicateToken` if the hash exists, `.notFound` if the account does not.
    func insertMFAPendingSignIn(_ pending: MFAPendingSignIn) throws
    /// Replaces the stored record with the same hash (to count failed attempts). Throws `.notFound`.
    func updateMFAPendingSignIn(_ pending: MFAPendingSignIn) throws
    /// Deletes one pending sign-in; returns whether it existed (so it is consumed exactly once).
    @discardableResult func deleteMFAPendingSignIn(hash: String) throws -> Bool

    /// Throws `.duplicateToken` if the hash exists, `.notFound` if the account does not (a taken hash
    /// wins if both). The session may outlive its account (see `deleteAccount`).
    func insertVerificationSession(_ session: VerificationSession) throws
    /// Replaces the stored record with the same hash (to count failed attempts, or end it), every field
    /// but the hash and `localID`: a session keeps the account it was created for, even once that
    /// account is deleted, and the `localID` passed here is ignored. So an ended session can be updated
    /// after its account is gone. Throws `.notFound` if no session has the hash.
    func updateVerificationSession(_ session: VerificationSession) throws
    /// Deletes one verification session; returns whether it existed.
    @discardableResult func deleteVerificationSession(hash: String) throws -> Bool

    /// Deletes pending sign-ins and verification sessions whose `expiresAt` is before `seconds`, except
    /// verification sessions created at or after `keepSinceMillis` (kept to throttle SMS), whether or not
    /// their account still exists. Store-wide: in every scope. Returns how many.
    @discardableResult func deleteExpiredMFAState(before seconds: Int64, keepSinceMillis: Int64) throws -> Int

    // MARK: Email action codes

    /// Stores a new action code as given (its emails lower-cased). Throws `.duplicateToken` if the hash exists.
    /// The code may name an account that does not exist (yet or any more); using it checks.
    func insertOOBCode(_ code: OOBCodeRecord) throws
    /// Deletes one action code; returns whether it existed, so that a code is consumed exactly once.
    @discardableResult func deleteOOBCode(hash: String) throws -> Bool
    /// Deletes every code that acts on the account `localID`, except those of the kind `kept` if one is given (a
    /// takeover, password or email change voids the codes issued before it). Returns how many.
    @discardableResult func deleteOOBCodes(localID: String, keeping kept: OOBCodeRecord.Kind?) throws -> Int
    /// Deletes at most `limit` codes whose `expiresAtMillis` is before `millis`, oldest first, in every scope
    /// (store-wide). Returns how many.
    @discardableResult func deleteExpiredOOBCodes(before millis: Int64, limit: Int) throws -> Int

    // MARK: Limits

    /// Stores `counter`, replacing the counter with the same key if there is one.
    func saveLimitCounter(_ counter: LimitCounter) throws
    /// Deletes the counter under `key`; returns whether it existed.
    @discardableResult func deleteLimitCounter(key: String) throws -> Bool
    /// Deletes at most `limit` counters whose `expiresAtMillis` is before `millis`, in every scope (store-wide).
    /// Returns how many.
    @discardableResult func deleteExpiredLimitCounters(before millis: Int64, limit: Int) throws -> Int

    // MARK: Sessions (refresh-token rotation)

    /// Starts a session, stored as given. Throws `.duplicateToken` if the id exists, `.notFound` if the
    /// account `session.localID` does not (a taken id wins if both).
    func insertRefreshSession(_ session: RefreshSession) throws
    /// Rotates the session `id`: its current token `currentHash` becomes `replaced` (at `millis`, with
    /// `sealedSuccessor`) and `newHash` the current one. Rewrites only that session. Throws `.notFound`
    /// unless `currentHash` is the session's current token, the session is not revoked and its account
    /// exists, so a token is replaced at most once and never for a deleted account.
    func rotateRefreshSession(
        id: String, replacing currentHash: String, with newHash: String, atMillis millis: Int64,
        sealedSuccessor: [UInt8]) throws
    /// Revokes the session (every token of it) at `millis`. Returns whether it was live.
    @discardableResult func revokeSession(_ sessionID: String, atMillis millis: Int64) throws -> Bool
    /// One bounded step of the purge of legacy refresh tokens (see `refreshSession(legacyTokenHash:)`):
    /// looks at the first `limit` of them (at least 1) whose hash sorts after `cursor` (byte order; `nil`
    /// starts at the beginning) and deletes those that can no longer tell anything: rotated (before
    /// migration 5) before `rotatedBefore`, of a session that is gone, or of a session revoked before
    /// `revokedBefore`. No new legacy tokens are ever stored, so this only shrinks. Store-wide: in every scope.
    func purgeLegacyRefreshTokens(after cursor: String?, limit: Int, rotatedBefore: Int64, revokedBefore: Int64)
        throws -> RefreshTokenPurgeStep
    /// One bounded step of the session purge, over the first `limit` sessions (at least 1) whose id sorts
    /// after `cursor`: revokes at `millis` the live ones whose account no longer exists or started before
    /// its `validSinceMillis` (so that their retention starts), and deletes those revoked before
    /// `revokedBefore` (their tokens die with them; their legacy token rows go with the next legacy purge).
    /// Store-wide: the sessions of every scope (session ids are unique across scopes), each judged by the account of
    /// its own scope.
    func purgeSessions(after cursor: String?, limit: Int, revokedBefore: Int64, atMillis millis: Int64) throws
        -> RefreshTokenPurgeStep

    // MARK: Service accounts

    /// Stores a new live account (its email lower-cased). Throws `.duplicateKeyID` if the key id exists,
    /// `.duplicateEmail` if a live account has the email.
    func insertServiceAccount(_ account: ServiceAccountRecord) throws
    /// Revokes the live account whose key is `keyID` at `seconds`. Returns whether there was one (an unknown
    /// or already revoked key is left as it is).
    @discardableResult func revokeServiceAccount(keyID: String, at seconds: Int64) throws -> Bool

    // MARK: Provider-token revocations

    /// Queues a revocation as given. Throws `.duplicateToken` if its id exists. Deleting an account queues the
    /// revocations of its identities' provider tokens through `deleteAccount(localID:queueingRevocationsAtMillis:)`.
    func enqueueProviderTokenRevocation(_ revocation: ProviderTokenRevocation) throws
    /// Records a failed attempt at `millis` on the revocation `id` (see `ProviderTokenRevocation.failed`: one more
    /// attempt, due again after the backoff, `error` kept). Returns the updated record; `nil` if there is none.
    @discardableResult func recordFailedProviderTokenRevocation(id: String, atMillis millis: Int64, error: String)
        throws -> ProviderTokenRevocation?
    /// Deletes the revocation `id` (its token is revoked); returns whether it existed.
    @discardableResult func deleteProviderTokenRevocation(id: String) throws -> Bool

    // MARK: Tenants (project-wide)

    /// Stores a new tenant as given. Throws `.duplicateTenant` if its id exists.
    func insertTenant(_ tenant: Tenant) throws
    /// Replaces the stored tenant with the same id by `tenant` (its `createdAtMillis` included). Throws `.notFound`.
    func updateTenant(_ tenant: Tenant) throws
    /// Deletes the tenant record `id`; returns whether it existed. The records of its scope stay: `TenantPurge`
    /// deletes them afterwards in batches (and the maintenance task finishes a purge that a crash interrupted).
    @discardableResult func deleteTenant(id: String) throws -> Bool
    /// Deletes at most `limit` (at least 1) of this scope's records other than accounts and audit events: refresh
    /// sessions, email action codes, verification sessions, limit counters, provider configurations and recorded SAML
    /// assertions. Returns how many; fewer than `limit`
    /// means none is left. What a tenant's purge clears before its accounts; in the project's scope it deletes
    /// nothing and returns 0.
    @discardableResult func deleteScopeState(limit: Int) throws -> Int

    // MARK: SAML assertions (scoped)

    /// Records that the assertion `assertionID` of the SAML provider `providerID` signed in, kept until
    /// `expiresAtMillis` (the assertion's own end). Returns false, changing nothing, when the scope has it already:
    /// a replay. Two concurrent first uses meet at the table's key, so exactly one returns true.
    func insertSAMLAssertion(providerID: String, assertionID: String, expiresAtMillis: Int64) throws -> Bool
    /// Deletes at most `limit` recorded assertions whose `expiresAtMillis` is before `millis`, oldest first, in every
    /// scope (store-wide). Returns how many.
    @discardableResult func deleteExpiredSAMLAssertions(before millis: Int64, limit: Int) throws -> Int

    // MARK: Provider configurations (scoped)

    /// Stores a new provider configuration as given (its client secret sealed). Throws `.duplicateProviderConfig` if
    /// the scope has one of that kind and id.
    func insertProviderConfig(_ config: ProviderConfigRecord) throws
    /// Replaces the scope's configuration of the same kind and id by `config`. Throws `.notFound`.
    func updateProviderConfig(_ config: ProviderConfigRecord) throws
    /// Deletes the scope's configuration `kind`/`id`; returns whether it existed.
    @discardableResult func deleteProviderConfig(kind: ProviderConfigRecord.Kind, id: String) throws -> Bool

    // MARK: Project configuration (scoped)

    /// Stores `config` as the scope's configuration, replacing the one it had (if any).
    func putProjectConfig(_ config: ProjectConfigRecord) throws

    // MARK: Audit log

    /// Appends an event as given. Throws `.duplicateToken` if its id exists. Its id must be
    /// `AuditEvent.newID(atMillis: event.atMillis)`: the SQL stores find `sinceMillis` by the id's time.
    func insertAuditEvent(_ event: AuditEvent) throws
    /// Deletes at most `limit` events (at least 1) whose `atMillis` is before `millis`, oldest first (retention), in
    /// every scope (store-wide). Returns how many.
    @discardableResult func deleteAuditEvents(before millis: Int64, limit: Int) throws -> Int
}

/// What one `purgeLegacyRefreshTokens` or `purgeSessions` step did, and where the next one starts.
public struct RefreshTokenPurgeStep: Sendable, Equatable {
    /// How many tokens (or sessions) were deleted.
    public var deleted: Int
    /// The last key looked at, when `limit` were looked at; `nil` when the step reached the end.
    public var next: String?

    public init(deleted: Int, next: String?) {
        self.deleted = deleted
        self.next = next
    }
}

/// Why a store operation failed. Stable codes; the description never contains stored data.
public struct StoreError: Error, Equatable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        public static let duplicateLocalID = Code("duplicateLocalID")
        public static let duplicateEmail = Code("duplicateEmail")
        public static let duplicateIdentity = Code("duplicateIdentity")
        public static let duplicateToken = Code("duplicateToken")
        public static let duplicateKeyID = Code("duplicateKeyID")
        /// An MFA enrolment id that another (or the same) account already has.
        public static let duplicateEnrollment = Code("duplicateEnrollment")
        public static let notFound = Code("notFound")
        /// The store was closed.
        public static let closed = Code("closed")
        /// The database could not be opened, read or written.
        public static let unavailable = Code("unavailable")
        /// Stored data could not be understood (for example a schema from a newer Hearth).
        public static let corrupt = Code("corrupt")
        /// A scope that cannot exist (an empty tenant id, or one too long: `StoreScope.tenant(_:)`).
        public static let invalidScope = Code("invalidScope")
        /// A tenant id that another tenant already has.
        public static let duplicateTenant = Code("duplicateTenant")
        /// A provider configuration whose kind and id the scope already has.
        public static let duplicateProviderConfig = Code("duplicateProviderConfig")
    }

    public let code: Code
    /// Operator-facing detail (never values from requests or stored secrets).
    public let detail: String

    public init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    public var description: String { detail.isEmpty ? "store: \(code)" : "store: \(code): \(detail)" }

    public static func == (lhs: StoreError, rhs: StoreError) -> Bool { lhs.code == rhs.code }
}
