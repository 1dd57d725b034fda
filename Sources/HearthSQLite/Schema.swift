import SQLite

/// The numbered migrations of Hearth's SQLite schema. Never edit a released migration; add one.
///
/// Conventions: `STRICT` tables; times are integers (`…_millis` in milliseconds, the rest in seconds
/// since 1970); booleans are 0/1; emails are stored lower-cased so an index serves case-insensitive
/// lookups of any Unicode email; refresh tokens, dev IdP grants, pending MFA sign-ins and verification
/// sessions are stored by hash only; secrets are BLOBs.
enum Schema {
    static var migrator: SQLiteMigrator {
        var migrator = SQLiteMigrator()
        migrator.register(1, "accounts, identities, refresh tokens, signing keys, dev IdP") { db in
            try db.executeScript(version1)
        }
        migrator.register(2, "MFA enrolments, pending MFA sign-ins, verification sessions") { db in
            try db.executeScript(version2)
        }
        migrator.register(3, "refresh-token sessions: rotation, reuse detection, revocation") { db in
            try db.executeScript(version3)
        }
        migrator.register(4, "limit counters, verified verification sessions") { db in
            try db.executeScript(version4)
        }
        migrator.register(5, "refresh tokens name their session, which keeps its rotation state") { db in
            try db.executeScript(version5)
        }
        migrator.register(6, "an index for looking accounts up by phone number") { db in
            try db.executeScript(version6)
        }
        migrator.register(7, "service accounts: public keys of the admin API's callers") { db in
            try db.executeScript(version7)
        }
        migrator.register(8, "anonymous accounts, provider refresh tokens, the provider-token revocation queue") { db in
            try db.executeScript(version8)
        }
        migrator.register(9, "email action codes; password change time, initial email, email-link sign-in") { db in
            try db.executeScript(version9)
        }
        migrator.register(10, "the audit log") { db in
            try db.executeScript(version10)
        }
        migrator.register(11, "an index for voiding an account's email action codes") { db in
            try db.executeScript(version11)
        }
        migrator.register(12, "scopes: a tenant_id on every scoped record, keys unique per scope") { db in
            try db.executeScript(version12)
        }
        migrator.register(13, "tenants: the project's Identity Platform tenants and their settings") { db in
            try db.executeScript(version13)
        }
        migrator.register(14, "provider configurations made through the admin API, per scope") { db in
            try db.executeScript(version14)
        }
        migrator.register(15, "SAML provider configurations; the SAML assertion ids seen, until they expire") { db in
            try db.executeScript(version15)
        }
        migrator.register(16, "project configuration set through the config API, per scope") { db in
            try db.executeScript(version16)
        }
        migrator.register(17, "tenants: their SMS region policy") { db in
            try db.executeScript(version17)
        }
        return migrator
    }

    static let version1 = """
        CREATE TABLE accounts (
            local_id TEXT PRIMARY KEY NOT NULL,
            email TEXT,
            email_verified INTEGER NOT NULL CHECK (email_verified IN (0, 1)),
            display_name TEXT,
            photo_url TEXT,
            phone_number TEXT,
            password_hash TEXT,
            disabled INTEGER NOT NULL CHECK (disabled IN (0, 1)),
            custom_attributes TEXT,
            created_at_millis INTEGER NOT NULL,
            last_login_at_millis INTEGER,
            last_refresh_at_millis INTEGER,
            valid_since_millis INTEGER NOT NULL
        ) STRICT;
        CREATE UNIQUE INDEX accounts_email ON accounts(email) WHERE email IS NOT NULL;

        -- Linked federated identities, in link order (position) per account.
        CREATE TABLE identities (
            local_id TEXT NOT NULL REFERENCES accounts(local_id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            provider_id TEXT NOT NULL,
            raw_id TEXT NOT NULL,
            email TEXT,
            display_name TEXT,
            photo_url TEXT,
            screen_name TEXT,
            PRIMARY KEY (local_id, position),
            UNIQUE (provider_id, raw_id)
        ) STRICT, WITHOUT ROWID;

        -- No foreign key: a deleted account's tokens stay until deleteOrphanedRefreshTokens, so that
        -- refreshing one is answered USER_NOT_FOUND. New tokens are checked against accounts on insert.
        CREATE TABLE refresh_tokens (
            token_hash TEXT PRIMARY KEY NOT NULL,
            local_id TEXT NOT NULL,
            sign_in_provider TEXT NOT NULL,
            auth_time INTEGER NOT NULL,
            second_factor TEXT,
            second_factor_identifier TEXT,
            session_claims TEXT,
            created_at_millis INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX refresh_tokens_local_id ON refresh_tokens(local_id);
        CREATE INDEX refresh_tokens_created_at ON refresh_tokens(created_at_millis);

        -- rowid keeps insertion order, the tie-breaker for keys created in the same second.
        CREATE TABLE signing_keys (
            key_id TEXT PRIMARY KEY NOT NULL,
            algorithm TEXT NOT NULL,
            private_key_pem TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            retired_at INTEGER
        ) STRICT;
        CREATE INDEX signing_keys_created_at ON signing_keys(created_at);

        CREATE TABLE dev_accounts (
            subject TEXT PRIMARY KEY NOT NULL,
            email TEXT NOT NULL UNIQUE,
            email_verified INTEGER NOT NULL CHECK (email_verified IN (0, 1)),
            name TEXT,
            given_name TEXT,
            family_name TEXT,
            picture_url TEXT,
            hosted_domain TEXT,
            locale TEXT,
            created_at_millis INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX dev_accounts_created_at ON dev_accounts(created_at_millis);

        CREATE TABLE dev_grants (
            token_hash TEXT PRIMARY KEY NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('code', 'access', 'refresh')),
            subject TEXT NOT NULL,
            client_id TEXT NOT NULL,
            scope TEXT NOT NULL,
            redirect_uri TEXT,
            code_challenge TEXT,
            nonce TEXT,
            audience TEXT,
            expires_at INTEGER NOT NULL,
            created_at INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX dev_grants_subject_client ON dev_grants(subject, client_id);
        CREATE INDEX dev_grants_expires_at ON dev_grants(expires_at);
        """

    /// MFA. Enrolments and pending sign-ins belong to one account and go with it (ON DELETE CASCADE, each
    /// with an index on `local_id` so the cascade is a lookup, not a scan). Verification sessions, like
    /// refresh tokens (version 1), have no foreign key: they outlive their account so that the SMS they
    /// sent still count against the number until `deleteExpiredMFAState` purges them.
    static let version2 = """
        -- Enrolled second factors, in enrolment order (position) per account; ids unique across accounts.
        CREATE TABLE mfa_enrollments (
            local_id TEXT NOT NULL REFERENCES accounts(local_id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            enrollment_id TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL CHECK (kind IN ('phone', 'totp')),
            display_name TEXT,
            enrolled_at_millis INTEGER NOT NULL,
            phone_number TEXT,
            totp_secret BLOB,
            last_used_totp_step INTEGER,
            PRIMARY KEY (local_id, position)
        ) STRICT, WITHOUT ROWID;

        -- Sign-ins waiting for their second factor, by hash of the pending credential.
        CREATE TABLE mfa_pending_sign_ins (
            credential_hash TEXT PRIMARY KEY NOT NULL,
            local_id TEXT NOT NULL REFERENCES accounts(local_id) ON DELETE CASCADE,
            sign_in_provider TEXT NOT NULL,
            expires_at INTEGER NOT NULL,
            failed_attempts INTEGER NOT NULL,
            created_at_millis INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX mfa_pending_sign_ins_local_id ON mfa_pending_sign_ins(local_id);
        CREATE INDEX mfa_pending_sign_ins_expires_at ON mfa_pending_sign_ins(expires_at);

        -- Verifications in progress (sessionInfo), by hash; codes by hash too. No foreign key: a deleted
        -- account's sessions stay until purged, so that deleting accounts cannot reset the SMS throttle.
        -- New sessions are checked against accounts on insert.
        CREATE TABLE verification_sessions (
            session_hash TEXT PRIMARY KEY NOT NULL,
            purpose TEXT NOT NULL CHECK (purpose IN ('phone-enrollment', 'phone-sign-in', 'totp-enrollment')),
            local_id TEXT NOT NULL,
            phone_number TEXT,
            code_hash TEXT,
            totp_secret BLOB,
            pending_credential_hash TEXT,
            enrollment_id TEXT,
            failed_attempts INTEGER NOT NULL,
            expires_at INTEGER NOT NULL,
            created_at_millis INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX verification_sessions_phone_created ON verification_sessions(phone_number, created_at_millis);
        CREATE INDEX verification_sessions_expires_at ON verification_sessions(expires_at);
        """

    /// Refresh-token sessions. A sign-in starts a session (`refresh_sessions`: what its ID tokens carry,
    /// when it started, whether it was revoked); each refresh rotates the session's token, keeping the
    /// replaced one (with its successor sealed under it) to recognise reuse. A token row has only its
    /// primary key, so a rotation writes as few pages as possible; the session indexes change only at
    /// sign-in and revocation. Each older token becomes a session of its own, started when it was made.
    ///
    /// Sessions have no foreign key, like the tokens before them: they outlive their account so that a
    /// refresh is answered `USER_NOT_FOUND`, until the purge. A token whose session is gone is dead.
    static let version3 = """
        CREATE TABLE refresh_sessions (
            session_id TEXT PRIMARY KEY NOT NULL,
            local_id TEXT NOT NULL,
            sign_in_provider TEXT NOT NULL,
            auth_time INTEGER NOT NULL,
            second_factor TEXT,
            second_factor_identifier TEXT,
            session_claims TEXT,
            started_at_millis INTEGER NOT NULL,
            revoked_at_millis INTEGER
        ) STRICT, WITHOUT ROWID;
        -- An account's sessions; its live ones (revoked_at_millis NULL) by start: the per-account session cap.
        CREATE INDEX refresh_sessions_account ON refresh_sessions(local_id, revoked_at_millis, started_at_millis);
        CREATE INDEX refresh_sessions_started_at ON refresh_sessions(started_at_millis);

        CREATE TABLE refresh_tokens_v3 (
            token_hash TEXT PRIMARY KEY NOT NULL,
            session_id TEXT NOT NULL,
            created_at_millis INTEGER NOT NULL,
            rotated_at_millis INTEGER,
            sealed_successor BLOB
        ) STRICT, WITHOUT ROWID;

        INSERT INTO refresh_sessions
            SELECT token_hash, local_id, sign_in_provider, auth_time, second_factor, second_factor_identifier,
                session_claims, created_at_millis, NULL
            FROM refresh_tokens;
        INSERT INTO refresh_tokens_v3 SELECT token_hash, token_hash, created_at_millis, NULL, NULL FROM refresh_tokens;
        DROP TABLE refresh_tokens;
        ALTER TABLE refresh_tokens_v3 RENAME TO refresh_tokens;
        """

    /// Limits that must hold across requests and instances (`LimitCounter`), and when a verification
    /// session's code was accepted (it then no longer holds back the next SMS to its number).
    static let version4 = """
        CREATE TABLE limit_counters (
            key TEXT PRIMARY KEY NOT NULL,
            window_start_millis INTEGER NOT NULL,
            count INTEGER NOT NULL,
            streak INTEGER NOT NULL,
            lockouts INTEGER NOT NULL,
            locked_until_millis INTEGER NOT NULL,
            expires_at_millis INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX limit_counters_expires_at ON limit_counters(expires_at_millis);

        ALTER TABLE verification_sessions ADD COLUMN verified_at_millis INTEGER;
        """

    /// Refresh tokens name their session (`<session id>.<secret>`), and a session keeps its rotation
    /// state in its own row: the hash of its current token, and of the token that one replaced with when
    /// and its successor sealed under it. A rotation rewrites that one row; older tokens need no rows, as
    /// any token of the session that is neither current nor the replaced one is reuse.
    ///
    /// Tokens issued before have no session id: each session's current one moves into its session row,
    /// and `legacy_refresh_tokens` keeps, for every old token, only what finds its session (so that the
    /// current ones keep working and older ones are recognised as reuse); the purge empties it over time.
    /// Tokens rotated before the upgrade count as reused if presented again, even within the grace window.
    static let version5 = """
        ALTER TABLE refresh_sessions ADD COLUMN current_token_hash TEXT NOT NULL DEFAULT '';
        ALTER TABLE refresh_sessions ADD COLUMN replaced_token_hash TEXT;
        ALTER TABLE refresh_sessions ADD COLUMN replaced_at_millis INTEGER;
        ALTER TABLE refresh_sessions ADD COLUMN sealed_successor BLOB;

        UPDATE refresh_sessions SET current_token_hash = t.token_hash
        FROM refresh_tokens AS t
        WHERE t.session_id = refresh_sessions.session_id AND t.rotated_at_millis IS NULL;

        CREATE TABLE legacy_refresh_tokens (
            token_hash TEXT PRIMARY KEY NOT NULL,
            session_id TEXT NOT NULL,
            rotated_at_millis INTEGER
        ) STRICT, WITHOUT ROWID;
        INSERT INTO legacy_refresh_tokens SELECT token_hash, session_id, rotated_at_millis FROM refresh_tokens;
        DROP TABLE refresh_tokens;
        """

    /// Admin lookups by phone number (`accounts:lookup` with `phoneNumber[]`).
    static let version6 = """
        CREATE INDEX accounts_phone_number ON accounts(phone_number) WHERE phone_number IS NOT NULL;
        """

    /// Service accounts (`hearth service-accounts create`): the public key only. A revoked account keeps its
    /// row, so its key id is never reused; its name may be created again (unique among live accounts only).
    static let version7 = """
        -- rowid keeps insertion order, the tie-breaker for accounts created in the same second.
        CREATE TABLE service_accounts (
            key_id TEXT PRIMARY KEY NOT NULL,
            email TEXT NOT NULL,
            client_id TEXT NOT NULL,
            public_key_pem TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            revoked_at INTEGER
        ) STRICT;
        CREATE UNIQUE INDEX service_accounts_live_email ON service_accounts(email) WHERE revoked_at IS NULL;
        """

    /// Anonymous (guest) accounts, marked so that the maintenance task finds the stale ones by an index (existing
    /// accounts are not anonymous); the provider refresh token of a linked identity (sealed, with the client it
    /// was issued to); and the durable queue of provider tokens to revoke, each sealed under its own id.
    static let version8 = """
        ALTER TABLE accounts ADD COLUMN is_anonymous INTEGER NOT NULL DEFAULT 0 CHECK (is_anonymous IN (0, 1));
        CREATE INDEX accounts_anonymous ON accounts(local_id, created_at_millis) WHERE is_anonymous = 1;

        ALTER TABLE identities ADD COLUMN provider_refresh_token BLOB;
        ALTER TABLE identities ADD COLUMN provider_client_id TEXT;

        CREATE TABLE provider_token_revocations (
            revocation_id TEXT PRIMARY KEY NOT NULL,
            provider_id TEXT NOT NULL,
            client_id TEXT NOT NULL,
            token BLOB NOT NULL,
            token_type_hint TEXT NOT NULL,
            local_id TEXT NOT NULL,
            created_at_millis INTEGER NOT NULL,
            attempts INTEGER NOT NULL,
            next_attempt_at_millis INTEGER NOT NULL,
            last_error TEXT
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX provider_token_revocations_due ON provider_token_revocations(next_attempt_at_millis, revocation_id);
        """

    /// Email action codes (`OOBCodeRecord`), by hash only, with an index for the purge of expired ones; and three
    /// account fields: when the password was last set, the email before the first change of email, and whether
    /// the account signed in with an email link.
    static let version9 = """
        ALTER TABLE accounts ADD COLUMN password_updated_at_millis INTEGER;
        ALTER TABLE accounts ADD COLUMN initial_email TEXT;
        ALTER TABLE accounts ADD COLUMN email_link_sign_in INTEGER NOT NULL DEFAULT 0 CHECK (email_link_sign_in IN (0, 1));

        CREATE TABLE oob_codes (
            code_hash TEXT PRIMARY KEY NOT NULL,
            kind TEXT NOT NULL,
            local_id TEXT,
            email TEXT NOT NULL,
            new_email TEXT,
            continue_url TEXT,
            created_at_millis INTEGER NOT NULL,
            expires_at_millis INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX oob_codes_expires_at ON oob_codes(expires_at_millis);
        """

    /// The audit log (`AuditEvent`), keyed by its time-ordered id, so that newest first is the primary key backwards.
    /// An account's events and a kind's are found by an index each, in id order; the retention purge is a range of ids
    /// (they start with their time).
    static let version10 = """
        CREATE TABLE audit_events (
            id TEXT PRIMARY KEY NOT NULL,
            at_millis INTEGER NOT NULL,
            kind TEXT NOT NULL,
            local_id TEXT,
            provider TEXT,
            client_address TEXT,
            actor TEXT NOT NULL,
            detail TEXT NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX audit_events_local_id ON audit_events(local_id, id) WHERE local_id IS NOT NULL;
        CREATE INDEX audit_events_kind ON audit_events(kind, id);
        """

    /// An index on the account of email action codes, so that a takeover, password or email change voids them all.
    static let version11 = """
        CREATE INDEX oob_codes_local_id ON oob_codes(local_id) WHERE local_id IS NOT NULL;
        """

    /// Every record family that belongs to a scope (`StoreScope`) gets a `tenant_id` (`''`, the project, for every
    /// existing row), and the keys that were unique in the database become unique per scope: an account is
    /// (tenant_id, local_id), with its email, identities and enrolment ids unique in its scope, and a limit counter is
    /// (tenant_id, key). Tables whose primary key changes are rebuilt under new names, their rows copied as they are
    /// (sealed secrets included), the old tables dropped (children first, so no cascade fires) and the new ones
    /// renamed, which also renames the references of their foreign keys. Random keys (session ids, hashes, audit ids)
    /// stay unique across scopes. A legacy refresh token's scope is its session's.
    static let version12 = """
        CREATE TABLE accounts_v12 (
            tenant_id TEXT NOT NULL DEFAULT '',
            local_id TEXT NOT NULL,
            email TEXT,
            email_verified INTEGER NOT NULL CHECK (email_verified IN (0, 1)),
            display_name TEXT,
            photo_url TEXT,
            phone_number TEXT,
            password_hash TEXT,
            disabled INTEGER NOT NULL CHECK (disabled IN (0, 1)),
            custom_attributes TEXT,
            created_at_millis INTEGER NOT NULL,
            last_login_at_millis INTEGER,
            last_refresh_at_millis INTEGER,
            valid_since_millis INTEGER NOT NULL,
            is_anonymous INTEGER NOT NULL DEFAULT 0 CHECK (is_anonymous IN (0, 1)),
            password_updated_at_millis INTEGER,
            initial_email TEXT,
            email_link_sign_in INTEGER NOT NULL DEFAULT 0 CHECK (email_link_sign_in IN (0, 1)),
            PRIMARY KEY (tenant_id, local_id)
        ) STRICT;
        INSERT INTO accounts_v12 (\(accountColumnsV12))
            SELECT \(accountColumnsV12) FROM accounts ORDER BY rowid;

        CREATE TABLE identities_v12 (
            tenant_id TEXT NOT NULL DEFAULT '',
            local_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            provider_id TEXT NOT NULL,
            raw_id TEXT NOT NULL,
            email TEXT,
            display_name TEXT,
            photo_url TEXT,
            screen_name TEXT,
            provider_refresh_token BLOB,
            provider_client_id TEXT,
            PRIMARY KEY (tenant_id, local_id, position),
            UNIQUE (tenant_id, provider_id, raw_id),
            FOREIGN KEY (tenant_id, local_id) REFERENCES accounts_v12 (tenant_id, local_id) ON DELETE CASCADE
        ) STRICT, WITHOUT ROWID;
        INSERT INTO identities_v12 (local_id, position, provider_id, raw_id, email, display_name, photo_url,
                screen_name, provider_refresh_token, provider_client_id)
            SELECT local_id, position, provider_id, raw_id, email, display_name, photo_url, screen_name,
                provider_refresh_token, provider_client_id
            FROM identities;

        CREATE TABLE mfa_enrollments_v12 (
            tenant_id TEXT NOT NULL DEFAULT '',
            local_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            enrollment_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('phone', 'totp')),
            display_name TEXT,
            enrolled_at_millis INTEGER NOT NULL,
            phone_number TEXT,
            totp_secret BLOB,
            last_used_totp_step INTEGER,
            PRIMARY KEY (tenant_id, local_id, position),
            UNIQUE (tenant_id, enrollment_id),
            FOREIGN KEY (tenant_id, local_id) REFERENCES accounts_v12 (tenant_id, local_id) ON DELETE CASCADE
        ) STRICT, WITHOUT ROWID;
        INSERT INTO mfa_enrollments_v12 (local_id, position, enrollment_id, kind, display_name, enrolled_at_millis,
                phone_number, totp_secret, last_used_totp_step)
            SELECT local_id, position, enrollment_id, kind, display_name, enrolled_at_millis, phone_number,
                totp_secret, last_used_totp_step
            FROM mfa_enrollments;

        CREATE TABLE mfa_pending_sign_ins_v12 (
            credential_hash TEXT PRIMARY KEY NOT NULL,
            tenant_id TEXT NOT NULL DEFAULT '',
            local_id TEXT NOT NULL,
            sign_in_provider TEXT NOT NULL,
            expires_at INTEGER NOT NULL,
            failed_attempts INTEGER NOT NULL,
            created_at_millis INTEGER NOT NULL,
            FOREIGN KEY (tenant_id, local_id) REFERENCES accounts_v12 (tenant_id, local_id) ON DELETE CASCADE
        ) STRICT, WITHOUT ROWID;
        INSERT INTO mfa_pending_sign_ins_v12 (credential_hash, local_id, sign_in_provider, expires_at,
                failed_attempts, created_at_millis)
            SELECT credential_hash, local_id, sign_in_provider, expires_at, failed_attempts, created_at_millis
            FROM mfa_pending_sign_ins;

        CREATE TABLE limit_counters_v12 (
            tenant_id TEXT NOT NULL DEFAULT '',
            key TEXT NOT NULL,
            window_start_millis INTEGER NOT NULL,
            count INTEGER NOT NULL,
            streak INTEGER NOT NULL,
            lockouts INTEGER NOT NULL,
            locked_until_millis INTEGER NOT NULL,
            expires_at_millis INTEGER NOT NULL,
            PRIMARY KEY (tenant_id, key)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO limit_counters_v12 (key, window_start_millis, count, streak, lockouts, locked_until_millis,
                expires_at_millis)
            SELECT key, window_start_millis, count, streak, lockouts, locked_until_millis, expires_at_millis
            FROM limit_counters;

        DROP TABLE identities;
        DROP TABLE mfa_enrollments;
        DROP TABLE mfa_pending_sign_ins;
        DROP TABLE accounts;
        DROP TABLE limit_counters;
        ALTER TABLE accounts_v12 RENAME TO accounts;
        ALTER TABLE identities_v12 RENAME TO identities;
        ALTER TABLE mfa_enrollments_v12 RENAME TO mfa_enrollments;
        ALTER TABLE mfa_pending_sign_ins_v12 RENAME TO mfa_pending_sign_ins;
        ALTER TABLE limit_counters_v12 RENAME TO limit_counters;

        CREATE UNIQUE INDEX accounts_email ON accounts(tenant_id, email) WHERE email IS NOT NULL;
        CREATE INDEX accounts_phone_number ON accounts(tenant_id, phone_number) WHERE phone_number IS NOT NULL;
        CREATE INDEX accounts_anonymous ON accounts(tenant_id, local_id, created_at_millis) WHERE is_anonymous = 1;
        CREATE INDEX mfa_pending_sign_ins_local_id ON mfa_pending_sign_ins(tenant_id, local_id);
        CREATE INDEX mfa_pending_sign_ins_expires_at ON mfa_pending_sign_ins(expires_at);
        CREATE INDEX limit_counters_expires_at ON limit_counters(expires_at_millis);

        ALTER TABLE refresh_sessions ADD COLUMN tenant_id TEXT NOT NULL DEFAULT '';
        DROP INDEX refresh_sessions_account;
        CREATE INDEX refresh_sessions_account
            ON refresh_sessions(tenant_id, local_id, revoked_at_millis, started_at_millis);

        ALTER TABLE verification_sessions ADD COLUMN tenant_id TEXT NOT NULL DEFAULT '';
        DROP INDEX verification_sessions_phone_created;
        CREATE INDEX verification_sessions_phone_created
            ON verification_sessions(tenant_id, phone_number, created_at_millis);

        ALTER TABLE oob_codes ADD COLUMN tenant_id TEXT NOT NULL DEFAULT '';
        DROP INDEX oob_codes_local_id;
        CREATE INDEX oob_codes_local_id ON oob_codes(tenant_id, local_id) WHERE local_id IS NOT NULL;

        ALTER TABLE audit_events ADD COLUMN tenant_id TEXT NOT NULL DEFAULT '';
        DROP INDEX audit_events_local_id;
        DROP INDEX audit_events_kind;
        CREATE INDEX audit_events_scope ON audit_events(tenant_id, id);
        CREATE INDEX audit_events_local_id ON audit_events(tenant_id, local_id, id) WHERE local_id IS NOT NULL;
        CREATE INDEX audit_events_kind ON audit_events(tenant_id, kind, id);
        """

    /// The project's tenants (`/v2/projects/{p}/tenants`): project-wide, by id. The settings that are not booleans
    /// are the JSON text the tenant API validated.
    static let version13 = """
        CREATE TABLE tenants (
            tenant_id TEXT PRIMARY KEY NOT NULL,
            display_name TEXT,
            allow_password_signup INTEGER NOT NULL CHECK (allow_password_signup IN (0, 1)),
            enable_email_link_signin INTEGER NOT NULL CHECK (enable_email_link_signin IN (0, 1)),
            disable_auth INTEGER NOT NULL CHECK (disable_auth IN (0, 1)),
            enable_anonymous_user INTEGER NOT NULL CHECK (enable_anonymous_user IN (0, 1)),
            mfa_config TEXT,
            test_phone_numbers TEXT,
            password_policy_config TEXT,
            email_privacy_config TEXT,
            created_at_millis INTEGER NOT NULL,
            updated_at_millis INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        """

    /// Provider configurations made through the admin API (`oauthIdpConfigs`, `defaultSupportedIdpConfigs`): scoped,
    /// by kind and provider id; the client secret sealed.
    static let version14 = """
        CREATE TABLE provider_configs (
            tenant_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('oauth', 'default')),
            provider_id TEXT NOT NULL,
            display_name TEXT,
            enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
            client_id TEXT,
            issuer TEXT,
            client_secret BLOB,
            id_token_response INTEGER NOT NULL CHECK (id_token_response IN (0, 1)),
            code_response INTEGER NOT NULL CHECK (code_response IN (0, 1)),
            created_at_millis INTEGER NOT NULL,
            updated_at_millis INTEGER NOT NULL,
            PRIMARY KEY (tenant_id, kind, provider_id)
        ) STRICT, WITHOUT ROWID;
        """

    /// SAML provider configurations (`inboundSamlConfigs`): `provider_configs` rebuilt, since its `kind` CHECK must
    /// take `saml`, with `saml_config` (the settings as JSON text). And `saml_assertions`: the ids of the SAML assertions
    /// that signed in, per scope and provider (`assertion_key` is `<provider id> <assertion id>`), kept until the
    /// assertion expires so that a replay is refused; the maintenance task purges expired rows.
    static let version15 = """
        CREATE TABLE provider_configs_v15 (
            tenant_id TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('oauth', 'default', 'saml')),
            provider_id TEXT NOT NULL,
            display_name TEXT,
            enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
            client_id TEXT,
            issuer TEXT,
            client_secret BLOB,
            id_token_response INTEGER NOT NULL CHECK (id_token_response IN (0, 1)),
            code_response INTEGER NOT NULL CHECK (code_response IN (0, 1)),
            created_at_millis INTEGER NOT NULL,
            updated_at_millis INTEGER NOT NULL,
            saml_config TEXT,
            PRIMARY KEY (tenant_id, kind, provider_id)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO provider_configs_v15 (\(providerConfigColumnsV14))
            SELECT \(providerConfigColumnsV14) FROM provider_configs;
        DROP TABLE provider_configs;
        ALTER TABLE provider_configs_v15 RENAME TO provider_configs;

        CREATE TABLE saml_assertions (
            tenant_id TEXT NOT NULL,
            assertion_key TEXT NOT NULL,
            expires_at_millis INTEGER NOT NULL,
            PRIMARY KEY (tenant_id, assertion_key)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX saml_assertions_expires ON saml_assertions(expires_at_millis);
        """

    /// The columns `provider_configs` had before migration 15, copied into its rebuilt table.
    private static let providerConfigColumnsV14 = """
        tenant_id, kind, provider_id, display_name, enabled, client_id, issuer, client_secret, id_token_response, \
        code_response, created_at_millis, updated_at_millis
        """

    /// The configuration set through the config API (`/v2/projects/{p}/config`): one row per scope, its settings as
    /// JSON text.
    static let version16 = """
        CREATE TABLE project_config (
            tenant_id TEXT NOT NULL PRIMARY KEY,
            settings TEXT NOT NULL,
            updated_at_millis INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        """

    /// A tenant's `smsRegionConfig`, as JSON text.
    static let version17 = "ALTER TABLE tenants ADD COLUMN sms_region_config TEXT;"

    /// The columns `accounts` had before migration 12, copied into its rebuilt table.
    private static let accountColumnsV12 = """
        local_id, email, email_verified, display_name, photo_url, phone_number, password_hash, disabled, \
        custom_attributes, created_at_millis, last_login_at_millis, last_refresh_at_millis, valid_since_millis, \
        is_anonymous, password_updated_at_millis, initial_email, email_link_sign_in
        """
}
