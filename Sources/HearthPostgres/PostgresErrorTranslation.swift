import HearthCore
import HearthSQLShared
import Postgres

/// Turns errors from the PostgreSQL layer into `StoreError`s; any other error (a `StoreError`, or one the caller's
/// closure threw) passes through unchanged. Details carry PostgreSQL's message (which never holds parameter values
/// or the connection URL's password), never stored values.
///
/// | error | `StoreError` |
/// | --- | --- |
/// | `PostgresPoolClosedError` | `.closed` |
/// | 23505 on a constraint of ``uniqueConstraintCodes`` | its code (`.duplicateEmail`, …) |
/// | 23503 (a foreign key: the account is gone) | `.notFound` |
/// | anything else PostgreSQL, libpq or a pooler reports | `.unavailable` |
///
/// The last row is what keeps a database failure from becoming a 500: a connection refused or lost (class 08,
/// which PgBouncer also uses for its own errors, or no SQLSTATE at all), the server shutting down (57P01–57P03),
/// a read-only session after a failover (25006), too many connections (53300) or any other lack of resources (53),
/// a cancelled or timed-out statement (57014), a lost race that kept losing (40001, 40P01), and any error Hearth's
/// SQL should never meet (a schema a newer Hearth changed): all are the store failing, for `WireFailure` a 503.
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
            return StoreError(.unavailable, "\(operation): the connection to PostgreSQL failed: \(error)")
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
    "tenants_pkey": .duplicateTenant,
    "provider_configs_pkey": .duplicateProviderConfig,
]

extension PostgresError {
    /// The constraint the statement broke (a primary key is the one whose name ends in `_pkey`), if it broke one.
    var violation: SQLConstraintViolation? {
        guard let sqlState, sqlState.hasPrefix("23") else { return nil }
        switch sqlState {
        case "23505": return constraint?.hasSuffix("_pkey") == true ? .primaryKey : .unique
        case foreignKeyViolation: return .foreignKey
        default: return .other
        }
    }
}
