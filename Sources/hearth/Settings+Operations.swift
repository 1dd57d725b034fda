import HearthCommandLine

extension Settings {
    /// Metrics, health endpoints, the log format and the shutdown delay (docs/CONFIGURATION.md, "Metrics, health
    /// and logs"): the config file's `"metrics"`, `"logFormat"` and `"shutdownDelaySeconds"`, `HEARTH_*` variables and
    /// flags (later ones win).
    struct Operations {
        /// A second listener (on `host`) serving only `/metrics`, `/healthz` and `/readyz`; `/metrics` then
        /// leaves the main port.
        var metricsPort: UInt16?
        /// The bearer token `/metrics` needs (`HEARTH_METRICS_TOKEN`; never a flag or a file setting, which `ps`
        /// and backups of the config would show).
        var metricsToken: String?
        /// `HEARTH_METRICS=off` counts nothing and serves no `/metrics` (to measure what metrics cost).
        var metricsEnabled = true
        var logFormat = LogFormat.text
        /// How long `serve` keeps answering after SIGTERM while `/readyz` already says 503, so that load balancers
        /// stop sending before the listener closes.
        var shutdownDelaySeconds = 0

        static let valuedOptions: Set<String> = ["metrics-port", "log-format", "shutdown-delay"]
        /// The keys of the config file's `"metrics"` object.
        static let metricsFileKeys: Set<String> = ["enabled", "port"]

        /// The config file's `"metrics"` object.
        struct MetricsFile: Decodable {
            var enabled: Bool?
            var port: Int?
        }

        mutating func apply(metrics: MetricsFile?, logFormat format: String?, shutdownDelay: Int?) throws {
            if let enabled = metrics?.enabled { metricsEnabled = enabled }
            if let port = metrics?.port { metricsPort = try Self.port(String(port), source: "config metrics.port") }
            if let format { logFormat = try Self.logFormat(format, source: "config logFormat") }
            if let shutdownDelay { shutdownDelaySeconds = try Self.delay(String(shutdownDelay), source: "config shutdownDelaySeconds") }
        }

        mutating func apply(environment: [String: String]) throws {
            func nonEmpty(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
            if let value = nonEmpty("HEARTH_METRICS_PORT") { metricsPort = try Self.port(value, source: "HEARTH_METRICS_PORT") }
            metricsToken = nonEmpty("HEARTH_METRICS_TOKEN") ?? metricsToken
            if let value = nonEmpty("HEARTH_METRICS") { metricsEnabled = try Settings.flag(value, source: "HEARTH_METRICS") }
            if let value = nonEmpty("HEARTH_LOG_FORMAT") { logFormat = try Self.logFormat(value, source: "HEARTH_LOG_FORMAT") }
            if let value = nonEmpty("HEARTH_SHUTDOWN_DELAY") {
                shutdownDelaySeconds = try Self.delay(value, source: "HEARTH_SHUTDOWN_DELAY")
            }
        }

        mutating func apply(options: ParsedOptions) throws {
            if let value = options.values["metrics-port"] { metricsPort = try Self.port(value, source: "--metrics-port") }
            if let value = options.values["log-format"] { logFormat = try Self.logFormat(value, source: "--log-format") }
            if let value = options.values["shutdown-delay"] {
                shutdownDelaySeconds = try Self.delay(value, source: "--shutdown-delay")
            }
        }

        private static func port(_ value: String, source: String) throws -> UInt16 {
            guard let port = UInt16(value), port > 0 else {
                throw UsageError("\(source) must be a port number (1–65535), not '\(value)'")
            }
            return port
        }

        private static func logFormat(_ value: String, source: String) throws -> LogFormat {
            guard let format = LogFormat(rawValue: value.lowercased()) else {
                throw UsageError("\(source) must be text or json, not '\(value)'")
            }
            return format
        }

        private static func delay(_ value: String, source: String) throws -> Int {
            guard let seconds = Int(value), (0...300).contains(seconds) else {
                throw UsageError("\(source) must be a number of seconds from 0 to 300, not '\(value)'")
            }
            return seconds
        }
    }
}
