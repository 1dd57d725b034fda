import Foundation
import HearthCrypto
import JOSE

/// A Google-format service-account key file, as `hearth service-accounts create` writes it.
///
/// Only the fields the library uses are read: `type` (must be `service_account`), `project_id`, `private_key_id`,
/// `private_key` (PEM, PKCS#8 or PKCS#1), `client_email` and `token_uri`.
struct ServiceAccount: Sendable {
    let projectID: String?
    let clientEmail: String
    let tokenURI: URL
    /// Signs with the private key; its `kid` is `private_key_id`.
    let signer: JWTSigner

    private struct File: Decodable {
        var type: String?
        var project_id: String?
        var private_key_id: String?
        var private_key: String?
        var client_email: String?
        var token_uri: String?
    }

    /// Reads a key file.
    ///
    /// - Throws: ``HearthAdminError`` `.invalidCredential`, naming the field that is missing or wrong (never
    ///   quoting the key).
    init(json: Data) throws(HearthAdminError) {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch {
            throw Self.invalid("the service-account file is not a JSON object with string fields")
        }
        guard file.type == "service_account" else {
            throw Self.invalid("the credential file's \"type\" is not \"service_account\"")
        }
        guard let email = file.client_email, !email.isEmpty else { throw Self.invalid("\"client_email\" is missing") }
        guard let keyID = file.private_key_id, !keyID.isEmpty else { throw Self.invalid("\"private_key_id\" is missing") }
        guard let pem = file.private_key, !pem.isEmpty else { throw Self.invalid("\"private_key\" is missing") }
        guard let uri = file.token_uri, let tokenURI = URL(string: uri), let scheme = tokenURI.scheme?.lowercased(),
            scheme == "https" || scheme == "http", tokenURI.host != nil
        else { throw Self.invalid("\"token_uri\" is not an http(s) URL") }
        let key: RSAPrivateKey
        do {
            key = try RSAPrivateKey(pemRepresentation: pem)
        } catch {
            throw Self.invalid("\"private_key\" is not an RSA private key in PEM (\(error))")
        }
        projectID = file.project_id.flatMap { $0.isEmpty ? nil : $0 }
        clientEmail = email
        self.tokenURI = tokenURI
        signer = JWTSigner(privateKey: key, keyID: keyID)
    }

    private static func invalid(_ message: String) -> HearthAdminError {
        HearthAdminError(.invalidCredential, message: message)
    }
}
