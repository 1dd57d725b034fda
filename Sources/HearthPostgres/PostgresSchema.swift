import HearthCore
import Postgres

/// The numbered migrations of Hearth's PostgreSQL schema, recorded in `hearth_schema`. Never edit a released
/// migration; add one.
///
/// Conventions (as in the SQLite schema): times are BIGINT (`…_millis` in milliseconds, the rest in seconds since
/// 1970); emails are stored lower-cased (by Swift's `lowercased()`, as the SQLite store does), so a unique index on
/// the column serves case-insensitive lookups; tokens, grants, pending sign-ins and verification sessions are stored
/// by hash only; secrets are BYTEA, except the sealed private key PEM (ASCII text). Every text key and id is
/// `COLLATE "C"`, so it sorts in the byte order of UTF-8 whatever the database's locale, as the store contract's
/// pages and cursors require. A `seq` identity column keeps insertion order where the contract breaks ties by it.
enum PostgresSchema {
    struct Migration {
        let version: Int
        let name: String
        let sql: String
    }

    static let migrations = [
        Migration(version: 1, name: "the schema of SQLite migration 9, without legacy refresh tokens", sql: version1),
        Migration(version: 2, name: "the audit log (SQLite migration 10)", sql: version2),
        Migration(version: 3, name: "an index for voiding an account's email action codes (SQLite migration 11)", sql: version3),
        Migration(
            version: 4, name: "scopes: a tenant_id on every scoped record, keys unique per scope (SQLite migration 12)",
            sql: version4),
        Migration(version: 5, name: "tenants: the project's Identity Platform tenants (SQLite migration 13)", sql: version5),
        Migration(
            version: 6, name: "provider configurations made through the admin API, per scope (SQLite migration 14)",
            sql: version6),
        Migration(
            version: 7, name: "SAML provider configurations; the SAML assertion ids seen (SQLite migration 15)",
            sql: version7),
        Migration(
            version: 8, name: "project configuration set through the config API, per scope (SQLite migration 16)",
            sql: version8),
        Migration(version: 9, name: "tenants: their SMS region policy (SQLite migration 17)", sql: version9),
    ]

    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Key of the transaction-level advisory lock that serialises migrations across processes.
    static let migrationLockKey: Int64 = 0x4865_6172_7468_0001  // "Hearth", 1

    /// Brings the database to the latest version in one transaction that holds the migration lock, so that several
    /// processes opening a fresh database at once migrate it once. A database whose version is newer than this
    /// Hearth's, or that holds tables but no `hearth_schema`, is refused (`StoreError.corrupt`) and left unchanged.
    static func migrate(_ connection: PostgresConnection) throws {
        try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
        do {
            _ = try connection.query("SELECT pg_advisory_xact_lock($1)", [.int64(migrationLockKey)])
            let current = try validatedVersion(connection)
            if current == 0 { try connection.execute(versionTable) }
            for migration in migrations where migration.version > current {
                try connection.execute(migration.sql)
                try connection.update(
                    "INSERT INTO hearth_schema (version, name) VALUES ($1, $2)",
                    [.int64(Int64(migration.version)), .text(migration.name)])
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The version recorded in the database (0 for a database without tables in the current schema). Only reads.
    static func validatedVersion(_ connection: PostgresConnection) throws -> Int {
        let hasVersionTable = try connection.query("SELECT to_regclass('hearth_schema') IS NOT NULL")
            .first?.requiredBool(0) ?? false
        guard hasVersionTable else {
            let tables = try connection.query(
                "SELECT count(*) FROM pg_catalog.pg_class WHERE relnamespace = current_schema()::regnamespace "
                    + "AND relkind IN ('r', 'p', 'v', 'm', 'f')")
            guard (try tables.first?.requiredInt64(0) ?? 0) == 0 else {
                throw StoreError(
                    .corrupt, "the database schema holds tables but no hearth_schema table: it is not Hearth's")
            }
            return 0
        }
        let found = Int(try connection.query("SELECT coalesce(max(version), 0) FROM hearth_schema")
            .first?.requiredInt64(0) ?? 0)
        guard found <= latestVersion else {
            throw StoreError(
                .corrupt,
                "the database has schema version \(found), newer than this Hearth's (\(latestVersion)): "
                    + "run a Hearth at least as new as the one that wrote it")
        }
        return found
    }

    static let versionTable = """
        CREATE TABLE hearth_schema (
            version INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
        );
        """

    /// Everything SQLite's migrations 1 to 9 built, except `legacy_refresh_tokens` (this store never issued tokens
    /// without a session id). Constraint and index names are what `PostgresStoreWriter` maps unique violations by.
    static let version1 = """
        CREATE TABLE accounts (
            local_id TEXT COLLATE "C" NOT NULL CONSTRAINT accounts_pkey PRIMARY KEY,
            email TEXT COLLATE "C" CONSTRAINT accounts_email_key UNIQUE,
            email_verified BOOLEAN NOT NULL,
            display_name TEXT,
            photo_url TEXT,
            phone_number TEXT COLLATE "C",
            password_hash TEXT,
            disabled BOOLEAN NOT NULL,
            custom_attributes TEXT,
            created_at_millis BIGINT NOT NULL,
            last_login_at_millis BIGINT,
            last_refresh_at_millis BIGINT,
            valid_since_millis BIGINT NOT NULL,
            is_anonymous BOOLEAN NOT NULL,
            password_updated_at_millis BIGINT,
            initial_email TEXT,
            email_link_sign_in BOOLEAN NOT NULL
        );
        CREATE INDEX accounts_phone_number ON accounts (phone_number, local_id) WHERE phone_number IS NOT NULL;
        CREATE INDEX accounts_anonymous ON accounts (local_id, created_at_millis) WHERE is_anonymous;

        -- Linked federated identities, in link order (position) per account.
        CREATE TABLE identities (
            local_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (local_id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            provider_id TEXT COLLATE "C" NOT NULL,
            raw_id TEXT COLLATE "C" NOT NULL,
            email TEXT,
            display_name TEXT,
            photo_url TEXT,
            screen_name TEXT,
            provider_refresh_token BYTEA,
            provider_client_id TEXT,
            PRIMARY KEY (local_id, position),
            CONSTRAINT identities_provider_raw_id_key UNIQUE (provider_id, raw_id)
        );

        -- Enrolled second factors, in enrolment order (position) per account; ids unique across accounts.
        CREATE TABLE mfa_enrollments (
            local_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (local_id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            enrollment_id TEXT COLLATE "C" NOT NULL CONSTRAINT mfa_enrollments_enrollment_id_key UNIQUE,
            kind TEXT NOT NULL CHECK (kind IN ('phone', 'totp')),
            display_name TEXT,
            enrolled_at_millis BIGINT NOT NULL,
            phone_number TEXT,
            totp_secret BYTEA,
            last_used_totp_step BIGINT,
            PRIMARY KEY (local_id, position)
        );

        -- Sign-ins waiting for their second factor, by hash of the pending credential.
        CREATE TABLE mfa_pending_sign_ins (
            credential_hash TEXT COLLATE "C" NOT NULL PRIMARY KEY,
            local_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (local_id) ON DELETE CASCADE,
            sign_in_provider TEXT NOT NULL,
            expires_at BIGINT NOT NULL,
            failed_attempts INTEGER NOT NULL,
            created_at_millis BIGINT NOT NULL
        );
        CREATE INDEX mfa_pending_sign_ins_local_id ON mfa_pending_sign_ins (local_id);
        CREATE INDEX mfa_pending_sign_ins_expires_at ON mfa_pending_sign_ins (expires_at);

        -- Verifications in progress (sessionInfo), by hash. No foreign key: a deleted account's sessions stay until
        -- purged, so that deleting accounts cannot reset the SMS throttle. Inserts check the account.
        CREATE TABLE verification_sessions (
            session_hash TEXT COLLATE "C" NOT NULL PRIMARY KEY,
            purpose TEXT NOT NULL CHECK (purpose IN ('phone-enrollment', 'phone-sign-in', 'totp-enrollment')),
            local_id TEXT COLLATE "C" NOT NULL,
            phone_number TEXT COLLATE "C",
            code_hash TEXT,
            totp_secret BYTEA,
            pending_credential_hash TEXT,
            enrollment_id TEXT,
            failed_attempts INTEGER NOT NULL,
            expires_at BIGINT NOT NULL,
            created_at_millis BIGINT NOT NULL,
            verified_at_millis BIGINT
        );
        CREATE INDEX verification_sessions_phone_created ON verification_sessions (phone_number, created_at_millis);
        CREATE INDEX verification_sessions_expires_at ON verification_sessions (expires_at);

        -- Signed-in sessions and the state of their refresh token. No foreign key: they outlive their account, so
        -- that a refresh is answered USER_NOT_FOUND until the purge. Inserts check the account.
        CREATE TABLE refresh_sessions (
            session_id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
            local_id TEXT COLLATE "C" NOT NULL,
            sign_in_provider TEXT NOT NULL,
            auth_time BIGINT NOT NULL,
            second_factor TEXT,
            second_factor_identifier TEXT,
            session_claims TEXT,
            started_at_millis BIGINT NOT NULL,
            revoked_at_millis BIGINT,
            current_token_hash TEXT NOT NULL,
            replaced_token_hash TEXT,
            replaced_at_millis BIGINT,
            sealed_successor BYTEA
        );
        -- An account's live sessions by start: the per-account session cap.
        CREATE INDEX refresh_sessions_account ON refresh_sessions (local_id, started_at_millis, session_id)
            WHERE revoked_at_millis IS NULL;

        CREATE TABLE signing_keys (
            key_id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
            algorithm TEXT NOT NULL,
            private_key_pem TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            retired_at BIGINT,
            seq BIGINT GENERATED ALWAYS AS IDENTITY
        );

        CREATE TABLE dev_accounts (
            subject TEXT COLLATE "C" NOT NULL PRIMARY KEY,
            email TEXT COLLATE "C" NOT NULL CONSTRAINT dev_accounts_email_key UNIQUE,
            email_verified BOOLEAN NOT NULL,
            name TEXT,
            given_name TEXT,
            family_name TEXT,
            picture_url TEXT,
            hosted_domain TEXT,
            locale TEXT,
            created_at_millis BIGINT NOT NULL,
            seq BIGINT GENERATED ALWAYS AS IDENTITY
        );

        CREATE TABLE dev_grants (
            token_hash TEXT COLLATE "C" NOT NULL PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('code', 'access', 'refresh')),
            subject TEXT COLLATE "C" NOT NULL,
            client_id TEXT COLLATE "C" NOT NULL,
            scope TEXT NOT NULL,
            redirect_uri TEXT,
            code_challenge TEXT,
            nonce TEXT,
            audience TEXT,
            expires_at BIGINT NOT NULL,
            created_at BIGINT NOT NULL
        );
        CREATE INDEX dev_grants_subject_client ON dev_grants (subject, client_id);
        CREATE INDEX dev_grants_expires_at ON dev_grants (expires_at);

        CREATE TABLE limit_counters (
            key TEXT COLLATE "C" NOT NULL PRIMARY KEY,
            window_start_millis BIGINT NOT NULL,
            count BIGINT NOT NULL,
            streak BIGINT NOT NULL,
            lockouts BIGINT NOT NULL,
            locked_until_millis BIGINT NOT NULL,
            expires_at_millis BIGINT NOT NULL
        );
        CREATE INDEX limit_counters_expires_at ON limit_counters (expires_at_millis);

        -- A revoked service account keeps its row, so its key id is never reused; its email is unique among live ones.
        CREATE TABLE service_accounts (
            key_id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
            email TEXT COLLATE "C" NOT NULL,
            client_id TEXT NOT NULL,
            public_key_pem TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            revoked_at BIGINT,
            seq BIGINT GENERATED ALWAYS AS IDENTITY
        );
        CREATE UNIQUE INDEX service_accounts_live_email ON service_accounts (email) WHERE revoked_at IS NULL;

        CREATE TABLE provider_token_revocations (
            revocation_id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
            provider_id TEXT NOT NULL,
            client_id TEXT NOT NULL,
            token BYTEA NOT NULL,
            token_type_hint TEXT NOT NULL,
            local_id TEXT NOT NULL,
            created_at_millis BIGINT NOT NULL,
            attempts INTEGER NOT NULL,
            next_attempt_at_millis BIGINT NOT NULL,
            last_error TEXT
        );
        CREATE INDEX provider_token_revocations_due ON provider_token_revocations (next_attempt_at_millis, revocation_id);

        CREATE TABLE oob_codes (
            code_hash TEXT COLLATE "C" NOT NULL PRIMARY KEY,
            kind TEXT NOT NULL,
            local_id TEXT,
            email TEXT NOT NULL,
            new_email TEXT,
            continue_url TEXT,
            created_at_millis BIGINT NOT NULL,
            expires_at_millis BIGINT NOT NULL
        );
        CREATE INDEX oob_codes_expires_at ON oob_codes (expires_at_millis);
        """

    /// The audit log (`AuditEvent`), as in SQLite's migration 10: keyed by its time-ordered id; an account's events and
    /// a kind's found by an index each in id order; the retention purge a range of ids (they start with their time).
    static let version2 = """
        CREATE TABLE audit_events (
            id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
            at_millis BIGINT NOT NULL,
            kind TEXT COLLATE "C" NOT NULL,
            local_id TEXT COLLATE "C",
            provider TEXT,
            client_address TEXT,
            actor TEXT NOT NULL,
            detail TEXT NOT NULL
        );
        CREATE INDEX audit_events_local_id ON audit_events (local_id, id) WHERE local_id IS NOT NULL;
        CREATE INDEX audit_events_kind ON audit_events (kind, id);
        """

    /// An index on the account of email action codes, as SQLite's migration 11.
    static let version3 = """
        CREATE INDEX oob_codes_local_id ON oob_codes (local_id) WHERE local_id IS NOT NULL;
        """

    /// Scopes (SQLite's migration 12): every record family that belongs to a scope gets a `tenant_id` (`''`, the
    /// project, for every existing row), and the keys unique in the database become unique per scope, under the
    /// constraint names the error translation knows. The foreign keys of an account's rows match on the scope too.
    static let version4 = """
        ALTER TABLE identities DROP CONSTRAINT identities_local_id_fkey;
        ALTER TABLE mfa_enrollments DROP CONSTRAINT mfa_enrollments_local_id_fkey;
        ALTER TABLE mfa_pending_sign_ins DROP CONSTRAINT mfa_pending_sign_ins_local_id_fkey;

        ALTER TABLE accounts ADD COLUMN tenant_id TEXT COLLATE "C" NOT NULL DEFAULT '';
        ALTER TABLE accounts DROP CONSTRAINT accounts_pkey;
        ALTER TABLE accounts ADD CONSTRAINT accounts_pkey PRIMARY KEY (tenant_id, local_id);
        ALTER TABLE accounts DROP CONSTRAINT accounts_email_key;
        ALTER TABLE accounts ADD CONSTRAINT accounts_email_key UNIQUE (tenant_id, email);
        DROP INDEX accounts_phone_number;
        CREATE INDEX accounts_phone_number ON accounts (tenant_id, phone_number, local_id) WHERE phone_number IS NOT NULL;
        DROP INDEX accounts_anonymous;
        CREATE INDEX accounts_anonymous ON accounts (tenant_id, local_id, created_at_millis) WHERE is_anonymous;

        ALTER TABLE identities ADD COLUMN tenant_id TEXT COLLATE "C" NOT NULL DEFAULT '';
        ALTER TABLE identities DROP CONSTRAINT identities_pkey;
        ALTER TABLE identities ADD CONSTRAINT identities_pkey PRIMARY KEY (tenant_id, local_id, position);
        ALTER TABLE identities DROP CONSTRAINT identities_provider_raw_id_key;
        ALTER TABLE identities ADD CONSTRAINT identities_provider_raw_id_key UNIQUE (tenant_id, provider_id, raw_id);
        ALTER TABLE identities ADD CONSTRAINT identities_local_id_fkey FOREIGN KEY (tenant_id, local_id)
            REFERENCES accounts (tenant_id, local_id) ON DELETE CASCADE;

        ALTER TABLE mfa_enrollments ADD COLUMN tenant_id TEXT COLLATE "C" NOT NULL DEFAULT '';
        ALTER TABLE mfa_enrollments DROP CONSTRAINT mfa_enrollments_pkey;
        ALTER TABLE mfa_enrollments ADD CONSTRAINT mfa_enrollments_pkey PRIMARY KEY (tenant_id, local_id, position);
        ALTER TABLE mfa_enrollments DROP CONSTRAINT mfa_enrollments_enrollment_id_key;
        ALTER TABLE mfa_enrollments ADD CONSTRAINT mfa_enrollments_enrollment_id_key UNIQUE (tenant_id, enrollment_id);
        ALTER TABLE mfa_enrollments ADD CONSTRAINT mfa_enrollments_local_id_fkey FOREIGN KEY (tenant_id, local_id)
            REFERENCES accounts (tenant_id, local_id) ON DELETE CASCADE;

        ALTER TABLE mfa_pending_sign_ins ADD COLUMN tenant_id TEXT COLLATE "C" NOT NULL DEFAULT '';
        ALTER TABLE mfa_pending_sign_ins ADD CONSTRAINT mfa_pending_sign_ins_local_id_fkey FOREIGN KEY (tenant_id, local_id)
            REFERENCES accounts (tenant_id, local_id) ON DELETE CASCADE;
        DROP INDEX mfa_pending_sign_ins_local_id;
        CREATE INDEX mfa_pending_sign_ins_local_id ON mfa_pending_sign_ins (tenant_id, local_id);

        ALTER TABLE limit_counters ADD COLUMN tenant_id TEXT COLLATE "C" NOT NULL DEFAULT '';
        ALTER TABLE limit_counters DROP CONSTRAINT limit_counters_pkey;
        ALTER TABLE limit_counters ADD CONSTRAINT limit_counters_pkey PRIMARY KEY (tenant_id, key);

        ALTER TABLE refresh_sessions ADD COLUMN tenant_id TEXT COLLATE "C" NOT NULL DEFAULT '';
        DROP INDEX refresh_sessions_account;
        CREATE INDEX refresh_sessions_account ON refresh_sessions (tenant_id, local_id, started_at_millis, session_id)
            WHERE revoked_at_millis IS NULL;

        ALTER TABLE verification_sessions ADD COLUMN tenant_id TEXT COLLATE "C" NOT NULL DEFAULT '';
        DROP INDEX verification_sessions_phone_created;
        CREATE INDEX verification_sessions_phone_created
            ON verification_sessions (tenant_id, phone_number, created_at_millis);

        ALTER TABLE oob_codes ADD COLUMN tenant_id TEXT COLLATE "C" NOT NULL DEFAULT '';
        DROP INDEX oob_codes_local_id;
        CREATE INDEX oob_codes_local_id ON oob_codes (tenant_id, local_id) WHERE local_id IS NOT NULL;

        ALTER TABLE audit_events ADD COLUMN tenant_id TEXT COLLATE "C" NOT NULL DEFAULT '';
        DROP INDEX audit_events_local_id;
        DROP INDEX audit_events_kind;
        CREATE INDEX audit_events_scope ON audit_events (tenant_id, id);
        CREATE INDEX audit_events_local_id ON audit_events (tenant_id, local_id, id) WHERE local_id IS NOT NULL;
        CREATE INDEX audit_events_kind ON audit_events (tenant_id, kind, id);
        """

    /// The project's tenants, as SQLite's migration 13.
    static let version5 = """
        CREATE TABLE tenants (
            tenant_id TEXT COLLATE "C" NOT NULL,
            display_name TEXT,
            allow_password_signup BOOLEAN NOT NULL,
            enable_email_link_signin BOOLEAN NOT NULL,
            disable_auth BOOLEAN NOT NULL,
            enable_anonymous_user BOOLEAN NOT NULL,
            mfa_config TEXT,
            test_phone_numbers TEXT,
            password_policy_config TEXT,
            email_privacy_config TEXT,
            created_at_millis BIGINT NOT NULL,
            updated_at_millis BIGINT NOT NULL,
            CONSTRAINT tenants_pkey PRIMARY KEY (tenant_id)
        );
        """

    /// Provider configurations made through the admin API, as SQLite's migration 14.
    static let version6 = """
        CREATE TABLE provider_configs (
            tenant_id TEXT COLLATE "C" NOT NULL,
            kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('oauth', 'default')),
            provider_id TEXT COLLATE "C" NOT NULL,
            display_name TEXT,
            enabled BOOLEAN NOT NULL,
            client_id TEXT,
            issuer TEXT,
            client_secret BYTEA,
            id_token_response BOOLEAN NOT NULL,
            code_response BOOLEAN NOT NULL,
            created_at_millis BIGINT NOT NULL,
            updated_at_millis BIGINT NOT NULL,
            CONSTRAINT provider_configs_pkey PRIMARY KEY (tenant_id, kind, provider_id)
        );
        """

    /// SAML provider configurations and the assertion ids seen, as SQLite's migration 15 (here the `kind` CHECK is
    /// replaced in place).
    static let version7 = """
        ALTER TABLE provider_configs DROP CONSTRAINT provider_configs_kind_check;
        ALTER TABLE provider_configs ADD CONSTRAINT provider_configs_kind_check
            CHECK (kind IN ('oauth', 'default', 'saml'));
        ALTER TABLE provider_configs ADD COLUMN saml_config TEXT;

        CREATE TABLE saml_assertions (
            tenant_id TEXT COLLATE "C" NOT NULL,
            assertion_key TEXT COLLATE "C" NOT NULL,
            expires_at_millis BIGINT NOT NULL,
            CONSTRAINT saml_assertions_pkey PRIMARY KEY (tenant_id, assertion_key)
        );
        CREATE INDEX saml_assertions_expires ON saml_assertions (expires_at_millis);
        """

    /// The configuration set through the config API, as SQLite's migration 16.
    static let version8 = """
        CREATE TABLE project_config (
            tenant_id TEXT COLLATE "C" NOT NULL,
            settings TEXT NOT NULL,
            updated_at_millis BIGINT NOT NULL,
            CONSTRAINT project_config_pkey PRIMARY KEY (tenant_id)
        );
        """

    /// A tenant's `smsRegionConfig`, as SQLite's migration 17.
    static let version9 = "ALTER TABLE tenants ADD COLUMN sms_region_config TEXT;"
}
