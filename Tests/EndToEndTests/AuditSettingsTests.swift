import Foundation
import HearthCore
import Testing

/// `hearth serve`'s audit log settings: the config file's `audit` object and `HEARTH_AUDIT*`. Bad values exit 64 naming
/// the setting; the retention reaches the maintenance task.
@Suite("audit settings (e2e)", .blocking)
struct AuditSettingsTests {
    @Test("a retention outside 1…3650 days, of the wrong type or an unknown key is refused clearly")
    func refusals() throws {
        let cases: [([String: String], String?, String)] = [
            (["HEARTH_AUDIT_RETENTION_DAYS": "0"], nil, "HEARTH_AUDIT_RETENTION_DAYS must be between 1 and 3650 days, not 0"),
            (["HEARTH_AUDIT_RETENTION_DAYS": "3651"], nil, "HEARTH_AUDIT_RETENTION_DAYS must be between 1 and 3650 days, not 3651"),
            (["HEARTH_AUDIT_RETENTION_DAYS": "ninety"], nil, "HEARTH_AUDIT_RETENTION_DAYS must be a number of days, not 'ninety'"),
            (["HEARTH_AUDIT": "maybe"], nil, "HEARTH_AUDIT must be 1 or 0"),
            ([:], #"{"audit": {"retentionDays": -1}}"#, "config audit.retentionDays must be between 1 and 3650 days, not -1"),
            ([:], #"{"audit": {"retentionDays": "90"}}"#, "a setting has the wrong type"),
            ([:], #"{"audit": {"enabled": "yes"}}"#, "a setting has the wrong type"),
            ([:], #"{"audit": {"retention": 90}}"#, "unknown setting 'audit.retention'"),
        ]
        for (environment, json, message) in cases {
            let result = try refusedServe(environment: environment, config: json)
            #expect(result.status == 64, "\(result.output)")
            #expect(result.output.contains(message), "\(result.output)")
        }
    }

    @Test("the maintenance pass at start deletes events older than the retention, and keeps the rest")
    func retention() throws {
        let day: Int64 = 24 * 60
        let ancient = AuditLogTests.event(minutesAgo: 5 * day, .signUp, uid: "retained-a", actor: .user)
        let old = AuditLogTests.event(minutesAgo: 2 * day, .signIn, uid: "retained-a", actor: .user)
        let recent = AuditLogTests.event(minutesAgo: day - 60, .signIn, uid: "retained-a", actor: .user)
        // 3 days: the ancient one goes; 1 day: the old one too.
        for (environment, config, deleted, kept) in [
            (["HEARTH_AUDIT_RETENTION_DAYS": "3"], nil, 1, [recent.id, old.id]),
            ([:], #"{"audit": {"enabled": true, "retentionDays": 1}}"#, 2, [recent.id]),
        ] as [([String: String], String?, Int, [String])] {
            let directory = HearthProcess.temporaryDirectory()
            try AuditLogTests.insert([ancient, old, recent], into: directory.appendingPathComponent("hearth.sqlite").path)
            var arguments = ["--dev"]
            if let config {
                let file = directory.appendingPathComponent("hearth.json")
                try Data(config.utf8).write(to: file)
                arguments += ["--config", file.path]
            }
            let server = HearthProcess(arguments: arguments, environment: environment, dataDirectory: directory)
            try server.start()
            #expect(server.waitForLine { $0.contains("audit_events_deleted=\(deleted)") }, "\(server.lines)")
            server.stop()
            let left = try runProgramSplit(HearthProcess.executable, ["audit", "--uid", "retained-a", "--json", "--data-dir", directory.path])
            let ids = try #require(try JSONSerialization.jsonObject(with: Data(left.stdout.utf8)) as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(ids == kept)
        }
    }
}
