import Foundation
import HearthProtocol

/// The name in the `user` parameter the iOS SDK sends with an Apple credential when Apple gave a name (only on the
/// first authorization): `{"name":{"firstName":"Ada","lastName":"Lovelace"}}`. Anything else (not JSON, no name,
/// names that are not strings, a name longer than an account's display name may be) gives no name, as the Firebase
/// emulator ignores the parameter: a malformed `user` never refuses a sign-in whose token verified.
struct AppleName: Equatable {
    var firstName: String?
    var lastName: String?

    init?(user: String?) {
        guard let user, case .object(let object)? = try? JSONValue(parsing: Data(user.utf8)),
            case .object(let name)? = object["name"]
        else { return nil }
        func part(_ key: String) -> String? {
            guard let text = name[key]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty
            else { return nil }
            return text
        }
        firstName = part("firstName")
        lastName = part("lastName")
        guard firstName != nil || lastName != nil, displayName.count <= ProfileChange.maximumDisplayNameLength else {
            return nil
        }
    }

    /// "First Last", or the one part given.
    var displayName: String { [firstName, lastName].compactMap { $0 }.joined(separator: " ") }
}
