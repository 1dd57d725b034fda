public import HearthProtocol

/// How email actions behave: where their links point, how long codes live, how many emails may be asked for.
public struct EmailActionSettings: Sendable {
    /// The server's public URL without a trailing slash; links point at its action page.
    public var publicURL: String
    /// In development the links point at the emulator's action page (`/emulator/action`), else at
    /// `/__/auth/action` as production Firebase's do.
    public var development: Bool
    /// Seconds a code lives: every kind but sign-in links.
    public var codeLifetime: Int64
    /// Seconds a sign-in link lives (Firebase: 6 hours).
    public var signInLinkLifetime: Int64
    /// Emails asked for one address (any action, known or unknown address alike).
    public var sendsPerEmail: WindowQuota
    /// Emails asked for by one client address.
    public var sendsPerClient: WindowQuota
    /// Changes of email a signed-in user may ask for (a code to a new address, or a direct change).
    public var emailChanges: EmailChangeLimits
    /// The hosts a continue URL may point at (lower case, exact match), as Firebase's authorized domains: an email
    /// from this server never sends a user on to another site. `nil` accepts any host (the emulator's behaviour).
    public var authorizedDomains: Set<String>?
    /// The page email links open instead of Hearth's own (Firebase's custom email action handler, Identity Platform's
    /// `notification.sendEmail.callbackUri`): an absolute URL without query or fragment; nil: Hearth's action page.
    public var actionURL: String?
    /// The templates the config API set, by Identity Platform's name (``CustomEmailTemplate/names``).
    public var customTemplates: [String: CustomEmailTemplate] = [:]

    public init(
        publicURL: String = "http://127.0.0.1:9099", development: Bool = false,
        codeLifetime: Int64 = 3_600, signInLinkLifetime: Int64 = 21_600,
        sendsPerEmail: WindowQuota = WindowQuota(limit: 5, window: 3_600),
        sendsPerClient: WindowQuota = WindowQuota(limit: 50, window: 3_600), authorizedDomains: Set<String>? = nil,
        emailChanges: EmailChangeLimits = EmailChangeLimits(), actionURL: String? = nil
    ) {
        self.actionURL = actionURL
        self.emailChanges = emailChanges
        self.publicURL = publicURL
        self.development = development
        self.codeLifetime = codeLifetime
        self.signInLinkLifetime = signInLinkLifetime
        self.sendsPerEmail = sendsPerEmail
        self.sendsPerClient = sendsPerClient
        self.authorizedDomains = authorizedDomains.map { Set($0.map { $0.lowercased() }) }
    }

    /// The domains every project authorizes: `localhost`, `127.0.0.1` and the host of `publicURL`.
    public static func defaultAuthorizedDomains(publicURL: String) -> Set<String> {
        let host = (try? BrowserURL(parsing: publicURL))?.host
        return Set(["localhost", "127.0.0.1"] + (host.map { [$0] } ?? []))
    }

    /// `text` as a continue URL a browser may be sent to: an absolute http(s) URL in the strict form browsers read
    /// as Hearth does (``BrowserURL``; else `INVALID_CONTINUE_URI`) whose host is authorized (else
    /// `UNAUTHORIZED_DOMAIN`). Checked when a code is issued and again when its page redirects.
    public func continueURL(_ text: String) throws -> BrowserURL {
        let url = try ActionLink.continueURL(text)
        guard authorizedDomains?.contains(url.host) ?? true else {
            throw WireError(.unauthorizedDomain, "Domain not allowlisted by project")
        }
        return url
    }

    /// Refuses a `linkDomain` that is not an authorized domain (`INVALID_HOSTING_LINK_DOMAIN`): the configured
    /// list, else the defaults (``defaultAuthorizedDomains(publicURL:)``).
    public func checkLinkDomain(_ domain: String) throws {
        guard authorizedDomainList.contains(domain.lowercased()) else {
            throw WireError(
                .invalidHostingLinkDomain, "The provided link domain is not one of the project's authorized domains.")
        }
    }

    /// The authorized domains as `getProjectConfig` lists them: the configured list, else the defaults.
    public var authorizedDomainList: [String] {
        (authorizedDomains ?? Self.defaultAuthorizedDomains(publicURL: publicURL)).sorted()
    }

    /// The template set for emails of `kind`, if any.
    func customTemplate(for kind: OOBCodeRecord.Kind) -> CustomEmailTemplate? {
        CustomEmailTemplate.names.first { $0.value.contains(kind) }.flatMap { customTemplates[$0.key] }
    }

    /// Seconds a code of `kind` lives.
    func lifetime(of kind: OOBCodeRecord.Kind) -> Int64 {
        kind == .emailSignIn ? signInLinkLifetime : codeLifetime
    }

    /// The path of Hearth's action page.
    var actionPath: String { development ? "/emulator/action" : "/__/auth/action" }

    /// The page links open: ``actionURL``, else Hearth's action page under ``publicURL``.
    var actionPage: String { actionURL ?? publicURL + actionPath }

    /// Whether `text` can be an ``actionURL``: an absolute `https` URL (`http` on a loopback host) as browsers read it
    /// (``BrowserURL``), without query or fragment (the link's parameters follow a `?`).
    public static func isActionURL(_ text: String) -> Bool {
        guard let url = try? BrowserURL(parsing: text), !text.contains("?"), !text.contains("#") else { return false }
        return url.scheme == .https || url.scheme == .http && ["localhost", "127.0.0.1", "[::1]"].contains(url.host)
    }
}
