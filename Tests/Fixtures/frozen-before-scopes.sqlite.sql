PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_migrations (
    version INTEGER PRIMARY KEY NOT NULL,
    name TEXT NOT NULL
) STRICT;
INSERT INTO schema_migrations VALUES(1,'accounts, identities, refresh tokens, signing keys, dev IdP');
INSERT INTO schema_migrations VALUES(2,'MFA enrolments, pending MFA sign-ins, verification sessions');
INSERT INTO schema_migrations VALUES(3,'refresh-token sessions: rotation, reuse detection, revocation');
INSERT INTO schema_migrations VALUES(4,'limit counters, verified verification sessions');
INSERT INTO schema_migrations VALUES(5,'refresh tokens name their session, which keeps its rotation state');
INSERT INTO schema_migrations VALUES(6,'an index for looking accounts up by phone number');
INSERT INTO schema_migrations VALUES(7,'service accounts: public keys of the admin API''s callers');
INSERT INTO schema_migrations VALUES(8,'anonymous accounts, provider refresh tokens, the provider-token revocation queue');
INSERT INTO schema_migrations VALUES(9,'email action codes; password change time, initial email, email-link sign-in');
INSERT INTO schema_migrations VALUES(10,'the audit log');
INSERT INTO schema_migrations VALUES(11,'an index for voiding an account''s email action codes');
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
, is_anonymous INTEGER NOT NULL DEFAULT 0 CHECK (is_anonymous IN (0, 1)), password_updated_at_millis INTEGER, initial_email TEXT, email_link_sign_in INTEGER NOT NULL DEFAULT 0 CHECK (email_link_sign_in IN (0, 1))) STRICT;
INSERT INTO accounts VALUES('frozen-alice','alice@frozen.example',1,'Alice',NULL,NULL,'$argon2id$v=19$m=19456,t=2,p=1$RNgyiW0xkpQ7z6lY+qn6bA$1RGvO2pkdvaknJB6OsY7T73ajnByjDTxmNGVb3xBA0g',0,NULL,1764000000000,1764000000000,NULL,1764000000000,0,1764000000000,NULL,0);
INSERT INTO accounts VALUES('frozen-bob','bob@frozen.example',1,'Bob',NULL,NULL,NULL,0,NULL,1764000000001,NULL,NULL,1764000000001,0,NULL,NULL,0);
INSERT INTO accounts VALUES('frozen-carol','carol@frozen.example',1,NULL,NULL,NULL,'$argon2id$v=19$m=19456,t=2,p=1$HfrkRM6SpEBlVT/RvPGTjg$z/JmFREsesVTRP9vy2U2l4SXUvZT/Gwb5luJsxecGtA',0,NULL,1764000000002,NULL,NULL,1764000000002,0,1764000000002,NULL,0);
CREATE TABLE identities (
    local_id TEXT NOT NULL REFERENCES accounts(local_id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    provider_id TEXT NOT NULL,
    raw_id TEXT NOT NULL,
    email TEXT,
    display_name TEXT,
    photo_url TEXT,
    screen_name TEXT, provider_refresh_token BLOB, provider_client_id TEXT,
    PRIMARY KEY (local_id, position),
    UNIQUE (provider_id, raw_id)
) STRICT, WITHOUT ROWID;
INSERT INTO identities VALUES('frozen-alice',0,'password','alice@frozen.example','alice@frozen.example',NULL,NULL,NULL,NULL,NULL);
INSERT INTO identities VALUES('frozen-bob',0,'google.com','google-sub-bob','bob@frozen.example','Bob G','https://example.com/bob.png',NULL,NULL,NULL);
INSERT INTO identities VALUES('frozen-carol',0,'password','carol@frozen.example','carol@frozen.example',NULL,NULL,NULL,NULL,NULL);
CREATE TABLE signing_keys (
    key_id TEXT PRIMARY KEY NOT NULL,
    algorithm TEXT NOT NULL,
    private_key_pem TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    retired_at INTEGER
) STRICT;
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
INSERT INTO mfa_enrollments VALUES('frozen-carol',0,'frozen-totp-carol','totp','Carol''s phone',1764000000003,NULL,X'3132333435363738393031323334353637383930',58800000);
CREATE TABLE mfa_pending_sign_ins (
    credential_hash TEXT PRIMARY KEY NOT NULL,
    local_id TEXT NOT NULL REFERENCES accounts(local_id) ON DELETE CASCADE,
    sign_in_provider TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    failed_attempts INTEGER NOT NULL,
    created_at_millis INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
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
, verified_at_millis INTEGER) STRICT, WITHOUT ROWID;
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
, current_token_hash TEXT NOT NULL DEFAULT '', replaced_token_hash TEXT, replaced_at_millis INTEGER, sealed_successor BLOB) STRICT, WITHOUT ROWID;
INSERT INTO refresh_sessions VALUES('frozenSessionAlice','frozen-alice','password',1764000000,NULL,NULL,NULL,1764000000010,NULL,'e05c765df5b46535fbc6aca070e7c973bdbe85b2a1eed08a551bb299ec107a3e',NULL,NULL,NULL);
INSERT INTO refresh_sessions VALUES('frozenSessionBob','frozen-bob','google.com',1764000000,NULL,NULL,NULL,1764000000011,NULL,'5d8e0b2cf444b261ad9c251621afd842799676a2866cee9a9a27237ca0294241',NULL,NULL,NULL);
CREATE TABLE limit_counters (
    key TEXT PRIMARY KEY NOT NULL,
    window_start_millis INTEGER NOT NULL,
    count INTEGER NOT NULL,
    streak INTEGER NOT NULL,
    lockouts INTEGER NOT NULL,
    locked_until_millis INTEGER NOT NULL,
    expires_at_millis INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
INSERT INTO limit_counters VALUES('frozen-limit',1764000000000,2,1,0,0,4102444800000);
CREATE TABLE legacy_refresh_tokens (
    token_hash TEXT PRIMARY KEY NOT NULL,
    session_id TEXT NOT NULL,
    rotated_at_millis INTEGER
) STRICT, WITHOUT ROWID;
CREATE TABLE service_accounts (
    key_id TEXT PRIMARY KEY NOT NULL,
    email TEXT NOT NULL,
    client_id TEXT NOT NULL,
    public_key_pem TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
) STRICT;
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
INSERT INTO oob_codes VALUES('1073849044a995e1e5ab5237945a4984726492ed9d1763da3c3d3312c08ad713','VERIFY_EMAIL','frozen-alice','alice@frozen.example',NULL,NULL,1764000000020,4102444800000);
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
INSERT INTO audit_events VALUES('1764000000030-5WYBTakQpi9g',1764000000030,'sign_up','frozen-alice','password','192.0.2.1','user','');
INSERT INTO audit_events VALUES('1764000000031-O4HvtwZeS1y7',1764000000031,'sign_in','frozen-bob','password','192.0.2.1','user','');
INSERT INTO audit_events VALUES('1764000000032-0fQU26cBfd0W',1764000000032,'factor_enrolled','frozen-carol','password','192.0.2.1','user','');
CREATE UNIQUE INDEX accounts_email ON accounts(email) WHERE email IS NOT NULL;
CREATE INDEX signing_keys_created_at ON signing_keys(created_at);
CREATE INDEX dev_accounts_created_at ON dev_accounts(created_at_millis);
CREATE INDEX dev_grants_subject_client ON dev_grants(subject, client_id);
CREATE INDEX dev_grants_expires_at ON dev_grants(expires_at);
CREATE INDEX mfa_pending_sign_ins_local_id ON mfa_pending_sign_ins(local_id);
CREATE INDEX mfa_pending_sign_ins_expires_at ON mfa_pending_sign_ins(expires_at);
CREATE INDEX verification_sessions_phone_created ON verification_sessions(phone_number, created_at_millis);
CREATE INDEX verification_sessions_expires_at ON verification_sessions(expires_at);
CREATE INDEX refresh_sessions_account ON refresh_sessions(local_id, revoked_at_millis, started_at_millis);
CREATE INDEX refresh_sessions_started_at ON refresh_sessions(started_at_millis);
CREATE INDEX limit_counters_expires_at ON limit_counters(expires_at_millis);
CREATE INDEX accounts_phone_number ON accounts(phone_number) WHERE phone_number IS NOT NULL;
CREATE UNIQUE INDEX service_accounts_live_email ON service_accounts(email) WHERE revoked_at IS NULL;
CREATE INDEX accounts_anonymous ON accounts(local_id, created_at_millis) WHERE is_anonymous = 1;
CREATE INDEX provider_token_revocations_due ON provider_token_revocations(next_attempt_at_millis, revocation_id);
CREATE INDEX oob_codes_expires_at ON oob_codes(expires_at_millis);
CREATE INDEX audit_events_local_id ON audit_events(local_id, id) WHERE local_id IS NOT NULL;
CREATE INDEX audit_events_kind ON audit_events(kind, id);
CREATE INDEX oob_codes_local_id ON oob_codes(local_id) WHERE local_id IS NOT NULL;
COMMIT;
