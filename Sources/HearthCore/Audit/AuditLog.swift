/// Whether and how long Hearth keeps its audit log (``AuditEvent``). The services write their events through it
/// inside their own write transactions; with `isEnabled` false (for measuring its cost) they write none.
public struct AuditLog: Sendable {
    public var isEnabled: Bool
    /// How long events are kept; the maintenance task deletes older ones.
    public var retentionDays: Int

    public init(isEnabled: Bool = true, retentionDays: Int = 90) {
        self.isEnabled = isEnabled
        self.retentionDays = retentionDays
    }
}
