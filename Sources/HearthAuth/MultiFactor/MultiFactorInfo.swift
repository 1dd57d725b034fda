public import Foundation
import HearthProtocol

/// One second factor of a user (FirebaseAuth's `MultiFactorInfo`): an entry of
/// `user.multiFactor.enrolledFactors`, or a hint of a `MultiFactorResolver`.
///
/// The concrete class says which kind it is: `PhoneMultiFactorInfo` or `TOTPMultiFactorInfo`.
public class MultiFactorInfo: @unchecked Sendable {
    // @unchecked: every stored property, here and in the subclasses, is an immutable Sendable value.

    /// The enrolment ID (`mfaEnrollmentId`).
    public let uid: String
    /// The name the user gave the factor when enrolling it.
    public let displayName: String?
    /// When the factor was enrolled (`enrolledAt`).
    public let enrollmentDate: Date
    /// `phone` or `totp` (`PhoneMultiFactorGenerator.factorID`, `TOTPMultiFactorGenerator.factorID`).
    public let factorID: String

    init(uid: String, displayName: String?, enrollmentDate: Date, factorID: String) {
        self.uid = uid
        self.displayName = displayName
        self.enrollmentDate = enrollmentDate
        self.factorID = factorID
    }

    /// The factors of `mfaInfo[]` that this version knows (phone and TOTP), in order; others are
    /// skipped, as FirebaseAuth does. A missing or unreadable `enrolledAt` becomes `fallbackDate`.
    static func factors(from enrollments: [MFAEnrollmentInfo], fallbackDate: Date) -> [MultiFactorInfo] {
        enrollments.compactMap { enrollment -> MultiFactorInfo? in
            let date = enrollment.enrolledAt.flatMap(RFC3339.date(from:)) ?? fallbackDate
            if let phoneNumber = enrollment.phoneInfo {
                return PhoneMultiFactorInfo(
                    uid: enrollment.mfaEnrollmentId, displayName: enrollment.displayName, enrollmentDate: date,
                    phoneNumber: phoneNumber)
            }
            if enrollment.totpInfo != nil {
                return TOTPMultiFactorInfo(
                    uid: enrollment.mfaEnrollmentId, displayName: enrollment.displayName, enrollmentDate: date)
            }
            return nil
        }
    }
}

/// A phone (SMS) second factor.
public final class PhoneMultiFactorInfo: MultiFactorInfo, @unchecked Sendable {
    /// `phone`, the factor ID of phone factors (FirebaseAuth's spelling).
    public static let PhoneMultiFactorID = PhoneMultiFactorGenerator.factorID
    /// `totp`, the factor ID of TOTP factors (FirebaseAuth's spelling).
    public static let TOTPMultiFactorID = TOTPMultiFactorGenerator.factorID

    /// The phone number: in full in `enrolledFactors`, masked (`+*******1234`) in a resolver's hints.
    public let phoneNumber: String

    init(uid: String, displayName: String?, enrollmentDate: Date, phoneNumber: String) {
        self.phoneNumber = phoneNumber
        super.init(
            uid: uid, displayName: displayName, enrollmentDate: enrollmentDate,
            factorID: PhoneMultiFactorGenerator.factorID)
    }
}

/// A TOTP (authenticator app) second factor.
public final class TOTPMultiFactorInfo: MultiFactorInfo, @unchecked Sendable {
    init(uid: String, displayName: String?, enrollmentDate: Date) {
        super.init(
            uid: uid, displayName: displayName, enrollmentDate: enrollmentDate, factorID: TOTPMultiFactorGenerator.factorID)
    }
}
