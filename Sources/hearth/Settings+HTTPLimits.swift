import HearthCommandLine
import HearthHTTP

extension Settings {
    /// The HTTP server's connection and memory limits (docs/CONFIGURATION.md, "HTTP limits"): the
    /// config file's `"http"` object and the `HEARTH_HTTP_*` variables. A limit left nil keeps
    /// `HTTPServer.Configuration`'s default.
    struct HTTPLimits: Decodable {
        var maxConnections: Int?
        var maxConnectionsPerAddress: Int?
        var requestTimeoutSeconds: Int?
        var idleTimeoutSeconds: Int?
        var busyConnections: Int?
        var busyIdleTimeoutSeconds: Int?
        var maxBodyBytes: Int?
        var maxHeaderFields: Int?
        var maxHeaderBytes: Int?
        var bodyBudgetBytes: Int?
        var smallBodyBytes: Int?
        var memoryTrimIntervalSeconds: Int?

        /// One limit: its config key, its environment variable, and the values it may take.
        struct Limit: Sendable {
            let key: String
            let environment: String
            let field: any WritableKeyPath<HTTPLimits, Int?> & Sendable
            let range: ClosedRange<Int>
            /// Puts the value into the server's configuration.
            let set: @Sendable (inout HTTPServer.Configuration, Int) -> Void
        }

        static let limits: [Limit] = [
            Limit(key: "maxConnections", environment: "HEARTH_HTTP_MAX_CONNECTIONS", field: \.maxConnections,
                  range: 1...1_000_000, set: { $0.maxConnections = $1 }),
            Limit(key: "maxConnectionsPerAddress", environment: "HEARTH_HTTP_MAX_CONNECTIONS_PER_ADDRESS",
                  field: \.maxConnectionsPerAddress, range: 0...1_000_000, set: { $0.maxConnectionsPerAddress = $1 }),
            Limit(key: "requestTimeoutSeconds", environment: "HEARTH_HTTP_REQUEST_TIMEOUT", field: \.requestTimeoutSeconds,
                  range: 0...3600, set: { $0.requestTimeout = $1 }),
            Limit(key: "idleTimeoutSeconds", environment: "HEARTH_HTTP_IDLE_TIMEOUT", field: \.idleTimeoutSeconds,
                  range: 0...3600, set: { $0.connectionTimeout = $1 }),
            Limit(key: "busyConnections", environment: "HEARTH_HTTP_BUSY_CONNECTIONS", field: \.busyConnections,
                  range: 1...1_000_000, set: { $0.busyConnections = $1 }),
            Limit(key: "busyIdleTimeoutSeconds", environment: "HEARTH_HTTP_BUSY_IDLE_TIMEOUT",
                  field: \.busyIdleTimeoutSeconds, range: 0...3600, set: { $0.busyIdleTimeout = $1 }),
            Limit(key: "maxBodyBytes", environment: "HEARTH_HTTP_MAX_BODY_BYTES", field: \.maxBodyBytes,
                  range: 1024...(256 << 20), set: { $0.maxBodyBytes = $1 }),
            Limit(key: "maxHeaderFields", environment: "HEARTH_HTTP_MAX_HEADER_FIELDS", field: \.maxHeaderFields,
                  range: 8...1000, set: { $0.maxHeaderCount = $1 }),
            Limit(key: "maxHeaderBytes", environment: "HEARTH_HTTP_MAX_HEADER_BYTES", field: \.maxHeaderBytes,
                  range: 4096...(1 << 20), set: { $0.headerMemoryLimit = $1 }),
            Limit(key: "bodyBudgetBytes", environment: "HEARTH_HTTP_BODY_BUDGET_BYTES", field: \.bodyBudgetBytes,
                  range: 0...(64 << 30), set: { $0.bodyBudgetBytes = $1 }),
            Limit(key: "smallBodyBytes", environment: "HEARTH_HTTP_SMALL_BODY_BYTES", field: \.smallBodyBytes,
                  range: 0...(256 << 20), set: { $0.smallBodyBytes = $1 }),
            Limit(key: "memoryTrimIntervalSeconds", environment: "HEARTH_HTTP_MEMORY_TRIM_INTERVAL",
                  field: \.memoryTrimIntervalSeconds, range: 0...86_400, set: { $0.memoryTrimInterval = $1 }),
        ]

        /// Checks the config file's `"http"` object (already decoded into `self`): no unknown keys,
        /// every value in range.
        func validate(fileObject: Any, path: String) throws {
            if let fields = fileObject as? [String: Any],
               let unknown = fields.keys.first(where: { key in !Self.limits.contains { $0.key == key } }) {
                throw UsageError("config file \(path): unknown setting 'http.\(unknown)'")
            }
            for limit in Self.limits {
                if let value = self[keyPath: limit.field] { _ = try limit.checked(value, source: "config http.\(limit.key)") }
            }
        }

        /// Applies the `HEARTH_HTTP_*` variables that are set.
        mutating func apply(environment: [String: String]) throws {
            for limit in Self.limits {
                guard let text = environment[limit.environment], !text.isEmpty else { continue }
                guard let number = Int(text) else { throw UsageError("\(limit.environment) must be a whole number, not '\(text)'") }
                self[keyPath: limit.field] = try limit.checked(number, source: limit.environment)
            }
        }

        /// The server configuration: `base` with every limit that is set.
        func applied(to base: HTTPServer.Configuration) -> HTTPServer.Configuration {
            var configuration = base
            for limit in Self.limits {
                if let value = self[keyPath: limit.field] { limit.set(&configuration, value) }
            }
            return configuration
        }
    }
}

extension Settings.HTTPLimits.Limit {
    func checked(_ value: Int, source: String) throws -> Int {
        guard range.contains(value) else {
            throw UsageError("\(source) must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }
}
