import HearthCommandLine
import HearthCore

extension Settings {
    /// The config file's `"audit"` object (docs/CONFIGURATION.md, "Audit log").
    struct AuditFile: Decodable {
        var enabled: Bool?
        var retentionDays: Int?

        static let keys: Set<String> = ["enabled", "retentionDays"]
    }

    /// How many days audit events may be kept.
    static let auditRetentionRange = 1...3_650

    /// Applies the config file's `"audit"` object (`fileObject` is the whole file, for unknown keys).
    mutating func applyAudit(_ file: AuditFile?, fileObject: [String: Any], path: String) throws {
        guard let file else { return }
        try Self.checkKeys(of: "audit", in: fileObject, known: AuditFile.keys, path: path)
        audit.isEnabled = file.enabled ?? audit.isEnabled
        if let days = file.retentionDays {
            audit.retentionDays = try Self.auditRetentionDays(days, source: "config audit.retentionDays")
        }
    }

    /// Applies `HEARTH_AUDIT` (1 or 0) and `HEARTH_AUDIT_RETENTION_DAYS`.
    mutating func applyAudit(environment: [String: String]) throws {
        func nonEmpty(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let value = nonEmpty("HEARTH_AUDIT") { audit.isEnabled = try Self.flag(value, source: "HEARTH_AUDIT") }
        if let value = nonEmpty("HEARTH_AUDIT_RETENTION_DAYS") {
            guard let days = Int(value) else {
                throw UsageError("HEARTH_AUDIT_RETENTION_DAYS must be a number of days, not '\(value)'")
            }
            audit.retentionDays = try Self.auditRetentionDays(days, source: "HEARTH_AUDIT_RETENTION_DAYS")
        }
    }

    private static func auditRetentionDays(_ days: Int, source: String) throws -> Int {
        guard auditRetentionRange.contains(days) else {
            throw UsageError(
                "\(source) must be between \(auditRetentionRange.lowerBound) and \(auditRetentionRange.upperBound) days, not \(days)")
        }
        return days
    }
}
