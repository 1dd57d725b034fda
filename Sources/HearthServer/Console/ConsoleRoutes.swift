import Foundation
import HearthConsole
import HearthCore
import HearthDevProviders
import HearthHTTP
import HearthProtocol

/// The admin console at `/console` (issue 12 §1): users (exact search and keyset paging), a user, the tenants and
/// each tenant's users (read-only), the project configuration (the sign-in switches and MFA settings editable), signing keys, the audit log and, in development, the dev IdP's accounts and the codes waiting to be read. Pages are GETs that change
/// nothing; every change is a POST through ``ConsoleGate/change(_:)`` into the admin operations, recorded as done by
/// the signed-in administrator (``ConsoleChanges``).
struct ConsoleRoutes {
    let platform: IdentityPlatform
    let options: ServerOptions
    let gate: ConsoleGate
    let signIn: ConsoleSignInRoutes?
    let cookies: ConsoleCookies

    /// Accounts per page of the listing, and events per page of the audit log.
    static let pageSize = 50
    /// What the overview reads, kept a minute per scope: the charts scan the audit log's last days.
    let activity = ConsoleActivity()

    init(platform: IdentityPlatform, options: ServerOptions, log: @escaping @Sendable (String) -> Void) {
        self.platform = platform
        self.options = options
        let console = options.console
        let cookies = ConsoleCookies(secure: options.publicURL.lowercased().hasPrefix("https:"))
        self.cookies = cookies
        let csrf = ConsoleCSRF(publicURL: options.publicURL)
        let provider = console.signIn ?? options.devIdentityProvider.map {
            Self.devGoogle($0, publicURL: options.publicURL)
        }
        signIn = provider.map {
            ConsoleSignInRoutes(
                platform: platform, provider: $0, publicURL: options.publicURL, cookies: cookies, csrf: csrf,
                sessionLifetime: console.sessionLifetime)
        }
        gate = ConsoleGate(
            platform: platform, session: ConsoleSession(platform: platform), csrf: csrf,
            cookies: cookies, opensOnLoopback: options.development && !console.requiresSignIn,
            development: options.development, signInName: provider?.displayName, log: log)
    }

    /// In development: the dev Google at `/dev/google` with its development client, the code exchanged in process.
    private static func devGoogle(_ dev: DevIdentityProvider, publicURL: String) -> ConsoleSignInProvider {
        ConsoleSignInProvider(
            providerID: IdentityProvider.googleID, clientID: DevPlaygroundRoutes.clientID,
            authorizationEndpoint: "\(publicURL)\(DevIdPRoutes.base)/o/oauth2/v2/auth", displayName: "Google (development)"
        ) { code, redirectURI, verifier in
            let answer = try dev.token([
                "grant_type": "authorization_code", "code": code, "client_id": DevPlaygroundRoutes.clientID,
                "redirect_uri": redirectURI, "code_verifier": verifier,
            ])
            guard let idToken = answer["id_token"]?.stringValue else { throw WireError(.invalidIdpResponse) }
            return idToken
        }
    }

    func register(in router: inout Router, edge: Edge) {
        let chain = edge.restrictedPlain
        router.add(.get, ConsolePaths.base, chain.handler { _ in ConsoleGate.secured(.redirect(to: ConsolePaths.home)) })
        router.add(.get, ConsolePaths.stylesheet, chain.handler { _ in
            var response = HTTPResponse(status: 200, headers: ["Content-Type": "text/css; charset=utf-8"], body: Array(ConsoleStylesheet.css.utf8))
            response.headers["Cache-Control"] = "max-age=3600"
            response.headers["X-Content-Type-Options"] = "nosniff"
            return response
        })
        router.add(.get, ConsolePaths.home, chain.handler(gate.page(home)))
        router.add(.get, "\(ConsolePaths.tenants)/{tenant}", chain.handler(gate.page(home)))
        router.add(.get, ConsolePaths.users, chain.handler(gate.page(users)))
        router.add(.get, "\(ConsolePaths.users)/{uid}", chain.handler(gate.page(user)))
        router.add(.get, ConsolePaths.tenants, chain.handler(gate.page(tenants)))
        router.add(.get, "\(ConsolePaths.tenants)/{tenant}/users", chain.handler(gate.page(users)))
        router.add(.get, "\(ConsolePaths.tenants)/{tenant}/users/{uid}", chain.handler(gate.page(user)))
        router.add(.get, ConsolePaths.config, chain.handler(gate.page(config)))
        router.add(.get, "\(ConsolePaths.tenants)/{tenant}/config", chain.handler(gate.page(config)))
        router.add(.get, ConsolePaths.keys, chain.handler(gate.page(keys)))
        router.add(.get, ConsolePaths.audit, chain.handler(gate.page(audit)))
        if options.development {
            router.add(.get, ConsolePaths.development, chain.handler(gate.page(development)))
        }
        ConsoleChanges(platform: platform, gate: gate, cookies: cookies, tenantPlatforms: edge.scopes.tenants)
            .register(in: &router, chain: chain)
        if let signIn {
            router.add(.get, ConsolePaths.signIn, chain.handler(signIn.start))
            router.add(.get, ConsolePaths.callback, chain.handler(signIn.callback))
            router.add(.post, ConsolePaths.secondFactor, chain.handler(signIn.secondFactor))
        }
    }

    /// The overview of the project, or under `/console/tenants/{tenant}` of that tenant.
    private var home: @Sendable (HTTPRequest, ConsoleGate.Visit) throws -> HTTPResponse {
        { [platform, activity] request, visit in
            let (store, tenant) = try Self.scope(request, platform)
            let read = try activity.read(store, scopeKey: tenant?.id ?? "", now: platform.time.now)
            return .html(HomePage(activity: read, tenant: tenant).html(visit.viewer))
        }
    }

    /// `?q=` searches (exact: uid, email, phone number, a provider's id for the person; each an indexed lookup);
    /// without it, one page of every account after `?after=` in uid order. Under `/console/tenants/{tenant}` the
    /// tenant's accounts.
    private var users: @Sendable (HTTPRequest, ConsoleGate.Visit) throws -> HTTPResponse {
        { [platform] request, visit in
            let (store, tenant) = try Self.scope(request, platform)
            let query = (request.query["q"] ?? "").trimmingCharacters(in: .whitespaces)
            if !query.isEmpty {
                let found = try store.read { reader -> [Account] in
                    var found = [
                        try reader.account(localID: query), try reader.account(email: query), try reader.account(phoneNumber: query),
                    ]
                    for providerID in platform.identityProviders.providerIDs {
                        found.append(try reader.account(providerID: providerID, rawID: query))
                    }
                    var seen = Set<String>()
                    return found.compactMap { $0 }.filter { seen.insert($0.localID).inserted }
                }
                let page = UsersPage(query: query, accounts: found, nextAfter: nil, isFirstPage: true, tenant: tenant)
                return .html(page.html(visit.viewer))
            }
            let after = request.query["after"].flatMap { $0.isEmpty ? nil : $0 }
            let page = try store.read { try $0.accounts(after: after, limit: Self.pageSize + 1) }
            let shown = Array(page.prefix(Self.pageSize))
            let next = page.count > Self.pageSize ? shown.last?.localID : nil
            let users = UsersPage(query: "", accounts: shown, nextAfter: next, isFirstPage: after == nil, tenant: tenant)
            return .html(users.html(visit.viewer))
        }
    }

    private var user: @Sendable (HTTPRequest, ConsoleGate.Visit) throws -> HTTPResponse {
        { [platform] request, visit in
            let (store, tenant) = try Self.scope(request, platform)
            let account = try Self.account(request, store)
            let notice = request.query["done"].flatMap { ConsoleChanges.notices[$0] }
            return .html(UserPage(account: account, notice: notice, tenant: tenant).html(visit.viewer))
        }
    }

    /// One page of the tenants after `?after=`, by id.
    private var tenants: @Sendable (HTTPRequest, ConsoleGate.Visit) throws -> HTTPResponse {
        { [platform] request, visit in
            let after = request.query["after"].flatMap { $0.isEmpty ? nil : $0 }
            let page = try platform.store.read { try $0.tenants(after: after, limit: Self.pageSize + 1) }
            let shown = Array(page.prefix(Self.pageSize))
            let next = page.count > Self.pageSize ? shown.last?.id : nil
            return .html(TenantsPage(tenants: shown, nextAfter: next, isFirstPage: after == nil).html(visit.viewer))
        }
    }

    /// The store the page reads: the project's, or under `/console/tenants/{tenant}` that tenant's view and its
    /// record (`TENANT_NOT_FOUND`, 404, for an unknown or malformed id).
    static func scope(_ request: HTTPRequest, _ platform: IdentityPlatform) throws -> (any HearthStore, Tenant?) {
        guard let id = request.pathParameters["tenant"] else { return (platform.store, nil) }
        let notFound = WireError(.tenantNotFound, "There is no tenant with this id.", httpStatus: 404)
        guard let scope = try? StoreScope.tenant(id),
            let tenant = try platform.store.read({ try $0.tenant(id: id) })
        else { throw notFound }
        return (platform.store.scoped(to: scope), tenant)
    }

    /// The account the path's `{uid}` names, or `USER_NOT_FOUND`.
    static func account(_ request: HTTPRequest, _ store: any HearthStore) throws -> Account {
        let localID = request.pathParameters["uid"] ?? ""
        guard let account = try store.read({ try $0.account(localID: localID) }) else {
            throw WireError(.userNotFound, "There is no account with this uid.", httpStatus: 404)
        }
        return account
    }

    /// The effective project configuration, each setting the config file locks shown as locked; under
    /// `/console/tenants/{tenant}/config` that tenant's settings.
    private var config: @Sendable (HTTPRequest, ConsoleGate.Visit) throws -> HTTPResponse {
        { [platform] request, visit in
            let notice = request.query["done"].flatMap { ConsoleChanges.notices[$0] }
            let (_, tenant) = try Self.scope(request, platform)
            return .html(try Self.configPage(platform, tenant: tenant, notice: notice, error: nil).html(visit.viewer))
        }
    }

    /// The configuration page as the project's configuration (or `tenant`'s settings, read afresh) now is.
    static func configPage(_ platform: IdentityPlatform, tenant: Tenant?, notice: String?, error: String?) throws
        -> ConfigPage
    {
        let service = platform.projectConfig
        guard let tenant else {
            return ConfigPage(
                config: try service.get(), locks: ConfigPage.locks { service.lock(of: $0)?.key }, notice: notice,
                error: error)
        }
        let settings = try service.settings(in: tenant.scope)
        return ConfigPage(
            config: TenantConfigShape.config(of: tenant, settings: settings), locks: [:], tenant: tenant, notice: notice,
            error: error)
    }

    private var keys: @Sendable (HTTPRequest, ConsoleGate.Visit) throws -> HTTPResponse {
        { [platform] request, visit in
            let notice = request.query["done"].flatMap { ConsoleChanges.notices[$0] }
            return .html(KeysPage(keys: try platform.sessionKeys.reload().records, notice: notice).html(visit.viewer))
        }
    }

    /// Newest first, filtered by `uid`, `kind` and `since` (`YYYY-MM-DDTHH:MM`, UTC); `before` continues after the
    /// previous page's last event.
    private var audit: @Sendable (HTTPRequest, ConsoleGate.Visit) throws -> HTTPResponse {
        { [platform] request, visit in
            let uid = (request.query["uid"] ?? "").trimmingCharacters(in: .whitespaces)
            let kind = request.query["kind"] ?? ""
            let since = request.query["since"] ?? ""
            func page(_ events: [AuditEvent], older: String?, error: String?, status: Int = 200) -> HTTPResponse {
                .html(AuditPage(uid: uid, kind: kind, since: since, events: events, olderBefore: older, error: error).html(visit.viewer), status: status)
            }
            guard kind.isEmpty || AuditEventKind.all.contains(AuditEventKind(rawValue: kind)) else {
                return page([], older: nil, error: "Unknown event kind “\(kind)”.", status: 400)
            }
            var sinceMillis: Int64?
            if !since.isEmpty {
                guard let millis = AuditPage.millis(since: since) else {
                    return page([], older: nil, error: "“Since” must be a date and time like 2026-12-01T09:30 (UTC).", status: 400)
                }
                sinceMillis = millis
            }
            let query = AuditQuery(
                localID: uid.isEmpty ? nil : uid, kind: kind.isEmpty ? nil : AuditEventKind(rawValue: kind),
                sinceMillis: sinceMillis, beforeID: request.query["before"].flatMap { $0.isEmpty ? nil : $0 },
                limit: Self.pageSize + 1)
            let events = try platform.store.read { try $0.auditEvents(query) }
            let shown = Array(events.prefix(Self.pageSize))
            return page(shown, older: events.count > Self.pageSize ? shown.last?.id : nil, error: nil)
        }
    }

    private var development: @Sendable (HTTPRequest, ConsoleGate.Visit) throws -> HTTPResponse {
        { [platform, options] _, visit in
            let sms = try (options.sentVerificationCodes?() ?? [])
                .filter { try platform.mfa.isOpenSession(sessionInfo: $0.sessionInfo) }
                .map { DevelopmentPage.SMSCode(phoneNumber: $0.phoneNumber, code: $0.code) }
            let page = DevelopmentPage(
                accounts: try options.devIdentityProvider?.accounts() ?? [], smsCodes: sms,
                emailCodes: try platform.emailActions.openIssuedCodes())
            return .html(page.html(visit.viewer))
        }
    }
}
