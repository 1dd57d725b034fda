public import HearthCore

/// One account: its profile, linked providers, second factors (each with a remove step), the custom claims editor,
/// and the steps that revoke its sessions, disable or enable it, and delete it. Changes are confirmed on a page of
/// their own (``ConfirmPage``) before anything happens.
public struct UserPage: Sendable {
    public var account: Account
    /// The text in the claims editor: the account's claims, or what was posted when it was refused.
    public var claimsText: String
    /// Why the posted claims were refused.
    public var claimsError: String?
    /// What the last change did (`Sessions revoked.`).
    public var notice: String?
    /// The tenant the account belongs to; nil for the project's. A tenant's account is shown without the change
    /// steps: change it with the admin API (`/v1/projects/{p}/tenants/{t}/accounts…`) or `hearth users … --tenant`.
    public var tenant: Tenant?

    public init(
        account: Account, claimsText: String? = nil, claimsError: String? = nil, notice: String? = nil, tenant: Tenant? = nil
    ) {
        self.account = account
        self.tenant = tenant
        self.claimsText = claimsText ?? account.customAttributes ?? "{}"
        self.claimsError = claimsError
        self.notice = notice
    }

    public func html(_ viewer: ConsoleViewer) -> String {
        if let tenant { return readOnly(viewer, tenant: tenant) }
        let path = ConsoleHTML.userPath(account.localID)
        let status = notice.map { "<p class=\"status\" role=\"status\">\(ConsoleHTML.escape($0))</p>" } ?? ""
        let toggle = account.disabled
            ? "<a class=\"button secondary\" href=\"\(ConsoleHTML.escape(path))/enable\" id=\"enable\">Enable…</a>"
            : "<a class=\"button secondary\" href=\"\(ConsoleHTML.escape(path))/disable\" id=\"disable\">Disable…</a>"
        return ConsoleLayout.page(title: account.email ?? account.localID, viewer: viewer, section: .users, body: """
            \(status)
            <section aria-labelledby="profile"><h2 id="profile">Profile</h2>\(profile)
            <div class="actions">
            <a class="button secondary" href="\(ConsoleHTML.escape(path))/revoke" id="revoke">Revoke sessions…</a>
            \(toggle)
            <a class="button danger" href="\(ConsoleHTML.escape(path))/delete" id="delete">Delete…</a>
            </div></section>
            <section aria-labelledby="providers-heading"><h2 id="providers-heading">Sign-in providers</h2>\(providers)</section>
            <section aria-labelledby="factors-heading"><h2 id="factors-heading">Second factors</h2>\(factors(path))</section>
            <section aria-labelledby="claims-heading"><h2 id="claims-heading">Custom claims</h2>
            <form method="post" action="\(ConsoleHTML.escape(path))/claims">\(ConsoleHTML.csrfField(viewer))
            <label for="claims">Claims as a JSON object (at most 1,000 characters; names an ID token reserves are refused)</label>
            \(ConsoleHTML.alert(claimsError.map { "Not saved: \($0)" }))
            <textarea id="claims" name="claims" spellcheck="false"\(claimsError != nil ? " aria-invalid=\"true\"" : "")>\(ConsoleHTML.escape(claimsText))</textarea>
            <div class="actions"><button type="submit" id="save-claims">Save claims</button></div></form></section>
            <p><a href="\(ConsoleHTML.link(ConsolePaths.audit, [("uid", account.localID)]))" id="user-audit">Audit log of this user</a></p>
            """)
    }

    /// A tenant's account: profile, providers and factors, and where to change it.
    private func readOnly(_ viewer: ConsoleViewer, tenant: Tenant) -> String {
        ConsoleLayout.page(title: account.email ?? account.localID, viewer: viewer, section: .tenants, body: """
            <p class="muted" id="scope">A user of tenant <a href="\(ConsoleHTML.escape(ConsoleHTML.usersPath(tenantID: tenant.id)))" class="mono">\(ConsoleHTML.escape(tenant.id))</a>. \
            Change it with the admin API or <code>hearth users … --tenant \(ConsoleHTML.escape(tenant.id))</code>.</p>
            <section aria-labelledby="profile"><h2 id="profile">Profile</h2>\(profile)</section>
            <section aria-labelledby="providers-heading"><h2 id="providers-heading">Sign-in providers</h2>\(providers)</section>
            <section aria-labelledby="factors-heading"><h2 id="factors-heading">Second factors</h2>\(factors(nil))</section>
            <section aria-labelledby="claims-heading"><h2 id="claims-heading">Custom claims</h2>
            <pre id="claims" class="mono">\(ConsoleHTML.escape(claimsText))</pre></section>
            """)
    }

    private var profile: String {
        func row(_ name: String, _ value: String?) -> String {
            "<dt>\(name)</dt><dd>\(ConsoleHTML.escape(value ?? "—"))</dd>"
        }
        let state = account.disabled ? "<span class=\"badge off\" id=\"state\">disabled</span>" : "<span class=\"badge on\" id=\"state\">active</span>"
        return """
            <dl>\(row("uid", account.localID))\(row("Email", account.email.map { "\($0)\(account.emailVerified ? " (verified)" : " (not verified)")" }))
            \(row("Phone", account.phoneNumber))\(row("Display name", account.displayName))
            <dt>State</dt><dd>\(state)</dd>
            \(row("Created", ConsoleHTML.time(millis: account.createdAtMillis)))\(row("Last sign-in", account.lastLoginAtMillis.map(ConsoleHTML.time(millis:))))
            \(row("Sessions valid since", ConsoleHTML.time(millis: account.validSinceMillis)))
            \(row("Password", account.passwordHash == nil ? "none" : "set"))\(row("Guest", account.isAnonymous ? "yes" : "no"))</dl>
            """
    }

    private var providers: String {
        guard !account.providers.isEmpty else { return "<p class=\"muted\">No federated identity.</p>" }
        let rows = account.providers.map { identity in
            "<tr><td>\(ConsoleHTML.escape(identity.providerID))</td><td class=\"mono\">\(ConsoleHTML.escape(identity.rawID))</td><td>\(ConsoleHTML.escape(identity.email ?? "—"))</td><td>\(ConsoleHTML.escape(identity.displayName ?? "—"))</td></tr>"
        }.joined()
        return """
            <div class="table"><table id="providers"><thead><tr><th scope="col">Provider</th><th scope="col">Provider id</th><th scope="col">Email</th><th scope="col">Name</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """
    }

    /// The factors, each with its remove step under `path` (none without a path).
    private func factors(_ path: String?) -> String {
        guard !account.mfaEnrollments.isEmpty else { return "<p class=\"muted\" id=\"no-factors\">No second factor.</p>" }
        let rows = account.mfaEnrollments.map { factor in
            let remove = path.map { path in
                let step = "\(path)/factors/\(factor.enrollmentID)/remove"
                return "<a href=\"\(ConsoleHTML.escape(step))\" class=\"remove-factor\" aria-label=\"Remove the factor \(ConsoleHTML.escape(factor.displayName ?? factor.enrollmentID))\">Remove…</a>"
            } ?? ""
            return """
                <tr><td>\(factor.kind == .totp ? "Authenticator app (TOTP)" : "SMS")</td><td>\(ConsoleHTML.escape(factor.displayName ?? "—"))</td>
                <td>\(ConsoleHTML.escape(factor.phoneNumber ?? "—"))</td><td>\(ConsoleHTML.time(millis: factor.enrolledAtMillis))</td>
                <td>\(remove)</td></tr>
                """
        }.joined()
        return """
            <div class="table"><table id="factors"><thead><tr><th scope="col">Kind</th><th scope="col">Name</th><th scope="col">Phone</th><th scope="col">Enrolled</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            """
    }
}
