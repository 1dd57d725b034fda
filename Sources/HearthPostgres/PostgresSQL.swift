/// Every statement `PostgresStore` runs. Values only ever reach PostgreSQL as bound `$n` parameters; statements are
/// prepared once per connection (unnamed, behind a pooler in transaction mode: see `PostgresConnection`).
enum PostgresSQL {
    /// `$1, $2, …, $count`.
    static func parameters(_ count: Int) -> String {
        (1...count).map { "$\($0)" }.joined(separator: ", ")
    }

    /// `a = $1, b = $2, …`: the SET list of an update whose key is the last parameter.
    private static func assignments(_ columns: some Sequence<String>) -> String {
        columns.enumerated().map { "\($1) = $\($0 + 1)" }.joined(separator: ", ")
    }

    /// The scope of the transaction (`StoreScope.tenantID`): `PostgresStore` sets `hearth.tenant` for the transaction
    /// when it acts in a tenant; unset, it is the project (`''`). Stable within a statement, so indexes serve it.
    static let scope = "coalesce(current_setting('hearth.tenant', true), '')"
    /// Sets `hearth.tenant` to $1 until the transaction ends.
    static let enterScope = "SELECT set_config('hearth.tenant', $1, true)"
    /// Store-wide: every scope that holds an account.
    static let scopesWithAccounts = "SELECT DISTINCT tenant_id FROM accounts"

    // MARK: Accounts

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
    /// One account, found by `condition` over `from` (whose accounts table is `a`), with its identities: the account
    /// columns and the MFA flag, then the columns of one identity (all NULL when it has none), a row per identity in
    /// position order, so the account and what it almost always owns come in one round trip.
    private static func accountWithIdentities(from: String, where condition: String) -> String {
        """
        \(accountSelect), \(identities.columns.map { "li.\($0)" }.joined(separator: ", "))
        FROM \(from)
        LEFT JOIN identities AS li ON li.tenant_id = a.tenant_id AND li.local_id = a.local_id
        WHERE \(condition) ORDER BY li.position
        """
    }
    /// The column of the single-account queries below where the first identity's columns start.
    static let accountIdentityColumn = accountColumns.count + 1
    static let accountByLocalID = accountWithIdentities(
        from: "accounts AS a", where: "a.tenant_id = \(scope) AND a.local_id = $1")
    static let accountByEmail = accountWithIdentities(
        from: "accounts AS a", where: "a.tenant_id = \(scope) AND a.email = $1")
    static let accountByIdentity = accountWithIdentities(
        from: "identities AS i JOIN accounts AS a ON a.tenant_id = i.tenant_id AND a.local_id = i.local_id",
        where: "i.tenant_id = \(scope) AND i.provider_id = $1 AND i.raw_id = $2")
    /// When several accounts have the number, the one whose id sorts first.
    static let accountByPhoneNumber = accountWithIdentities(
        from: "accounts AS a",
        where: """
            a.tenant_id = \(scope) AND a.local_id = (
                SELECT local_id FROM accounts WHERE tenant_id = \(scope) AND phone_number = $1 ORDER BY local_id LIMIT 1)
            """)
    static let accountPage = """
        \(accountSelect) FROM accounts AS a WHERE a.tenant_id = \(scope) AND a.local_id > $1 ORDER BY a.local_id LIMIT $2
        """
    /// A single-account query (one of the above, whose accounts table is `a`) that also locks the account row it
    /// finds until the transaction ends (not its identities: they change only with the account row locked).
    static func forUpdate(ofAccount query: String) -> String { "\(query) FOR UPDATE OF a" }
    static let accountCount = "SELECT count(*) FROM accounts WHERE tenant_id = \(scope)"
    /// By the partial index `accounts_anonymous`, in uid order.
    static let staleAnonymousAccountPage = """
        SELECT local_id FROM accounts
        WHERE is_anonymous AND tenant_id = \(scope) AND local_id > $1 AND created_at_millis < $2 ORDER BY local_id LIMIT $3
        """
    static let accountExists = "SELECT 1 FROM accounts WHERE tenant_id = \(scope) AND local_id = $1"
    static let insertAccount = """
        INSERT INTO accounts (tenant_id, \(accountColumns.joined(separator: ", ")))
        VALUES (\(scope), \(parameters(accountColumns.count)))
        """
    static let updateAccount = """
        UPDATE accounts SET \(assignments(accountColumns.dropFirst())) WHERE tenant_id = \(scope) AND local_id = $\(accountColumns.count)
        """
    static let recordRefresh = "UPDATE accounts SET last_refresh_at_millis = $1 WHERE tenant_id = \(scope) AND local_id = $2"
    static let deleteAccount = "DELETE FROM accounts WHERE tenant_id = \(scope) AND local_id = $1"
    static let deleteAllAccounts = "DELETE FROM accounts WHERE tenant_id = \(scope)"

    /// What an account owns, row by row in `position` order: its linked identities and its MFA enrolments.
    struct OwnedRows {
        let columns: [String]
        /// The rows of the account $1.
        let ofAccount: String
        /// The rows of the accounts whose ids are after $1 up to $2, each followed by its account's id.
        let ofAccountRange: String
        let deleteOfAccount: String
        /// The account's id and the row's position, then `columns`.
        let insert: String

        init(table: String, columns: [String]) {
            let list = columns.joined(separator: ", ")
            self.columns = columns
            ofAccount = "SELECT \(list) FROM \(table) WHERE tenant_id = \(scope) AND local_id = $1 ORDER BY position"
            ofAccountRange = """
                SELECT \(list), local_id FROM \(table)
                WHERE tenant_id = \(scope) AND local_id > $1 AND local_id <= $2 ORDER BY local_id, position
                """
            deleteOfAccount = "DELETE FROM \(table) WHERE tenant_id = \(scope) AND local_id = $1"
            insert = """
                INSERT INTO \(table) (tenant_id, local_id, position, \(list)) VALUES (\(scope), \(parameters(columns.count + 2)))
                """
        }
    }

    static let identities = OwnedRows(
        table: "identities",
        columns: [
            "provider_id", "raw_id", "email", "display_name", "photo_url", "screen_name", "provider_refresh_token",
            "provider_client_id",
        ])
    static let enrollments = OwnedRows(
        table: "mfa_enrollments",
        columns: [
            "enrollment_id", "kind", "display_name", "enrolled_at_millis", "phone_number", "totp_secret",
            "last_used_totp_step",
        ])

    // MARK: Sessions

    /// Every column of `refresh_sessions` with its type, in `RefreshSession`'s order (`replaced` last, as three).
    private static let refreshSessionTypedColumns = [
        ("session_id", "text"), ("local_id", "text"), ("sign_in_provider", "text"), ("auth_time", "bigint"),
        ("second_factor", "text"), ("second_factor_identifier", "text"), ("session_claims", "text"),
        ("started_at_millis", "bigint"), ("revoked_at_millis", "bigint"), ("current_token_hash", "text"),
        ("replaced_token_hash", "text"), ("replaced_at_millis", "bigint"), ("sealed_successor", "bytea"),
    ]
    private static let refreshSessionColumns = refreshSessionTypedColumns.map(\.0).joined(separator: ", ")
    static let refreshSessionByID = "SELECT \(refreshSessionColumns) FROM refresh_sessions WHERE tenant_id = \(scope) AND session_id = $1"
    static let refreshSessionByIDForUpdate = "\(refreshSessionByID) FOR UPDATE"
    static let refreshSessionPage = """
        SELECT \(refreshSessionColumns) FROM refresh_sessions WHERE tenant_id = \(scope) AND session_id > $1
        ORDER BY session_id LIMIT $2
        """
    static let refreshSessionExists = "SELECT 1 FROM refresh_sessions WHERE session_id = $1"
    /// Inserts only if the account $2 exists (no foreign key: sessions outlive their account).
    static let insertRefreshSession = insertIfAccountExists(
        table: "refresh_sessions", typedColumns: refreshSessionTypedColumns, localIDParameter: 2)
    /// Only from the current token $5 of a live session whose account exists.
    static let rotateRefreshSession = """
        UPDATE refresh_sessions
        SET current_token_hash = $1, replaced_token_hash = current_token_hash, replaced_at_millis = $2,
            sealed_successor = $3
        WHERE tenant_id = \(scope) AND session_id = $4 AND current_token_hash = $5 AND revoked_at_millis IS NULL
            AND EXISTS (
                SELECT 1 FROM accounts
                WHERE accounts.tenant_id = refresh_sessions.tenant_id AND accounts.local_id = refresh_sessions.local_id)
        """
    static let liveSessionIDs = """
        SELECT session_id FROM refresh_sessions WHERE tenant_id = \(scope) AND local_id = $1 AND revoked_at_millis IS NULL
        ORDER BY started_at_millis DESC, session_id DESC OFFSET $2
        """
    static let revokeSession = """
        UPDATE refresh_sessions SET revoked_at_millis = $1
        WHERE tenant_id = \(scope) AND session_id = $2 AND revoked_at_millis IS NULL
        """
    static let sessionPage = "SELECT session_id FROM refresh_sessions WHERE session_id > $1 ORDER BY session_id LIMIT $2"
    /// Revokes (at $3) the live sessions of one page (ids after $1 up to $2) whose account is gone or revoked them
    /// by `validSince`.
    static let revokeDeadSessions = """
        UPDATE refresh_sessions AS s SET revoked_at_millis = $3
        WHERE s.session_id > $1 AND s.session_id <= $2 AND s.revoked_at_millis IS NULL
            AND NOT EXISTS (
                SELECT 1 FROM accounts AS a
                WHERE a.tenant_id = s.tenant_id AND a.local_id = s.local_id AND s.started_at_millis >= a.valid_since_millis)
        """
    static let purgeSessions = """
        DELETE FROM refresh_sessions WHERE session_id > $1 AND session_id <= $2 AND revoked_at_millis < $3
        """

    /// `INSERT … SELECT` of one row, typed by `typedColumns`, only if the account named by parameter
    /// `localIDParameter` exists. Inserts nothing otherwise.
    private static func insertIfAccountExists(
        table: String, typedColumns: [(String, String)], localIDParameter: Int
    ) -> String {
        """
        INSERT INTO \(table) (tenant_id, \(typedColumns.map(\.0).joined(separator: ", ")))
        SELECT \(scope), \(typedColumns.enumerated().map { "$\($0 + 1)::\($1.1)" }.joined(separator: ", "))
        WHERE EXISTS (SELECT 1 FROM accounts WHERE tenant_id = \(scope) AND local_id = $\(localIDParameter))
        """
    }

    // MARK: Signing keys

    static let signingKeys = """
        SELECT key_id, algorithm, private_key_pem, created_at, retired_at FROM signing_keys ORDER BY created_at, seq
        """
    static let insertSigningKey = """
        INSERT INTO signing_keys (key_id, algorithm, private_key_pem, created_at, retired_at) VALUES (\(parameters(5)))
        """
    static let retireSigningKey = "UPDATE signing_keys SET retired_at = $1 WHERE key_id = $2"
    static let deleteSigningKey = "DELETE FROM signing_keys WHERE key_id = $1"

    // MARK: Dev IdP

    private static let devAccountSelect = """
        SELECT subject, email, email_verified, name, given_name, family_name, picture_url, hosted_domain, locale,
            created_at_millis
        FROM dev_accounts
        """
    static let devAccounts = "\(devAccountSelect) ORDER BY created_at_millis, seq"
    static let devAccountBySubject = "\(devAccountSelect) WHERE subject = $1"
    static let devAccountByEmail = "\(devAccountSelect) WHERE email = $1"
    static let devAccountExists = "SELECT 1 FROM dev_accounts WHERE subject = $1"
    static let insertDevAccount = """
        INSERT INTO dev_accounts (subject, email, email_verified, name, given_name, family_name, picture_url,
            hosted_domain, locale, created_at_millis)
        VALUES (\(parameters(10)))
        """

    static let devGrantByHash = """
        SELECT token_hash, kind, subject, client_id, scope, redirect_uri, code_challenge, nonce, audience,
            expires_at, created_at
        FROM dev_grants WHERE token_hash = $1
        """
    static let insertDevGrant = """
        INSERT INTO dev_grants (token_hash, kind, subject, client_id, scope, redirect_uri, code_challenge, nonce,
            audience, expires_at, created_at)
        VALUES (\(parameters(11)))
        """
    static let deleteDevGrant = "DELETE FROM dev_grants WHERE token_hash = $1"
    static let deleteDevGrantsOfClient = "DELETE FROM dev_grants WHERE subject = $1 AND client_id = $2"
    static let deleteExpiredDevGrants = "DELETE FROM dev_grants WHERE expires_at < $1"

    // MARK: MFA

    private static let mfaPendingSignInColumns = [
        "credential_hash", "local_id", "sign_in_provider", "expires_at", "failed_attempts", "created_at_millis",
    ]
    static let mfaPendingSignInByHash = """
        SELECT \(mfaPendingSignInColumns.joined(separator: ", ")) FROM mfa_pending_sign_ins
        WHERE tenant_id = \(scope) AND credential_hash = $1
        """
    static let insertMFAPendingSignIn = """
        INSERT INTO mfa_pending_sign_ins (tenant_id, \(mfaPendingSignInColumns.joined(separator: ", ")))
        VALUES (\(scope), \(parameters(mfaPendingSignInColumns.count)))
        """
    static let updateMFAPendingSignIn = """
        UPDATE mfa_pending_sign_ins SET \(assignments(mfaPendingSignInColumns.dropFirst()))
        WHERE tenant_id = \(scope) AND credential_hash = $\(mfaPendingSignInColumns.count)
        """
    static let deleteMFAPendingSignIn = "DELETE FROM mfa_pending_sign_ins WHERE tenant_id = \(scope) AND credential_hash = $1"
    static let deleteExpiredMFAPendingSignIns = "DELETE FROM mfa_pending_sign_ins WHERE expires_at < $1"

    private static let verificationSessionTypedColumns = [
        ("session_hash", "text"), ("purpose", "text"), ("local_id", "text"), ("phone_number", "text"),
        ("code_hash", "text"), ("totp_secret", "bytea"), ("pending_credential_hash", "text"),
        ("enrollment_id", "text"), ("failed_attempts", "integer"), ("expires_at", "bigint"),
        ("created_at_millis", "bigint"), ("verified_at_millis", "bigint"),
    ]
    private static let verificationSessionColumns = verificationSessionTypedColumns.map(\.0)
    static let verificationSessionByHash = """
        SELECT \(verificationSessionColumns.joined(separator: ", ")) FROM verification_sessions
        WHERE tenant_id = \(scope) AND session_hash = $1
        """
    static let verificationSessionExists = "SELECT 1 FROM verification_sessions WHERE session_hash = $1"
    /// Where `local_id` is in the columns (and so in the values of an insert).
    static let verificationSessionLocalIDIndex = verificationSessionColumns.firstIndex(of: "local_id")!
    /// Inserts only if the account exists (no foreign key: sessions outlive their account).
    static let insertVerificationSession = insertIfAccountExists(
        table: "verification_sessions", typedColumns: verificationSessionTypedColumns,
        localIDParameter: verificationSessionLocalIDIndex + 1)
    /// Every column but the key and `local_id`, which an update never changes; the key is the last parameter.
    static let updateVerificationSession = {
        let changed = verificationSessionColumns.dropFirst().filter { $0 != "local_id" }
        return """
            UPDATE verification_sessions SET \(assignments(changed)) WHERE tenant_id = \(scope) AND session_hash = $\(changed.count + 1)
            """
    }()
    static let deleteVerificationSession = "DELETE FROM verification_sessions WHERE tenant_id = \(scope) AND session_hash = $1"
    static let verificationSessionsOfNumber = """
        SELECT \(verificationSessionColumns.joined(separator: ", ")) FROM verification_sessions
        WHERE tenant_id = \(scope) AND phone_number = $1 AND created_at_millis >= $2 ORDER BY created_at_millis, session_hash
        """
    static let deleteExpiredVerificationSessions = """
        DELETE FROM verification_sessions WHERE expires_at < $1 AND created_at_millis < $2
        """

    // MARK: Limits

    static let limitCounterByKey = """
        SELECT key, window_start_millis, count, streak, lockouts, locked_until_millis, expires_at_millis
        FROM limit_counters WHERE tenant_id = \(scope) AND key = $1
        """
    static let saveLimitCounter = """
        INSERT INTO limit_counters (tenant_id, key, window_start_millis, count, streak, lockouts, locked_until_millis,
            expires_at_millis)
        VALUES (\(scope), \(parameters(7)))
        ON CONFLICT (tenant_id, key) DO UPDATE SET window_start_millis = EXCLUDED.window_start_millis, count = EXCLUDED.count,
            streak = EXCLUDED.streak, lockouts = EXCLUDED.lockouts, locked_until_millis = EXCLUDED.locked_until_millis,
            expires_at_millis = EXCLUDED.expires_at_millis
        """
    static let deleteLimitCounter = "DELETE FROM limit_counters WHERE tenant_id = \(scope) AND key = $1"
    /// Oldest first, at most $2 rows, so one purge never holds locks long.
    static let deleteExpiredLimitCounters = """
        DELETE FROM limit_counters WHERE (tenant_id, key) IN (
            SELECT tenant_id, key FROM limit_counters WHERE expires_at_millis < $1 ORDER BY expires_at_millis LIMIT $2)
        """

    // MARK: Service accounts

    private static let serviceAccountSelect = """
        SELECT key_id, email, client_id, public_key_pem, created_at, revoked_at FROM service_accounts
        """
    static let serviceAccounts = "\(serviceAccountSelect) ORDER BY created_at, seq"
    static let serviceAccountByKeyID = "\(serviceAccountSelect) WHERE key_id = $1"
    static let liveServiceAccountByEmail = "\(serviceAccountSelect) WHERE email = $1 AND revoked_at IS NULL"
    static let insertServiceAccount = """
        INSERT INTO service_accounts (key_id, email, client_id, public_key_pem, created_at, revoked_at)
        VALUES (\(parameters(6)))
        """
    static let revokeServiceAccount = """
        UPDATE service_accounts SET revoked_at = $1 WHERE key_id = $2 AND revoked_at IS NULL
        """

    // MARK: Provider-token revocations

    private static let providerTokenRevocationColumns = [
        "revocation_id", "provider_id", "client_id", "token", "token_type_hint", "local_id", "created_at_millis",
        "attempts", "next_attempt_at_millis", "last_error",
    ]
    private static let providerTokenRevocationSelect = """
        SELECT \(providerTokenRevocationColumns.joined(separator: ", ")) FROM provider_token_revocations
        """
    /// By the index `provider_token_revocations_due`.
    static let dueProviderTokenRevocations = """
        \(providerTokenRevocationSelect) WHERE next_attempt_at_millis <= $1
        ORDER BY next_attempt_at_millis, revocation_id LIMIT $2
        """
    static let providerTokenRevocationByID = "\(providerTokenRevocationSelect) WHERE revocation_id = $1"
    static let insertProviderTokenRevocation = """
        INSERT INTO provider_token_revocations (\(providerTokenRevocationColumns.joined(separator: ", ")))
        VALUES (\(parameters(providerTokenRevocationColumns.count)))
        """
    static let recordFailedProviderTokenRevocation = """
        UPDATE provider_token_revocations SET attempts = $1, next_attempt_at_millis = $2, last_error = $3
        WHERE revocation_id = $4
        """
    static let deleteProviderTokenRevocation = "DELETE FROM provider_token_revocations WHERE revocation_id = $1"
}
