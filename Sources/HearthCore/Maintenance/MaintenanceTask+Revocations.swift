import Foundation

extension MaintenanceTask {
    /// What one run of the revocations did.
    struct RevocationCounts {
        var revoked = 0
        var failed = 0
    }

    /// Tries every revocation due at `millis`, `batchSize` at a time: the provider calls happen outside any
    /// transaction, then one write records the batch's outcomes (revoked ones deleted, failed ones rescheduled,
    /// ones the provider refused for good dropped), each failure logged. Returns the counts, or nil if `stop()`
    /// was called during a pause. A failed revocation is due again only after `millis`, so the run ends.
    func revokeDueTokens(atMillis millis: Int64, pausing: Bool) throws -> RevocationCounts? {
        var counts = RevocationCounts()
        while true {
            let due = try store.read { try $0.dueProviderTokenRevocations(atMillis: millis, limit: schedule.batchSize) }
            if due.isEmpty { return counts }
            let outcomes = due.map { ($0, attempt($0)) }
            let logLines = try store.write { writer -> [String] in
                var lines: [String] = []
                for (revocation, failure) in outcomes {
                    guard let failure else {
                        try writer.deleteProviderTokenRevocation(id: revocation.id)
                        continue
                    }
                    let reason = Self.redacting(revocation.token, in: failure.reason)
                    if failure.retry {
                        if let failed = try writer.recordFailedProviderTokenRevocation(
                            id: revocation.id, atMillis: millis, error: reason)
                        {
                            lines.append(Self.logLine(failed, reason: reason, outcome: "retry_at_millis=\(failed.nextAttemptAtMillis)"))
                        }
                    } else if try writer.deleteProviderTokenRevocation(id: revocation.id) {
                        var dropped = revocation
                        dropped.attempts += 1
                        lines.append(Self.logLine(dropped, reason: reason, outcome: "dropped=refused-for-good"))
                    }
                }
                return lines
            }
            logLines.forEach(log)
            counts.failed += logLines.count
            counts.revoked += outcomes.count(where: { $0.1 == nil })
            if due.count < schedule.batchSize { return counts }
            if pause(pausing) { return nil }
        }
    }

    /// Asks the provider's revoker; nil when it revoked the token.
    private func attempt(_ revocation: ProviderTokenRevocation) -> RevocationFailure? {
        guard let revoker = revokers[revocation.providerID] else {
            return .temporary("no revoker is configured for provider \(revocation.providerID)")
        }
        do {
            try revoker.revoke(revocation)
            return nil
        } catch let failure as RevocationFailure {
            return failure
        } catch {
            return .temporary("\(type(of: error)): \(error)")
        }
    }

    /// One line per failed attempt: provider, uid and attempt, never the token.
    private static func logLine(_ revocation: ProviderTokenRevocation, reason: String, outcome: String) -> String {
        "event=provider-token-revocation-failed provider=\(revocation.providerID) uid=\(revocation.localID)"
            + " attempt=\(revocation.attempts) \(outcome) error=\"\(reason)\""
    }

    /// `text` with every occurrence of `token` replaced, in case a revoker's error quotes it, and cut to 500
    /// characters (a provider's whole error page is not kept).
    static func redacting(_ token: String, in text: String) -> String {
        String((token.isEmpty ? text : text.replacingOccurrences(of: token, with: "<redacted>")).prefix(500))
    }
}
