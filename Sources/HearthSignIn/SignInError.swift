/// A sign-in failure with GIDSignIn's error codes (domain `com.google.GIDSignIn`).
///
/// ```swift
/// do {
///     let result = try await signIn.signIn()
/// } catch let error as SignInError where error.code == .canceled {
///     // the user closed the browser or denied access: nothing to report
/// }
/// ```
///
/// Messages never contain tokens, codes or secrets.
public struct SignInError: Error, Sendable, Equatable, CustomStringConvertible {
    /// GIDSignIn's error domain, for apps that bridge to `NSError`.
    public static let domain = "com.google.GIDSignIn"

    /// GIDSignIn's numeric codes (`GIDSignInError.Code`).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int

        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Anything else: network failures, OAuth errors from the server, ID tokens that fail verification.
        public static let unknown = Code(rawValue: -1)
        /// The session could not be saved to (or read from) the session store.
        public static let keychain = Code(rawValue: -2)
        /// Restore was asked for, but nothing usable is stored.
        public static let hasNoAuthInKeychain = Code(rawValue: -4)
        /// The user canceled (`error=access_denied`), the task was canceled, or the redirect never came.
        public static let canceled = Code(rawValue: -5)
        /// Enterprise Mobility Management (device policy) failure; not produced by this library.
        public static let emm = Code(rawValue: -6)
        /// The same claim was requested as essential and non-essential; not produced by this library.
        public static let ambiguousClaims = Code(rawValue: -7)
        /// addScopes with nothing new; not produced by this library.
        public static let scopesAlreadyGranted = Code(rawValue: -8)
        /// addScopes on a user that is not the current user; not produced by this library.
        public static let mismatchWithCurrentUser = Code(rawValue: -9)
        /// A JSON request parameter could not be built; not produced by this library.
        public static let jsonSerializationFailure = Code(rawValue: -10)
        /// The refresh token is expired or revoked (`invalid_grant`): the user must sign in again.
        public static let refreshTokenExpired = Code(rawValue: -11)

        public var description: String {
            switch self {
            case .unknown: "unknown"
            case .keychain: "keychain"
            case .hasNoAuthInKeychain: "hasNoAuthInKeychain"
            case .canceled: "canceled"
            case .emm: "emm"
            case .ambiguousClaims: "ambiguousClaims"
            case .scopesAlreadyGranted: "scopesAlreadyGranted"
            case .mismatchWithCurrentUser: "mismatchWithCurrentUser"
            case .jsonSerializationFailure: "jsonSerializationFailure"
            case .refreshTokenExpired: "refreshTokenExpired"
            default: String(rawValue)
            }
        }
    }

    public let code: Code
    public let message: String
    /// The OAuth `error` value the server sent (`access_denied`, `invalid_grant`, …), if this came from one.
    public let oauthError: String?
    /// The server's `error_description`, if any.
    public let oauthErrorDescription: String?

    public init(_ code: Code, _ message: String, oauthError: String? = nil, oauthErrorDescription: String? = nil) {
        self.code = code
        self.message = message
        self.oauthError = oauthError
        self.oauthErrorDescription = oauthErrorDescription
    }

    public var description: String { "SignInError.\(code) (\(code.rawValue)): \(message)" }

    static let canceledMessage = "The user canceled the sign-in flow."
    static let canceled = SignInError(.canceled, canceledMessage)
}
