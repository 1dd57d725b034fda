/// Multi-factor endpoints (`/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:*` and
/// `mfaSignIn:*`), PROTOCOL.md §6. Requests decode leniently from `RequestFields` (server) and encode as
/// the iOS SDK sends them (client).

/// One enrolled factor on the wire (`mfaInfo[]` of lookup and of an MFA-required sign-in).
/// `enrolledAt` is RFC 3339 with milliseconds and `Z`; a TOTP factor has `totpInfo: {}` and no phone.
public struct MFAEnrollmentInfo: Codable, Sendable, Equatable {
    public var mfaEnrollmentId: String
    public var displayName: String?
    public var enrolledAt: String?
    /// The phone number: masked (`+*******1234`) in an MFA-required sign-in response, in full in lookup.
    public var phoneInfo: String?
    public var totpInfo: EmptyObject?

    public init(mfaEnrollmentId: String, displayName: String? = nil, enrolledAt: String? = nil, phoneInfo: String? = nil, totpInfo: EmptyObject? = nil) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.phoneInfo = phoneInfo
        self.totpInfo = totpInfo
    }
}

/// `{}` on the wire.
public struct EmptyObject: Codable, Sendable, Equatable {
    public init() {}
}

// MARK: - Enrollment

/// `mfaEnrollment:start`: `phoneEnrollmentInfo` (send an SMS code) or `totpEnrollmentInfo: {}` (make a secret).
public struct StartMFAEnrollmentRequest: Encodable, Sendable, Equatable {
    public struct PhoneEnrollmentInfo: Codable, Sendable, Equatable {
        public var phoneNumber: String?
        public var recaptchaToken: String?
        public var iosReceipt: String?
        public var iosSecret: String?

        public init(phoneNumber: String?) { self.phoneNumber = phoneNumber }
    }

    public var idToken: String?
    public var phoneEnrollmentInfo: PhoneEnrollmentInfo?
    public var totpEnrollmentInfo: EmptyObject?
    public var tenantId: String?

    public init(idToken: String?, phoneEnrollmentInfo: PhoneEnrollmentInfo? = nil, totpEnrollmentInfo: EmptyObject? = nil) {
        self.idToken = idToken
        self.phoneEnrollmentInfo = phoneEnrollmentInfo
        self.totpEnrollmentInfo = totpEnrollmentInfo
    }

    public init(fields: RequestFields) throws(WireError) {
        idToken = try fields.string("idToken")
        if let phone = try fields.object("phoneEnrollmentInfo") {
            var info = PhoneEnrollmentInfo(phoneNumber: try phone.string("phoneNumber"))
            info.recaptchaToken = try phone.string("recaptchaToken")
            info.iosReceipt = try phone.string("iosReceipt")
            info.iosSecret = try phone.string("iosSecret")
            phoneEnrollmentInfo = info
        }
        if try fields.object("totpEnrollmentInfo") != nil { totpEnrollmentInfo = EmptyObject() }
        tenantId = try fields.string("tenantId")
    }
}

public struct StartMFAEnrollmentResponse: Codable, Sendable, Equatable {
    public struct PhoneSessionInfo: Codable, Sendable, Equatable {
        public var sessionInfo: String
        public init(sessionInfo: String) { self.sessionInfo = sessionInfo }
    }

    /// iOS reads `verificationCodeLength` and `periodSec` as integers and `finalizeEnrollmentTime` as RFC 3339.
    public struct TOTPSessionInfo: Codable, Sendable, Equatable {
        /// Base32, no padding.
        public var sharedSecretKey: String
        public var verificationCodeLength: Int
        public var hashingAlgorithm: String
        public var periodSec: Int
        public var sessionInfo: String
        /// Optional as iOS reads it; Hearth always sends it.
        public var finalizeEnrollmentTime: String?

        public init(sharedSecretKey: String, verificationCodeLength: Int, hashingAlgorithm: String, periodSec: Int, sessionInfo: String, finalizeEnrollmentTime: String?) {
            self.sharedSecretKey = sharedSecretKey
            self.verificationCodeLength = verificationCodeLength
            self.hashingAlgorithm = hashingAlgorithm
            self.periodSec = periodSec
            self.sessionInfo = sessionInfo
            self.finalizeEnrollmentTime = finalizeEnrollmentTime
        }
    }

    public var phoneSessionInfo: PhoneSessionInfo?
    public var totpSessionInfo: TOTPSessionInfo?

    public init(phoneSessionInfo: PhoneSessionInfo? = nil, totpSessionInfo: TOTPSessionInfo? = nil) {
        self.phoneSessionInfo = phoneSessionInfo
        self.totpSessionInfo = totpSessionInfo
    }
}

/// `{sessionInfo, code}` of an SMS verification.
public struct PhoneVerificationInfo: Codable, Sendable, Equatable {
    public var sessionInfo: String?
    public var code: String?

    public init(sessionInfo: String?, code: String?) {
        self.sessionInfo = sessionInfo
        self.code = code
    }

    init(fields: RequestFields) throws(WireError) {
        sessionInfo = try fields.string("sessionInfo")
        code = try fields.string("code")
    }
}

/// `{sessionInfo?, verificationCode}` of a TOTP verification (no `sessionInfo` at sign-in).
public struct TOTPVerificationInfo: Codable, Sendable, Equatable {
    public var sessionInfo: String?
    public var verificationCode: String?

    public init(sessionInfo: String? = nil, verificationCode: String?) {
        self.sessionInfo = sessionInfo
        self.verificationCode = verificationCode
    }

    init(fields: RequestFields) throws(WireError) {
        sessionInfo = try fields.string("sessionInfo")
        verificationCode = try fields.string("verificationCode")
    }
}

/// `mfaEnrollment:finalize`.
public struct FinalizeMFAEnrollmentRequest: Encodable, Sendable, Equatable {
    public var idToken: String?
    public var displayName: String?
    public var phoneVerificationInfo: PhoneVerificationInfo?
    public var totpVerificationInfo: TOTPVerificationInfo?
    public var tenantId: String?

    public init(idToken: String?, displayName: String?, phoneVerificationInfo: PhoneVerificationInfo? = nil, totpVerificationInfo: TOTPVerificationInfo? = nil) {
        self.idToken = idToken
        self.displayName = displayName
        self.phoneVerificationInfo = phoneVerificationInfo
        self.totpVerificationInfo = totpVerificationInfo
    }

    public init(fields: RequestFields) throws(WireError) {
        idToken = try fields.string("idToken")
        displayName = try fields.string("displayName")
        phoneVerificationInfo = try fields.object("phoneVerificationInfo").map { fields throws(WireError) in try PhoneVerificationInfo(fields: fields) }
        totpVerificationInfo = try fields.object("totpVerificationInfo").map { fields throws(WireError) in try TOTPVerificationInfo(fields: fields) }
        tenantId = try fields.string("tenantId")
    }
}

/// Tokens after an enrolment, a withdrawal or a second-factor sign-in. There is no `expiresIn` after
/// `mfaSignIn:finalize` (iOS then refreshes on the next `getIDToken`); Hearth sends it anyway where the
/// emulator does (withdraw).
public struct MFATokensResponse: Codable, Sendable, Equatable {
    public var idToken: String
    public var refreshToken: String
    public var expiresIn: String?
    public var totpAuthInfo: EmptyObject?

    public init(idToken: String, refreshToken: String, expiresIn: String? = nil, totpAuthInfo: EmptyObject? = nil) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.totpAuthInfo = totpAuthInfo
    }
}

/// `mfaEnrollment:withdraw`.
public struct WithdrawMFARequest: Encodable, Sendable, Equatable {
    public var idToken: String?
    public var mfaEnrollmentId: String?
    public var tenantId: String?

    public init(idToken: String?, mfaEnrollmentId: String?) {
        self.idToken = idToken
        self.mfaEnrollmentId = mfaEnrollmentId
    }

    public init(fields: RequestFields) throws(WireError) {
        idToken = try fields.string("idToken")
        mfaEnrollmentId = try fields.string("mfaEnrollmentId")
        tenantId = try fields.string("tenantId")
    }
}

// MARK: - Sign-in

/// `mfaSignIn:start` (phone only; TOTP has no start).
public struct StartMFASignInRequest: Encodable, Sendable, Equatable {
    public struct PhoneSignInInfo: Codable, Sendable, Equatable {
        /// iOS sends the masked number it was shown; the server uses the enrolled one.
        public var phoneNumber: String?
        public var recaptchaToken: String?

        public init(phoneNumber: String?) { self.phoneNumber = phoneNumber }
    }

    public var mfaPendingCredential: String?
    public var mfaEnrollmentId: String?
    public var phoneSignInInfo: PhoneSignInInfo?
    public var tenantId: String?

    public init(mfaPendingCredential: String?, mfaEnrollmentId: String?, phoneSignInInfo: PhoneSignInInfo?) {
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaEnrollmentId = mfaEnrollmentId
        self.phoneSignInInfo = phoneSignInInfo
    }

    public init(fields: RequestFields) throws(WireError) {
        mfaPendingCredential = try fields.string("mfaPendingCredential")
        mfaEnrollmentId = try fields.string("mfaEnrollmentId")
        if let phone = try fields.object("phoneSignInInfo") {
            var info = PhoneSignInInfo(phoneNumber: try phone.string("phoneNumber"))
            info.recaptchaToken = try phone.string("recaptchaToken")
            phoneSignInInfo = info
        }
        tenantId = try fields.string("tenantId")
    }
}

public struct StartMFASignInResponse: Codable, Sendable, Equatable {
    public var phoneResponseInfo: StartMFAEnrollmentResponse.PhoneSessionInfo

    public init(sessionInfo: String) { phoneResponseInfo = .init(sessionInfo: sessionInfo) }
}

/// `mfaSignIn:finalize`: phone (`phoneVerificationInfo`) or TOTP (`mfaEnrollmentId` + `totpVerificationInfo`).
public struct FinalizeMFASignInRequest: Encodable, Sendable, Equatable {
    public var mfaPendingCredential: String?
    public var mfaEnrollmentId: String?
    public var phoneVerificationInfo: PhoneVerificationInfo?
    public var totpVerificationInfo: TOTPVerificationInfo?
    public var tenantId: String?

    public init(mfaPendingCredential: String?, mfaEnrollmentId: String? = nil, phoneVerificationInfo: PhoneVerificationInfo? = nil, totpVerificationInfo: TOTPVerificationInfo? = nil) {
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaEnrollmentId = mfaEnrollmentId
        self.phoneVerificationInfo = phoneVerificationInfo
        self.totpVerificationInfo = totpVerificationInfo
    }

    public init(fields: RequestFields) throws(WireError) {
        mfaPendingCredential = try fields.string("mfaPendingCredential")
        mfaEnrollmentId = try fields.string("mfaEnrollmentId")
        phoneVerificationInfo = try fields.object("phoneVerificationInfo").map { fields throws(WireError) in try PhoneVerificationInfo(fields: fields) }
        totpVerificationInfo = try fields.object("totpVerificationInfo").map { fields throws(WireError) in try TOTPVerificationInfo(fields: fields) }
        tenantId = try fields.string("tenantId")
    }
}
