import Foundation
import HearthProtocol

/// What an administrator may set an account's identifiers to.
enum AccountFieldRules {
    /// A uid: 1 to 128 characters, as Firebase allows.
    static func checkLocalID(_ localID: String) throws {
        guard (1...128).contains(localID.count) else {
            throw WireError(.invalidArgument, "localId must be 1 to 128 characters long.")
        }
    }

    /// The email to store, in its one canonical spelling: Unicode NFC, lower-cased. One `@` with text on both sides, at
    /// most 254 bytes, and nothing a reader cannot see or that reorders what they see: no spaces, control or format
    /// characters (zero-width spaces and joiners, bidirectional controls), default-ignorable, private-use or unassigned
    /// code points. So two addresses that look alike are one address, or one of them is refused.
    static func checkedEmail(_ email: String) throws -> String {
        let canonical = email.precomposedStringWithCanonicalMapping.lowercased().precomposedStringWithCanonicalMapping
        let parts = canonical.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, canonical.utf8.count <= 254,
            !canonical.unicodeScalars.contains(where: isInvisible)
        else { throw WireError(.invalidEmail, "The email address is badly formatted.") }
        return canonical
    }

    /// Whether `scalar` shows nothing, or changes how what is around it shows.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .format, .privateUse, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator,
            .spaceSeparator:
            return true
        default:
            return properties.isWhitespace || properties.isDefaultIgnorableCodePoint || properties.isBidiControl
        }
    }

    /// An E.164 number (`+` and 7 to 15 digits).
    static func checkPhoneNumber(_ number: String, code: ErrorCode = .invalidPhoneNumber) throws {
        guard PhoneNumbers.isE164(number) else { throw WireError(code, "Invalid format.") }
    }
}
