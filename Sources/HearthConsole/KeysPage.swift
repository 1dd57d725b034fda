public import HearthCore

/// The session signing keys: the one that signs, those still published for tokens they signed, and the
/// rotation step.
public struct KeysPage: Sendable {
    public var keys: [SigningKeyRecord]
    public var notice: String?

    public init(keys: [SigningKeyRecord], notice: String? = nil) {
        self.keys = keys.sorted { $0.createdAt > $1.createdAt }
        self.notice = notice
    }

    public func html(_ viewer: ConsoleViewer) -> String {
        let rows = keys.map { key in
            let state = key.retiredAt == nil ? "<span class=\"badge on\">signing</span>" : "<span class=\"badge\">retired, still published</span>"
            return """
                <tr><td class="mono">\(ConsoleHTML.escape(key.keyID))</td><td>\(ConsoleHTML.escape(key.algorithm))</td>
                <td>\(ConsoleHTML.time(seconds: Double(key.createdAt)))</td><td>\(key.retiredAt.map { ConsoleHTML.time(seconds: Double($0)) } ?? "—")</td><td>\(state)</td></tr>
                """
        }.joined()
        let status = notice.map { "<p class=\"status\" role=\"status\">\(ConsoleHTML.escape($0))</p>" } ?? ""
        return ConsoleLayout.page(title: "Signing keys", viewer: viewer, section: .keys, body: """
            \(status)
            <p>The newest key signs ID tokens and session cookies; a retired key stays in the JWKS until every token it signed has expired.</p>
            <div class="table"><table id="keys"><thead><tr><th scope="col">Key id (kid)</th><th scope="col">Algorithm</th><th scope="col">Created</th><th scope="col">Retired</th><th scope="col">State</th></tr></thead>
            <tbody>\(rows)</tbody></table></div>
            <div class="actions"><a class="button" href="\(ConsolePaths.rotateKey)" id="rotate">Rotate…</a></div>
            """)
    }
}
