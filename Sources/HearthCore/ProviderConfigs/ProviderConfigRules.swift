import Foundation
import HearthCrypto
import HearthProtocol

/// Identity Platform's rules for provider configurations, as firebase-admin checks them and Identity Platform answers
/// them: provider ids (`MISSING_PROVIDER_ID`, `INVALID_PROVIDER_ID`), the client ID (`MISSING_OAUTH_CLIENT_ID`), the
/// issuer (`MISSING_ISSUER`; an https URL, `INVALID_CONFIG`), the response types (at least one; the code flow needs a
/// client secret: `INVALID_CONFIG`); for SAML, the identity provider's entity id, SSO URL and at least one
/// certificate that parses as X.509, and the service provider's entity id and callback URL (`INVALID_CONFIG`).
public enum ProviderConfigRules {
    /// The providers `defaultSupportedIdpConfigs` takes (the OAuth providers join when Hearth has them).
    public static let defaultSupportedIDs: Set<String> = [IdentityProvider.googleID, IdentityProvider.appleID]
    /// The longest provider id accepted.
    public static let maximumIDLength = 128
    /// The longest display name, client ID, issuer or client secret accepted.
    public static let maximumFieldLength = 2_048

    /// Checks a provider id of `kind`.
    public static func checkID(_ id: String, kind: ProviderConfigRecord.Kind) throws {
        guard !id.isEmpty else { throw WireError(.missingProviderID, "A provider configuration needs a provider id.") }
        switch kind {
        case .oauth, .saml:
            let (prefix, name) = kind == .oauth ? ("oidc.", "An OIDC") : ("saml.", "A SAML")
            let rest = id.utf8.dropFirst(5)
            guard id.hasPrefix(prefix), !rest.isEmpty, id.utf8.count <= maximumIDLength,
                rest.allSatisfy({ isNameByte($0) })
            else {
                throw WireError(
                    .invalidProviderID,
                    "\(name) provider id is \(prefix) followed by letters, digits, '.', '-' or '_' (at most \(maximumIDLength) characters).")
            }
        case .defaultSupported:
            guard defaultSupportedIDs.contains(id) else {
                throw WireError(
                    .invalidProviderID,
                    "defaultSupportedIdpConfigs takes \(defaultSupportedIDs.sorted().joined(separator: " or ")).")
            }
        }
    }

    /// Checks a whole record, as it would be stored.
    public static func check(_ record: ProviderConfigRecord) throws {
        if record.kind == .saml { return try checkSAML(record) }
        for (value, name) in [
            (record.displayName, "displayName"), (record.clientID, "clientId"), (record.issuer, "issuer"),
            (record.clientSecret, "clientSecret"),
        ] where (value?.utf8.count ?? 0) > maximumFieldLength {
            throw WireError(.invalidConfig, "\(name) is longer than \(maximumFieldLength) bytes.")
        }
        guard let clientID = record.clientID, !clientID.isEmpty else {
            throw WireError(.missingOAuthClientID, "A provider configuration needs a clientId.")
        }
        if record.clientSecret?.isEmpty == true {
            throw WireError(.invalidConfig, "clientSecret must not be empty.")
        }
        guard record.kind == .oauth else { return }
        guard let issuer = record.issuer, !issuer.isEmpty else {
            throw WireError(.missingIssuer, "An OIDC provider configuration needs an issuer.")
        }
        guard isIssuerURL(issuer) else {
            throw WireError(
                .invalidConfig, "The issuer must be an absolute https URL (http only on 127.0.0.1, ::1 or localhost).")
        }
        guard record.idTokenResponse || record.codeResponse else {
            throw WireError(.invalidConfig, "At least one response type (idToken or code) must be enabled.")
        }
        if record.codeResponse, record.clientSecret == nil {
            throw WireError(.invalidConfig, "The code response type needs a clientSecret.")
        }
    }

    /// The most certificates one SAML configuration holds.
    public static let maximumCertificates = 10
    /// The longest certificate accepted, in bytes of PEM.
    public static let maximumCertificateLength = 16_384

    private static func checkSAML(_ record: ProviderConfigRecord) throws {
        let saml = record.saml ?? SAMLProviderSettings()
        for (value, name) in [
            (record.displayName, "displayName"), (saml.idpEntityID, "idpConfig.idpEntityId"),
            (saml.ssoURL, "idpConfig.ssoUrl"), (saml.spEntityID, "spConfig.spEntityId"),
            (saml.callbackURI, "spConfig.callbackUri"),
        ] where (value?.utf8.count ?? 0) > maximumFieldLength {
            throw WireError(.invalidConfig, "\(name) is longer than \(maximumFieldLength) bytes.")
        }
        guard saml.idpEntityID?.isEmpty == false else {
            throw WireError(.invalidConfig, "A SAML provider configuration needs idpConfig.idpEntityId.")
        }
        guard let ssoURL = saml.ssoURL, isIssuerURL(ssoURL) else {
            throw WireError(
                .invalidConfig,
                "idpConfig.ssoUrl must be an absolute https URL (http only on 127.0.0.1, ::1 or localhost).")
        }
        guard !saml.idpCertificates.isEmpty, saml.idpCertificates.count <= maximumCertificates else {
            throw WireError(
                .invalidConfig, "idpConfig.idpCertificates needs 1 to \(maximumCertificates) X.509 certificates.")
        }
        for certificate in saml.idpCertificates {
            guard certificate.utf8.count <= maximumCertificateLength,
                X509Certificate.isCertificate(pem: pemCertificate(certificate))
            else {
                throw WireError(.invalidConfig, "idpConfig.idpCertificates holds a value that is not an X.509 certificate.")
            }
        }
        guard saml.spEntityID?.isEmpty == false else {
            throw WireError(.invalidConfig, "A SAML provider configuration needs spConfig.spEntityId.")
        }
        guard let callback = saml.callbackURI, isIssuerURL(callback) else {
            throw WireError(
                .invalidConfig,
                "spConfig.callbackUri must be an absolute https URL (http only on 127.0.0.1, ::1 or localhost).")
        }
    }

    /// A certificate as PEM: given with its `BEGIN CERTIFICATE` lines, as it is; a bare base64 body (as some identity
    /// providers' metadata holds it) inside them.
    public static func pemCertificate(_ text: String) -> String {
        if text.contains("-----BEGIN") { return text }
        let body = text.filter { !$0.isWhitespace }
        var lines: [String] = []
        var rest = Substring(body)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        return "-----BEGIN CERTIFICATE-----\n" + lines.joined(separator: "\n") + "\n-----END CERTIFICATE-----\n"
    }

    /// An https URL with a host, or http on a loopback host (the config file's rule for provider URLs).
    public static func isIssuerURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty
        else { return false }
        return scheme == "https" || (scheme == "http" && ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host))
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// What the API answers for a client secret: `****`, with its last four characters when it has at least 12.
    public static func maskedSecret(_ secret: String) -> String {
        secret.count >= 12 ? "****" + secret.suffix(4) : "****"
    }
}
