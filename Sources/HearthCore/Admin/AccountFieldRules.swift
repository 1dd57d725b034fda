import HearthProtocol

/// What an administrator may set an account's identifiers to.
enum AccountFieldRules {
    /// A uid: 1 to 128 characters, as Firebase allows.
    static func checkLocalID(_ localID: String) throws {
        guard (1...128).contains(localID.count) else {
            throw WireError(.invalidArgument, "localId must be 1 to 128 characters long.")
        }
    }

    /// The email to store (lower-cased): one `@` with text on both sides, at most 254 bytes, no spaces or
    /// control characters.
    static func checkedEmail(_ email: String) throws -> String {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, email.utf8.count <= 254,
            !email.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else { throw WireError(.invalidEmail, "The email address is badly formatted.") }
        return email.lowercased()
    }

    /// An E.164 number (`+` and 7 to 15 digits).
    static func checkPhoneNumber(_ number: String, code: ErrorCode = .invalidPhoneNumber) throws {
        guard PhoneNumbers.isE164(number) else { throw WireError(code, "Invalid format.") }
    }
}
