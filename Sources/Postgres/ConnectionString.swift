internal import CLibPQ

/// The password in a libpq connection URI or keyword/value string, or `nil` if it sets none.
///
/// - Throws: `PostgresError` (a connection failure) if libpq cannot parse the string. libpq's own explanation is
///   left out: it quotes the part it could not parse, which may be the password.
func passwordInConnectionString(_ connectionString: String) throws -> String? {
    var errorMessage: UnsafeMutablePointer<CChar>?
    guard let options = PQconninfoParse(connectionString, &errorMessage) else {
        PQfreemem(errorMessage)
        throw PostgresError(
            message: "the database connection string is not a valid libpq URI or keyword/value string "
                + "(libpq's explanation is left out because it may quote the password)",
            isConnectionFailure: true)
    }
    defer { PQconninfoFree(options) }
    var option = options
    while let keyword = option.pointee.keyword {
        if String(cString: keyword) == "password", let value = option.pointee.val {
            return String(cString: value)
        }
        option += 1
    }
    return nil
}

/// `message` with every occurrence of `password` replaced by `***`. libpq does not put passwords into its
/// messages; this makes sure of it.
func redacting(_ password: String?, in message: String) -> String {
    guard let password, !password.isEmpty else { return message }
    return message.replacing(password, with: "***")
}
