/// `POST /v1/accounts:sendOobCode` (iOS: `getOobConfirmationCode`), client and admin, PROTOCOL.md §3.8.
public struct SendOobCodeRequest: Encodable, Sendable, Equatable {
    /// `requestType` values.
    public static let requestTypes = ["PASSWORD_RESET", "VERIFY_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL"]

    public var requestType: String?
    public var email: String?
    public var newEmail: String?
    public var idToken: String?
    public var continueUrl: String?
    public var canHandleCodeInApp: Bool?
    /// The domain of the mobile link (action-code settings' `linkDomain`): one of the authorized domains.
    public var linkDomain: String?
    /// Admin only: answer with the code and link instead of sending an email.
    public var returnOobLink: Bool?
    public var tenantId: String?
    /// The locale the request asked for: its `X-Firebase-Locale` header (``locale(header:)``), not a body field.
    public var locale: String?

    public init(
        requestType: String?, email: String? = nil, newEmail: String? = nil, idToken: String? = nil,
        continueUrl: String? = nil, canHandleCodeInApp: Bool? = nil, returnOobLink: Bool? = nil
    ) {
        self.requestType = requestType
        self.email = email
        self.newEmail = newEmail
        self.idToken = idToken
        self.continueUrl = continueUrl
        self.canHandleCodeInApp = canHandleCodeInApp
        self.returnOobLink = returnOobLink
    }

    public init(fields: RequestFields) throws(WireError) {
        requestType = try fields.string("requestType")
        email = try fields.string("email")
        newEmail = try fields.string("newEmail")
        idToken = try fields.string("idToken")
        continueUrl = try fields.string("continueUrl")
        canHandleCodeInApp = try fields.bool("canHandleCodeInApp")
        linkDomain = try fields.string("linkDomain")
        returnOobLink = try fields.bool("returnOobLink")
        tenantId = try fields.string("tenantId")
    }

    /// An `X-Firebase-Locale` header as a language tag (`fr`, `en-US`, `zh-Hant-TW`: letters, digits and hyphens,
    /// a 2–8 letter language first, at most 35 characters); nil when absent or anything else.
    public static func locale(header: String?) -> String? {
        guard let header, (2...35).contains(header.utf8.count) else { return nil }
        let parts = header.split(separator: "-", omittingEmptySubsequences: false)
        let isLetter = { (byte: UInt8) in (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard let language = parts.first, (2...8).contains(language.utf8.count), language.utf8.allSatisfy(isLetter),
            parts.dropFirst().allSatisfy({
                (1...8).contains($0.utf8.count) && $0.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) }
            })
        else { return nil }
        return header
    }
}

public struct SendOobCodeResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#GetOobConfirmationCodeResponse"
    public var email: String?
    /// Only with an admin's `returnOobLink`.
    public var oobCode: String?
    public var oobLink: String?

    public init(email: String?, oobCode: String? = nil, oobLink: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.oobLink = oobLink
    }
}

/// `POST /v1/accounts:resetPassword` (iOS: `resetPassword`), PROTOCOL.md §3.9: without `newPassword` it only
/// inspects the code (`checkActionCode`, `verifyPasswordResetCode`).
public struct ResetPasswordRequest: Encodable, Sendable, Equatable {
    public var oobCode: String?
    public var newPassword: String?
    public var tenantId: String?

    public init(oobCode: String?, newPassword: String? = nil) {
        self.oobCode = oobCode
        self.newPassword = newPassword
    }

    public init(fields: RequestFields) throws(WireError) {
        oobCode = try fields.string("oobCode")
        newPassword = try fields.string("newPassword")
        tenantId = try fields.string("tenantId")
    }
}

public struct ResetPasswordResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#ResetPasswordResponse"
    public var requestType: String
    /// Left out for `EMAIL_SIGNIN` codes.
    public var email: String?
    public var newEmail: String?

    public init(requestType: String, email: String?, newEmail: String?) {
        self.requestType = requestType
        self.email = email
        self.newEmail = newEmail
    }
}

/// `POST /v1/accounts:signInWithEmailLink` (iOS: `emailLinkSignin`), PROTOCOL.md §3.11.
public struct SignInWithEmailLinkRequest: Encodable, Sendable, Equatable {
    public var email: String?
    public var oobCode: String?
    /// Links the email to this signed-in user instead.
    public var idToken: String?
    public var tenantId: String?

    public init(email: String?, oobCode: String?, idToken: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.idToken = idToken
    }

    public init(fields: RequestFields) throws(WireError) {
        email = try fields.string("email")
        oobCode = try fields.string("oobCode")
        idToken = try fields.string("idToken")
        tenantId = try fields.string("tenantId")
    }
}

/// Tokens, or (when a second factor is needed) `mfaPendingCredential` and `mfaInfo` without tokens.
public struct SignInWithEmailLinkResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#EmailLinkSigninResponse"
    public var localId: String
    public var email: String
    public var isNewUser: Bool?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?
    public var mfaPendingCredential: String?
    public var mfaInfo: [MFAEnrollmentInfo]?

    public init(localId: String, email: String) {
        self.localId = localId
        self.email = email
    }
}

/// `POST /v1/accounts:createAuthUri` (iOS: `createAuthUri`), PROTOCOL.md §3.10: which sign-in methods an email has.
public struct CreateAuthUriRequest: Encodable, Sendable, Equatable {
    public var identifier: String?
    public var continueUri: String?
    public var providerId: String?
    public var tenantId: String?

    public init(identifier: String?, continueUri: String?, providerId: String? = nil) {
        self.identifier = identifier
        self.continueUri = continueUri
        self.providerId = providerId
    }

    public init(fields: RequestFields) throws(WireError) {
        identifier = try fields.string("identifier")
        continueUri = try fields.string("continueUri")
        providerId = try fields.string("providerId")
        tenantId = try fields.string("tenantId")
    }
}

/// With email enumeration protection on, only `kind` and `sessionId`. For a SAML provider (`providerId` `saml.*`),
/// `authUri` (where the browser goes), `providerId` and `sessionId` (to send back with `signInWithIdp`).
public struct CreateAuthUriResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#CreateAuthUriResponse"
    public var authUri: String?
    public var providerId: String?
    public var registered: Bool?
    public var allProviders: [String]?
    public var signinMethods: [String]?
    public var sessionId: String

    public init(sessionId: String, registered: Bool? = nil, allProviders: [String]? = nil, signinMethods: [String]? = nil) {
        self.sessionId = sessionId
        self.registered = registered
        self.allProviders = allProviders
        self.signinMethods = signinMethods
    }
}
