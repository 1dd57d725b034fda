import Foundation
import HearthProtocol

/// Identity Platform's rules for provider configurations, as firebase-admin checks them and Identity Platform answers
/// them: provider ids (`MISSING_PROVIDER_ID`, `INVALID_PROVIDER_ID`), the client ID (`MISSING_OAUTH_CLIENT_ID`), the
/// issuer (`MISSING_ISSUER`; an https URL, `INVALID_CONFIG`), the response types (at least one; the code flow needs a
/// client secret: `INVALID_CONFIG`).
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
        case .oauth:
            let name = id.utf8.dropFirst(5)
            guard id.hasPrefix("oidc."), !name.isEmpty, id.utf8.count <= maximumIDLength,
                name.allSatisfy({ isNameByte($0) })
            else {
                throw WireError(
                    .invalidProviderID,
                    "An OIDC provider id is oidc. followed by letters, digits, '.', '-' or '_' (at most \(maximumIDLength) characters).")
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
