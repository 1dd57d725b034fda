import Synchronization

/// One metric name with its help text and label names, and a series per combination of label values.
/// Look a series up once where the labels are fixed and keep it: ``labels(_:)`` takes a lock and
/// hashes the values, the series' own updates are cheap. Where the series should appear only once used (a route
/// that may never be called), keep a ``LazySeries`` from ``lazySeries(_:)`` instead.
public final class MetricFamily<Series: Sendable & AnyObject>: Sendable {
    public let name: String
    public let help: String
    public let labelNames: [String]
    private let makeSeries: @Sendable () -> Series
    private let series = Mutex<[[String]: Series]>([:])

    init(name: String, help: String, labelNames: [String], makeSeries: @escaping @Sendable () -> Series) {
        precondition(PrometheusText.isValidName(name), "metric name \(name) is not a Prometheus name")
        precondition(labelNames.allSatisfy { PrometheusText.isValidName($0) && !$0.contains(":") && $0 != "le" && !$0.hasPrefix("__") },
                     "label names of \(name) are not Prometheus label names")
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.makeSeries = makeSeries
    }

    /// The series for `values` (one per label name, in order), created at zero on first use.
    /// Label values should come from small, fixed sets (route patterns, error codes), never from requests.
    public func labels(_ values: String...) -> Series {
        labels(values)
    }

    /// As ``labels(_:)-…``, with the values in an array.
    public func labels(_ values: [String]) -> Series {
        precondition(values.count == labelNames.count, "\(name) takes \(labelNames.count) label values")
        return series.withLock { all in
            if let existing = all[values] { return existing }
            let created = makeSeries()
            all[values] = created
            return created
        }
    }

    /// A handle on the series for `values` that creates it on first use (so it is not exposed at zero before) and
    /// is read without a lock afterwards.
    public func lazySeries(_ values: String...) -> LazySeries<Series> {
        precondition(values.count == labelNames.count, "\(name) takes \(labelNames.count) label values")
        return LazySeries { [self] in labels(values) }
    }

    /// Every series with its label values, ordered by those values (so scrapes read the same way each time).
    var allSeries: [(values: [String], series: Series)] {
        series.withLock { all in all.map { (values: $0.key, series: $0.value) } }
            .sorted { $0.values.lexicographicallyPrecedes($1.values) }
    }
}

/// One series of a family, looked up (and so created) the first time it is used; later uses read it without a
/// lock, so a hot path can keep one per label combination it knows in advance.
public final class LazySeries<Series: Sendable & AnyObject>: Sendable {
    private let resolved = AtomicLazyReference<Series>()
    private let lookUp: @Sendable () -> Series

    init(_ lookUp: @escaping @Sendable () -> Series) {
        self.lookUp = lookUp
    }

    /// The series, created in its family on the first call.
    public var series: Series {
        if let series = resolved.load() { return series }
        return resolved.storeIfNil(lookUp())
    }
}
