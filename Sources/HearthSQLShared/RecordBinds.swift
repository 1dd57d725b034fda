public import HearthCore

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
