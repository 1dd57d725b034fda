import HearthCore

/// The records of the SQL stores as the binds of their rows: each bind is named by its column (see the column lists
/// of ``SQLCatalogue``), the inverse of the decoders of `StoredRow`. Emails are stored lower-cased.
extension OOBCodeRecord {
    var binds: SQLBinds {
        [
            "code_hash": .text(codeHash), "kind": .text(kind.rawValue), "local_id": SQLValue(localID),
            "email": .text(email.lowercased()), "new_email": SQLValue(newEmail?.lowercased()),
            "continue_url": SQLValue(continueURL), "created_at_millis": .integer(createdAtMillis),
            "expires_at_millis": .integer(expiresAtMillis),
        ]
    }
}

extension ProviderTokenRevocation {
    /// The token sealed by `session`'s sealer.
    func binds(_ session: some SQLStoreSession) throws -> SQLBinds {
        [
            "revocation_id": .text(id), "provider_id": .text(providerID), "client_id": .text(clientID),
            "token": try session.sealed(Array(token.utf8), SecretField(.providerTokenRevocation, recordID: id)),
            "token_type_hint": .text(tokenTypeHint), "local_id": .text(localID),
            "created_at_millis": .integer(createdAtMillis), "attempts": SQLValue(attempts),
            "next_attempt_at_millis": .integer(nextAttemptAtMillis), "last_error": SQLValue(lastError),
        ]
    }
}

extension LimitCounter {
    var binds: SQLBinds {
        [
            "key": .text(key), "window_start_millis": .integer(windowStartMillis), "count": SQLValue(count),
            "streak": SQLValue(streak), "lockouts": SQLValue(lockouts), "locked_until_millis": .integer(lockedUntilMillis),
            "expires_at_millis": .integer(expiresAtMillis),
        ]
    }
}

extension AuditEvent {
    var binds: SQLBinds {
        [
            "id": .text(id), "at_millis": .integer(atMillis), "kind": .text(kind.rawValue), "local_id": SQLValue(localID),
            "provider": SQLValue(provider), "client_address": SQLValue(clientAddress), "actor": .text(actor.rawValue),
            "detail": .text(detail),
        ]
    }
}

extension SigningKeyRecord {
    /// The private key sealed by `session`'s sealer.
    func binds(_ session: some SQLStoreSession) throws -> SQLBinds {
        [
            "key_id": .text(keyID), "algorithm": .text(algorithm),
            "private_key_pem": try session.sealed(privateKeyPEM, SecretField(.signingKey, recordID: keyID)),
            "created_at": .integer(createdAt), "retired_at": SQLValue(retiredAt),
        ]
    }
}

extension DevIdPAccount {
    var binds: SQLBinds {
        [
            "subject": .text(subject), "email": .text(email.lowercased()), "email_verified": .bool(emailVerified),
            "name": SQLValue(name), "given_name": SQLValue(givenName), "family_name": SQLValue(familyName),
            "picture_url": SQLValue(pictureURL), "hosted_domain": SQLValue(hostedDomain), "locale": SQLValue(locale),
            "created_at_millis": .integer(createdAtMillis),
        ]
    }
}

extension DevIdPGrant {
    var binds: SQLBinds {
        [
            "token_hash": .text(tokenHash), "kind": .text(kind.rawValue), "subject": .text(subject),
            "client_id": .text(clientID), "scope": .text(scope), "redirect_uri": SQLValue(redirectURI),
            "code_challenge": SQLValue(codeChallenge), "nonce": SQLValue(nonce), "audience": SQLValue(audience),
            "expires_at": .integer(expiresAt), "created_at": .integer(createdAt),
        ]
    }
}

extension ServiceAccountRecord {
    var binds: SQLBinds {
        [
            "key_id": .text(keyID), "email": .text(email.lowercased()), "client_id": .text(clientID),
            "public_key_pem": .text(publicKeyPEM), "created_at": .integer(createdAt), "revoked_at": SQLValue(revokedAt),
        ]
    }
}

extension MFAPendingSignIn {
    var binds: SQLBinds {
        [
            "credential_hash": .text(credentialHash), "local_id": .text(localID), "sign_in_provider": .text(signInProvider),
            "expires_at": .integer(expiresAt), "failed_attempts": SQLValue(failedAttempts),
            "created_at_millis": .integer(createdAtMillis),
        ]
    }
}

extension VerificationSession {
    /// The TOTP secret sealed by `session`'s sealer.
    func binds(_ session: some SQLStoreSession) throws -> SQLBinds {
        [
            "session_hash": .text(sessionHash), "purpose": .text(purpose.rawValue), "local_id": .text(localID),
            "phone_number": SQLValue(phoneNumber), "code_hash": SQLValue(codeHash),
            "totp_secret": try session.sealed(totpSecret, SecretField(.verificationSessionTOTPSecret, recordID: sessionHash)),
            "pending_credential_hash": SQLValue(pendingCredentialHash), "enrollment_id": SQLValue(enrollmentID),
            "failed_attempts": SQLValue(failedAttempts), "expires_at": .integer(expiresAt),
            "created_at_millis": .integer(createdAtMillis), "verified_at_millis": SQLValue(verifiedAtMillis),
        ]
    }
}

extension RefreshSession {
    var binds: SQLBinds {
        [
            "session_id": .text(sessionID), "local_id": .text(localID), "sign_in_provider": .text(signInProvider),
            "auth_time": .integer(authTime), "second_factor": SQLValue(secondFactor),
            "second_factor_identifier": SQLValue(secondFactorIdentifier), "session_claims": SQLValue(sessionClaims),
            "started_at_millis": .integer(startedAtMillis), "revoked_at_millis": SQLValue(revokedAtMillis),
            "current_token_hash": .text(currentTokenHash), "replaced_token_hash": SQLValue(replaced?.tokenHash),
            "replaced_at_millis": SQLValue(replaced?.replacedAtMillis),
            "sealed_successor": SQLValue(replaced?.sealedSuccessor),
        ]
    }
}

extension Account {
    var binds: SQLBinds {
        [
            "local_id": .text(localID), "email": SQLValue(email?.lowercased()), "email_verified": .bool(emailVerified),
            "display_name": SQLValue(displayName), "photo_url": SQLValue(photoURL), "phone_number": SQLValue(phoneNumber),
            "password_hash": SQLValue(passwordHash), "disabled": .bool(disabled),
            "custom_attributes": SQLValue(customAttributes), "created_at_millis": .integer(createdAtMillis),
            "last_login_at_millis": SQLValue(lastLoginAtMillis), "last_refresh_at_millis": SQLValue(lastRefreshAtMillis),
            "valid_since_millis": .integer(validSinceMillis), "is_anonymous": .bool(isAnonymous),
            "password_updated_at_millis": SQLValue(passwordUpdatedAtMillis), "initial_email": SQLValue(initialEmail),
            "email_link_sign_in": .bool(emailLinkSignIn),
        ]
    }
}

extension LinkedIdentity {
    /// The row of `account`'s identity at `position`, its refresh token sealed by `session`'s sealer.
    func binds(of account: Account, at position: Int, _ session: some SQLStoreSession) throws -> SQLBinds {
        [
            "local_id": .text(account.localID), "position": SQLValue(position), "provider_id": .text(providerID),
            "raw_id": .text(rawID), "email": SQLValue(email), "display_name": SQLValue(displayName),
            "photo_url": SQLValue(photoURL), "screen_name": SQLValue(screenName),
            "provider_refresh_token": try session.sealed(
                providerRefreshToken.map { Array($0.token.utf8) },
                .providerRefreshToken(providerID: providerID, rawID: rawID)),
            "provider_client_id": SQLValue(providerRefreshToken?.clientID),
        ]
    }
}

extension MFAEnrollment {
    /// The row of `account`'s enrolment at `position`, its TOTP secret sealed by `session`'s sealer.
    func binds(of account: Account, at position: Int, _ session: some SQLStoreSession) throws -> SQLBinds {
        [
            "local_id": .text(account.localID), "position": SQLValue(position), "enrollment_id": .text(enrollmentID),
            "kind": .text(kind.rawValue), "display_name": SQLValue(displayName),
            "enrolled_at_millis": .integer(enrolledAtMillis), "phone_number": SQLValue(phoneNumber),
            "totp_secret": try session.sealed(totpSecret, SecretField(.mfaEnrollmentTOTPSecret, recordID: enrollmentID)),
            "last_used_totp_step": SQLValue(lastUsedTOTPStep),
        ]
    }
}
