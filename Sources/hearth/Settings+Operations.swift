import HearthCommandLine

extension Settings {
    /// Metrics, health endpoints and the log format (docs/CONFIGURATION.md, "Metrics, health and logs"): flags
    /// and `HEARTH_*` variables only.
    struct Operations {
        /// A second listener (on `host`) serving only `/metrics`, `/healthz` and `/readyz`; `/metrics` then
        /// leaves the main port.
        var metricsPort: UInt16?
        /// The bearer token `/metrics` needs (`HEARTH_METRICS_TOKEN`; never a flag, which `ps` would show).
        var metricsToken: String?
        /// `HEARTH_METRICS=off` counts nothing and serves no `/metrics` (to measure what metrics cost).
        var metricsEnabled = true
        var logFormat = LogFormat.text

        static let valuedOptions: Set<String> = ["metrics-port", "log-format"]

        mutating func apply(environment: [String: String]) throws {
            func nonEmpty(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
            if let value = nonEmpty("HEARTH_METRICS_PORT") { metricsPort = try Self.port(value, source: "HEARTH_METRICS_PORT") }
            metricsToken = nonEmpty("HEARTH_METRICS_TOKEN") ?? metricsToken
            if let value = nonEmpty("HEARTH_METRICS") { metricsEnabled = try Settings.flag(value, source: "HEARTH_METRICS") }
            if let value = nonEmpty("HEARTH_LOG_FORMAT") { logFormat = try Self.logFormat(value, source: "HEARTH_LOG_FORMAT") }
        }

        mutating func apply(options: ParsedOptions) throws {
            if let value = options.values["metrics-port"] { metricsPort = try Self.port(value, source: "--metrics-port") }
            if let value = options.values["log-format"] { logFormat = try Self.logFormat(value, source: "--log-format") }
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
    }
}
