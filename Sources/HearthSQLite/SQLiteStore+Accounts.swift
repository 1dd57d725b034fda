import HearthCore
import HearthSQLShared
import SQLite

/// Accounts with their identities and MFA enrolments (`accounts`, `identities`, `mfa_enrollments`).
extension SQLiteStoreReader {
    // MARK: Accounts

    final func account(localID: String) throws -> Account? {
        if let stored = snapshots?[localID] { return stored }
        return try run("account(localID:)") {
            try loadAccount(SQL.accountByLocalID, [.text(localID)])
        }
    }

    final func account(email: String) throws -> Account? {
        try run("account(email:)") {
            try loadAccount(SQL.accountByEmail, [.text(email.lowercased())])
        }
    }

    final func account(providerID: String, rawID: String) throws -> Account? {
        try run("account(providerID:rawID:)") {
            try loadAccount(SQL.accountByIdentity, [.text(providerID), .text(rawID)])
        }
    }

    final func account(phoneNumber: String) throws -> Account? {
        try run("account(phoneNumber:)") {
            try loadAccount(SQL.accountByPhoneNumber, [.text(phoneNumber)])
        }
    }

    final func accounts(after localID: String?, limit: Int) throws -> [Account] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("accounts(after:limit:)") {
            let page = try connection.queryAll(SQL.accountPage, [.text(localID ?? ""), .integer(Int64(limit))]) {
                try $0.requiredText(0)
            }
            return try page.compactMap { try loadAccount(SQL.accountByLocalID, [.text($0)]) }
        }
    }

    final func scopes() throws -> [StoreScope] {
        try run("scopes") {
            let tenants = try connection.queryAll(SQL.scopesWithAccounts) { StoreScope(storedTenantID: try $0.requiredText(0)) }
            return StoreScope.ordered(Set(tenants).union([.project]))
        }
    }

    final func accountCount() throws -> Int {
        try run("accountCount") {
            try connection.queryFirst(SQL.accountCount) { try $0.requiredInt64(0) }.map { Int($0) } ?? 0
        }
    }

    final func anonymousAccountIDs(createdBefore millis: Int64, after localID: String?, limit: Int) throws -> [String] {
        precondition(limit >= 1, "a page needs a limit of at least 1")
        return try run("anonymousAccountIDs") {
            try connection.queryAll(
                SQL.staleAnonymousAccountPage, [.text(localID ?? ""), .integer(millis), .integer(Int64(limit))]
            ) { try $0.requiredText(0) }
        }
    }

    /// Loads the account the query finds, with its identities and (only if it has any, which the
    /// account query's last column tells, sparing most loads a statement) its MFA enrolments.
    private func loadAccount(_ sql: String, _ values: [SQLiteValue]) throws -> Account? {
        let found = try connection.queryFirst(sql, values) { row in
            (try row.account(), try row.requiredBool(SQL.accountColumns.count))
        }
        guard let (loaded, hasEnrollments) = found else { return nil }
        var account = loaded
        account.providers = try connection.queryAll(SQL.identitiesOfAccount, [.text(account.localID)]) {
            try $0.linkedIdentity(sealer: sealer)
        }
        if hasEnrollments {
            account.mfaEnrollments = try connection.queryAll(SQL.enrollmentsOfAccount, [.text(account.localID)]) {
                try $0.mfaEnrollment(sealer: sealer)
            }
        }
        snapshots?.remember(account)
        return account
    }
}

extension SQLiteStoreWriter {
    // MARK: Accounts

    func insertAccount(_ account: Account) throws {
        try run("insertAccount") {
            try connection.savepoint {
                do {
                    try execute(SQL.insertAccount, Self.accountValues(account))
                } catch SQLiteError.ResultCode.constraint {
                    // Which unique key SQLite checks first is its business; a taken local id wins.
                    throw StoreError(try exists(SQL.accountExists, account.localID) ? .duplicateLocalID : .duplicateEmail)
                }
                try insertIdentities(of: account)
                try insertEnrollments(of: account)
            }
            snapshots?.remember(account)
        }
    }

    func updateAccount(_ account: Account) throws {
        try run("updateAccount") {
            try connection.savepoint {
                // Same columns as the insert, with local_id moved to the WHERE clause.
                var values = Self.accountValues(account)
                values.append(values.removeFirst())
                let changed = try execute(SQL.updateAccount, values) { code in
                    code == .constraintUnique ? .duplicateEmail : nil
                }
                guard changed > 0 else { throw StoreError(.notFound) }
                // Only the owned rows that changed since this transaction last saw them are written again.
                let rewrites = snapshots?.rewrites(account) ?? (identities: true, enrollments: true)
                if rewrites.identities {
                    try execute(SQL.deleteIdentitiesOfAccount, [.text(account.localID)])
                    try insertIdentities(of: account)
                }
                if rewrites.enrollments {
                    try execute(SQL.deleteEnrollmentsOfAccount, [.text(account.localID)])
                    try insertEnrollments(of: account)
                }
            }
            snapshots?.remember(account)
        }
    }

    private func insertIdentities(of account: Account) throws {
        for (position, identity) in account.providers.enumerated() {
            try execute(
                SQL.insertIdentity,
                [
                    .text(account.localID), .integer(Int64(position)), .text(identity.providerID),
                    .text(identity.rawID), SQLiteValue(identity.email), SQLiteValue(identity.displayName),
                    SQLiteValue(identity.photoURL), SQLiteValue(identity.screenName),
                    try sealedValue(
                        identity.providerRefreshToken.map { Array($0.token.utf8) },
                        .providerRefreshToken(providerID: identity.providerID, rawID: identity.rawID)),
                    SQLiteValue(identity.providerRefreshToken?.clientID),
                ]
            ) { code in code == .constraintUnique ? .duplicateIdentity : nil }
        }
    }

    /// Enrolment ids are unique across the accounts of a scope, so any unique-key clash here is a taken id (the
    /// account's own old rows are deleted first).
    private func insertEnrollments(of account: Account) throws {
        for (position, enrollment) in account.mfaEnrollments.enumerated() {
            try execute(
                SQL.insertEnrollment,
                [
                    .text(account.localID), .integer(Int64(position)), .text(enrollment.enrollmentID),
                    .text(enrollment.kind.rawValue), SQLiteValue(enrollment.displayName),
                    .integer(enrollment.enrolledAtMillis), SQLiteValue(enrollment.phoneNumber),
                    try sealedValue(
                        enrollment.totpSecret, SecretField(.mfaEnrollmentTOTPSecret, recordID: enrollment.enrollmentID)),
                    SQLiteValue(enrollment.lastUsedTOTPStep),
                ]
            ) { code in code == .constraintUnique ? .duplicateEnrollment : nil }
        }
    }

    /// The values of `SQL.insertAccount`, in its column order; the email lower-cased.
    private static func accountValues(_ account: Account) -> [SQLiteValue] {
        [
            .text(account.localID), SQLiteValue(account.email?.lowercased()), SQLiteValue(account.emailVerified),
            SQLiteValue(account.displayName), SQLiteValue(account.photoURL), SQLiteValue(account.phoneNumber),
            SQLiteValue(account.passwordHash), SQLiteValue(account.disabled), SQLiteValue(account.customAttributes),
            .integer(account.createdAtMillis), SQLiteValue(account.lastLoginAtMillis),
            SQLiteValue(account.lastRefreshAtMillis), .integer(account.validSinceMillis), SQLiteValue(account.isAnonymous),
            SQLiteValue(account.passwordUpdatedAtMillis), SQLiteValue(account.initialEmail),
            SQLiteValue(account.emailLinkSignIn),
        ]
    }

    func recordRefresh(localID: String, atMillis: Int64) throws {
        try run("recordRefresh") {
            try execute(SQL.recordRefresh, [.integer(atMillis), .text(localID)])
            snapshots?.recordRefresh(localID: localID, atMillis: atMillis)
        }
    }

    @discardableResult
    func deleteAccount(localID: String) throws -> Bool {
        // Identities, MFA enrolments and pending MFA sign-ins go with it (ON DELETE CASCADE); refresh
        // tokens and verification sessions stay (see StoreWriter).
        try run("deleteAccount") {
            snapshots?.forget(localID: localID)
            return try execute(SQL.deleteAccount, [.text(localID)]) > 0
        }
    }

    @discardableResult
    func deleteAllAccounts() throws -> Int {
        try run("deleteAllAccounts") {
            snapshots?.forgetAll()
            return try execute(SQL.deleteAllAccounts, [])
        }
    }
}

extension SQL {
    static let accountColumns = [
        "local_id", "email", "email_verified", "display_name", "photo_url", "phone_number", "password_hash",
        "disabled", "custom_attributes", "created_at_millis", "last_login_at_millis", "last_refresh_at_millis",
        "valid_since_millis", "is_anonymous", "password_updated_at_millis", "initial_email", "email_link_sign_in",
    ]
    /// The account columns, then whether the account has MFA enrolments.
    private static let accountSelect = """
        SELECT \(accountColumns.map { "a.\($0)" }.joined(separator: ", ")),
            EXISTS (SELECT 1 FROM mfa_enrollments AS m WHERE m.tenant_id = a.tenant_id AND m.local_id = a.local_id)
        """

    static let accountByLocalID = "\(accountSelect) FROM accounts AS a WHERE a.tenant_id = hearth_tenant() AND a.local_id = ?"
    static let accountByEmail = "\(accountSelect) FROM accounts AS a WHERE a.tenant_id = hearth_tenant() AND a.email = ?"
    static let accountByIdentity = """
        \(accountSelect)
        FROM identities AS i JOIN accounts AS a ON a.tenant_id = i.tenant_id AND a.local_id = i.local_id
        WHERE i.tenant_id = hearth_tenant() AND i.provider_id = ? AND i.raw_id = ?
        """
    static let accountByPhoneNumber = """
        \(accountSelect) FROM accounts AS a WHERE a.tenant_id = hearth_tenant() AND a.phone_number = ? ORDER BY a.local_id LIMIT 1
        """
    static let accountPage = """
        SELECT local_id FROM accounts WHERE tenant_id = hearth_tenant() AND local_id > ? ORDER BY local_id LIMIT ?
        """
    /// Store-wide: every scope that holds an account.
    static let scopesWithAccounts = "SELECT DISTINCT tenant_id FROM accounts"
    static let accountCount = "SELECT count(*) FROM accounts WHERE tenant_id = hearth_tenant()"
    /// By the partial index `accounts_anonymous`, in uid order.
    static let staleAnonymousAccountPage = """
        SELECT local_id FROM accounts
        WHERE is_anonymous = 1 AND tenant_id = hearth_tenant() AND local_id > ?1 AND created_at_millis < ?2 ORDER BY local_id LIMIT ?3
        """
    static let accountExists = "SELECT 1 FROM accounts WHERE tenant_id = hearth_tenant() AND local_id = ?"
    static let identitiesOfAccount = """
        SELECT provider_id, raw_id, email, display_name, photo_url, screen_name, provider_refresh_token,
            provider_client_id
        FROM identities WHERE tenant_id = hearth_tenant() AND local_id = ? ORDER BY position
        """
    static let insertAccount = """
        INSERT INTO accounts (tenant_id, \(accountColumns.joined(separator: ", ")))
        VALUES (hearth_tenant(), \(Array(repeating: "?", count: accountColumns.count).joined(separator: ", ")))
        """
    static let updateAccount = """
        UPDATE accounts SET \(accountColumns.dropFirst().map { "\($0) = ?" }.joined(separator: ", "))
        WHERE tenant_id = hearth_tenant() AND local_id = ?
        """
    static let recordRefresh = "UPDATE accounts SET last_refresh_at_millis = ? WHERE tenant_id = hearth_tenant() AND local_id = ?"
    static let deleteAccount = "DELETE FROM accounts WHERE tenant_id = hearth_tenant() AND local_id = ?"
    static let deleteAllAccounts = "DELETE FROM accounts WHERE tenant_id = hearth_tenant()"

    static let deleteIdentitiesOfAccount = "DELETE FROM identities WHERE tenant_id = hearth_tenant() AND local_id = ?"
    static let insertIdentity = """
        INSERT INTO identities (tenant_id, local_id, position, provider_id, raw_id, email, display_name, photo_url,
            screen_name, provider_refresh_token, provider_client_id)
        VALUES (hearth_tenant(), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static let enrollmentsOfAccount = """
        SELECT enrollment_id, kind, display_name, enrolled_at_millis, phone_number, totp_secret, last_used_totp_step
        FROM mfa_enrollments WHERE tenant_id = hearth_tenant() AND local_id = ? ORDER BY position
        """
    static let deleteEnrollmentsOfAccount = "DELETE FROM mfa_enrollments WHERE tenant_id = hearth_tenant() AND local_id = ?"
    static let insertEnrollment = """
        INSERT INTO mfa_enrollments (tenant_id, local_id, position, enrollment_id, kind, display_name,
            enrolled_at_millis, phone_number, totp_secret, last_used_totp_step)
        VALUES (hearth_tenant(), ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
}
