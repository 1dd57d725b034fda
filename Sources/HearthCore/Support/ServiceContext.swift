/// What every service of one project shares, built once by ``IdentityPlatform``: the store, the clock, the
/// instance's rate limiter, the audit log's settings, where security events and metrics go, and the project.
/// A service takes the context instead of each of these, so that they are wired in one place.
public struct ServiceContext: Sendable {
    public let project: ProjectConfiguration
    public let store: any HearthStore
    public let time: any TimeSource
    /// The in-memory token buckets of this instance.
    public let rateLimiter: RateLimiter
    /// Whether the services record audit events, and how long they are kept.
    public let audit: AuditLog
    /// Receives lockouts, exhausted quotas and failed deliveries, once committed (for the log).
    public let securityEvents: @Sendable (SecurityEvent) -> Void
    /// Counts sign-ins by provider and outcome.
    public let metrics: any MetricsRecording

    public init(
        project: ProjectConfiguration, store: any HearthStore, time: any TimeSource, rateLimiter: RateLimiter,
        audit: AuditLog, securityEvents: @escaping @Sendable (SecurityEvent) -> Void, metrics: any MetricsRecording
    ) {
        self.project = project
        self.store = store
        self.time = time
        self.rateLimiter = rateLimiter
        self.audit = audit
        self.securityEvents = securityEvents
        self.metrics = metrics
    }

    /// The recorder the services write their audit events with, under this context's settings and clock.
    var auditRecorder: AuditRecorder { AuditRecorder(audit, time: time) }
}
