import Foundation
import HearthAdmin
import HearthCore
import HearthSQLite
import Testing

/// Reading the audit log: `hearth audit` on a store file, the admin API's `GET …/auditEvents` and HearthAdmin's
/// `auditEvents` against the built `hearth serve --dev`. Events are written straight into the SQLite file (the
/// services' own events have uids and times of their own, which the filters here leave out).
@Suite("Audit log (e2e)", .blocking)
struct AuditLogTests {
    static let nowMillis = Int64(Date().timeIntervalSince1970 * 1000)

    static func event(
        minutesAgo: Int64, _ kind: AuditEventKind, uid: String?, provider: String? = nil, client: String? = nil,
        actor: AuditActor, detail: String = ""
    ) -> AuditEvent {
        let millis = nowMillis - minutesAgo * 60_000
        return AuditEvent(
            id: AuditEvent.newID(atMillis: millis), atMillis: millis, kind: kind, localID: uid, provider: provider,
            clientAddress: client, actor: actor, detail: detail)
    }

    /// Newest first.
    static let sample = [
        event(minutesAgo: 60, .keyRotated, uid: nil, actor: .commandLine),
        event(minutesAgo: 120, .signIn, uid: "audit-b", provider: "password", client: "2001:db8::5", actor: .user, detail: "mfa_required"),
        event(
            minutesAgo: 30 * 60, .accountDisabled, uid: "audit-a", client: "198.51.100.7",
            actor: .serviceAccount(email: "ops@demo-hearth.iam.hearth"), detail: "fields=disabled"),
        event(minutesAgo: 10 * 24 * 60, .signUp, uid: "audit-a", provider: "google.com", client: "203.0.113.1", actor: .user),
    ]

    static func insert(_ events: [AuditEvent], into path: String) throws {
        let store = try SQLiteStore(path: path)
        defer { store.close() }
        try store.write { writer in
            for event in events { try writer.insertAuditEvent(event) }
        }
    }

    /// `time` as the log shows it: RFC 3339, exactly the milliseconds, UTC.
    static func time(_ millis: Int64) -> String {
        let seconds = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(millis / 1000)))
        return seconds.dropLast() + String(format: ".%03lldZ", millis % 1000)
    }

    // MARK: hearth audit

    /// A data directory whose store holds `sample`, and `hearth audit` run on it.
    final class AuditDirectory {
        let directory = HearthProcess.temporaryDirectory()

        init(_ events: [AuditEvent] = AuditLogTests.sample) throws {
            try AuditLogTests.insert(events, into: directory.appendingPathComponent("hearth.sqlite").path)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func audit(_ arguments: [String]) throws -> ProgramResult {
            try runProgramSplit(HearthProcess.executable, ["audit"] + arguments + ["--data-dir", directory.path])
        }

        /// The ids `hearth audit --json` prints with `arguments`.
        func ids(_ arguments: [String]) throws -> [String] {
            let result = try audit(arguments + ["--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            return array.compactMap { $0["id"] as? String }
        }
    }

    @Test("hearth audit prints a header and one line per event, newest first, every field, '-' for none")
    func textOutput() throws {
        let data = try AuditDirectory()
        let result = try data.audit([])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines.count == 5, "\(result.stdout)")
        #expect(lines.first == ["TIME", "(UTC)", "KIND", "UID", "PROVIDER", "ACTOR", "CLIENT", "DETAIL"])
        let expected = Self.sample.map { event in
            [
                Self.time(event.atMillis), event.kind.rawValue, event.localID ?? "-", event.provider ?? "-",
                event.actor.rawValue, event.clientAddress ?? "-", event.detail.isEmpty ? "-" : event.detail,
            ]
        }
        #expect(Array(lines.dropFirst()) == expected)
    }

    @Test("hearth audit --json prints an array of records as the admin API answers them; nil fields left out")
    func jsonOutput() throws {
        let data = try AuditDirectory()
        let result = try data.audit(["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(records.count == Self.sample.count)
        for (record, event) in zip(records, Self.sample) {
            #expect(record["id"] as? String == event.id)
            #expect(record["time"] as? String == Self.time(event.atMillis))
            #expect(record["kind"] as? String == event.kind.rawValue)
            #expect(record["localId"] as? String == event.localID)
            #expect(record["provider"] as? String == event.provider)
            #expect(record["clientAddress"] as? String == event.clientAddress)
            #expect(record["actor"] as? String == event.actor.rawValue)
            #expect(record["detail"] as? String == event.detail)
        }
        #expect(Set(records[0].keys) == ["id", "time", "kind", "actor", "detail"])
        let none = try data.audit(["--json", "--uid", "nobody"])
        #expect(none.status == 0 && none.stdout == "[]\n", "\(none.stdout)")
    }

    @Test("control characters in a value are printed escaped: no forged line, no terminal escape; JSON keeps them")
    func controlCharacters() throws {
        let hostile = Self.event(
            minutesAgo: 5, .signInFailed, uid: "audit-c\r", provider: "evil.com\n\(Self.time(Self.nowMillis)) sign_in forged",
            actor: .user, detail: "code=\u{1B}[2J\u{9B}31m")
        let data = try AuditDirectory([hostile])
        let result = try data.audit([])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0 == "\r" })
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(result.stdout)")
        #expect(lines[1].contains("audit-c\\u{D}") && lines[1].contains("evil.com\\u{A}"), "\(lines[1])")
        #expect(lines[1].hasSuffix("code=\\u{1B}[2J\\u{9B}31m"), "\(lines[1])")
        let records = try #require(
            try JSONSerialization.jsonObject(with: Data(try data.audit(["--json"]).stdout.utf8)) as? [[String: Any]])
        #expect(records.first?["provider"] as? String == hostile.provider)
        #expect(records.first?["detail"] as? String == hostile.detail)
    }

    @Test("--uid, --kind, --since (time or duration) and --limit filter, alone and combined")
    func filters() throws {
        let data = try AuditDirectory()
        let ids = Self.sample.map(\.id)
        #expect(try data.ids([]) == ids)
        #expect(try data.ids(["--uid", "audit-a"]) == [ids[2], ids[3]])
        #expect(try data.ids(["--kind", "sign_in"]) == [ids[1]])
        #expect(try data.ids(["--since", "24h"]) == [ids[0], ids[1]])
        #expect(try data.ids(["--since", "90m"]) == [ids[0]])
        #expect(try data.ids(["--since", "7d", "--uid", "audit-a"]) == [ids[2]])
        #expect(try data.ids(["--since", Self.time(Self.sample[2].atMillis)]) == Array(ids[0...2]))
        #expect(try data.ids(["--since", Self.time(Self.sample[2].atMillis + 1)]) == Array(ids[0...1]))
        #expect(try data.ids(["--uid", "audit-a", "--kind", "sign_up"]) == [ids[3]])
        #expect(try data.ids(["--uid", "audit-a", "--kind", "sign_in"]) == [])
        #expect(try data.ids(["--limit", "2"]) == Array(ids[0...1]))
    }

    @Test("an unknown kind, a time that is not one, a bad limit or a stray argument is a usage error; nothing printed")
    func usageErrors() throws {
        let data = try AuditDirectory()
        for (arguments, message) in [
            (["--kind", "nope"], "--kind must be one of sign_in, sign_in_failed"),
            (["--since", "yesterday"], "--since must be an ISO 8601 time"),
            (["--since", "5w"], "--since must be"),
            (["--since", "-5m"], "--since must be"),
            (["--limit", "0"], "--limit must be a positive whole number"),
            (["--limit", "many"], "--limit must be a positive whole number"),
            (["--uid", ""], "--uid must not be empty"),
            (["everything"], "unexpected argument 'everything'"),
            (["--user", "x"], "unknown option"),
        ] {
            let result = try data.audit(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        let missing = try runProgramSplit(HearthProcess.executable, ["audit", "--data-dir", "/nonexistent-hearth-dir"])
        #expect(missing.status == 1 && missing.stderr.contains("no Hearth database"), "\(missing.stderr)")
        let help = try runProgramSplit(HearthProcess.executable, ["help", "audit"])
        #expect(help.status == 0 && help.stdout.contains("key_rotated") && help.stdout.contains("--since T"))
    }

    @Test("--limit reads page after page: the newest N, each once, in order; 100 by default")
    func paging() throws {
        let events = (0..<2_345).map { index in
            Self.event(minutesAgo: 0, .signIn, uid: "audit-p", actor: .user).with(millis: Self.nowMillis - 5_000_000 + Int64(index / 3))
        }
        let data = try AuditDirectory(events)
        let newest = events.map(\.id).sorted().reversed()
        let listed = try data.ids(["--limit", "2100", "--uid", "audit-p"])
        #expect(listed == Array(newest.prefix(2100)))
        #expect(try data.ids(["--uid", "audit-p"]) == Array(newest.prefix(100)))
        #expect(try data.ids(["--limit", "5000"]).count == 2_345)
    }

    // MARK: Admin API

    /// `GET …/auditEvents?<query>` as an admin client sends it.
    static func get(_ server: HearthProcess, _ query: String, authorization: String? = "Bearer owner", project: String = "demo-hearth")
        throws -> HTTPResult
    {
        try server.request(
            "GET", "/identitytoolkit.googleapis.com/v1/projects/\(project)/auditEvents?\(query)",
            headers: authorization.map { [("Authorization", $0)] } ?? [])
    }

    static func ids(_ result: HTTPResult) -> [String] {
        (result.json["events"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test("GET auditEvents with the owner credential: camelCase records, filters, pages with a token only when full")
    func adminAPI() throws {
        let server = HearthProcess()
        try server.start()
        defer { server.stop() }
        let paged = (0..<4).map { Self.event(minutesAgo: Int64(10 + $0), .signIn, uid: "audit-p", actor: .user) }
        try Self.insert(Self.sample + paged, into: server.dataDirectory.appendingPathComponent("hearth.sqlite").path)

        let byUser = try Self.get(server, "uid=audit-a")
        #expect(byUser.status == 200, "\(byUser.text)")
        let records = try #require(byUser.json["events"] as? [[String: Any]])
        #expect(records.count == 2 && byUser.json["nextPageToken"] == nil)
        let disabled = try #require(records.first)
        #expect(disabled["id"] as? String == Self.sample[2].id)
        #expect(disabled["time"] as? String == Self.time(Self.sample[2].atMillis))
        #expect(disabled["kind"] as? String == "account_disabled")
        #expect(disabled["localId"] as? String == "audit-a")
        #expect(disabled["clientAddress"] as? String == "198.51.100.7")
        #expect(disabled["actor"] as? String == "service-account:ops@demo-hearth.iam.hearth")
        #expect(disabled["detail"] as? String == "fields=disabled")
        #expect(disabled["provider"] == nil)

        #expect(Self.ids(try Self.get(server, "uid=audit-a&kind=sign_up")) == [Self.sample[3].id])
        let since = Self.sample[2].atMillis
        #expect(Self.ids(try Self.get(server, "uid=audit-a&since=\(since)")) == [Self.sample[2].id])
        #expect(Self.ids(try Self.get(server, "uid=audit-a&since=\(since + 1)")) == [])
        let rfc3339 = Self.time(since).replacingOccurrences(of: ":", with: "%3A")
        #expect(Self.ids(try Self.get(server, "uid=audit-a&since=\(rfc3339)")) == [Self.sample[2].id])

        // Four events in pages of 3, then of 2 (the second page is full: a token, then an empty last page).
        let first = try Self.get(server, "uid=audit-p&maxResults=3")
        let token = try #require(first.json["nextPageToken"] as? String, "\(first.text)")
        #expect(Self.ids(first) == paged.prefix(3).map(\.id) && token == paged[2].id)
        let last = try Self.get(server, "uid=audit-p&maxResults=3&pageToken=\(token)")
        #expect(Self.ids(last) == [paged[3].id] && last.json["nextPageToken"] == nil)
        let half = try Self.get(server, "uid=audit-p&maxResults=2&pageToken=\(paged[1].id)")
        #expect(Self.ids(half) == paged.suffix(2).map(\.id) && half.json["nextPageToken"] as? String == paged[3].id)
        let empty = try Self.get(server, "uid=audit-p&maxResults=2&pageToken=\(paged[3].id)")
        #expect(empty.status == 200 && Self.ids(empty) == [] && empty.json["nextPageToken"] == nil, "\(empty.text)")
    }

    @Test("bad parameters are INVALID_ARGUMENT in the wire envelope; no credentials or an API key are refused")
    func adminAPIRefusals() throws {
        let server = HearthProcess()
        try server.start()
        defer { server.stop() }
        try Self.insert(Self.sample, into: server.dataDirectory.appendingPathComponent("hearth.sqlite").path)
        for query in [
            "maxResults=0", "maxResults=1001", "maxResults=many", "kind=nope", "since=yesterday", "pageToken=notatoken",
            "pageToken=0000000000001-abc%27%3B--xx", "uid=",
        ] {
            let result = try Self.get(server, query)
            #expect(result.status == 400, "\(query): \(result.text)")
            // A canonical code: Google's envelope names it in `status`, and the message says what is wrong.
            #expect((result.json["error"] as? [String: Any])?["status"] as? String == "INVALID_ARGUMENT", "\(query)")
            #expect(result.errorMessage?.isEmpty == false, "\(query): \(result.text)")
        }
        let anonymous = try Self.get(server, "uid=audit-a", authorization: nil)
        #expect(anonymous.status == 401 && anonymous.text.contains("UNAUTHENTICATED"), "\(anonymous.text)")
        #expect(!anonymous.text.contains("audit-a"))
        let apiKey = try server.request("GET", "/identitytoolkit.googleapis.com/v1/projects/demo-hearth/auditEvents?key=any-key")
        #expect(apiKey.status == 401, "\(apiKey.text)")
        let userToken = try Self.get(server, "", authorization: "Bearer not-an-admin-token")
        #expect(userToken.status == 401, "\(userToken.text)")
        let otherProject = try Self.get(server, "", project: "someone-else")
        #expect(otherProject.errorMessage?.hasPrefix("PROJECT_NOT_FOUND") == true, "\(otherProject.text)")
    }

    @Test("HearthAdmin's auditEvents reads the log page by page as typed events")
    func adminLibrary() async throws {
        let (server, auth) = try AdminLibraryTests.developmentServer()
        defer { server.stop() }
        try Self.insert(Self.sample, into: server.dataDirectory.appendingPathComponent("hearth.sqlite").path)
        let first = try await auth.auditEvents(uid: "audit-a", pageSize: 1)
        let event = try #require(first.events.first)
        #expect(first.events.count == 1 && first.nextPageToken == Self.sample[2].id)
        #expect(event.id == Self.sample[2].id && event.kind == "account_disabled" && event.uid == "audit-a")
        #expect(Int64((event.time.timeIntervalSince1970 * 1000).rounded()) == Self.sample[2].atMillis)
        #expect(event.actor == "service-account:ops@demo-hearth.iam.hearth" && event.provider == nil)
        let second = try await auth.auditEvents(uid: "audit-a", pageSize: 1, pageToken: first.nextPageToken)
        #expect(second.events.map(\.id) == [Self.sample[3].id])
        let recent = try await auth.auditEvents(
            uid: "audit-b", kind: "sign_in", since: Date(timeIntervalSince1970: Double(Self.nowMillis) / 1000 - 3 * 3600))
        #expect(recent.events.map(\.detail) == ["mfa_required"] && recent.nextPageToken == nil)
        let refused = await refusal { try await auth.auditEvents(kind: "nope") }
        #expect(refused?.code == .invalidArgument)
    }
}

extension AuditEvent {
    /// The same event at `millis`, with an id of that time.
    fileprivate func with(millis: Int64) -> AuditEvent {
        var event = self
        event.atMillis = millis
        event.id = AuditEvent.newID(atMillis: millis)
        return event
    }
}
