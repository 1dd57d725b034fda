public import HearthCore

/// The users page of the project or of one tenant: a search box (an exact email, phone number, uid or provider id) and either what it found or
/// one page of every account in uid order, with a link to the next page (keyset paging: `after` names the last uid).
public struct UsersPage: Sendable {
    public var query: String
    public var accounts: [Account]
    /// Searching (`query` given): `accounts` is what matched. Listing: one page, and the uid the next page starts after.
    public var nextAfter: String?
    public var isFirstPage: Bool
    /// The tenant whose users these are; nil for the project's.
    public var tenant: Tenant?

    public init(query: String, accounts: [Account], nextAfter: String?, isFirstPage: Bool, tenant: Tenant? = nil) {
        self.query = query
        self.accounts = accounts
        self.nextAfter = nextAfter
        self.isFirstPage = isFirstPage
        self.tenant = tenant
    }

    public func html(_ viewer: ConsoleViewer) -> String {
        let searching = !query.isEmpty
        let base = ConsoleHTML.usersPath(tenantID: tenant?.id)
        let heading = searching
            ? "<h2 id=\"results\">\(accounts.isEmpty ? "No account matches" : "Matches") <span class=\"muted\">for “\(ConsoleHTML.escape(query))”</span></h2>"
            : "<h2 id=\"results\">All users <span class=\"muted\">(by uid)</span></h2>"
        let title = tenant.map { "Users of \($0.displayName ?? $0.id)" } ?? "Users"
        let scope = tenant.map { "<p class=\"muted\" id=\"scope\">Tenant <span class=\"mono\">\(ConsoleHTML.escape($0.id))</span>: its users only.</p>" } ?? ""
        var pager: [String] = []
        if searching || !isFirstPage { pager.append("<a href=\"\(ConsoleHTML.escape(base))\">First page</a>") }
        if let nextAfter { pager.append("<a href=\"\(ConsoleHTML.link(base, [("after", nextAfter)]))\" id=\"next-page\" rel=\"next\">Next page</a>") }
        return ConsoleLayout.page(title: title, viewer: viewer, section: tenant == nil ? .users : .tenants, body: """
            \(scope)
            <form method="get" action="\(ConsoleHTML.escape(base))" class="search" role="search">
            <div><label for="q">Email, phone number, uid or provider id</label>
            <input type="search" id="q" name="q" value="\(ConsoleHTML.escape(query))" size="40" autocomplete="off"></div>
            <button type="submit" id="search">Search</button></form>
            <p class="muted">Exact matches: a whole email address, a phone number in E.164 (+15551234567), a uid, or the id a provider (Google, Apple, OpenID) knows the person by.</p>
            \(heading)
            \(Self.table(accounts, tenantID: tenant?.id))
            <div class="pager">\(pager.joined(separator: " "))</div>
            """)
    }

    static func table(_ accounts: [Account], tenantID: String?) -> String {
        guard !accounts.isEmpty else { return "" }
        let rows = accounts.map { account in
            let providers = account.providers.map(\.providerID) + (account.passwordHash != nil ? ["password"] : [])
            return """
                <tr><td><a href="\(ConsoleHTML.escape(ConsoleHTML.userPath(account.localID, tenantID: tenantID)))" class="mono">\(ConsoleHTML.escape(account.localID))</a></td>
                <td>\(ConsoleHTML.escape(account.email ?? "—"))</td><td>\(ConsoleHTML.escape(account.phoneNumber ?? "—"))</td>
                <td>\(ConsoleHTML.escape(providers.joined(separator: ", ")))</td>
                <td>\(account.disabled ? "<span class=\"badge off\">disabled</span>" : "<span class=\"badge on\">active</span>")</td>
                <td>\(ConsoleHTML.time(millis: account.createdAtMillis))</td></tr>
                """
        }.joined(separator: "\n")
        return """
            <div class="table"><table id="users"><thead><tr><th scope="col">uid</th><th scope="col">Email</th><th scope="col">Phone</th>
            <th scope="col">Providers</th><th scope="col">State</th><th scope="col">Created</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """
    }
}
