public import HearthCore

/// The console's first page, for the project or one tenant: how many users there are, and the last days' sign-ins by
/// provider, new users, and refusals and lockouts, as charts drawn on the server (``BarChart``).
public struct HomePage: Sendable {
    /// What the page shows, read from the scope's accounts and audit log.
    public struct Activity: Sendable, Equatable {
        /// The days shown, oldest first (whole days since 1970-01-01 UTC); the last is today.
        public var days: [Int64]
        public var users: Int
        /// Per kind: its events per day and provider (`StoreReader.auditEventCounts`).
        public var counts: [AuditEventKind: [AuditDayCount]]

        public init(days: [Int64], users: Int, counts: [AuditEventKind: [AuditDayCount]]) {
            self.days = days
            self.users = users
            self.counts = counts
        }

        /// The kinds the page counts.
        public static let kinds: [AuditEventKind] = [.signIn, .signUp, .accountCreated, .signInFailed, .mfaFailed, .lockout]

        /// `kind`'s events on each day, by provider (`nil`: none named).
        func perProvider(_ kind: AuditEventKind) -> [String?: [Int]] {
            var series: [String?: [Int]] = [:]
            for count in counts[kind] ?? [] {
                guard let index = days.firstIndex(of: count.day) else { continue }
                series[count.provider, default: Array(repeating: 0, count: days.count)][index] += count.count
            }
            return series
        }

        /// `kind`'s events on each day, whatever the provider.
        func perDay(_ kind: AuditEventKind) -> [Int] {
            perProvider(kind).values.reduce(into: Array(repeating: 0, count: days.count)) { total, counts in
                for index in counts.indices { total[index] += counts[index] }
            }
        }

        func total(_ kind: AuditEventKind) -> Int { perDay(kind).reduce(0, +) }
    }

    public var activity: Activity
    /// The tenant shown, or nil for the project.
    public var tenant: Tenant?

    public init(activity: Activity, tenant: Tenant?) {
        self.activity = activity
        self.tenant = tenant
    }

    /// Sign-ins per day, one series per provider, the busiest first.
    public var signInChart: BarChart {
        let providers = activity.perProvider(.signIn).sorted {
            let (left, right) = ($0.value.reduce(0, +), $1.value.reduce(0, +))
            return left != right ? left > right : ($0.key ?? "") < ($1.key ?? "")
        }
        let series = providers.enumerated().map { index, entry in
            BarChart.Series(
                label: entry.key ?? "other", colour: BarChart.palette[index % BarChart.palette.count], counts: entry.value)
        }
        return BarChart(id: "sign-ins", title: "Sign-ins per day, by provider", days: activity.days, series: series)
    }

    /// New users per day: those who signed up, and those an administrator created.
    public var newUsersChart: BarChart {
        chart(id: "new-users", title: "New users per day", [
            ("signed up", .signUp), ("created by an administrator", .accountCreated),
        ])
    }

    /// Refused sign-ins, refused second factors and lockouts per day.
    public var refusalsChart: BarChart {
        chart(id: "refusals", title: "Refusals and lockouts per day", [
            ("sign-ins refused", .signInFailed), ("second factors refused", .mfaFailed), ("lockouts", .lockout),
        ])
    }

    /// One series per kind, the kinds with no event in these days left out.
    private func chart(id: String, title: String, _ kinds: [(String, AuditEventKind)]) -> BarChart {
        let series = kinds.enumerated().compactMap { index, entry -> BarChart.Series? in
            let counts = activity.perDay(entry.1)
            guard counts.contains(where: { $0 > 0 }) else { return nil }
            return BarChart.Series(label: entry.0, colour: BarChart.palette[index], counts: counts)
        }
        return BarChart(id: id, title: title, days: activity.days, series: series)
    }

    public func html(_ viewer: ConsoleViewer) -> String {
        let days = activity.days.count
        let figures: [(String, String, Int)] = [
            ("users", "Users", activity.users),
            ("sign-in-total", "Sign-ins, \(days) days", activity.total(.signIn)),
            ("new-user-total", "New users, \(days) days", activity.total(.signUp) + activity.total(.accountCreated)),
            ("refusal-total", "Refusals, \(days) days", activity.total(.signInFailed) + activity.total(.mfaFailed)),
            ("lockout-total", "Lockouts, \(days) days", activity.total(.lockout)),
        ]
        let stats = figures.map { id, label, value in
            "<div><dt>\(label)</dt><dd id=\"\(id)\">\(value)</dd></div>"
        }.joined()
        let title = tenant.map { "Overview of tenant \($0.displayName ?? $0.id)" } ?? "Overview"
        let scope = tenant.map {
            """
            <p id="scope">Tenant <span class="mono">\(ConsoleHTML.escape($0.id))</span>:
            <a href="\(ConsoleHTML.escape(ConsoleHTML.usersPath(tenantID: $0.id)))">its users</a>,
            <a href="\(ConsoleHTML.escape(ConsoleHTML.configPath(tenantID: $0.id)))">its configuration</a>.</p>
            """
        } ?? ""
        return ConsoleLayout.page(title: title, viewer: viewer, section: tenant == nil ? .home : .tenants, body: """
            \(scope)<dl class="stats">\(stats)</dl>
            <p class="muted">Days are UTC; today is the last bar, counted so far.</p>
            \(signInChart.html())
            \(newUsersChart.html())
            \(refusalsChart.html())
            """)
    }
}
