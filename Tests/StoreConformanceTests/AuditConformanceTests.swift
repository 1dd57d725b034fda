import Foundation
import HearthCore
import Testing

/// The audit log, proved on each `StoreKind`: events round-trip, come back newest first, filtered by any combination
/// of account, kind and time, a page at a time without gaps or repeats; ids are unique; the retention purge deletes
/// the oldest first; a rolled-back write leaves no event.
@Suite("Store conformance: audit log")
struct AuditConformanceTests {
    /// An event at `millis` whose id is the time (as `AuditEvent.newID(atMillis:)` makes it) and `suffix`.
    static func event(
        _ millis: Int64, _ suffix: String = "aaaaaaaaaaaa", kind: AuditEventKind = .signIn, localID: String? = "uid-a",
        full: Bool = true
    ) -> AuditEvent {
        let id = String(format: "%013lld", millis) + "-" + suffix
        return full
            ? AuditEvent(
                id: id, atMillis: millis, kind: kind, localID: localID, provider: "google.com",
                clientAddress: "2001:db8::1", actor: .serviceAccount(email: "backend@p.iam.hearth"),
                detail: "fields=disabled,customAttributes ü 李")
            : AuditEvent(id: id, atMillis: millis, kind: kind, localID: localID, actor: .system)
    }

    /// 24 events of two accounts and the project, three kinds, some at the same millisecond.
    static let sample: [AuditEvent] = (0..<24).map { index in
        let kinds: [AuditEventKind] = [.signIn, .signUp, .keyRotated]
        let accounts: [String?] = ["uid-a", "uid-b", nil]
        return event(
            1_700_000_000_000 + Int64(index / 2) * 1_000, "s\(index)", kind: kinds[index % 3],
            localID: accounts[(index / 3) % 3], full: index % 2 == 0)
    }

    /// What `query` must return from `events`: the contract, stated plainly.
    static func expected(_ query: AuditQuery, in events: [AuditEvent]) -> [AuditEvent] {
        Array(
            events.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }.reversed().filter { event in
                (query.localID.map { event.localID == $0 } ?? true) && (query.kind.map { event.kind == $0 } ?? true)
                    && (query.sinceMillis.map { event.atMillis >= $0 } ?? true)
                    && (query.beforeID.map { event.id.utf8.lexicographicallyPrecedes($0.utf8) } ?? true)
            }.prefix(query.limit))
    }

    private func insert(_ events: [AuditEvent], into store: any HearthStore) throws {
        try store.write { writer throws in
            for event in events { try writer.insertAuditEvent(event) }
        }
    }

    @Test("every kind of event round-trips, with every field and with the optional ones nil", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(try store.read { try $0.auditEvents(AuditQuery()) } == [])
            let actors: [AuditActor] = [.user, .owner, .commandLine, .system, .console(uid: "admin-ü")]
            let events = AuditEventKind.all.enumerated().flatMap { index, eventKind in
                var full = Self.event(Int64(1_700_000_000_000 + index), kind: eventKind)
                full.actor = actors[index % actors.count]
                return [full, Self.event(Int64(1_700_000_000_000 + index), "bare", kind: eventKind, localID: nil, full: false)]
            }
            try insert(events, into: store)
            let stored = try store.read { try $0.auditEvents(AuditQuery(limit: 1_000)) }
            #expect(stored == Self.expected(AuditQuery(limit: 1_000), in: events))
            #expect(stored.count == events.count)
            let bare = try #require(stored.first { $0.id.hasSuffix("-bare") })
            #expect(bare.localID == nil && bare.provider == nil && bare.clientAddress == nil && bare.detail == "")
        }
    }

    @Test("events come back newest first (by id) whatever order they were written in", arguments: StoreKind.allCases)
    func newestFirst(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            var generator = SystemRandomNumberGenerator()
            for event in Self.sample.shuffled(using: &generator) { try insert([event], into: store) }
            let stored = try store.read { try $0.auditEvents(AuditQuery(limit: 100)) }
            #expect(stored.map(\.id) == Self.sample.map(\.id).sorted().reversed())
        }
    }

    @Test("each filter alone and combined returns exactly the matching events, at most the limit",
          arguments: StoreKind.allCases)
    func filters(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try insert(Self.sample, into: store)
            let middle = Self.sample[12]
            for localID in [nil, "uid-a", "uid-b", "nobody"] {
                for eventKind in [nil, AuditEventKind.signIn, .keyRotated, .lockout] {
                    for since in [nil, middle.atMillis, middle.atMillis + 1, 0, 9_999_999_999_999] as [Int64?] {
                        for limit in [1, 3, 100] {
                            let query = AuditQuery(localID: localID, kind: eventKind, sinceMillis: since, limit: limit)
                            let found = try store.read { try $0.auditEvents(query) }
                            #expect(found == Self.expected(query, in: Self.sample), "\(query)")
                        }
                    }
                }
            }
        }
    }

    @Test("the time filter includes events at that millisecond and excludes the one before", arguments: StoreKind.allCases)
    func sinceBoundary(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let events = [Self.event(999, "before"), Self.event(1_000, "at"), Self.event(1_001, "after")]
            try insert(events, into: store)
            let found = try store.read { try $0.auditEvents(AuditQuery(sinceMillis: 1_000)) }
            #expect(found.map(\.id) == [events[2].id, events[1].id])
        }
    }

    @Test("paging with beforeID walks every match once, without gaps or repeats, filters kept",
          arguments: StoreKind.allCases)
    func paging(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            try insert(Self.sample, into: store)
            for base in [AuditQuery(limit: 5), AuditQuery(localID: "uid-a", limit: 2), AuditQuery(kind: .signUp, limit: 3),
                         AuditQuery(localID: "uid-b", kind: .signIn, sinceMillis: 1_700_000_002_000, limit: 1)]
            {
                var walked: [AuditEvent] = []
                var query = base
                while true {
                    let page = try store.read { try $0.auditEvents(query) }
                    #expect(page.count <= base.limit)
                    walked += page
                    guard page.count == base.limit, let last = page.last else { break }
                    query.beforeID = last.id
                }
                var all = base
                all.limit = 1_000
                #expect(walked == Self.expected(all, in: Self.sample), "\(base)")
                #expect(Set(walked.map(\.id)).count == walked.count)
            }
        }
    }

    @Test("a taken id is refused and the first event kept; the write goes on", arguments: StoreKind.allCases)
    func duplicateID(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let first = Self.event(1_000, "same")
            try insert([first], into: store)
            try store.write { writer throws in
                #expect(throws: StoreError(.duplicateToken)) {
                    try writer.insertAuditEvent(Self.event(1_000, "same", kind: .lockout, full: false))
                }
                try writer.insertAuditEvent(Self.event(2_000, "next"))
            }
            let stored = try store.read { try $0.auditEvents(AuditQuery()) }
            #expect(stored == [Self.event(2_000, "next"), first])
        }
    }

    @Test("the purge deletes only events before the time, oldest first, at most the limit", arguments: StoreKind.allCases)
    func purge(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let events = [300, 100, 200, 400, 500].map { Self.event(Int64($0), "p\($0)") }
                + [Self.event(100, "p100b", localID: nil)]
            try insert(events, into: store)
            #expect(try store.write { try $0.deleteAuditEvents(before: 400, limit: 2) } == 2)
            var left = try store.read { try $0.auditEvents(AuditQuery()) }.map(\.atMillis)
            #expect(left == [500, 400, 300, 200])
            #expect(try store.write { try $0.deleteAuditEvents(before: 400, limit: 10) } == 2)
            left = try store.read { try $0.auditEvents(AuditQuery()) }.map(\.atMillis)
            #expect(left == [500, 400])  // at 400: not before it
            #expect(try store.write { try $0.deleteAuditEvents(before: 400, limit: 10) } == 0)
        }
    }

    @Test("an event written in a write that throws is not stored", arguments: StoreKind.allCases)
    func rolledBack(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            struct Refused: Error {}
            #expect(throws: Refused.self) {
                try store.write { writer throws in
                    try writer.insertAccount(bareAccount("uid-a"))
                    try writer.insertAuditEvent(Self.event(1_000))
                    throw Refused()
                }
            }
            #expect(try store.read { try $0.auditEvents(AuditQuery()) } == [])
            #expect(try store.read { try $0.account(localID: "uid-a") } == nil)
            // The id is free again.
            try insert([Self.event(1_000)], into: store)
            #expect(try store.read { try $0.auditEvents(AuditQuery()) } == [Self.event(1_000)])
        }
    }
    @Test("counts per UTC day and provider: the kind's events from the time on, in this scope, nothing else",
          arguments: StoreKind.allCases)
    func countsPerDay(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            let day: Int64 = AuditDayCount.millisPerDay
            let start = 20_000 * day  // a day's first millisecond
            func at(_ millis: Int64, _ suffix: String, _ eventKind: AuditEventKind = .signIn, _ provider: String?)
                -> AuditEvent
            {
                var event = Self.event(millis, suffix, kind: eventKind)
                event.provider = provider
                return event
            }
            let events = [
                at(start - 1, "before", .signIn, "google.com"),  // the day before the time asked for
                at(start, "first", .signIn, "google.com"), at(start + 5, "second", .signIn, "google.com"),
                at(start + 9, "mail", .signIn, "password"), at(start + 9, "none", .signIn, nil),
                at(start + day - 1, "last", .signIn, "google.com"), at(start + day, "next", .signIn, "google.com"),
                at(start + 3 * day + 7, "later", .signIn, "apple.com"), at(start + 10, "other", .signUp, "google.com"),
            ]
            try insert(events, into: store)
            let tenant = store.scoped(to: try StoreScope.tenant("tenant-counted"))
            try tenant.write { try $0.insertAuditEvent(at(start + 1, "tenant", .signIn, "google.com")) }

            let counts = try store.read { try $0.auditEventCounts(kind: .signIn, sinceMillis: start) }
            #expect(
                counts == [
                    AuditDayCount(day: 20_000, provider: nil, count: 1),
                    AuditDayCount(day: 20_000, provider: "google.com", count: 3),
                    AuditDayCount(day: 20_000, provider: "password", count: 1),
                    AuditDayCount(day: 20_001, provider: "google.com", count: 1),
                    AuditDayCount(day: 20_003, provider: "apple.com", count: 1),
                ])
            #expect(
                try store.read { try $0.auditEventCounts(kind: .signUp, sinceMillis: 0) }
                    == [AuditDayCount(day: 20_000, provider: "google.com", count: 1)])
            #expect(try store.read { try $0.auditEventCounts(kind: .lockout, sinceMillis: 0) } == [])
            #expect(
                try tenant.read { try $0.auditEventCounts(kind: .signIn, sinceMillis: start) }
                    == [AuditDayCount(day: 20_000, provider: "google.com", count: 1)])
            #expect(
                try store.read { try $0.auditEventCounts(kind: .signIn, sinceMillis: start + 3 * day) }
                    == [AuditDayCount(day: 20_003, provider: "apple.com", count: 1)])
        }
    }
}
