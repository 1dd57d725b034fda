public import HearthCore

/// In `--dev`: the dev IdP's accounts, and the SMS and email codes sent and not yet used, as the emulator's
/// REST helpers list them.
public struct DevelopmentPage: Sendable {
    /// An SMS code waiting to be read.
    public struct SMSCode: Sendable {
        public var phoneNumber: String
        public var code: String
        public init(phoneNumber: String, code: String) {
            self.phoneNumber = phoneNumber
            self.code = code
        }
    }

    public var accounts: [DevIdPAccount]
    public var smsCodes: [SMSCode]
    public var emailCodes: [IssuedOOBCode]

    public init(accounts: [DevIdPAccount], smsCodes: [SMSCode], emailCodes: [IssuedOOBCode]) {
        self.accounts = accounts
        self.smsCodes = smsCodes
        self.emailCodes = emailCodes
    }

    public func html(_ viewer: ConsoleViewer) -> String {
        let accountRows = accounts.map {
            "<tr><td>\(ConsoleHTML.escape($0.email))</td><td>\(ConsoleHTML.escape($0.name ?? "—"))</td><td class=\"mono\">\(ConsoleHTML.escape($0.subject))</td><td>\($0.emailVerified ? "yes" : "no")</td></tr>"
        }.joined()
        let smsRows = smsCodes.map {
            "<tr><td>\(ConsoleHTML.escape($0.phoneNumber))</td><td class=\"mono\">\(ConsoleHTML.escape($0.code))</td></tr>"
        }.joined()
        let emailRows = emailCodes.map {
            "<tr><td>\(ConsoleHTML.escape($0.email))</td><td>\(ConsoleHTML.escape($0.requestType))</td><td><a href=\"\(ConsoleHTML.escape($0.oobLink))\">Open the link</a></td></tr>"
        }.joined()
        func table(_ id: String, _ headings: [String], _ rows: String, empty: String) -> String {
            guard !rows.isEmpty else { return "<p class=\"muted\">\(empty)</p>" }
            let head = headings.map { "<th scope=\"col\">\($0)</th>" }.joined()
            return "<div class=\"table\"><table id=\"\(id)\"><thead><tr>\(head)</tr></thead><tbody>\(rows)</tbody></table></div>"
        }
        return ConsoleLayout.page(title: "Development", viewer: viewer, section: .development, body: """
            <p>Only with <code>--dev</code>: the local Google's accounts and the codes Hearth would have sent.</p>
            <h2>Dev IdP accounts</h2>\(table("dev-accounts", ["Email", "Name", "Subject (sub)", "Verified"], accountRows, empty: "No dev account yet."))
            <h2>SMS codes waiting</h2>\(table("sms-codes", ["Phone", "Code"], smsRows, empty: "No SMS code waiting."))
            <h2>Email action codes waiting</h2>\(table("email-codes", ["Email", "Action", "Link"], emailRows, empty: "No email code waiting."))
            """)
    }
}
