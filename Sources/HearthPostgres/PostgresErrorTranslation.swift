import HearthCore
import Postgres

/// Turns errors from the PostgreSQL layer into `StoreError`s; any other error (a `StoreError`, or one the caller's
/// closure threw) passes through unchanged. Details carry PostgreSQL's message (which never holds parameter values
/// or the connection URL's password), never stored values.
func translatePostgresError(_ error: any Error, operation: String) -> any Error {
    switch error {
    case is PostgresPoolClosedError:
        return StoreError(.closed, "the store is closed")
    case let error as PostgresError:
        if error.isUniqueViolation, let code = error.constraint.flatMap({ uniqueConstraintCodes[$0] }) {
            return StoreError(code)
        }
        if error.sqlState == foreignKeyViolation { return StoreError(.notFound) }
        if error.isConnectionFailure {
            return StoreError(.unavailable, "\(operation): the connection to PostgreSQL failed: \(error.message)")
        }
        return StoreError(.unavailable, "\(operation): \(error)")
    default:
        return error
    }
}

/// A record refers to an account that does not exist (a pending MFA sign-in's).
let foreignKeyViolation = "23503"

/// The `StoreError` code of each unique constraint of the schema (see `PostgresSchema`).
let uniqueConstraintCodes: [String: StoreError.Code] = [
    "accounts_pkey": .duplicateLocalID,
    "accounts_email_key": .duplicateEmail,
    "identities_provider_raw_id_key": .duplicateIdentity,
    "mfa_enrollments_enrollment_id_key": .duplicateEnrollment,
    "mfa_pending_sign_ins_pkey": .duplicateToken,
    "verification_sessions_pkey": .duplicateToken,
    "refresh_sessions_pkey": .duplicateToken,
    "signing_keys_pkey": .duplicateKeyID,
    "dev_accounts_pkey": .duplicateLocalID,
    "dev_accounts_email_key": .duplicateEmail,
    "dev_grants_pkey": .duplicateToken,
    "service_accounts_pkey": .duplicateKeyID,
    "service_accounts_live_email": .duplicateEmail,
    "provider_token_revocations_pkey": .duplicateToken,
    "oob_codes_pkey": .duplicateToken,
]
