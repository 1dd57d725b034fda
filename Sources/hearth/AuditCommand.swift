import Foundation
import HearthCommandLine
import HearthCore
import HearthProtocol

/// `hearth audit`: the audit log of the configured store, newest first, one line per event or a JSON array.
enum AuditCommand {
    static let valuedOptions: Set<String> = ["uid", "kind", "since", "limit"]
    /// Events read per read transaction.
    static let pageSize = 1_000

    static func run(_ arguments: [String]) throws {
        let options = try ParsedOptions(
            arguments, valued: Settings.storeOptions.union(valuedOptions), switches: ["json", "help"])
        if options.flags.contains("help") {
            print(Help.audit)
            return
        }
        if let stray = options.positionals.first { throw UsageError("unexpected argument '\(stray)' (try 'hearth audit --help')") }
        let filters = try query(options, nowMillis: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
        let limit = try self.limit(options)
        let settings = try Settings(options: options, environment: ProcessInfo.processInfo.environment)
        let store = try openStore(settings)
        defer { store.close() }
        let json = options.flags.contains("json")
        var output = AuditOutput(json: json)
        output.begin()
        var query = filters
        var remaining = limit
        while remaining > 0 {
            query.limit = min(remaining, pageSize)
            let page = try store.read { try $0.auditEvents(query) }
            output.write(page)
            remaining -= page.count
            guard page.count == query.limit, let last = page.last else { break }
            query.beforeID = last.id
        }
        output.end()
    }

    /// The filters the options ask for (the limit is applied page by page). A usage error for an unknown kind or a
    /// time that is not one.
    static func query(_ options: ParsedOptions, nowMillis: Int64) throws -> AuditQuery {
        var query = AuditQuery(localID: options.values["uid"])
        if let uid = query.localID, uid.isEmpty { throw UsageError("--uid must not be empty") }
        if let name = options.values["kind"] {
            guard let kind = AuditEventKind(known: name) else {
                throw UsageError(
                    "--kind must be one of \(AuditEventKind.all.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
            }
            query.kind = kind
        }
        if let since = options.values["since"] {
            guard let millis = sinceMillis(since, nowMillis: nowMillis) else {
                throw UsageError(
                    "--since must be an ISO 8601 time (2026-12-01T09:00:00Z) or a duration back from now (90m, 24h, 7d), not '\(since)'")
            }
            query.sinceMillis = millis
        }
        return query
    }

    /// `--limit`: how many events at most (100 by default).
    static func limit(_ options: ParsedOptions) throws -> Int {
        guard let text = options.values["limit"] else { return 100 }
        guard let limit = Int(text), limit > 0 else { throw UsageError("--limit must be a positive whole number") }
        return limit
    }

    /// An RFC 3339 time, or `N` followed by `s`, `m`, `h` or `d` counted back from `nowMillis`.
    static func sinceMillis(_ text: String, nowMillis: Int64) -> Int64? {
        if let millis = RFC3339.millis(from: text) { return millis }
        let units: [Character: Int64] = ["s": 1_000, "m": 60_000, "h": 3_600_000, "d": 86_400_000]
        guard let unit = text.last.flatMap({ units[$0] }), text.count <= 10,
            let count = Int64(text.dropLast()), count >= 0, text.first?.isNumber == true
        else { return nil }
        return nowMillis - count * unit
    }
}

/// Writes events as `hearth audit` prints them: a header and one line per event (time, kind, uid, provider, actor,
/// client address, detail; `-` for none; control characters escaped, so that no value can start a line or move the
/// terminal's cursor), or one JSON array (records as the admin API returns them).
struct AuditOutput {
    let json: Bool
    private let widths = [26, 20, 30, 14, 22, 18]
    private var written = 0

    init(json: Bool) { self.json = json }

    func begin() {
        write(json ? "[" : line(["TIME (UTC)", "KIND", "UID", "PROVIDER", "ACTOR", "CLIENT", "DETAIL"]))
    }

    mutating func write(_ events: [AuditEvent]) {
        guard !events.isEmpty else { return }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let records = events.map { String(decoding: (try? encoder.encode($0.record)) ?? Data(), as: UTF8.self) }
            write((written == 0 ? "\n" : ",\n") + records.joined(separator: ",\n"))
        } else {
            write(events.map(row).joined())
        }
        written += events.count
    }

    func end() {
        if json { write(written == 0 ? "]\n" : "\n]\n") }
    }

    private func row(_ event: AuditEvent) -> String {
        let record = event.record
        return line(
            [
                record.time, record.kind, record.localId ?? "-", record.provider ?? "-", record.actor,
                record.clientAddress ?? "-", record.detail.isEmpty ? "-" : record.detail,
            ].map(Self.escapingControls))
    }

    /// Each cell padded to its column, or followed by two spaces when longer (never cut short).
    private func line(_ cells: [String]) -> String {
        zip(cells, widths + [0]).map { cell, width in
            width == 0 ? cell : cell.padding(toLength: max(width, cell.count + 2), withPad: " ", startingAt: 0)
        }.joined() + "\n"
    }

    /// `text` with each control character (C0, DEL, C1) written as `\u{…}`.
    private static func escapingControls(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Writes a page at once (stdout may be a pipe).
    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
