import Foundation
public import HearthCore

/// The audit log, newest first, filtered by user, kind and time; "Older events" continues after the page's last
/// event id (keyset paging, like the users page).
public struct AuditPage: Sendable {
    /// The filters as typed (the `since` field's text kept as sent, `YYYY-MM-DDTHH:MM`, UTC).
    public var uid: String
    public var kind: String
    public var since: String
    public var events: [AuditEvent]
    /// The id the next (older) page starts before; nil on the last page.
    public var olderBefore: String?
    /// Why the filters were refused or the log could not be read.
    public var error: String?

    public init(uid: String, kind: String, since: String, events: [AuditEvent], olderBefore: String?, error: String? = nil) {
        self.uid = uid
        self.kind = kind
        self.since = since
        self.events = events
        self.olderBefore = olderBefore
        self.error = error
    }

    public func html(_ viewer: ConsoleViewer) -> String {
        let options = ([""] + AuditEventKind.all.map(\.rawValue)).map { value in
            "<option value=\"\(value)\"\(value == kind ? " selected" : "")>\(value.isEmpty ? "Any event" : value)</option>"
        }.joined()
        let rows = events.map { event in
            let user = event.localID.map {
                "<a href=\"\(ConsoleHTML.escape(ConsoleHTML.userPath($0)))\" class=\"mono\">\(ConsoleHTML.escape($0))</a>"
            } ?? "—"
            return """
                <tr><td class="time">\(ConsoleHTML.time(millis: event.atMillis))</td><td class="kind">\(ConsoleHTML.escape(event.kind.rawValue))</td><td>\(user)</td>
                <td class="actor">\(ConsoleHTML.escape(event.actor.rawValue))</td><td>\(ConsoleHTML.escape(event.provider ?? "—"))</td>
                <td>\(ConsoleHTML.escape(event.clientAddress ?? "—"))</td><td class="detail">\(ConsoleHTML.escape(event.detail))</td></tr>
                """
        }.joined(separator: "\n")
        let table = events.isEmpty
            ? "<p class=\"muted\" id=\"no-events\">No event matches.</p>"
            : """
                <div class="table"><table id="events"><thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">User</th>
                <th scope="col">Actor</th><th scope="col">Provider</th><th scope="col">Client</th><th scope="col">Detail</th></tr></thead>
                <tbody>\(rows)</tbody></table></div>
                """
        let filters: [(String, String?)] = [("uid", uid), ("kind", kind), ("since", since)]
        let older = olderBefore.map {
            "<a href=\"\(ConsoleHTML.link(ConsolePaths.audit, filters + [("before", $0)]))\" rel=\"next\" id=\"older\">Older events</a>"
        } ?? ""
        return ConsoleLayout.page(title: "Audit log", viewer: viewer, section: .audit, body: """
            <form method="get" action="\(ConsolePaths.audit)" class="search">
            <div><label for="uid">User (uid)</label><input type="text" id="uid" name="uid" value="\(ConsoleHTML.escape(uid))" size="30"></div>
            <div><label for="kind">Event</label><select id="kind" name="kind">\(options)</select></div>
            <div><label for="since">Since (UTC)</label><input type="datetime-local" id="since" name="since" value="\(ConsoleHTML.escape(since))"></div>
            <button type="submit" id="filter">Filter</button></form>
            \(ConsoleHTML.alert(error))
            \(table)
            <div class="pager"><a href="\(ConsolePaths.audit)">Newest</a> \(older)</div>
            """)
    }

    /// The `since` filter as milliseconds since 1970: `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS` (what a
    /// `datetime-local` field sends), read as UTC; nil for anything else.
    public static func millis(since text: String) -> Int64? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard date.count == 3, (2...3).contains(time.count), !date.contains(nil), !time.contains(nil),
            let year = date[0], let month = date[1], let day = date[2], let hour = time[0], let minute = time[1],
            (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
            (0...59).contains(minute), (0...59).contains(time.count == 3 ? time[2]! : 0)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: time.count == 3 ? time[2] : 0)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return Int64(date.timeIntervalSince1970 * 1000)
    }
}
