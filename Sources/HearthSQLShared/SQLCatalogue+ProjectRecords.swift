public import HearthCore

/// What belongs to the project as a whole, in no scope: signing keys, service accounts, the dev IdP's accounts and
/// grants.
extension SQLCatalogue {
    // MARK: Signing keys

    /// In `StoredRow.signingKey(sealer:)`'s order; each is also the name of its bind (`SigningKeyRecord.binds`).
    static let signingKeyColumns = ["key_id", "algorithm", "private_key_pem", "created_at", "retired_at"]
    static let signingKeys = SQLStatement { d in
        "SELECT \(list(signingKeyColumns)) FROM signing_keys ORDER BY created_at, \(d.insertionOrder)"
    }
    static let insertSigningKey = SQLStatement { _ in
        "INSERT INTO signing_keys (\(list(signingKeyColumns))) VALUES (\(binds(signingKeyColumns)))"
    }
    static let retireSigningKey = SQLStatement { _ in "UPDATE signing_keys SET retired_at = :retired_at WHERE key_id = :key_id" }
    static let deleteSigningKey = SQLStatement { _ in "DELETE FROM signing_keys WHERE key_id = :key_id" }

    // MARK: Dev IdP

    /// In `StoredRow.devAccount()`'s order; each is also the name of its bind (`DevIdPAccount.binds`).
    static let devAccountColumns = [
        "subject", "email", "email_verified", "name", "given_name", "family_name", "picture_url", "hosted_domain",
        "locale", "created_at_millis",
    ]
    private static let devAccountSelect = "SELECT \(list(devAccountColumns)) FROM dev_accounts"
    static let devAccounts = SQLStatement { d in "\(devAccountSelect) ORDER BY created_at_millis, \(d.insertionOrder)" }
    static let devAccountBySubject = SQLStatement { _ in "\(devAccountSelect) WHERE subject = :subject" }
    static let devAccountByEmail = SQLStatement { _ in "\(devAccountSelect) WHERE email = :email" }
    static let devAccountExists = SQLStatement { _ in "SELECT 1 FROM dev_accounts WHERE subject = :subject" }
    static let insertDevAccount = SQLStatement { _ in
        "INSERT INTO dev_accounts (\(list(devAccountColumns))) VALUES (\(binds(devAccountColumns)))"
    }

    /// In `StoredRow.devGrant()`'s order; each is also the name of its bind (`DevIdPGrant.binds`).
    static let devGrantColumns = [
        "token_hash", "kind", "subject", "client_id", "scope", "redirect_uri", "code_challenge", "nonce", "audience",
        "expires_at", "created_at",
    ]
    static let devGrantByHash = SQLStatement { _ in
        "SELECT \(list(devGrantColumns)) FROM dev_grants WHERE token_hash = :token_hash"
    }
    static let insertDevGrant = SQLStatement { _ in
        "INSERT INTO dev_grants (\(list(devGrantColumns))) VALUES (\(binds(devGrantColumns)))"
    }
    static let deleteDevGrant = SQLStatement { _ in "DELETE FROM dev_grants WHERE token_hash = :token_hash" }
    static let deleteDevGrantsOfClient = SQLStatement { _ in
        "DELETE FROM dev_grants WHERE subject = :subject AND client_id = :client_id"
    }
    static let deleteExpiredDevGrants = SQLStatement { _ in "DELETE FROM dev_grants WHERE expires_at < :before" }

    // MARK: Service accounts

    /// In `StoredRow.serviceAccount()`'s order; each is also the name of its bind (`ServiceAccountRecord.binds`).
    static let serviceAccountColumns = ["key_id", "email", "client_id", "public_key_pem", "created_at", "revoked_at"]
    private static let serviceAccountSelect = "SELECT \(list(serviceAccountColumns)) FROM service_accounts"
    static let serviceAccounts = SQLStatement { d in "\(serviceAccountSelect) ORDER BY created_at, \(d.insertionOrder)" }
    static let serviceAccountByKeyID = SQLStatement { _ in "\(serviceAccountSelect) WHERE key_id = :key_id" }
    static let liveServiceAccountByEmail = SQLStatement { _ in
        "\(serviceAccountSelect) WHERE email = :email AND revoked_at IS NULL"
    }
    static let insertServiceAccount = SQLStatement { _ in
        "INSERT INTO service_accounts (\(list(serviceAccountColumns))) VALUES (\(binds(serviceAccountColumns)))"
    }
    static let revokeServiceAccount = SQLStatement { _ in
        "UPDATE service_accounts SET revoked_at = :revoked_at WHERE key_id = :key_id AND revoked_at IS NULL"
    }

    static let projectRecordLookups: [(name: String, statement: SQLStatement)] = [
        ("retireSigningKey", retireSigningKey), ("deleteSigningKey", deleteSigningKey),
        ("devAccountBySubject", devAccountBySubject), ("devAccountByEmail", devAccountByEmail),
        ("devAccountExists", devAccountExists), ("devGrantByHash", devGrantByHash), ("deleteDevGrant", deleteDevGrant),
        ("deleteDevGrantsOfClient", deleteDevGrantsOfClient), ("deleteExpiredDevGrants", deleteExpiredDevGrants),
        ("serviceAccountByKeyID", serviceAccountByKeyID), ("liveServiceAccountByEmail", liveServiceAccountByEmail),
        ("revokeServiceAccount", revokeServiceAccount),
    ]
}

extension SQLStoreReading {
    // MARK: Signing keys

    public func signingKeys() throws -> [SigningKeyRecord] {
        try run("signingKeys") { try query(SQLCatalogue.signingKeys) { try $0.signingKey(sealer: sealer) } }
    }

    // MARK: Dev IdP

    public func devAccounts() throws -> [DevIdPAccount] {
        try run("devAccounts") { try query(SQLCatalogue.devAccounts) { try $0.devAccount() } }
    }

    public func devAccount(subject: String) throws -> DevIdPAccount? {
        try run("devAccount(subject:)") {
            try queryFirst(SQLCatalogue.devAccountBySubject, ["subject": .text(subject)]) { try $0.devAccount() }
        }
    }

    public func devAccount(email: String) throws -> DevIdPAccount? {
        try run("devAccount(email:)") {
            try queryFirst(SQLCatalogue.devAccountByEmail, ["email": .text(email.lowercased())]) { try $0.devAccount() }
        }
    }

    public func devGrant(hash: String) throws -> DevIdPGrant? {
        try run("devGrant(hash:)") {
            try queryFirst(SQLCatalogue.devGrantByHash, ["token_hash": .text(hash)]) { try $0.devGrant() }
        }
    }

    // MARK: Service accounts

    public func serviceAccounts() throws -> [ServiceAccountRecord] {
        try run("serviceAccounts") { try query(SQLCatalogue.serviceAccounts) { try $0.serviceAccount() } }
    }

    public func serviceAccount(keyID: String) throws -> ServiceAccountRecord? {
        try run("serviceAccount(keyID:)") {
            try queryFirst(SQLCatalogue.serviceAccountByKeyID, ["key_id": .text(keyID)]) { try $0.serviceAccount() }
        }
    }

    public func serviceAccount(email: String) throws -> ServiceAccountRecord? {
        try run("serviceAccount(email:)") {
            try queryFirst(SQLCatalogue.liveServiceAccountByEmail, ["email": .text(email.lowercased())]) {
                try $0.serviceAccount()
            }
        }
    }
}

extension SQLStoreWriting {
    // MARK: Signing keys

    public func insertSigningKey(_ key: SigningKeyRecord) throws {
        try run("insertSigningKey") {
            try execute(SQLCatalogue.insertSigningKey, try key.binds(self)) { $0.isTaken ? .duplicateKeyID : nil }
        }
    }

    public func retireSigningKey(keyID: String, at seconds: Int64) throws {
        try run("retireSigningKey") {
            guard try execute(SQLCatalogue.retireSigningKey, ["retired_at": .integer(seconds), "key_id": .text(keyID)]) > 0
            else { throw StoreError(.notFound) }
        }
    }

    @discardableResult
    public func deleteSigningKey(keyID: String) throws -> Bool {
        try run("deleteSigningKey") { try execute(SQLCatalogue.deleteSigningKey, ["key_id": .text(keyID)]) > 0 }
    }

    // MARK: Dev IdP

    public func insertDevAccount(_ account: DevIdPAccount) throws {
        try run("insertDevAccount") {
            try execute(SQLCatalogue.insertDevAccount, account.binds) { violation in
                guard violation.isTaken else { return nil }
                // A taken subject wins over a taken email, whichever the engine noticed first.
                return try exists(SQLCatalogue.devAccountExists, ["subject": .text(account.subject)])
                    ? .duplicateLocalID : .duplicateEmail
            }
        }
    }

    public func insertDevGrant(_ grant: DevIdPGrant) throws {
        try run("insertDevGrant") {
            try execute(SQLCatalogue.insertDevGrant, grant.binds) { $0.isTaken ? .duplicateToken : nil }
        }
    }

    @discardableResult
    public func deleteDevGrant(hash: String) throws -> Bool {
        try run("deleteDevGrant") { try execute(SQLCatalogue.deleteDevGrant, ["token_hash": .text(hash)]) > 0 }
    }

    @discardableResult
    public func deleteDevGrants(subject: String, clientID: String) throws -> Int {
        try run("deleteDevGrants") {
            try execute(SQLCatalogue.deleteDevGrantsOfClient, ["subject": .text(subject), "client_id": .text(clientID)])
        }
    }

    @discardableResult
    public func deleteExpiredDevGrants(before seconds: Int64) throws -> Int {
        try run("deleteExpiredDevGrants") { try execute(SQLCatalogue.deleteExpiredDevGrants, ["before": .integer(seconds)]) }
    }

    // MARK: Service accounts

    public func insertServiceAccount(_ account: ServiceAccountRecord) throws {
        try run("insertServiceAccount") {
            try execute(SQLCatalogue.insertServiceAccount, account.binds) { violation in
                switch violation {
                case .primaryKey: .duplicateKeyID
                case .unique: .duplicateEmail
                case .foreignKey, .other: nil
                }
            }
        }
    }

    @discardableResult
    public func revokeServiceAccount(keyID: String, at seconds: Int64) throws -> Bool {
        try run("revokeServiceAccount") {
            try execute(SQLCatalogue.revokeServiceAccount, ["revoked_at": .integer(seconds), "key_id": .text(keyID)]) > 0
        }
    }
}
