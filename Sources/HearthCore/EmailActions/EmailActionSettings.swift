/// How email actions behave: where their links point, how long codes live, how many emails may be asked for.
public struct EmailActionSettings: Sendable {
    /// The server's public URL without a trailing slash; links point at its action page.
    public var publicURL: String
    /// In development the links point at the emulator's action page (`/emulator/action`), else at
    /// `/__/auth/action` as production Firebase's do.
    public var development: Bool
    /// Email enumeration protection (Firebase's `emailPrivacyConfig.enableImprovedEmailPrivacy`, on by default):
    /// a password reset for an unknown email answers as for a known one and sends nothing, and `createAuthUri`
    /// tells nothing about the email.
    public var enumerationProtection: Bool
    /// Seconds a code lives: every kind but sign-in links.
    public var codeLifetime: Int64
    /// Seconds a sign-in link lives (Firebase: 6 hours).
    public var signInLinkLifetime: Int64
    /// Emails asked for one address (any action, known or unknown address alike).
    public var sendsPerEmail: WindowQuota
    /// Emails asked for by one client address.
    public var sendsPerClient: WindowQuota

    public init(
        publicURL: String = "http://127.0.0.1:9099", development: Bool = false, enumerationProtection: Bool = true,
        codeLifetime: Int64 = 3_600, signInLinkLifetime: Int64 = 21_600,
        sendsPerEmail: WindowQuota = WindowQuota(limit: 5, window: 3_600),
        sendsPerClient: WindowQuota = WindowQuota(limit: 50, window: 3_600)
    ) {
        self.publicURL = publicURL
        self.development = development
        self.enumerationProtection = enumerationProtection
        self.codeLifetime = codeLifetime
        self.signInLinkLifetime = signInLinkLifetime
        self.sendsPerEmail = sendsPerEmail
        self.sendsPerClient = sendsPerClient
    }

    /// Seconds a code of `kind` lives.
    func lifetime(of kind: OOBCodeRecord.Kind) -> Int64 {
        kind == .emailSignIn ? signInLinkLifetime : codeLifetime
    }

    /// The path of the action page links open.
    var actionPath: String { development ? "/emulator/action" : "/__/auth/action" }
}
