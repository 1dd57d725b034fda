import Foundation
import HearthCore
import HearthSQLShared
@testable import HearthSQLite
import SQLite
import Testing

/// What only the SQLite store does: its file, its schema and its indexes.
@Suite("SQLiteStore")
struct SQLiteStoreTests {
    @Test("a file that is not a database is refused as corrupt and left untouched")
    func refusesNonDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/random.sqlite"
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: path))

        #expect(throws: StoreError(.corrupt)) { try SQLiteStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("a database with a newer schema is refused as corrupt and left untouched")
    func refusesNewerSchema() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/hearth.sqlite"
        try SQLiteStore(path: path).close()
        do {
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try connection.execute("INSERT INTO schema_migrations(version, name) VALUES (999, 'from the future')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        do {
            _ = try SQLiteStore(path: path)
            Issue.record("opening a newer schema succeeded")
        } catch let error as StoreError {
            #expect(error.code == .corrupt)
            #expect(error.detail.contains("999"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a database that belongs to another program is refused and left untouched")
    func refusesForeignDatabase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/other.sqlite"
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB)")
            try connection.execute("INSERT INTO photos(data) VALUES (?)", [.blob([1, 2, 3])])
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError(.corrupt)) { try SQLiteStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a missing directory is unavailable")
    func missingDirectory() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: StoreError(.unavailable)) { try SQLiteStore(path: directory.path + "/no/such/dir/h.sqlite") }
    }

    @Test("the file is created with WAL mode and the schema at the latest version")
    func createsFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/new.sqlite"
        let store = try SQLiteStore(path: path, readerCount: 1)
        #expect(FileManager.default.fileExists(atPath: path))
        store.close()
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(try connection.queryFirst("PRAGMA journal_mode") { $0.text(0) } == "wal")
        #expect(
            try connection.queryAll("SELECT version FROM schema_migrations ORDER BY version") { $0.int(0) }
                == Array(1...17))
        #expect(
            try connection.queryFirst("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'accounts_phone_number'") {
                $0.int(0)
            } == 1)
        let tables = try connection.queryAll("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") {
            try $0.requiredText(0)
        }
        #expect(
            tables == [
                "accounts", "audit_events", "dev_accounts", "dev_grants", "identities", "legacy_refresh_tokens", "limit_counters",
                "mfa_enrollments", "mfa_pending_sign_ins", "oob_codes", "project_config", "provider_configs",
                "provider_token_revocations", "refresh_sessions", "saml_assertions",
                "schema_migrations", "service_accounts", "signing_keys", "tenants", "verification_sessions",
            ])
    }

    @Test("a version 1 database is upgraded to the latest version and keeps its data")
    func upgradesVersion1() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/v1.sqlite"
        // A database as the first release made it: migration 1 only, in WAL mode, with data in every table.
        do {
            var version1 = SQLiteMigrator()
            version1.register(1, "accounts, identities, refresh tokens, signing keys, dev IdP") { db in
                try db.executeScript(Self.version1Schema)
            }
            let pool = try SQLiteConnectionPool(path: path, configuration: .init(readerCount: 1), migrator: version1)
            try pool.write { db in try db.executeScript(Self.version1Data) }
            try pool.close()
        }
        do {
            let before = try SQLiteConnection(path: path, mode: .readOnly)
            #expect(try before.queryAll("SELECT version FROM schema_migrations") { $0.int(0) } == [1])
            #expect(
                try before.queryFirst("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'mfa%'") { $0.int(0) } == 0)
        }

        let store = try SQLiteStore(path: path)
        let account = Account(
            localID: "uid-1", email: "ada@example.com", emailVerified: true, displayName: "Ada 🚀",
            photoURL: "https://example.com/a.png", phoneNumber: "+15555550100", passwordHash: nil, disabled: false,
            customAttributes: #"{"role":"admin"}"#, createdAtMillis: 1_700_000_000_123,
            lastLoginAtMillis: 1_700_000_100_456, lastRefreshAtMillis: nil, validSinceMillis: 1_700_000_000_000,
            providers: [
                LinkedIdentity(providerID: "google.com", rawID: "1098765", email: "ada@gmail.com"),
                LinkedIdentity(providerID: "github.com", rawID: "42", screenName: "ada"),
            ])
        try store.read { reader throws in
            #expect(try reader.account(localID: "uid-1") == account)
            #expect(try reader.account(providerID: "github.com", rawID: "42") == account)
            #expect(try reader.account(localID: "uid-2") == bareAccount("uid-2"))
            #expect(try reader.accountCount() == 2)
            // Accounts from before migration 8 are not anonymous, so the maintenance task never deletes them.
            #expect(try reader.account(localID: "uid-2")?.isAnonymous == false)
            #expect(try reader.anonymousAccountIDs(createdBefore: .max, after: nil, limit: 10) == [])
            // Each older refresh token is a session of its own, started when the token was made, and
            // still finds it.
            #expect(
                try reader.refreshSession(legacyTokenHash: "rt1")
                    == RefreshSession(
                        sessionID: "rt1", localID: "uid-1", signInProvider: "google.com", authTime: 1_700_000_000,
                        startedAtMillis: 1_700_000_000_999, currentTokenHash: "rt1"))
            #expect(try reader.liveSessionIDs(localID: "uid-1", skippingNewest: 0) == ["rt1"])
            #expect(try reader.signingKeys().map(\.keyID) == ["k1"])
            #expect(try reader.devAccount(subject: "100000000000000000001")?.email == "zoe@example.com")
            #expect(try reader.devGrant(hash: "g1")?.kind == .authorizationCode)
        }
        // The new tables work with the old rows: enrol, start MFA, then delete the account (its
        // verification session stays, for SMS throttling).
        var enrolled = account
        enrolled.mfaEnrollments = [totpEnrollment("t1")]
        try store.write { writer throws in
            try writer.updateAccount(enrolled)
            try writer.insertMFAPendingSignIn(pendingSignIn("p1", localID: "uid-1"))
            try writer.insertVerificationSession(verificationSession("s1", localID: "uid-1"))
        }
        #expect(try store.read { try $0.account(localID: "uid-1") } == enrolled)
        #expect(try store.write { try $0.deleteAccount(localID: "uid-1") })
        try store.read { reader throws in
            #expect(try reader.mfaPendingSignIn(hash: "p1") == nil)
            #expect(try reader.verificationSession(hash: "s1") == verificationSession("s1", localID: "uid-1"))
            #expect(try reader.refreshSession(legacyTokenHash: "rt1") != nil)
        }
        store.close()

        let after = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(try after.queryAll("SELECT version FROM schema_migrations ORDER BY version") { $0.int(0) } == Array(1...17))
        #expect(try after.queryAll("PRAGMA foreign_key_check") { _ in 0 }.isEmpty)
        #expect(try after.queryFirst("PRAGMA integrity_check") { $0.text(0) } == "ok")
    }

    @Test("verification sessions have no foreign key (they outlive accounts); the other MFA tables cascade, in their scope")
    func foreignKeys() throws {
        let store = try SQLiteStore.temporary()
        defer { store.close() }
        let connection = try SQLiteConnection(path: store.path, mode: .readOnly)
        func foreignKeys(_ table: String) throws -> [String] {
            try connection.queryAll(
                "SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?) ORDER BY seq", [.text(table)]
            ) {
                "\(try $0.requiredText(0)).\(try $0.requiredText(1))=\(try $0.requiredText(2)) \(try $0.requiredText(3))"
            }
        }
        #expect(try foreignKeys("verification_sessions") == [])
        #expect(try foreignKeys("legacy_refresh_tokens") == [])
        #expect(try foreignKeys("refresh_sessions") == [])
        for table in ["identities", "mfa_enrollments", "mfa_pending_sign_ins"] {
            #expect(
                try foreignKeys(table) == ["accounts.tenant_id=tenant_id CASCADE", "accounts.local_id=local_id CASCADE"],
                "\(table)")
        }
    }

    @Test("TOTP secrets are stored as BLOBs")
    func secretsAreBlobs() throws {
        let store = try SQLiteStore.temporary()
        let path = store.path
        try store.write { writer throws in
            try writer.insertAccount(enrolledAccount("uid-1", [totpEnrollment("t1")]))
            try writer.insertVerificationSession(verificationSession("s1", purpose: .totpEnrollment, localID: "uid-1"))
        }
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        #expect(try connection.queryFirst("SELECT typeof(totp_secret) FROM mfa_enrollments") { $0.text(0) } == "blob")
        #expect(
            try connection.queryFirst("SELECT typeof(totp_secret) FROM verification_sessions") { $0.text(0) } == "blob")
        #expect(
            try connection.queryFirst("SELECT totp_secret FROM mfa_enrollments") { $0.blob(0) }
                == totpEnrollment("t1").totpSecret)
        store.close()
    }

    /// Migration 1's SQL exactly as it was released (`Schema.version1` must never change; this copy
    /// keeps the test honest if it does).
    static let version1Schema = """
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

    static let version1Data = """
        INSERT INTO accounts VALUES ('uid-1', 'ada@example.com', 1, 'Ada 🚀', 'https://example.com/a.png',
            '+15555550100', NULL, 0, '{"role":"admin"}', 1700000000123, 1700000100456, NULL, 1700000000000);
        INSERT INTO accounts VALUES ('uid-2', NULL, 0, NULL, NULL, NULL, NULL, 0, NULL, 5, NULL, NULL, 0);
        INSERT INTO identities VALUES ('uid-1', 0, 'google.com', '1098765', 'ada@gmail.com', NULL, NULL, NULL);
        INSERT INTO identities VALUES ('uid-1', 1, 'github.com', '42', NULL, NULL, NULL, 'ada');
        INSERT INTO refresh_tokens VALUES ('rt1', 'uid-1', 'google.com', 1700000000, NULL, NULL, NULL, 1700000000999);
        INSERT INTO signing_keys VALUES ('k1', 'RS256', 'PEM', 1700000000, NULL);
        INSERT INTO dev_accounts VALUES ('100000000000000000001', 'zoe@example.com', 1, NULL, NULL, NULL, NULL, NULL,
            NULL, 1);
        INSERT INTO dev_grants VALUES ('g1', 'code', '100000000000000000001', 'client-a', 'openid', NULL, NULL, NULL,
            NULL, 2000, 1000);
        """

    @Test("the released migration 1 is unchanged")
    func migration1Unchanged() {
        #expect(Schema.version1 == Self.version1Schema)
    }

    @Test("every lookup is served by an index")
    func lookupsUseIndexes() throws {
        let store = try SQLiteStore.temporary()
        defer { store.close() }
        let plans = try store.queryPlans()
        #expect(plans.count == SQL.indexedLookups.count)
        for (name, plan) in plans {
            #expect(!plan.isEmpty, "\(name)")
            #expect(plan.contains { $0.hasPrefix("SEARCH") }, "\(name): \(plan)")
            for step in plan where step.hasPrefix("SCAN") {
                #expect(step == "SCAN CONSTANT ROW", "\(name): \(step)")
            }
        }
    }

    @Test("each page of the audit log is one range of its filter's index in id order, never sorted")
    func auditPagePlans() throws {
        let store = try SQLiteStore.temporary()
        defer { store.close() }
        let plans = try store.queryPlans().filter { $0.name.hasPrefix("auditEventPage") }
        #expect(plans.count == AuditQuery.everyFilterCombination.count)
        for (name, plan) in plans {
            let index =
                name.contains("localID") ? "INDEX audit_events_local_id (tenant_id=? AND local_id=? AND id>?"
                : name.contains("kind") ? "INDEX audit_events_kind (tenant_id=? AND kind=? AND id>?"
                : "INDEX audit_events_scope (tenant_id=? AND id>?"
            #expect(plan.count == 1 && plan[0].hasPrefix("SEARCH audit_events USING \(index)"), "\(name): \(plan)")
        }
    }

    @Test("a temporary store removes its files when closed")
    func temporaryStore() throws {
        let store = try SQLiteStore.temporary()
        try store.write { try $0.insertAccount(fullAccount()) }
        #expect(FileManager.default.fileExists(atPath: store.path))
        store.close()
        #expect(!FileManager.default.fileExists(atPath: store.path))
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
    }

    @Test("store errors carry no stored values")
    func errorsAreRedacted() throws {
        let store = try SQLiteStore.temporary()
        defer { store.close() }
        let secret = "s3cret-person@example.com"
        try store.write { try $0.insertAccount(bareAccount("a").with(email: secret)) }
        do {
            try store.write { try $0.insertAccount(bareAccount("b").with(email: secret)) }
            Issue.record("no error")
        } catch {
            #expect(!"\(error)".contains("s3cret"))
            #expect(!String(reflecting: error).contains("s3cret"))
        }
    }
}
