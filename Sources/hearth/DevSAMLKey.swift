import Foundation
import HearthCrypto
import HearthServer
import SAML

/// The `--dev` SAML IdP's signing key, kept in the data directory (`dev-saml-idp-key.pem`, made with mode 0600 on
/// first start) so that a `saml.*` configuration made from its certificate keeps verifying across restarts; the
/// certificate is made from it at every start (same key, so the same certificate verifies).
enum DevSAMLKey {
    static let file = "dev-saml-idp-key.pem"

    static func issuer(dataDirectory: String, publicURL: String, now: Date) throws -> SAMLResponseIssuer {
        let key = try DevelopmentKeyFile.readOrMake(
            (dataDirectory as NSString).appendingPathComponent(file), what: "an RSA private key",
            parse: RSAPrivateKey.init(pemRepresentation:)
        ) {
            let key = try RSAPrivateKey.generate()
            return (key, key.pemRepresentation)
        }
        let certificate = try X509Certificate.selfSignedPEM(
            for: key, commonName: "Hearth development SAML IdP", notBefore: now.addingTimeInterval(-86_400),
            notAfter: now.addingTimeInterval(10 * 365 * 86_400))
        return SAMLResponseIssuer(
            entityID: DevSAMLRoutes.entityID(publicURL: publicURL), keyPEM: key.pemRepresentation, certificatePEM: certificate)
    }
}
