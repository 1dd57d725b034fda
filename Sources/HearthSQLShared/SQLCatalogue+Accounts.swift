public import HearthCore

/// Accounts with their identities and MFA enrolments (`accounts`, `identities`, `mfa_enrollments`).
extension SQLCatalogue {
    /// In `StoredRow.account()`'s order; each is also the name of its bind (`Account.binds`).
    static let accountColumns = [
        "local_id", "email", "email_verified", "display_name", "photo_url", "phone_number", "password_hash",
        "disabled", "custom_attributes", "created_at_millis", "last_login_at_millis", "last_refresh_at_millis",
        "valid_since_millis", "is_anonymous", "password_updated_at_millis", "initial_email", "email_link_sign_in",
    ]
    /// The account columns, then whether the account has MFA enrolments.
    private static let accountSelect = """
        SELECT \(list(accountColumns.map { "a.\($0)" })),
            EXISTS (SELECT 1 FROM mfa_enrollments AS m WHERE m.tenant_id = a.tenant_id AND m.local_id = a.local_id)
        """
    /// The column of an account lookup's rows where the identity's columns start.
    static let accountIdentityColumn = accountColumns.count + 1

    /// A query of one account, as it is read, and as a `.rowLocks` writer reads it (locking the account row until
    /// the transaction ends; not its identities: they change only with the account row locked).
    struct AccountLookup: Sendable {
        let plain, locked: SQLStatement

        /// The account found by `condition` over `from` (whose accounts table is `a`), with its identities: the
        /// account columns and the MFA flag, then the columns of one identity (all NULL when it has none), a row per
        /// identity in position order, so the account and what it almost always owns come in one query.
        init(from: String, where condition: @escaping @Sendable (SQLDialect) -> String) {
            let text = { (d: SQLDialect) in
                """
                \(accountSelect), \(list(identities.columns.map { "li.\($0)" }))
                FROM \(from)
                LEFT JOIN identities AS li ON li.tenant_id = a.tenant_id AND li.local_id = a.local_id
                WHERE \(condition(d)) ORDER BY li.position
                """
            }
            plain = SQLStatement(text)
            locked = SQLStatement { d in text(d) + d.forUpdate(of: "a") }
        }
    }

    static let accountByLocalID = AccountLookup(from: "accounts AS a") { d in
        "a.tenant_id = \(d.scope) AND a.local_id = :local_id"
    }
    static let accountByEmail = AccountLookup(from: "accounts AS a") { d in
        "a.tenant_id = \(d.scope) AND a.email = :email"
    }
    static let accountByIdentity = AccountLookup(
        from: "identities AS i JOIN accounts AS a ON a.tenant_id = i.tenant_id AND a.local_id = i.local_id"
    ) { d in "i.tenant_id = \(d.scope) AND i.provider_id = :provider_id AND i.raw_id = :raw_id" }
    /// When several accounts have the number, the one whose id sorts first.
    static let accountByPhoneNumber = AccountLookup(from: "accounts AS a") { d in
        """
        a.tenant_id = \(d.scope) AND a.local_id = (
            SELECT local_id FROM accounts WHERE tenant_id = \(d.scope) AND phone_number = :phone_number
            ORDER BY local_id LIMIT 1)
        """
    }
    static let accountPage = SQLStatement { d in
        """
        \(accountSelect) FROM accounts AS a WHERE a.tenant_id = \(d.scope) AND a.local_id > :after
        ORDER BY a.local_id LIMIT :limit
        """
    }
    /// Store-wide: every scope that holds an account.
    static let scopesWithAccounts = SQLStatement { _ in "SELECT DISTINCT tenant_id FROM accounts" }
    static let accountCount = SQLStatement { d in "SELECT count(*) FROM accounts WHERE tenant_id = \(d.scope)" }
    /// By the partial index `accounts_anonymous`, in uid order.
    static let staleAnonymousAccountPage = SQLStatement { d in
        """
        SELECT local_id FROM accounts
        WHERE \(d.isTrue("is_anonymous")) AND tenant_id = \(d.scope) AND local_id > :after
            AND created_at_millis < :before ORDER BY local_id LIMIT :limit
        """
    }
    static let accountExists = SQLStatement { d in
        "SELECT 1 FROM accounts WHERE tenant_id = \(d.scope) AND local_id = :local_id"
    }
    static let insertAccount = SQLStatement { d in
        "INSERT INTO accounts (tenant_id, \(list(accountColumns))) VALUES (\(d.scope), \(binds(accountColumns)))"
    }
    static let updateAccount = SQLStatement { d in
        """
        UPDATE accounts SET \(assignments(accountColumns.dropFirst()))
        WHERE tenant_id = \(d.scope) AND local_id = :local_id
        """
    }
    static let recordRefresh = SQLStatement { d in
        "UPDATE accounts SET last_refresh_at_millis = :at WHERE tenant_id = \(d.scope) AND local_id = :local_id"
    }
    static let deleteAccount = SQLStatement { d in
        "DELETE FROM accounts WHERE tenant_id = \(d.scope) AND local_id = :local_id"
    }
    static let deleteAllAccounts = SQLStatement { d in "DELETE FROM accounts WHERE tenant_id = \(d.scope)" }

    /// What an account owns, row by row in `position` order: its linked identities and its MFA enrolments.
    struct OwnedRows: Sendable {
        /// Each is also the name of its bind; `local_id` and `position` come before them in an insert.
        let columns: [String]
        /// The rows of the account `:local_id`.
        let ofAccount: SQLStatement
        /// The rows of the accounts whose ids are after `:after` up to `:last`, each followed by its account's id.
        let ofAccountRange: SQLStatement
        let deleteOfAccount: SQLStatement
        let insert: SQLStatement

        init(table: String, columns: [String]) {
            self.columns = columns
            ofAccount = SQLStatement { d in
                "SELECT \(list(columns)) FROM \(table) WHERE tenant_id = \(d.scope) AND local_id = :local_id ORDER BY position"
            }
            ofAccountRange = SQLStatement { d in
                """
                SELECT \(list(columns)), local_id FROM \(table)
                WHERE tenant_id = \(d.scope) AND local_id > :after AND local_id <= :last ORDER BY local_id, position
                """
            }
            deleteOfAccount = SQLStatement { d in
                "DELETE FROM \(table) WHERE tenant_id = \(d.scope) AND local_id = :local_id"
            }
            insert = SQLStatement { d in
                """
                INSERT INTO \(table) (tenant_id, local_id, position, \(list(columns)))
                VALUES (\(d.scope), :local_id, :position, \(binds(columns)))
                """
            }
        }
    }

    /// In `StoredRow.linkedIdentity(sealer:)`'s order.
    static let identities = OwnedRows(
        table: "identities",
        columns: [
            "provider_id", "raw_id", "email", "display_name", "photo_url", "screen_name", "provider_refresh_token",
            "provider_client_id",
        ])
    /// In `StoredRow.mfaEnrollment(sealer:)`'s order.
    static let enrollments = OwnedRows(
        table: "mfa_enrollments",
        columns: [
            "enrollment_id", "kind", "display_name", "enrolled_at_millis", "phone_number", "totp_secret",
            "last_used_totp_step",
        ])

    static let accountLookups: [(name: String, statement: SQLStatement)] = [
        ("accountByLocalID", accountByLocalID.plain), ("accountByLocalID locked", accountByLocalID.locked),
        ("accountByEmail", accountByEmail.plain), ("accountByIdentity", accountByIdentity.plain),
        ("accountByPhoneNumber", accountByPhoneNumber.plain), ("accountPage", accountPage),
        ("staleAnonymousAccountPage", staleAnonymousAccountPage), ("accountExists", accountExists),
        ("updateAccount", updateAccount), ("recordRefresh", recordRefresh), ("deleteAccount", deleteAccount),
        ("identities of an account", identities.ofAccount),
        ("identities of a range of accounts", identities.ofAccountRange),
        ("delete the identities of an account", identities.deleteOfAccount),
        ("enrolments of an account", enrollments.ofAccount),
        ("enrolments of a range of accounts", enrollments.ofAccountRange),
        ("delete the enrolments of an account", enrollments.deleteOfAccount),
    ]
}

extension SQLStoreReading {
    public func account(localID: String) throws -> Account? {
        if let stored = snapshots?[localID] { return stored }
        return try run("account(localID:)") { try loadAccount(SQLCatalogue.accountByLocalID, ["local_id": .text(localID)]) }
    }

    public func account(email: String) throws -> Account? {
        try run("account(email:)") { try loadAccount(SQLCatalogue.accountByEmail, ["email": .text(email.lowercased())]) }
    }

    public func account(providerID: String, rawID: String) throws -> Account? {
        try run("account(providerID:rawID:)") {
            try loadAccount(SQLCatalogue.accountByIdentity, ["provider_id": .text(providerID), "raw_id": .text(rawID)])
        }
    }

    public func account(phoneNumber: String) throws -> Account? {
        try run("account(phoneNumber:)") {
            try loadAccount(SQLCatalogue.accountByPhoneNumber, ["phone_number": .text(phoneNumber)])
        }
    }

    public func accounts(after localID: String?, limit: Int) throws -> [Account] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("accounts(after:limit:)") {
            // Three queries a page: the accounts, then the identities and enrolments of its range of ids.
            let start = SQLValue.text(localID ?? "")
            var page = try query(SQLCatalogue.accountPage, ["after": start, "limit": SQLValue(limit)]) { try $0.account() }
            guard let last = page.last?.localID else { return [] }
            let range: SQLBinds = ["after": start, "last": .text(last)]
            let identities = try owned(SQLCatalogue.identities, of: range) { try $0.linkedIdentity(sealer: sealer) }
            let enrollments = try owned(SQLCatalogue.enrollments, of: range) { try $0.mfaEnrollment(sealer: sealer) }
            for index in page.indices {
                page[index].providers = identities[page[index].localID] ?? []
                page[index].mfaEnrollments = enrollments[page[index].localID] ?? []
            }
            return page
        }
    }

    /// The rows of `owned` (identities or enrolments) of the accounts in `range`, decoded, by account id.
    private func owned<T>(_ owned: SQLCatalogue.OwnedRows, of range: SQLBinds, _ decode: (Row) throws -> T) throws
        -> [String: [T]]
    {
        let pairs = try query(owned.ofAccountRange, range) { (try $0.requiredText(owned.columns.count), try decode($0)) }
        return Dictionary(grouping: pairs, by: \.0).mapValues { $0.map(\.1) }
    }

    public func scopes() throws -> [StoreScope] {
        try run("scopes") {
            let tenants = try query(SQLCatalogue.scopesWithAccounts) { StoreScope(storedTenantID: try $0.requiredText(0)) }
            return StoreScope.ordered(Set(tenants).union([.project]))
        }
    }

    public func accountCount() throws -> Int {
        try run("accountCount") { Int(try queryFirst(SQLCatalogue.accountCount) { try $0.requiredInt64(0) } ?? 0) }
    }

    public func anonymousAccountIDs(createdBefore millis: Int64, after localID: String?, limit: Int) throws -> [String] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("anonymousAccountIDs") {
            try query(
                SQLCatalogue.staleAnonymousAccountPage,
                ["after": .text(localID ?? ""), "before": .integer(millis), "limit": SQLValue(limit)]
            ) { try $0.requiredText(0) }
        }
    }

    /// Loads the account `lookup` finds, with its identities and (only if it has any, which the lookup's MFA flag
    /// tells) its MFA enrolments; in a `.rowLocks` writer, the account row is locked first.
    private func loadAccount(_ lookup: SQLCatalogue.AccountLookup, _ binds: SQLBinds) throws -> Account? {
        var found: (account: Account, hasEnrollments: Bool)?
        let providers = try query(locksRows ? lookup.locked : lookup.plain, binds) { row -> LinkedIdentity? in
            if found == nil {
                found = (try row.account(), try row.requiredBool(SQLCatalogue.accountColumns.count))
            }
            let identity = ColumnsFrom(row, SQLCatalogue.accountIdentityColumn)
            guard identity.text(0) != nil else { return nil }  // the account has no identity
            return try identity.linkedIdentity(sealer: sealer)
        }
        guard let (loaded, hasEnrollments) = found else { return nil }
        var account = loaded
        account.providers = providers.compactMap { $0 }
        if hasEnrollments {
            account.mfaEnrollments = try query(SQLCatalogue.enrollments.ofAccount, ["local_id": .text(account.localID)]) {
                try $0.mfaEnrollment(sealer: sealer)
            }
        }
        snapshots?.remember(account)
        return account
    }
}

extension SQLStoreWriting {
    public func insertAccount(_ account: Account) throws {
        try run("insertAccount") {
            try savepoint {
                try execute(SQLCatalogue.insertAccount, account.binds) { violation in
                    guard violation.isTaken else { return nil }
                    // Which unique key the engine checks first is its business; a taken local id wins.
                    let taken = try exists(SQLCatalogue.accountExists, ["local_id": .text(account.localID)])
                    return taken ? .duplicateLocalID : .duplicateEmail
                }
                try insertIdentities(of: account)
                try insertEnrollments(of: account)
            }
            snapshots?.remember(account)
        }
    }

    public func updateAccount(_ account: Account) throws {
        try run("updateAccount") {
            try savepoint {
                let changed = try execute(SQLCatalogue.updateAccount, account.binds) { $0 == .unique ? .duplicateEmail : nil }
                guard changed > 0 else { throw StoreError(.notFound) }
                // Only the owned rows that changed since this transaction last saw them are written again.
                let rewrites = snapshots?.rewrites(account) ?? (identities: true, enrollments: true)
                let owner: SQLBinds = ["local_id": .text(account.localID)]
                if rewrites.identities {
                    try execute(SQLCatalogue.identities.deleteOfAccount, owner)
                    try insertIdentities(of: account)
                }
                if rewrites.enrollments {
                    try execute(SQLCatalogue.enrollments.deleteOfAccount, owner)
                    try insertEnrollments(of: account)
                }
            }
            snapshots?.remember(account)
        }
    }

    private func insertIdentities(of account: Account) throws {
        for (position, identity) in account.providers.enumerated() {
            try execute(SQLCatalogue.identities.insert, try identity.binds(of: account, at: position, self)) {
                $0 == .unique ? .duplicateIdentity : nil
            }
        }
    }

    /// Enrolment ids are unique across the accounts of a scope, so any unique-key clash here is a taken id (the
    /// account's own old rows are deleted first).
    private func insertEnrollments(of account: Account) throws {
        for (position, enrollment) in account.mfaEnrollments.enumerated() {
            try execute(SQLCatalogue.enrollments.insert, try enrollment.binds(of: account, at: position, self)) {
                $0 == .unique ? .duplicateEnrollment : nil
            }
        }
    }

    public func recordRefresh(localID: String, atMillis: Int64) throws {
        try run("recordRefresh") {
            try execute(SQLCatalogue.recordRefresh, ["at": .integer(atMillis), "local_id": .text(localID)])
            snapshots?.recordRefresh(localID: localID, atMillis: atMillis)
        }
    }

    /// Identities, MFA enrolments and pending MFA sign-ins go with it (ON DELETE CASCADE); refresh sessions and
    /// verification sessions stay (see StoreWriter).
    @discardableResult
    public func deleteAccount(localID: String) throws -> Bool {
        try run("deleteAccount") {
            snapshots?.forget(localID: localID)
            return try execute(SQLCatalogue.deleteAccount, ["local_id": .text(localID)]) > 0
        }
    }

    @discardableResult
    public func deleteAllAccounts() throws -> Int {
        try run("deleteAllAccounts") {
            snapshots?.forgetAll()
            return try execute(SQLCatalogue.deleteAllAccounts)
        }
    }
}
