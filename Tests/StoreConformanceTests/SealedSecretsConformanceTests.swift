import Foundation
import HearthCore
import HearthPostgres
import HearthSQLite
import Postgres
import SQLite
import Testing

/// A store that keeps its data on disk and seals secrets with a `SecretSealer`. Every test of
/// `SealedSecretsConformanceTests` runs once per entry of `allCases` (stores that keep nothing on disk, like
/// `InMemoryStore`, have nothing to seal); to test another implementation, add one entry.
struct SealingStoreKind: Sendable, CustomTestStringConvertible {
    let name: String
    /// Opens the store kept in `directory` with `sealer`.
    let open: @Sendable (_ directory: String, _ sealer: any SecretSealer) throws -> any HearthStore & SecretResealing
    /// Everything the store keeps on disk (the store is closed), to look for secrets in the clear.
    let storedBytes: @Sendable (_ directory: String) throws -> [UInt8]
    /// The stored form of one secret, read behind the store's back (the store is closed).
    let storedSecret: @Sendable (_ directory: String, _ field: SecretField) throws -> [UInt8]?
    /// Overwrites the stored form of one secret behind the store's back (the store is closed).
    let replaceStoredSecret: @Sendable (_ directory: String, _ field: SecretField, _ stored: [UInt8]) throws -> Void

    var testDescription: String { name }

    static let allCases: [SealingStoreKind] = [
        SealingStoreKind(
            name: "SQLiteStore",
            open: { try SQLiteStore(path: "\($0)/hearth.sqlite", sealer: $1) },
            storedBytes: { directory in
                try ["", "-wal"].flatMap { suffix -> [UInt8] in
                    let path = "\(directory)/hearth.sqlite\(suffix)"
                    return FileManager.default.fileExists(atPath: path) ? Array(try Data(contentsOf: URL(fileURLWithPath: path))) : []
                }
            },
            storedSecret: { directory, field in
                let connection = try SQLiteConnection(path: "\(directory)/hearth.sqlite", mode: .readOnly)
                let (table, key, column) = secretColumn(field.kind)
                return try connection.queryFirst("SELECT \(column) FROM \(table) WHERE \(key) = ?", [.text(field.recordID)]) { row in
                    field.kind == .signingKey ? row.text(0).map { Array($0.utf8) } : row.blob(0)
                } ?? nil
            },
            replaceStoredSecret: { directory, field, stored in
                let connection = try SQLiteConnection(path: "\(directory)/hearth.sqlite", mode: .readWrite)
                let (table, key, column) = secretColumn(field.kind)
                let value: SQLiteValue = field.kind == .signingKey ? .text(String(decoding: stored, as: UTF8.self)) : .blob(stored)
                let changed = try connection.execute("UPDATE \(table) SET \(column) = ? WHERE \(key) = ?", [value, .text(field.recordID)])
                precondition(changed == 1, "no such record")
            }),
        SealingStoreKind(
            name: "PostgresStore",
            open: { try PostgresStore(url: try PostgresTestDatabase.url(forDirectory: $0), sealer: $1) },
            storedBytes: { directory in
                // Every value of every table, as stored (text as UTF-8, bytea as its bytes).
                try withPostgres(directory) { connection in
                    let columns = try connection.query(
                        "SELECT table_name, column_name, data_type = 'bytea' FROM information_schema.columns "
                            + "WHERE table_schema = current_schema()")
                    return try columns.flatMap { column -> [UInt8] in
                        let (table, name, isBytes) = (try column.requiredText(0), try column.requiredText(1), try column.requiredBool(2))
                        let select = isBytes ? name : "\(name)::text"
                        return try connection.query("SELECT \(select) FROM \(table) WHERE \(name) IS NOT NULL").flatMap { row in
                            isBytes ? try row.requiredBytes(0) : Array(try row.requiredText(0).utf8)
                        }
                    }
                }
            },
            storedSecret: { directory, field in
                try withPostgres(directory) { connection in
                    let (table, key, column) = secretColumn(field.kind)
                    let select = field.kind == .signingKey ? "convert_to(\(column), 'UTF8')" : column
                    return try connection.query("SELECT \(select) FROM \(table) WHERE \(key) = $1", [.text(field.recordID)])
                        .first?.bytes(0)
                }
            },
            replaceStoredSecret: { directory, field, stored in
                try withPostgres(directory) { connection in
                    let (table, key, column) = secretColumn(field.kind)
                    let value: PostgresValue = field.kind == .signingKey ? .text(String(decoding: stored, as: UTF8.self)) : .bytes(stored)
                    let changed = try connection.update("UPDATE \(table) SET \(column) = $1 WHERE \(key) = $2", [value, .text(field.recordID)])
                    precondition(changed == 1, "no such record")
                }
            }),
    ]

    /// Runs `body` with a connection to the PostgreSQL database of `directory`.
    private static func withPostgres<T>(_ directory: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try PostgresConnection(url: try PostgresTestDatabase.url(forDirectory: directory))
        defer { connection.close() }
        return try body(connection)
    }

    /// The table, key expression and column of a secret (the same in both stores' schemas).
    private static func secretColumn(_ kind: SecretField.Kind) -> (table: String, key: String, column: String) {
        switch kind {
        case .signingKey: ("signing_keys", "key_id", "private_key_pem")
        case .mfaEnrollmentTOTPSecret: ("mfa_enrollments", "enrollment_id", "totp_secret")
        case .verificationSessionTOTPSecret: ("verification_sessions", "session_hash", "totp_secret")
        case .identityProviderRefreshToken: ("identities", "provider_id || '/' || raw_id", "provider_refresh_token")
        case .providerTokenRevocation: ("provider_token_revocations", "revocation_id", "token")
        case .providerConfigClientSecret: ("provider_configs", "kind || '/' || provider_id", "client_secret")
        }
    }
}

/// Secrets at rest: what every store that keeps data on disk must do with its `SecretSealer`.
@Suite("Store conformance: sealed secrets")
struct SealedSecretsConformanceTests {
    static let keyA = [UInt8](repeating: 0xA1, count: 32)
    static let keyB = [UInt8](repeating: 0xB2, count: 32)

    static func sealer(_ current: [UInt8], previous: [[UInt8]] = []) -> KeyringSecretSealer {
        // Constant 32-byte keys cannot fail.
        try! KeyringSecretSealer(currentKey: current, previousKeys: previous)
    }

    /// One secret of each kind, with recognisable bytes to look for on disk.
    struct Secrets {
        static let pem = "-----BEGIN PRIVATE KEY-----\nMIIsecretkeymaterial0123456789\n-----END PRIVATE KEY-----\n"
        static let totp = Array("TOTPSECRETBYTES-enrolled".utf8)
        static let offered = Array("TOTPSECRETBYTES-offered!".utf8)
        static let appleToken = "APPLEREFRESHTOKEN-of-identity"
        static let queuedToken = "APPLEREFRESHTOKEN-queued"
        static let clientSecret = "OIDCCLIENTSECRET-of-config"
        static let providerConfig = ProviderConfigRecord(
            kind: .oauth, id: "oidc.corp", enabled: true, clientID: "corp-client", issuer: "https://idp.example",
            clientSecret: clientSecret, idTokenResponse: true, codeResponse: true, createdAtMillis: 5, updatedAtMillis: 5)

        static let key = SigningKeyRecord(keyID: "key-1", algorithm: "RS256", privateKeyPEM: pem, createdAt: 10)
        static let otherKey = SigningKeyRecord(keyID: "key-2", algorithm: "RS256", privateKeyPEM: pem + "2", createdAt: 11)
        static var account: Account {
            var enrollment = totpEnrollment("enrol-1")
            enrollment.totpSecret = totp
            var second = totpEnrollment("enrol-2")
            second.totpSecret = totp.reversed()
            var account = enrolledAccount("uid-1", [enrollment, second])
            account.providers = [
                LinkedIdentity(
                    providerID: "apple.com", rawID: "001234.abcdef",
                    providerRefreshToken: ProviderRefreshToken(token: appleToken, clientID: "com.example.app")),
            ]
            return account
        }
        static let revocation = ProviderTokenRevocation(
            id: "rev-1", providerID: "apple.com", clientID: "com.example.app", token: queuedToken,
            tokenTypeHint: "refresh_token", localID: "uid-gone", createdAtMillis: 5, nextAttemptAtMillis: 5)
        static var session: VerificationSession {
            var session = verificationSession("session-1", purpose: .totpEnrollment, phoneNumber: nil)
            session.totpSecret = offered
            return session
        }

        static let fields = [
            SecretField(.signingKey, recordID: "key-1"), SecretField(.signingKey, recordID: "key-2"),
            SecretField(.mfaEnrollmentTOTPSecret, recordID: "enrol-1"),
            SecretField(.mfaEnrollmentTOTPSecret, recordID: "enrol-2"),
            SecretField(.verificationSessionTOTPSecret, recordID: "session-1"),
            SecretField.providerRefreshToken(providerID: "apple.com", rawID: "001234.abcdef"),
            SecretField(.providerTokenRevocation, recordID: "rev-1"),
            SecretField.providerConfigSecret(kind: .oauth, id: "oidc.corp"),
        ]

        static func write(to store: any HearthStore) throws {
            try store.write { writer throws in
                try writer.insertSigningKey(key)
                try writer.insertSigningKey(otherKey)
                try writer.insertAccount(account)
                try writer.insertVerificationSession(session)
                try writer.enqueueProviderTokenRevocation(revocation)
                try writer.insertProviderConfig(providerConfig)
            }
        }

        /// Reads every secret back through the store and checks it.
        static func expectReadable(from store: any HearthStore) throws {
            try store.read { reader throws in
                #expect(Array(try reader.signingKeys().prefix(2)) == [key, otherKey])
                #expect(try reader.account(localID: "uid-1") == account)
                #expect(try reader.verificationSession(hash: "session-1") == session)
                #expect(try reader.providerTokenRevocation(id: "rev-1") == revocation)
                #expect(try reader.providerConfig(kind: .oauth, id: "oidc.corp") == providerConfig)
            }
        }
    }

    /// Runs `body` with a fresh directory; `open` opens the store in it with a sealer.
    func withDirectory(
        _ kind: SealingStoreKind, _ body: (_ directory: String, _ open: (any SecretSealer) throws -> any HearthStore & SecretResealing) throws -> Void
    ) throws {
        let directory = try TemporaryDirectory()
        try body(directory.path) { try kind.open(directory.path, $0) }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    @Test("sealed secrets read back as written, and none is on disk in the clear", arguments: SealingStoreKind.allCases)
    func roundTrip(kind: SealingStoreKind) throws {
        try withDirectory(kind) { directory, open in
            let store = try open(Self.sealer(Self.keyA))
            try Secrets.write(to: store)
            try Secrets.expectReadable(from: store)
            // Updates seal too: a used TOTP step rewrites the enrolments, a failed attempt the session.
            var account = Secrets.account
            account.mfaEnrollments[0].lastUsedTOTPStep = 99
            var session = Secrets.session
            session.failedAttempts = 3
            try store.write { writer throws in
                try writer.updateAccount(account)
                try writer.updateVerificationSession(session)
            }
            try store.read { reader throws in
                #expect(try reader.account(localID: "uid-1") == account)
                #expect(try reader.verificationSession(hash: "session-1") == session)
            }
            #expect(try store.secretInventory() == SecretInventory(sealedWithCurrentKey: 8))
            store.close()

            let disk = try kind.storedBytes(directory)
            #expect(!disk.isEmpty)
            #expect(!Self.contains(disk, Array("PRIVATE KEY".utf8)))
            #expect(!Self.contains(disk, Array("TOTPSECRETBYTES".utf8)))
            #expect(!Self.contains(disk, Array("DETALLEVALAVAD".utf8)))  // enrol-2's secret, reversed
            #expect(!Self.contains(disk, Array("APPLEREFRESHTOKEN".utf8)))
            #expect(!Self.contains(disk, Array("OIDCCLIENTSECRET".utf8)))
            #expect(Self.contains(disk, Array("hearth-sealed:v1:\(Self.sealer(Self.keyA).currentKeyID):".utf8)))
        }
    }

    @Test("each secret is sealed for its own record, with the same associated data on every store", arguments: SealingStoreKind.allCases)
    func storedForm(kind: SealingStoreKind) throws {
        try withDirectory(kind) { directory, open in
            let store = try open(Self.sealer(Self.keyA))
            try Secrets.write(to: store)
            store.close()
            let plain = [
                Array(Secrets.pem.utf8), Array((Secrets.pem + "2").utf8), Secrets.totp, Secrets.totp.reversed(), Secrets.offered,
                Array(Secrets.appleToken.utf8), Array(Secrets.queuedToken.utf8), Array(Secrets.clientSecret.utf8),
            ]
            for (field, secret) in zip(Secrets.fields, plain) {
                let stored = try #require(try kind.storedSecret(directory, field), "\(field)")
                #expect(Self.sealer(Self.keyA).state(of: stored) == .sealedWithCurrentKey)
                #expect(try Self.sealer(Self.keyA).open(stored, for: field) == secret, "\(field)")
            }
        }
    }

    @Test("a sealed secret moved to another record does not open there", arguments: SealingStoreKind.allCases)
    func swappedSecrets(kind: SealingStoreKind) throws {
        for (first, second) in [(0, 1), (2, 3), (2, 4), (5, 6), (6, 7)] {
            try withDirectory(kind) { directory, open in
                try open(Self.sealer(Self.keyA)).writeAndClose(Secrets.write)
                let (a, b) = (Secrets.fields[first], Secrets.fields[second])
                let storedA = try #require(try kind.storedSecret(directory, a))
                let storedB = try #require(try kind.storedSecret(directory, b))
                try kind.replaceStoredSecret(directory, a, storedB)
                try kind.replaceStoredSecret(directory, b, storedA)

                let store = try open(Self.sealer(Self.keyA))
                defer { store.close() }
                #expect(throws: StoreError(.corrupt), "\(a) ⇄ \(b)") { try Secrets.expectReadable(from: store) }
                #expect(throws: StoreError(.corrupt)) { try store.secretInventory() }
            }
        }
    }

    @Test("secrets sealed under a key that is not configured, or with no key at all, fail with a clear error", arguments: SealingStoreKind.allCases)
    func missingKey(kind: SealingStoreKind) throws {
        try withDirectory(kind) { directory, open in
            try open(Self.sealer(Self.keyA)).writeAndClose(Secrets.write)
            let keyID = Self.sealer(Self.keyA).currentKeyID
            for sealer in [Self.sealer(Self.keyB) as any SecretSealer, PlaintextSecretSealer()] {
                let store = try open(sealer)
                defer { store.close() }
                do {
                    _ = try store.secretInventory()
                    Issue.record("the inventory opened secrets without their key")
                } catch let error as StoreError {
                    #expect(error.code == .unavailable)
                    #expect(error.detail.contains("signing key key-1 is encrypted under key \(keyID)"), "\(error.detail)")
                }
                #expect(throws: StoreError(.unavailable)) { try store.read { try $0.signingKeys() } }
                #expect(throws: StoreError(.unavailable)) { try store.read { try $0.account(localID: "uid-1") } }
                #expect(throws: StoreError(.unavailable)) { try store.read { try $0.verificationSession(hash: "session-1") } }
                #expect(throws: StoreError(.unavailable)) { try store.read { try $0.providerTokenRevocation(id: "rev-1") } }
                // Everything else still reads.
                #expect(try store.read { try $0.accountCount() } == 1)
            }
        }
    }

    @Test("plain secrets written before encryption are read, counted and sealed by resealSecrets", arguments: SealingStoreKind.allCases)
    func legacyPlain(kind: SealingStoreKind) throws {
        try withDirectory(kind) { directory, open in
            try open(PlaintextSecretSealer()).writeAndClose(Secrets.write)
            #expect(Self.contains(try kind.storedBytes(directory), Array("TOTPSECRETBYTES".utf8)))
            #expect(Self.contains(try kind.storedBytes(directory), Array("APPLEREFRESHTOKEN".utf8)))

            let store = try open(Self.sealer(Self.keyA))
            try Secrets.expectReadable(from: store)
            #expect(try store.secretInventory() == SecretInventory(plain: 8))
            #expect(try store.resealSecrets() == SecretInventory(plain: 8))
            #expect(try store.secretInventory() == SecretInventory(sealedWithCurrentKey: 8))
            #expect(try store.resealSecrets() == SecretInventory(sealedWithCurrentKey: 8), "nothing left to do")
            try Secrets.expectReadable(from: store)
            store.close()
            let disk = try kind.storedBytes(directory)
            #expect(!Self.contains(disk, Array("TOTPSECRETBYTES".utf8)))
            #expect(!Self.contains(disk, Array("PRIVATE KEY".utf8)))
            #expect(!Self.contains(disk, Array("APPLEREFRESHTOKEN".utf8)))
        }
    }

    @Test("rotation: the previous key opens, resealSecrets moves every secret to the current key", arguments: SealingStoreKind.allCases)
    func rotation(kind: SealingStoreKind) throws {
        try withDirectory(kind) { directory, open in
            try open(Self.sealer(Self.keyA)).writeAndClose(Secrets.write)

            let rotated = try open(Self.sealer(Self.keyB, previous: [Self.keyA]))
            try Secrets.expectReadable(from: rotated)
            #expect(try rotated.secretInventory() == SecretInventory(sealedWithOtherKey: 8))
            // New writes use the current key at once.
            try rotated.write { try $0.insertSigningKey(SigningKeyRecord(keyID: "key-3", algorithm: "RS256", privateKeyPEM: "p", createdAt: 12)) }
            #expect(try rotated.secretInventory() == SecretInventory(sealedWithCurrentKey: 1, sealedWithOtherKey: 8))
            #expect(try rotated.resealSecrets() == SecretInventory(sealedWithCurrentKey: 1, sealedWithOtherKey: 8))
            rotated.close()

            let newOnly = try open(Self.sealer(Self.keyB))
            try Secrets.expectReadable(from: newOnly)
            #expect(try newOnly.secretInventory() == SecretInventory(sealedWithCurrentKey: 9))
            newOnly.close()
            let oldOnly = try open(Self.sealer(Self.keyA))
            defer { oldOnly.close() }
            #expect(throws: StoreError(.unavailable)) { try oldOnly.secretInventory() }
        }
    }

    @Test("resealSecrets moves the secrets of the same enrolment and identity in two scopes each in its own row", arguments: SealingStoreKind.allCases)
    func resealInScopes(kind: SealingStoreKind) throws {
        let tenant = try StoreScope.tenant("tenant-1")
        func account(_ secret: [UInt8], token: String) -> Account {
            var enrollment = totpEnrollment("enrol-1")
            enrollment.totpSecret = secret
            var account = enrolledAccount("uid-1", [enrollment])
            account.providers = [
                LinkedIdentity(
                    providerID: "apple.com", rawID: "a-1", providerRefreshToken: ProviderRefreshToken(token: token, clientID: "c"))
            ]
            return account
        }
        let ours = account(Array("the project's secret".utf8), token: "the project's token")
        let theirs = account(Array("the tenant's secret!".utf8), token: "the tenant's token")
        try withDirectory(kind) { directory, open in
            try open(Self.sealer(Self.keyA)).writeAndClose { store in
                try store.write { try $0.insertAccount(ours) }
                try store.scoped(to: tenant).write { try $0.insertAccount(theirs) }
            }
            let rotated = try open(Self.sealer(Self.keyB, previous: [Self.keyA]))
            #expect(try rotated.resealSecrets() == SecretInventory(sealedWithOtherKey: 4))
            rotated.close()
            let newOnly = try open(Self.sealer(Self.keyB))
            defer { newOnly.close() }
            #expect(try newOnly.secretInventory() == SecretInventory(sealedWithCurrentKey: 4))
            #expect(try newOnly.read { try $0.account(localID: "uid-1") } == ours)
            #expect(try newOnly.scoped(to: tenant).read { try $0.account(localID: "uid-1") } == theirs)
        }
    }

    @Test("resealSecrets is one transaction: when one secret does not open, nothing is rewritten", arguments: SealingStoreKind.allCases)
    func resealAllOrNothing(kind: SealingStoreKind) throws {
        try withDirectory(kind) { directory, open in
            try open(Self.sealer(Self.keyA)).writeAndClose(Secrets.write)
            // The last secret in any order of going through them: the queued revocation's token.
            let broken = Secrets.fields[6]
            var stored = try #require(try kind.storedSecret(directory, broken))
            stored[stored.count - 2] = stored[stored.count - 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            try kind.replaceStoredSecret(directory, broken, stored)
            let before = try Secrets.fields.map { try kind.storedSecret(directory, $0) }

            let rotated = try open(Self.sealer(Self.keyB, previous: [Self.keyA]))
            #expect(throws: StoreError(.corrupt)) { try rotated.resealSecrets() }
            rotated.close()
            #expect(try Secrets.fields.map { try kind.storedSecret(directory, $0) } == before)
        }
    }
}

extension HearthStore {
    /// Runs `body` on this store, then closes it.
    func writeAndClose(_ body: (any HearthStore) throws -> Void) throws {
        defer { close() }
        try body(self)
    }
}
