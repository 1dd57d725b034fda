/// Checks passwords against the hashes `accounts:batchCreate` imported (``ImportedPasswordHash``, stored as
/// `$hearth-import-v1$…`), for ``PasswordHashing`` implementations to consult; they rehash to Argon2id on the first
/// match.
public struct ImportedPasswordHashVerifier: StoredPasswordHashVerifier {
    public init() {}

    public func recognizes(_ stored: String) -> Bool {
        stored.hasPrefix(ImportedPasswordHash.prefix)
    }

    /// Throws ``ImportedPasswordHash/Refusal`` for a string that is not a well-formed imported hash within bounds.
    public func verify(_ password: String, against stored: String) throws -> Bool {
        try ImportedPasswordHash(stored: stored).matches(password)
    }
}
