/// A FirebaseAuth error number, such as `AuthErrorCode.userDisabled` (17005).
///
/// The numbers are the ones `FirebaseAuth.AuthErrorCode` uses (firebase-ios-sdk,
/// `FirebaseAuth/Sources/Swift/Utilities/AuthErrors.swift`), so code that switches on them ports over
/// unchanged. It is a struct rather than an enum so that new codes are not a breaking change:
///
/// ```swift
/// do {
///     try await Auth.auth().signIn(with: credential)
/// } catch let error as AuthError where error.code == .accountExistsWithDifferentCredential {
///     // Ask the user to sign in with an existing method, then link `credential`.
/// }
/// ```
public struct AuthErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The Swift name of the code, such as `userDisabled`, or `unknown` for a number this version
    /// does not know.
    public var name: String { Self.names[rawValue] ?? "unknown" }

    /// `name (number)`, e.g. `userDisabled (17005)`.
    public var description: String { "\(name) (\(rawValue))" }

    /// The codes this version knows, in numeric order.
    public static var allKnown: [AuthErrorCode] { names.keys.sorted().map(AuthErrorCode.init(rawValue:)) }

    /// A validation error with the custom token.
    public static let invalidCustomToken = AuthErrorCode(rawValue: 17000)
    /// The service account and the API key belong to different projects.
    public static let customTokenMismatch = AuthErrorCode(rawValue: 17002)
    /// The IdP token or request URI is invalid.
    public static let invalidCredential = AuthErrorCode(rawValue: 17004)
    /// The user's account is disabled on the server.
    public static let userDisabled = AuthErrorCode(rawValue: 17005)
    /// Sign-in with this provider is disabled for the project.
    public static let operationNotAllowed = AuthErrorCode(rawValue: 17006)
    /// The email address is already used by another account.
    public static let emailAlreadyInUse = AuthErrorCode(rawValue: 17007)
    /// The email address is badly formatted.
    public static let invalidEmail = AuthErrorCode(rawValue: 17008)
    /// The password is wrong, or the user has no password.
    public static let wrongPassword = AuthErrorCode(rawValue: 17009)
    /// Too many requests; try again later.
    public static let tooManyRequests = AuthErrorCode(rawValue: 17010)
    /// No user record matches; the user may have been deleted.
    public static let userNotFound = AuthErrorCode(rawValue: 17011)
    /// An account with this email exists, signed in with a different provider: sign in with that
    /// provider, then link. `AuthError.email` and `AuthError.updatedCredential` are set.
    public static let accountExistsWithDifferentCredential = AuthErrorCode(rawValue: 17012)
    /// The operation is sensitive and needs a recent sign-in.
    public static let requiresRecentLogin = AuthErrorCode(rawValue: 17014)
    /// The user is already linked to an identity of this provider.
    public static let providerAlreadyLinked = AuthErrorCode(rawValue: 17015)
    /// The user is not linked to this provider.
    public static let noSuchProvider = AuthErrorCode(rawValue: 17016)
    /// The saved credential is not valid (tampered with, or from another project); sign in again.
    public static let invalidUserToken = AuthErrorCode(rawValue: 17017)
    /// The request did not reach the server, or no answer came back.
    public static let networkError = AuthErrorCode(rawValue: 17020)
    /// The saved credential is no longer valid (revoked, e.g. after a password change); sign in again.
    public static let userTokenExpired = AuthErrorCode(rawValue: 17021)
    /// The API key is not valid.
    public static let invalidAPIKey = AuthErrorCode(rawValue: 17023)
    /// Reauthentication used a credential of a different user.
    public static let userMismatch = AuthErrorCode(rawValue: 17024)
    /// The credential is already linked to a different account. `AuthError.updatedCredential` is set.
    public static let credentialAlreadyInUse = AuthErrorCode(rawValue: 17025)
    /// The password is too weak.
    public static let weakPassword = AuthErrorCode(rawValue: 17026)
    /// The app is not authorized to use this API key.
    public static let appNotAuthorized = AuthErrorCode(rawValue: 17028)
    /// The action code has expired.
    public static let expiredActionCode = AuthErrorCode(rawValue: 17029)
    /// The action code is invalid.
    public static let invalidActionCode = AuthErrorCode(rawValue: 17030)
    /// The email action's message payload is invalid.
    public static let invalidMessagePayload = AuthErrorCode(rawValue: 17031)
    /// The email action's sender is invalid.
    public static let invalidSender = AuthErrorCode(rawValue: 17032)
    /// The recipient email is invalid.
    public static let invalidRecipientEmail = AuthErrorCode(rawValue: 17033)
    /// An email address was expected but not given.
    public static let missingEmail = AuthErrorCode(rawValue: 17034)
    /// An iOS bundle ID is required when an App Store ID is given.
    public static let missingIosBundleID = AuthErrorCode(rawValue: 17036)
    /// An Android package name is required when the app must be installed.
    public static let missingAndroidPackageName = AuthErrorCode(rawValue: 17037)
    /// The continue URL's domain is not allow-listed.
    public static let unauthorizedDomain = AuthErrorCode(rawValue: 17038)
    /// The continue URL is invalid.
    public static let invalidContinueURI = AuthErrorCode(rawValue: 17039)
    /// A continue URL is required.
    public static let missingContinueURI = AuthErrorCode(rawValue: 17040)
    /// A phone number is required.
    public static let missingPhoneNumber = AuthErrorCode(rawValue: 17041)
    /// The phone number is not valid E.164.
    public static let invalidPhoneNumber = AuthErrorCode(rawValue: 17042)
    /// The verification code is empty.
    public static let missingVerificationCode = AuthErrorCode(rawValue: 17043)
    /// The verification code is wrong.
    public static let invalidVerificationCode = AuthErrorCode(rawValue: 17044)
    /// The verification ID is empty.
    public static let missingVerificationID = AuthErrorCode(rawValue: 17045)
    /// The verification ID is invalid.
    public static let invalidVerificationID = AuthErrorCode(rawValue: 17046)
    /// The app credential (APNs token) is missing.
    public static let missingAppCredential = AuthErrorCode(rawValue: 17047)
    /// The app credential (APNs token) is invalid.
    public static let invalidAppCredential = AuthErrorCode(rawValue: 17048)
    /// The SMS code has expired.
    public static let sessionExpired = AuthErrorCode(rawValue: 17051)
    /// The project's SMS quota is exhausted.
    public static let quotaExceeded = AuthErrorCode(rawValue: 17052)
    /// The APNs device token could not be obtained.
    public static let missingAppToken = AuthErrorCode(rawValue: 17053)
    /// The app did not forward a remote notification.
    public static let notificationNotForwarded = AuthErrorCode(rawValue: 17054)
    /// The app could not be verified for phone authentication.
    public static let appNotVerified = AuthErrorCode(rawValue: 17055)
    /// The reCAPTCHA token is not valid.
    public static let captchaCheckFailed = AuthErrorCode(rawValue: 17056)
    /// A web context is already being presented.
    public static let webContextAlreadyPresented = AuthErrorCode(rawValue: 17057)
    /// The user cancelled the web context.
    public static let webContextCancelled = AuthErrorCode(rawValue: 17058)
    /// App verification failed.
    public static let appVerificationUserInteractionFailure = AuthErrorCode(rawValue: 17059)
    /// The client ID of a web flow is invalid.
    public static let invalidClientID = AuthErrorCode(rawValue: 17060)
    /// A network request inside a web context failed.
    public static let webNetworkRequestFailed = AuthErrorCode(rawValue: 17061)
    /// An internal error happened inside a web context.
    public static let webInternalError = AuthErrorCode(rawValue: 17062)
    /// A web sign-in flow failed.
    public static let webSignInUserInteractionFailure = AuthErrorCode(rawValue: 17063)
    /// The Game Center local player is not authenticated.
    public static let localPlayerNotAuthenticated = AuthErrorCode(rawValue: 17066)
    /// A user was expected but none was given.
    public static let nullUser = AuthErrorCode(rawValue: 17067)
    /// A Dynamic Link is not activated (FirebaseAuth 11 and earlier).
    public static let dynamicLinkNotActivated = AuthErrorCode(rawValue: 17068)
    /// The provider ID of a web operation is invalid.
    public static let invalidProviderID = AuthErrorCode(rawValue: 17071)
    /// The user's tenant differs from the Auth instance's tenant.
    public static let tenantIDMismatch = AuthErrorCode(rawValue: 17072)
    /// The operation does not support tenants.
    public static let unsupportedTenantOperation = AuthErrorCode(rawValue: 17073)
    /// The Dynamic Link domain is not configured (FirebaseAuth 11 and earlier).
    public static let invalidDynamicLinkDomain = AuthErrorCode(rawValue: 17074)
    /// The credential is malformed or mismatching.
    public static let rejectedCredential = AuthErrorCode(rawValue: 17075)
    /// GameKit is not linked.
    public static let gameKitNotLinked = AuthErrorCode(rawValue: 17076)
    /// Sign-in needs a second factor.
    public static let secondFactorRequired = AuthErrorCode(rawValue: 17078)
    /// The multi-factor session is missing.
    public static let missingMultiFactorSession = AuthErrorCode(rawValue: 17081)
    /// The multi-factor info is missing.
    public static let missingMultiFactorInfo = AuthErrorCode(rawValue: 17082)
    /// The multi-factor session is invalid.
    public static let invalidMultiFactorSession = AuthErrorCode(rawValue: 17083)
    /// The multi-factor info was not found.
    public static let multiFactorInfoNotFound = AuthErrorCode(rawValue: 17084)
    /// The operation is restricted to administrators.
    public static let adminRestrictedOperation = AuthErrorCode(rawValue: 17085)
    /// The email must be verified first.
    public static let unverifiedEmail = AuthErrorCode(rawValue: 17086)
    /// The second factor is already enrolled.
    public static let secondFactorAlreadyEnrolled = AuthErrorCode(rawValue: 17087)
    /// Too many second factors are enrolled.
    public static let maximumSecondFactorCountExceeded = AuthErrorCode(rawValue: 17088)
    /// The first factor does not support multi-factor sign-in.
    public static let unsupportedFirstFactor = AuthErrorCode(rawValue: 17089)
    /// The new email must be verified before the change.
    public static let emailChangeNeedsVerification = AuthErrorCode(rawValue: 17090)
    /// The request has no client identifier.
    public static let missingClientIdentifier = AuthErrorCode(rawValue: 17093)
    /// The nonce is missing or does not match.
    public static let missingOrInvalidNonce = AuthErrorCode(rawValue: 17094)
    /// A blocking function rejected the operation.
    public static let blockingCloudFunctionError = AuthErrorCode(rawValue: 17105)
    /// reCAPTCHA Enterprise is not enabled for the project.
    public static let recaptchaNotEnabled = AuthErrorCode(rawValue: 17200)
    /// The reCAPTCHA token is missing.
    public static let missingRecaptchaToken = AuthErrorCode(rawValue: 17201)
    /// The reCAPTCHA token is invalid.
    public static let invalidRecaptchaToken = AuthErrorCode(rawValue: 17202)
    /// The reCAPTCHA action is invalid.
    public static let invalidRecaptchaAction = AuthErrorCode(rawValue: 17203)
    /// The client type is missing.
    public static let missingClientType = AuthErrorCode(rawValue: 17204)
    /// The reCAPTCHA version is missing.
    public static let missingRecaptchaVersion = AuthErrorCode(rawValue: 17205)
    /// The reCAPTCHA version is invalid.
    public static let invalidRecaptchaVersion = AuthErrorCode(rawValue: 17206)
    /// The request type is invalid.
    public static let invalidReqType = AuthErrorCode(rawValue: 17207)
    /// The reCAPTCHA SDK is not linked.
    public static let recaptchaSDKNotLinked = AuthErrorCode(rawValue: 17208)
    /// The reCAPTCHA site key is missing.
    public static let recaptchaSiteKeyMissing = AuthErrorCode(rawValue: 17209)
    /// The reCAPTCHA action could not be created.
    public static let recaptchaActionCreationFailed = AuthErrorCode(rawValue: 17210)
    /// The password breaks the project's password policy (see `Auth.validatePassword(_:)`).
    public static let passwordDoesNotMeetRequirements = AuthErrorCode(rawValue: 17211)
    /// The Hosting link domain does not belong to the project.
    public static let invalidHostingLinkDomain = AuthErrorCode(rawValue: 17214)
    /// The session could not be read from or written to its store (FirebaseAuth: the keychain).
    public static let keychainError = AuthErrorCode(rawValue: 17995)
    /// Something unexpected happened; `AuthError.serverCode` may say what the server sent.
    public static let internalError = AuthErrorCode(rawValue: 17999)
    /// A JWT could not be decoded, or lacks a required claim.
    public static let malformedJWT = AuthErrorCode(rawValue: 18000)

    private static let names: [Int: String] = [
        17000: "invalidCustomToken", 17002: "customTokenMismatch", 17004: "invalidCredential",
        17005: "userDisabled", 17006: "operationNotAllowed", 17007: "emailAlreadyInUse", 17008: "invalidEmail",
        17009: "wrongPassword", 17010: "tooManyRequests", 17011: "userNotFound",
        17012: "accountExistsWithDifferentCredential", 17014: "requiresRecentLogin",
        17015: "providerAlreadyLinked", 17016: "noSuchProvider", 17017: "invalidUserToken",
        17020: "networkError", 17021: "userTokenExpired", 17023: "invalidAPIKey", 17024: "userMismatch",
        17025: "credentialAlreadyInUse", 17026: "weakPassword", 17028: "appNotAuthorized",
        17029: "expiredActionCode", 17030: "invalidActionCode", 17031: "invalidMessagePayload",
        17032: "invalidSender", 17033: "invalidRecipientEmail", 17034: "missingEmail",
        17036: "missingIosBundleID", 17037: "missingAndroidPackageName", 17038: "unauthorizedDomain",
        17039: "invalidContinueURI", 17040: "missingContinueURI", 17041: "missingPhoneNumber",
        17042: "invalidPhoneNumber", 17043: "missingVerificationCode", 17044: "invalidVerificationCode",
        17045: "missingVerificationID", 17046: "invalidVerificationID", 17047: "missingAppCredential",
        17048: "invalidAppCredential", 17051: "sessionExpired", 17052: "quotaExceeded", 17053: "missingAppToken",
        17054: "notificationNotForwarded", 17055: "appNotVerified", 17056: "captchaCheckFailed",
        17057: "webContextAlreadyPresented", 17058: "webContextCancelled",
        17059: "appVerificationUserInteractionFailure", 17060: "invalidClientID",
        17061: "webNetworkRequestFailed", 17062: "webInternalError", 17063: "webSignInUserInteractionFailure",
        17066: "localPlayerNotAuthenticated", 17067: "nullUser", 17068: "dynamicLinkNotActivated",
        17071: "invalidProviderID", 17072: "tenantIDMismatch", 17073: "unsupportedTenantOperation",
        17074: "invalidDynamicLinkDomain", 17075: "rejectedCredential", 17076: "gameKitNotLinked",
        17078: "secondFactorRequired", 17081: "missingMultiFactorSession", 17082: "missingMultiFactorInfo",
        17083: "invalidMultiFactorSession", 17084: "multiFactorInfoNotFound", 17085: "adminRestrictedOperation",
        17086: "unverifiedEmail", 17087: "secondFactorAlreadyEnrolled", 17088: "maximumSecondFactorCountExceeded",
        17089: "unsupportedFirstFactor", 17090: "emailChangeNeedsVerification", 17093: "missingClientIdentifier",
        17094: "missingOrInvalidNonce", 17105: "blockingCloudFunctionError", 17200: "recaptchaNotEnabled",
        17201: "missingRecaptchaToken", 17202: "invalidRecaptchaToken", 17203: "invalidRecaptchaAction",
        17204: "missingClientType", 17205: "missingRecaptchaVersion", 17206: "invalidRecaptchaVersion",
        17207: "invalidReqType", 17208: "recaptchaSDKNotLinked", 17209: "recaptchaSiteKeyMissing",
        17210: "recaptchaActionCreationFailed", 17211: "passwordDoesNotMeetRequirements",
        17214: "invalidHostingLinkDomain", 17995: "keychainError",
        17999: "internalError", 18000: "malformedJWT",
    ]
}
