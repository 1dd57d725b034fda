public import Foundation
import HearthProtocol

/// A TOTP secret being enrolled (FirebaseAuth's `TOTPSecret`), from
/// `TOTPMultiFactorGenerator.generateSecret(with:)`.
///
/// Show it to the user as a QR code (`generateQRCodeURL(withAccountName:issuer:)`) or as text
/// (`sharedSecretKey()`) for their authenticator app, then enrol a code from the app with
/// `TOTPMultiFactorGenerator.assertionForEnrollment(with:oneTimePassword:)`. The secret prints as
/// `<redacted>`.
public final class TOTPSecret: Sendable, CustomStringConvertible, CustomReflectable {
    private let secretKey: String
    /// The number of digits of a code (`verificationCodeLength`), usually 6.
    public let verificationCodeLength: Int
    /// The HMAC hash (`hashingAlgorithm`), usually `SHA1`.
    public let hashingAlgorithm: String
    /// How long a code lasts, in seconds (`periodSec`), usually 30.
    public let periodSec: Int
    /// When enrolment must be finished by (`finalizeEnrollmentTime`), if the server said.
    public let finalizeEnrollmentTime: Date?
    /// Identifies this enrolment to `mfaEnrollment:finalize`.
    let sessionInfo: String

    init(
        secretKey: String, verificationCodeLength: Int, hashingAlgorithm: String, periodSec: Int,
        finalizeEnrollmentTime: Date?, sessionInfo: String
    ) {
        self.secretKey = secretKey
        self.verificationCodeLength = verificationCodeLength
        self.hashingAlgorithm = hashingAlgorithm
        self.periodSec = periodSec
        self.finalizeEnrollmentTime = finalizeEnrollmentTime
        self.sessionInfo = sessionInfo
    }

    /// Reads `totpSessionInfo` of an `mfaEnrollment:start` response (PROTOCOL.md §6.4).
    ///
    /// `sharedSecretKey` and `sessionInfo` are required (FirebaseAuth crashes without the key; this
    /// throws). `verificationCodeLength` and `periodSec` are JSON integers, as iOS reads them;
    /// absent, they and `hashingAlgorithm` take RFC 6238's defaults (6, 30, `SHA1`).
    /// `finalizeEnrollmentTime` is RFC 3339; absent or unreadable, it is nil.
    init(sessionInfo json: JSONValue?) throws(AuthError) {
        guard let info = json?.objectValue else {
            throw AuthError(code: .internalError, message: "The server did not return a TOTP secret (no totpSessionInfo).")
        }
        func requiredString(_ key: String) throws(AuthError) -> String {
            guard let value = info[key]?.stringValue, !value.isEmpty else {
                throw AuthError(code: .internalError, message: "The server's TOTP secret has no \(key).")
            }
            return value
        }
        func positiveInteger(_ key: String, default fallback: Int) throws(AuthError) -> Int {
            switch info[key] {
            case nil, .null?: return fallback
            case .integer(let value)? where value > 0 && value <= 3600: return Int(value)
            default: throw AuthError(code: .internalError, message: "The server's TOTP \(key) is not a positive integer.")
            }
        }
        secretKey = try requiredString("sharedSecretKey")
        sessionInfo = try requiredString("sessionInfo")
        verificationCodeLength = try positiveInteger("verificationCodeLength", default: 6)
        periodSec = try positiveInteger("periodSec", default: 30)
        hashingAlgorithm = info["hashingAlgorithm"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "SHA1"
        finalizeEnrollmentTime = info["finalizeEnrollmentTime"]?.stringValue.flatMap(RFC3339.date(from:))
    }

    /// The shared secret (base32), for users who type it into their app instead of scanning.
    public func sharedSecretKey() -> String { secretKey }

    /// An `otpauth://` URL in Google Authenticator's key URI format, to show as a QR code:
    /// `otpauth://totp/<issuer>:<account>?secret=…&issuer=…&algorithm=…&digits=…&period=…`.
    ///
    /// The issuer and account name are percent-encoded (a space as `%20`, `:` as `%3A`), so either
    /// may contain any character. With an empty issuer, the label is the account name alone and
    /// there is no `issuer` parameter.
    /// <https://github.com/google/google-authenticator/wiki/Key-Uri-Format>
    ///
    /// - Parameters:
    ///   - accountName: who the code is for, usually the user's email.
    ///   - issuer: the app or service name.
    public func generateQRCodeURL(withAccountName accountName: String, issuer: String) -> String {
        let label = issuer.isEmpty ? FormEncoding.escape(accountName) : "\(FormEncoding.escape(issuer)):\(FormEncoding.escape(accountName))"
        var url = "otpauth://totp/\(label)?secret=\(FormEncoding.escape(secretKey))"
        if !issuer.isEmpty { url += "&issuer=\(FormEncoding.escape(issuer))" }
        return url + "&algorithm=\(FormEncoding.escape(hashingAlgorithm))&digits=\(verificationCodeLength)&period=\(periodSec)"
    }

    public var description: String {
        "TOTPSecret(secret: <redacted>, digits: \(verificationCodeLength), algorithm: \(hashingAlgorithm), period: \(periodSec))"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "secret": "<redacted>", "verificationCodeLength": verificationCodeLength,
                "hashingAlgorithm": hashingAlgorithm, "periodSec": periodSec,
            ])
    }
}
