import Foundation
import HearthProtocol
import Testing

/// `BrowserURL` against the table of URLs that browsers (WHATWG) and RFC 3986 parsers read differently,
/// `Tests/Fixtures/browser-urls.json` (its `browser` column is checked in Chromium by EndToEndTests `ContinueURLTests`).
@Suite("BrowserURL: URLs as browsers read them")
struct BrowserURLTests {
    struct Row: Decodable {
        var url: String
        var verdict: String
        var browser: String?
        var foundation: String?
        var why: String
    }

    static func table() throws -> [Row] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/browser-urls.json")
        struct Table: Decodable { var rows: [Row] }
        return try JSONDecoder().decode(Table.self, from: Data(contentsOf: file)).rows
    }

    static let refusals: [String: BrowserURL.Refusal] = [
        "backslash": .backslash, "controlOrSpace": .controlOrSpace, "nonASCII": .nonASCII, "notHTTP": .notHTTP,
        "userInfo": .userInfo, "emptyHost": .emptyHost, "invalidHost": .invalidHost, "numericHost": .numericHost,
        "invalidIPv6": .invalidIPv6, "invalidPort": .invalidPort, "malformedEscape": .malformedEscape,
    ]

    /// `host[:port]` as a browser's `URL.host` gives it: without the scheme's default port.
    static func browserHost(_ url: BrowserURL) -> String {
        String(url.origin.dropFirst(url.scheme.rawValue.count + 3))
    }

    /// `host` of `host[:port]`.
    static func withoutPort(_ host: String) -> String {
        let end = host.hasPrefix("[") ? host.firstIndex(of: "]").map { host.index(after: $0) } : host.firstIndex(of: ":")
        return String(host[..<(end ?? host.endIndex)])
    }

    @Test("the table: every verdict; an accepted URL has the host and port Chromium and URLComponents read")
    func table() throws {
        let rows = try Self.table()
        #expect(rows.count > 90)
        for row in rows {
            let components = URLComponents(string: row.url)
            #expect(components?.encodedHost?.lowercased() == row.foundation, "URLComponents reads \(row.url.debugDescription) so")
            do {
                let url = try BrowserURL(parsing: row.url)
                #expect(row.verdict == "accept", "\(row.url.debugDescription) accepted: \(row.why)")
                #expect(Self.browserHost(url) == row.browser, "\(row.url.debugDescription): host as browsers read it")
                #expect(components?.scheme?.lowercased() == url.scheme.rawValue, "\(row.url.debugDescription)")
                #expect(components?.encodedHost?.lowercased() == url.host, "\(row.url.debugDescription)")
                #expect(components?.port == url.port, "\(row.url.debugDescription)")
            } catch {
                #expect(Self.refusals[row.verdict] == error, "\(row.url.debugDescription) refused as \(error): \(row.why)")
            }
        }
    }

    @Test("the table holds the issue's attacks: Foundation reads an authorized host where Chromium reads another")
    func attacks() throws {
        let rows = try Self.table()
        for attack in ["http://ATTACKER\\@localhost/finish", "http://ATTACKER\\\\@localhost/", "https://EVIL\\@127.0.0.1/",
                       "http://evil.com\\@good.example/"] {
            let row = try #require(rows.first { $0.url == attack })
            #expect(row.browser != row.foundation && row.verdict == "backslash", "\(attack)")
        }
        let disagreements = rows.filter { $0.browser.map(Self.withoutPort) != $0.foundation }
        #expect(disagreements.count >= 30)
        #expect(disagreements.allSatisfy { $0.verdict != "accept" }, "\(disagreements.filter { $0.verdict == "accept" }.map(\.url))")
    }

    @Test("parts: scheme and host lower-cased, the rest as written; origin without the default port")
    func parts() throws {
        let url = try BrowserURL(parsing: "HTTPS://Good.Example:8443/A%2Fb?q=1&r=%20#Top")
        #expect(url.scheme == .https && url.host == "good.example" && url.port == 8443)
        #expect(url.path == "/A%2Fb" && url.query == "q=1&r=%20" && url.fragment == "Top")
        #expect(url.description == "https://good.example:8443/A%2Fb?q=1&r=%20#Top")
        #expect(url.origin == "https://good.example:8443")
        #expect(try BrowserURL(parsing: "https://good.example:443/").origin == "https://good.example")
        #expect(try BrowserURL(parsing: "http://good.example:443/").origin == "http://good.example:443")
        let bare = try BrowserURL(parsing: "http://localhost")
        #expect(bare.path == "" && bare.query == nil && bare.fragment == nil && bare.port == nil)
        #expect(try BrowserURL(parsing: "http://a/?").query == "")
    }

    @Test("addingQuery: after the existing query, before the fragment")
    func addingQuery() throws {
        #expect(try BrowserURL(parsing: "https://app.example/done").addingQuery("a=1&b=2") == "https://app.example/done?a=1&b=2")
        #expect(try BrowserURL(parsing: "https://app.example").addingQuery("a=1") == "https://app.example?a=1")
        #expect(try BrowserURL(parsing: "https://app.example/?").addingQuery("a=1") == "https://app.example/?a=1")
        #expect(try BrowserURL(parsing: "https://app.example/d?x=y#frag").addingQuery("a=1") == "https://app.example/d?x=y&a=1#frag")
        #expect(try BrowserURL(parsing: "HTTPS://APP.example/D#f").addingQuery("a=1") == "https://app.example/D?a=1#f")
    }

    @Test("IPv6 hosts only in RFC 5952 form, as browsers serialize them", arguments: [
        ("[::]", "[::]"), ("[::1]", "[::1]"), ("[1::]", "[1::]"), ("[1:2:3:4:5:6:7:8]", "[1:2:3:4:5:6:7:8]"),
        ("[1:0:0:1::1]", "[1:0:0:1::1]"), ("[1::1:0:0:1:1]", "[1::1:0:0:1:1]"), ("[FE80::ABCD]", "[fe80::abcd]"),
        ("[1:0:2:3:4:5:6:7]", "[1:0:2:3:4:5:6:7]"),
    ])
    func canonicalIPv6(host: String, read: String) throws {
        #expect(try BrowserURL(parsing: "http://\(host)/").host == read)
    }

    @Test("IPv6 hosts in any other form are refused", arguments: [
        "[1:0:0:1:0:0:0:1]", "[1:0:0:1:0::1]", "[1:0:0:1:1::1:1]", "[1:0:0:1:0:0:1:1]", "[1::2:0:0:0:3]", "[0::1]", "[::01]",
        "[1:2:3:4:5:6:7::]", "[1:2:3:4:5:6:7:8:9]", "[1:2:3:4:5:6:7]", "[1::2::3]", "[:::1]", "[:1::]", "[12345::]", "[]", "[g::]",
        "[::1.2.3.4]",
    ])
    func nonCanonicalIPv6(host: String) {
        #expect(throws: BrowserURL.Refusal.invalidIPv6) { try BrowserURL(parsing: "http://\(host)/") }
    }

    @Test("every refusal says why")
    func reasons() {
        for refusal in Self.refusals.values { #expect(!refusal.description.isEmpty) }
        #expect(BrowserURL.Refusal.backslash.description == "it contains a backslash")
    }
}
