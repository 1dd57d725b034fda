import Foundation
import HearthCommandLine
import HearthCore
import HearthCrypto
import HearthDevProviders
import HearthOutbound
import HearthProtocol
import HearthProviders
import HearthServer

/// Hearth's key at Apple: the team ID, key ID and `.p8` private key that sign its client secret for Apple's
/// `/auth/token` and `/auth/revoke` (docs/CONFIGURATION.md, "Sign in with Apple and other OpenID providers"), and
/// the endpoint they are sent to. In `--dev` without a configured key, a P-256 key Hearth keeps in the data
/// directory signs for the dev Apple.
struct AppleKey {
    var teamID: String
    var keyID: String
    var privateKey: P256PrivateKey
    var endpoint: URL

    static let developmentKeyID = "HEARTHDEVKY"
    static let developmentKeyFile = "dev-apple-client-key.p8"

    /// The key `apple.teamId`, `apple.keyId` and `apple.privateKeyFile` name; nil when none of them is set.
    /// - Throws: a usage error when only some are set, or the file is not a P-256 private key.
    static func configured(_ apple: Settings.AppleSettings) throws -> AppleKey? {
        let parts = [apple.teamId, apple.keyId, apple.privateKeyFile]
        guard parts.contains(where: { $0 != nil }) else { return nil }
        guard let teamID = apple.teamId, !teamID.isEmpty, let keyID = apple.keyId, !keyID.isEmpty,
            let file = apple.privateKeyFile
        else { throw UsageError("apple: set teamId, keyId and privateKeyFile together (or none of them)") }
        let privateKey: P256PrivateKey
        do {
            privateKey = try P256PrivateKey(pemRepresentation: String(contentsOfFile: file, encoding: .utf8))
        } catch {
            throw UsageError("apple.privateKeyFile: \(file) is not a P-256 private key (.p8) Apple issued")
        }
        let endpoint = try Settings.providerURL(apple.endpoint ?? IdentityProvider.appleIssuer, setting: "apple.endpoint")
        return AppleKey(teamID: teamID, keyID: keyID, privateKey: privateKey, endpoint: endpoint)
    }

    /// The `--dev` key for the dev Apple at `<publicURL>/dev/apple`: read from `dev-apple-client-key.p8` in the data
    /// directory, or made there (mode 0600) on first start.
    static func development(dataDirectory: String, publicURL: String) throws -> AppleKey {
        let privateKey = try DevelopmentKeyFile.readOrMake(
            (dataDirectory as NSString).appendingPathComponent(developmentKeyFile), what: "a P-256 private key",
            parse: P256PrivateKey.init(pemRepresentation:)
        ) {
            let key = try P256PrivateKey.generate()
            return (key, key.pemRepresentation)
        }
        return AppleKey(
            teamID: DevAppleConfiguration.developmentTeamID, keyID: developmentKeyID, privateKey: privateKey,
            endpoint: URL(string: publicURL + "/dev/apple")!)
    }

    /// Apple's token endpoint, authenticated by client secrets this key signs, called through `http` (over HTTP
    /// when nil).
    func tokenClient(time: any TimeSource, timeout: TimeInterval, http: (any OutboundHTTP)? = nil) throws -> AppleTokenClient {
        let secret: AppleClientSecret
        do {
            secret = try AppleClientSecret(teamID: teamID, keyID: keyID, privateKey: privateKey, time: time)
        } catch {
            throw UsageError("apple: \(error.reason)")
        }
        return AppleTokenClient(clientSecret: secret, http: http ?? URLSessionOutboundHTTP(timeout: timeout), endpoint: endpoint)
    }
}
