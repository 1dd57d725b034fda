public import HearthCore

/// One row of a query result, as the SQL stores read it (`SQLiteRow`, `PostgresRow`): what the record decoders below
/// need, so that both stores turn rows into records the same way. Column indexes are 0-based; `required…` throw the
/// row type's own error on NULL or a value of another type.
public protocol StoredRow {
    func text(_ column: Int) -> String?
    func int64(_ column: Int) -> Int64?
    /// A BLOB or BYTEA column.
    func bytes(_ column: Int) -> [UInt8]?
    func requiredText(_ column: Int) throws -> String
    func requiredInt64(_ column: Int) throws -> Int64
    func requiredBool(_ column: Int) throws -> Bool
}

/// The columns of a row from `offset` on, as a row of their own: a record joined to another in one query decodes
/// with the record's own decoder.
public struct ColumnsFrom<Row: StoredRow>: StoredRow {
    private let row: Row
    private let offset: Int

    public init(_ row: Row, _ offset: Int) {
        self.row = row
        self.offset = offset
    }

    public func text(_ column: Int) -> String? { row.text(offset + column) }
    public func int64(_ column: Int) -> Int64? { row.int64(offset + column) }
    public func bytes(_ column: Int) -> [UInt8]? { row.bytes(offset + column) }
    public func requiredText(_ column: Int) throws -> String { try row.requiredText(offset + column) }
    public func requiredInt64(_ column: Int) throws -> Int64 { try row.requiredInt64(offset + column) }
    public func requiredBool(_ column: Int) throws -> Bool { try row.requiredBool(offset + column) }
}

/// The records of the SQL stores, decoded from rows whose columns are in the order both stores select them (their
/// schemas name the columns alike). Secrets are opened with the store's sealer; a value no record can hold is
/// `StoreError.corrupt`.
extension StoredRow {
    /// `local_id, email, email_verified, display_name, photo_url, phone_number, password_hash, disabled,
    /// custom_attributes, created_at_millis, last_login_at_millis, last_refresh_at_millis, valid_since_millis,
    /// is_anonymous, password_updated_at_millis, initial_email, email_link_sign_in`; no identities or enrolments.
    public func account() throws -> Account {
        Account(
            localID: try requiredText(0), email: text(1), emailVerified: try requiredBool(2), displayName: text(3),
            photoURL: text(4), phoneNumber: text(5), passwordHash: text(6), disabled: try requiredBool(7),
            customAttributes: text(8), createdAtMillis: try requiredInt64(9), lastLoginAtMillis: int64(10),
            lastRefreshAtMillis: int64(11), validSinceMillis: try requiredInt64(12), isAnonymous: try requiredBool(13),
            passwordUpdatedAtMillis: int64(14), initialEmail: text(15), emailLinkSignIn: try requiredBool(16))
    }

    /// `provider_id, raw_id, email, display_name, photo_url, screen_name, provider_refresh_token, provider_client_id`.
    public func linkedIdentity(sealer: any SecretSealer) throws -> LinkedIdentity {
        var identity = LinkedIdentity(
            providerID: try requiredText(0), rawID: try requiredText(1), email: text(2), displayName: text(3),
            photoURL: text(4), screenName: text(5))
        if let sealed = bytes(6) {
            guard let clientID = text(7) else {
                throw StoreError(.corrupt, "account: a provider refresh token without its client")
            }
            let field = SecretField.providerRefreshToken(providerID: identity.providerID, rawID: identity.rawID)
            let token = String(decoding: try sealer.open(sealed, for: field), as: UTF8.self)
            identity.providerRefreshToken = ProviderRefreshToken(token: token, clientID: clientID)
        }
        return identity
    }

    /// `enrollment_id, kind, display_name, enrolled_at_millis, phone_number, totp_secret, last_used_totp_step`.
    public func mfaEnrollment(sealer: any SecretSealer) throws -> MFAEnrollment {
        guard let kind = MFAEnrollment.Kind(rawValue: try requiredText(1)) else {
            throw StoreError(.corrupt, "account: unknown MFA enrolment kind")
        }
        let enrollmentID = try requiredText(0)
        let field = SecretField(.mfaEnrollmentTOTPSecret, recordID: enrollmentID)
        return MFAEnrollment(
            enrollmentID: enrollmentID, kind: kind, displayName: text(2), enrolledAtMillis: try requiredInt64(3),
            phoneNumber: text(4), totpSecret: try bytes(5).map { try sealer.open($0, for: field) },
            lastUsedTOTPStep: int64(6))
    }

    /// `session_id, local_id, sign_in_provider, auth_time, second_factor, second_factor_identifier, session_claims,
    /// started_at_millis, revoked_at_millis, current_token_hash, replaced_token_hash, replaced_at_millis,
    /// sealed_successor`.
    public func refreshSession() throws -> RefreshSession {
        var replaced: ReplacedRefreshToken?
        if let replacedHash = text(10) {
            guard let replacedAt = int64(11), let sealed = bytes(12) else {
                throw StoreError(.corrupt, "refresh session: a replaced token without its time or successor")
            }
            replaced = ReplacedRefreshToken(tokenHash: replacedHash, replacedAtMillis: replacedAt, sealedSuccessor: sealed)
        }
        return RefreshSession(
            sessionID: try requiredText(0), localID: try requiredText(1), signInProvider: try requiredText(2),
            authTime: try requiredInt64(3), secondFactor: text(4), secondFactorIdentifier: text(5),
            sessionClaims: text(6), startedAtMillis: try requiredInt64(7), revokedAtMillis: int64(8),
            currentTokenHash: try requiredText(9), replaced: replaced)
    }

    /// `key_id, algorithm, private_key_pem, created_at, retired_at`.
    public func signingKey(sealer: any SecretSealer) throws -> SigningKeyRecord {
        let keyID = try requiredText(0)
        let pem = try sealer.open(Array(try requiredText(2).utf8), for: SecretField(.signingKey, recordID: keyID))
        return SigningKeyRecord(
            keyID: keyID, algorithm: try requiredText(1), privateKeyPEM: String(decoding: pem, as: UTF8.self),
            createdAt: try requiredInt64(3), retiredAt: int64(4))
    }

    /// `subject, email, email_verified, name, given_name, family_name, picture_url, hosted_domain, locale,
    /// created_at_millis`.
    public func devAccount() throws -> DevIdPAccount {
        DevIdPAccount(
            subject: try requiredText(0), email: try requiredText(1), emailVerified: try requiredBool(2), name: text(3),
            givenName: text(4), familyName: text(5), pictureURL: text(6), hostedDomain: text(7), locale: text(8),
            createdAtMillis: try requiredInt64(9))
    }

    /// `token_hash, kind, subject, client_id, scope, redirect_uri, code_challenge, nonce, audience, expires_at,
    /// created_at`.
    public func devGrant() throws -> DevIdPGrant {
        guard let kind = DevIdPGrant.Kind(rawValue: try requiredText(1)) else {
            throw StoreError(.corrupt, "devGrant(hash:): unknown grant kind")
        }
        return DevIdPGrant(
            tokenHash: try requiredText(0), kind: kind, subject: try requiredText(2), clientID: try requiredText(3),
            scope: try requiredText(4), redirectURI: text(5), codeChallenge: text(6), nonce: text(7), audience: text(8),
            expiresAt: try requiredInt64(9), createdAt: try requiredInt64(10))
    }

    /// `credential_hash, local_id, sign_in_provider, expires_at, failed_attempts, created_at_millis`.
    public func mfaPendingSignIn() throws -> MFAPendingSignIn {
        MFAPendingSignIn(
            credentialHash: try requiredText(0), localID: try requiredText(1), signInProvider: try requiredText(2),
            expiresAt: try requiredInt64(3), failedAttempts: Int(try requiredInt64(4)),
            createdAtMillis: try requiredInt64(5))
    }

    /// `session_hash, purpose, local_id, phone_number, code_hash, totp_secret, pending_credential_hash, enrollment_id,
    /// failed_attempts, expires_at, created_at_millis, verified_at_millis`.
    public func verificationSession(sealer: any SecretSealer) throws -> VerificationSession {
        guard let purpose = VerificationSession.Purpose(rawValue: try requiredText(1)) else {
            throw StoreError(.corrupt, "verification session: unknown purpose")
        }
        let sessionHash = try requiredText(0)
        let field = SecretField(.verificationSessionTOTPSecret, recordID: sessionHash)
        return VerificationSession(
            sessionHash: sessionHash, purpose: purpose, localID: try requiredText(2), phoneNumber: text(3),
            codeHash: text(4), totpSecret: try bytes(5).map { try sealer.open($0, for: field) },
            pendingCredentialHash: text(6), enrollmentID: text(7), failedAttempts: Int(try requiredInt64(8)),
            expiresAt: try requiredInt64(9), createdAtMillis: try requiredInt64(10), verifiedAtMillis: int64(11))
    }

    /// `key_id, email, client_id, public_key_pem, created_at, revoked_at`.
    public func serviceAccount() throws -> ServiceAccountRecord {
        ServiceAccountRecord(
            keyID: try requiredText(0), email: try requiredText(1), clientID: try requiredText(2),
            publicKeyPEM: try requiredText(3), createdAt: try requiredInt64(4), revokedAt: int64(5))
    }

    /// `key, window_start_millis, count, streak, lockouts, locked_until_millis, expires_at_millis`.
    public func limitCounter() throws -> LimitCounter {
        LimitCounter(
            key: try requiredText(0), windowStartMillis: try requiredInt64(1), count: Int(try requiredInt64(2)),
            streak: Int(try requiredInt64(3)), lockouts: Int(try requiredInt64(4)),
            lockedUntilMillis: try requiredInt64(5), expiresAtMillis: try requiredInt64(6))
    }

    /// `code_hash, kind, local_id, email, new_email, continue_url, created_at_millis, expires_at_millis`.
    public func oobCode() throws -> OOBCodeRecord {
        guard let kind = OOBCodeRecord.Kind(rawValue: try requiredText(1)) else {
            throw StoreError(.corrupt, "oobCode(hash:): unknown code kind")
        }
        return OOBCodeRecord(
            codeHash: try requiredText(0), kind: kind, localID: text(2), email: try requiredText(3), newEmail: text(4),
            continueURL: text(5), createdAtMillis: try requiredInt64(6), expiresAtMillis: try requiredInt64(7))
    }

    /// `revocation_id, provider_id, client_id, token, token_type_hint, local_id, created_at_millis, attempts,
    /// next_attempt_at_millis, last_error`.
    public func providerTokenRevocation(sealer: any SecretSealer) throws -> ProviderTokenRevocation {
        let id = try requiredText(0)
        guard let sealed = bytes(3) else { throw StoreError(.corrupt, "provider-token revocation without a token") }
        let token = try sealer.open(sealed, for: SecretField(.providerTokenRevocation, recordID: id))
        return ProviderTokenRevocation(
            id: id, providerID: try requiredText(1), clientID: try requiredText(2),
            token: String(decoding: token, as: UTF8.self), tokenTypeHint: try requiredText(4),
            localID: try requiredText(5), createdAtMillis: try requiredInt64(6), attempts: Int(try requiredInt64(7)),
            nextAttemptAtMillis: try requiredInt64(8), lastError: text(9))
    }

    /// `id, at_millis, kind, local_id, provider, client_address, actor, detail`.
    public func auditEvent() throws -> AuditEvent {
        AuditEvent(
            id: try requiredText(0), atMillis: try requiredInt64(1), kind: AuditEventKind(rawValue: try requiredText(2)),
            localID: text(3), provider: text(4), clientAddress: text(5), actor: AuditActor(rawValue: try requiredText(6)),
            detail: try requiredText(7))
    }
}
