import HearthCore
import HearthSQLShared
import SQLite

/// What belongs to the project as a whole: signing keys, service accounts, the dev IdP's accounts and grants.
extension SQLiteStoreReader {
    // MARK: Signing keys

    final func signingKeys() throws -> [SigningKeyRecord] {
        try run("signingKeys") {
            try connection.queryAll(SQL.signingKeys) { try $0.signingKey(sealer: sealer) }
        }
    }

    // MARK: Dev IdP

    final func devAccounts() throws -> [DevIdPAccount] {
        try run("devAccounts") { try connection.queryAll(SQL.devAccounts, []) { try $0.devAccount() } }
    }

    final func devAccount(subject: String) throws -> DevIdPAccount? {
        try run("devAccount(subject:)") {
            try connection.queryFirst(SQL.devAccountBySubject, [.text(subject)]) { try $0.devAccount() }
        }
    }

    final func devAccount(email: String) throws -> DevIdPAccount? {
        try run("devAccount(email:)") {
            try connection.queryFirst(SQL.devAccountByEmail, [.text(email.lowercased())]) { try $0.devAccount() }
        }
    }

    final func devGrant(hash: String) throws -> DevIdPGrant? {
        try run("devGrant(hash:)") {
            try connection.queryFirst(SQL.devGrantByHash, [.text(hash)]) { try $0.devGrant() }
        }
    }

    // MARK: Service accounts

    final func serviceAccounts() throws -> [ServiceAccountRecord] {
        try run("serviceAccounts") { try connection.queryAll(SQL.serviceAccounts, []) { try $0.serviceAccount() } }
    }

    final func serviceAccount(keyID: String) throws -> ServiceAccountRecord? {
        try run("serviceAccount(keyID:)") {
            try connection.queryFirst(SQL.serviceAccountByKeyID, [.text(keyID)]) { try $0.serviceAccount() }
        }
    }

    final func serviceAccount(email: String) throws -> ServiceAccountRecord? {
        try run("serviceAccount(email:)") {
            try connection.queryFirst(SQL.liveServiceAccountByEmail, [.text(email.lowercased())]) { try $0.serviceAccount() }
        }
    }
}

extension SQLiteStoreWriter {
    // MARK: Signing keys

    func insertSigningKey(_ key: SigningKeyRecord) throws {
        try run("insertSigningKey") {
            try execute(
                SQL.insertSigningKey,
                [
                    .text(key.keyID), .text(key.algorithm),
                    try sealedValue(key.privateKeyPEM, SecretField(.signingKey, recordID: key.keyID)),
                    .integer(key.createdAt), SQLiteValue(key.retiredAt),
                ]
            ) { code in code == .constraintPrimaryKey || code == .constraintUnique ? .duplicateKeyID : nil }
        }
    }

    func retireSigningKey(keyID: String, at seconds: Int64) throws {
        try run("retireSigningKey") {
            guard try execute(SQL.retireSigningKey, [.integer(seconds), .text(keyID)]) > 0 else {
                throw StoreError(.notFound)
            }
        }
    }

    @discardableResult
    func deleteSigningKey(keyID: String) throws -> Bool {
        try run("deleteSigningKey") { try execute(SQL.deleteSigningKey, [.text(keyID)]) > 0 }
    }

    // MARK: Dev IdP

    func insertDevAccount(_ account: DevIdPAccount) throws {
        try run("insertDevAccount") {
            do {
                try execute(
                    SQL.insertDevAccount,
                    [
                        .text(account.subject), .text(account.email.lowercased()), SQLiteValue(account.emailVerified),
                        SQLiteValue(account.name), SQLiteValue(account.givenName), SQLiteValue(account.familyName),
                        SQLiteValue(account.pictureURL), SQLiteValue(account.hostedDomain),
                        SQLiteValue(account.locale), .integer(account.createdAtMillis),
                    ])
            } catch SQLiteError.ResultCode.constraint {
                // A taken subject wins over a taken email, whichever SQLite noticed first.
                throw StoreError(try exists(SQL.devAccountExists, account.subject) ? .duplicateLocalID : .duplicateEmail)
            }
        }
    }

    func insertDevGrant(_ grant: DevIdPGrant) throws {
        try run("insertDevGrant") {
            try execute(
                SQL.insertDevGrant,
                [
                    .text(grant.tokenHash), .text(grant.kind.rawValue), .text(grant.subject), .text(grant.clientID),
                    .text(grant.scope), SQLiteValue(grant.redirectURI), SQLiteValue(grant.codeChallenge),
                    SQLiteValue(grant.nonce), SQLiteValue(grant.audience), .integer(grant.expiresAt),
                    .integer(grant.createdAt),
                ]
            ) { code in code == .constraintPrimaryKey || code == .constraintUnique ? .duplicateToken : nil }
        }
    }

    @discardableResult
    func deleteDevGrant(hash: String) throws -> Bool {
        try run("deleteDevGrant") { try execute(SQL.deleteDevGrant, [.text(hash)]) > 0 }
    }

    @discardableResult
    func deleteDevGrants(subject: String, clientID: String) throws -> Int {
        try run("deleteDevGrants") { try execute(SQL.deleteDevGrantsOfClient, [.text(subject), .text(clientID)]) }
    }

    @discardableResult
    func deleteExpiredDevGrants(before seconds: Int64) throws -> Int {
        try run("deleteExpiredDevGrants") { try execute(SQL.deleteExpiredDevGrants, [.integer(seconds)]) }
    }

    // MARK: Service accounts

    func insertServiceAccount(_ account: ServiceAccountRecord) throws {
        try run("insertServiceAccount") {
            try execute(
                SQL.insertServiceAccount,
                [
                    .text(account.keyID), .text(account.email.lowercased()), .text(account.clientID),
                    .text(account.publicKeyPEM), .integer(account.createdAt), SQLiteValue(account.revokedAt),
                ]
            ) { code in code == .constraintPrimaryKey ? .duplicateKeyID : code == .constraintUnique ? .duplicateEmail : nil }
        }
    }

    @discardableResult
    func revokeServiceAccount(keyID: String, at seconds: Int64) throws -> Bool {
        try run("revokeServiceAccount") { try execute(SQL.revokeServiceAccount, [.integer(seconds), .text(keyID)]) > 0 }
    }
}

extension SQL {
    static let signingKeys = """
        SELECT key_id, algorithm, private_key_pem, created_at, retired_at
        FROM signing_keys ORDER BY created_at, rowid
        """
    static let insertSigningKey = """
        INSERT INTO signing_keys (key_id, algorithm, private_key_pem, created_at, retired_at) VALUES (?, ?, ?, ?, ?)
        """
    static let retireSigningKey = "UPDATE signing_keys SET retired_at = ? WHERE key_id = ?"
    static let deleteSigningKey = "DELETE FROM signing_keys WHERE key_id = ?"

    private static let devAccountSelect = """
        SELECT subject, email, email_verified, name, given_name, family_name, picture_url, hosted_domain, locale,
            created_at_millis
        FROM dev_accounts
        """
    static let devAccounts = "\(devAccountSelect) ORDER BY created_at_millis, rowid"
    static let devAccountBySubject = "\(devAccountSelect) WHERE subject = ?"
    static let devAccountByEmail = "\(devAccountSelect) WHERE email = ?"
    static let devAccountExists = "SELECT 1 FROM dev_accounts WHERE subject = ?"
    static let insertDevAccount = """
        INSERT INTO dev_accounts (subject, email, email_verified, name, given_name, family_name, picture_url,
            hosted_domain, locale, created_at_millis)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static let devGrantByHash = """
        SELECT token_hash, kind, subject, client_id, scope, redirect_uri, code_challenge, nonce, audience,
            expires_at, created_at
        FROM dev_grants WHERE token_hash = ?
        """
    static let insertDevGrant = """
        INSERT INTO dev_grants (token_hash, kind, subject, client_id, scope, redirect_uri, code_challenge, nonce,
            audience, expires_at, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let deleteDevGrant = "DELETE FROM dev_grants WHERE token_hash = ?"
    static let deleteDevGrantsOfClient = "DELETE FROM dev_grants WHERE subject = ? AND client_id = ?"
    static let deleteExpiredDevGrants = "DELETE FROM dev_grants WHERE expires_at < ?"

    private static let serviceAccountSelect = """
        SELECT key_id, email, client_id, public_key_pem, created_at, revoked_at FROM service_accounts
        """
    static let serviceAccounts = "\(serviceAccountSelect) ORDER BY created_at, rowid"
    static let serviceAccountByKeyID = "\(serviceAccountSelect) WHERE key_id = ?"
    static let liveServiceAccountByEmail = "\(serviceAccountSelect) WHERE email = ? AND revoked_at IS NULL"
    static let insertServiceAccount = """
        INSERT INTO service_accounts (key_id, email, client_id, public_key_pem, created_at, revoked_at)
        VALUES (?, ?, ?, ?, ?, ?)
        """
    static let revokeServiceAccount = "UPDATE service_accounts SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL"
}
