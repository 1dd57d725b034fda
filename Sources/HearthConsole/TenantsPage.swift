public import HearthCore

/// The project's tenants (Identity Platform), by id, each linking to its users.
public struct TenantsPage: Sendable {
    public var tenants: [Tenant]
    /// The id the next page starts after, when more follow.
    public var nextAfter: String?
    public var isFirstPage: Bool

    public init(tenants: [Tenant], nextAfter: String?, isFirstPage: Bool) {
        self.tenants = tenants
        self.nextAfter = nextAfter
        self.isFirstPage = isFirstPage
    }

    public func html(_ viewer: ConsoleViewer) -> String {
        var pager: [String] = []
        if !isFirstPage { pager.append("<a href=\"\(ConsolePaths.tenants)\">First page</a>") }
        if let nextAfter {
            pager.append("<a href=\"\(ConsoleHTML.link(ConsolePaths.tenants, [("after", nextAfter)]))\" id=\"next-page\" rel=\"next\">Next page</a>")
        }
        let table = tenants.isEmpty
            ? "<p class=\"muted\" id=\"no-tenants\">No tenant. Create them with the tenant API or <code>hearth tenants create</code>.</p>"
            : """
            <div class="table"><table id="tenants"><thead><tr><th scope="col">Id</th><th scope="col">Name</th>
            <th scope="col">Sign-in</th><th scope="col">Created</th><th scope="col">Activity</th></tr></thead>
            <tbody>\(tenants.map(Self.row).joined(separator: "\n"))</tbody></table></div>
            """
        return ConsoleLayout.page(title: "Tenants", viewer: viewer, section: .tenants, body: """
            \(table)
            <div class="pager">\(pager.joined(separator: " "))</div>
            """)
    }

    static func row(_ tenant: Tenant) -> String {
        var switches: [String] = []
        if tenant.disableAuth { switches.append("<span class=\"badge off\">sign-in off</span>") }
        if tenant.allowPasswordSignup { switches.append("password sign-up") }
        if tenant.enableEmailLinkSignin { switches.append("email links") }
        if tenant.enableAnonymousUser { switches.append("guests") }
        return """
            <tr><td><a href="\(ConsoleHTML.escape(ConsoleHTML.usersPath(tenantID: tenant.id)))" class="mono">\(ConsoleHTML.escape(tenant.id))</a></td>
            <td>\(ConsoleHTML.escape(tenant.displayName ?? "—"))</td><td>\(switches.isEmpty ? "—" : switches.joined(separator: ", "))</td>
            <td>\(ConsoleHTML.time(millis: tenant.createdAtMillis))</td>
            <td><a href="\(ConsoleHTML.escape(ConsoleHTML.homePath(tenantID: tenant.id)))" class="overview">Overview</a>
            <a href="\(ConsoleHTML.escape(ConsoleHTML.configPath(tenantID: tenant.id)))" class="configuration">Configuration</a></td></tr>
            """
    }
}
