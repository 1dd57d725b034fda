import Foundation
import HearthConsole
import HearthCore
import Synchronization

/// What the console's overview shows of a scope (``HomePage/Activity``), read from the store at most once a minute
/// per scope: the charts count the audit log's last ``days`` days from the kinds' index, which is worth not repeating
/// on every visit.
final class ConsoleActivity: Sendable {
    /// The days the charts show, today included.
    static let days = 14
    /// How long a reading is shown before the store is read again.
    static let lifetime: TimeInterval = 60

    private let readings = Mutex<[String: (at: Date, activity: HomePage.Activity)]>([:])

    /// The activity of `store`'s scope (`scopeKey` names it: `""` for the project, else the tenant id) as of `now`.
    func read(_ store: any HearthStore, scopeKey: String, now: Date) throws -> HomePage.Activity {
        if let kept = readings.withLock({ $0[scopeKey] }), now.timeIntervalSince(kept.at) < Self.lifetime,
            now >= kept.at
        {
            return kept.activity
        }
        let today = Int64(now.timeIntervalSince1970 * 1000) / AuditDayCount.millisPerDay
        let days = Array((today - Int64(Self.days) + 1)...today)
        let since = days[0] * AuditDayCount.millisPerDay
        let activity = try store.read { reader in
            var counts: [AuditEventKind: [AuditDayCount]] = [:]
            for kind in HomePage.Activity.kinds {
                counts[kind] = try reader.auditEventCounts(kind: kind, sinceMillis: since)
            }
            return HomePage.Activity(days: days, users: try reader.accountCount(), counts: counts)
        }
        readings.withLock { $0[scopeKey] = (now, activity) }
        return activity
    }
}
