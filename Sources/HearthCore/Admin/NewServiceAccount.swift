public import Foundation
import HearthCrypto

/// A service account just made: the record the store keeps (public key only) and the Google-format key
/// file for its owner, which holds the only copy of the private key.
public struct NewServiceAccount: Sendable {
    public let record: ServiceAccountRecord
    /// The key file's JSON (`type`, `project_id`, `private_key_id`, `private_key`, `client_email`,
    /// `client_id`, `token_uri`): what google-auth's `service_account.Credentials` and firebase-admin's
    /// `credentials.Certificate` read. Secret.
    public let keyFile: Data

    /// Google's rule for service-account names: 6–30 characters, lower-case letters, digits and hyphens,
    /// starting with a letter and not ending with a hyphen.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (6...30).contains(bytes.count), let first = bytes.first, let last = bytes.last,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), last != UInt8(ascii: "-")
        else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }

    /// `NAME@<projectID>.iam.hearth`: shaped like Google's `NAME@PROJECT.iam.gserviceaccount.com`, so tools
    /// that expect an email accept it, in a domain that is Hearth's and nobody's mail domain.
    public static func email(name: String, projectID: String) -> String { "\(name)@\(projectID).iam.hearth" }

    /// Generates an RSA-2048 key for the account `name` (which must pass `isValidName`).
    /// - Parameter tokenURI: Hearth's token endpoint as clients reach it, `<public-url>/oauth2/token`.
    public static func make(name: String, projectID: String, tokenURI: String, createdAt: Int64) throws -> NewServiceAccount {
        precondition(isValidName(name), "service-account names are checked before they get here")
        let key = try RSAPrivateKey.generate(bits: 2048)
        let record = ServiceAccountRecord(
            keyID: Identifiers.keyID(), email: email(name: name, projectID: projectID),
            clientID: Identifiers.googleSubject(), publicKeyPEM: key.publicKey.pemRepresentation, createdAt: createdAt)
        let file: [String: String] = [
            "type": "service_account", "project_id": projectID, "private_key_id": record.keyID,
            "private_key": key.pemRepresentation, "client_email": record.email, "client_id": record.clientID,
            "token_uri": tokenURI,
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return NewServiceAccount(record: record, keyFile: try encoder.encode(file))
    }
}
