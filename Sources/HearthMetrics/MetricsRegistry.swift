import Synchronization

/// The metrics of one process, and their Prometheus text exposition (version 0.0.4).
///
/// ```swift
/// let registry = MetricsRegistry()
/// let requests = registry.counter("app_requests_total", help: "Requests served.", labels: ["route"])
/// requests.labels("/v1/token").increment()
/// registry.gauge("app_threads", help: "Worker threads.") { 8 }
/// print(registry.exposition())
/// ```
///
/// Names must be unique; registering one twice is a programming error and traps.
public final class MetricsRegistry: Sendable {
    private let families = Mutex<[any ExposedFamily]>([])

    public init() {}

    /// A family of counters (names conventionally end in `_total`).
    public func counter(_ name: String, help: String, labels: [String] = []) -> MetricFamily<Counter> {
        register(MetricFamily(name: name, help: help, labelNames: labels, makeSeries: Counter.init))
    }

    /// A family of gauges set by the program.
    public func gauge(_ name: String, help: String, labels: [String] = []) -> MetricFamily<Gauge> {
        register(MetricFamily(name: name, help: help, labelNames: labels, makeSeries: Gauge.init))
    }

    /// A gauge without labels whose value `sample` computes at each scrape (process memory, key age);
    /// a `nil` sample leaves the gauge out of that scrape.
    public func gauge(_ name: String, help: String, sample: @escaping @Sendable () -> Double?) {
        precondition(PrometheusText.isValidName(name), "metric name \(name) is not a Prometheus name")
        register(SampledMetric(name: name, help: help, type: "gauge", sample: sample))
    }

    /// A counter without labels kept elsewhere (a library's own tally) and read at each scrape; it must never go
    /// down. A `nil` sample leaves it out of that scrape.
    public func counter(_ name: String, help: String, sample: @escaping @Sendable () -> UInt64?) {
        precondition(PrometheusText.isValidName(name), "metric name \(name) is not a Prometheus name")
        register(SampledMetric(name: name, help: help, type: "counter") { sample().map { Double($0) } })
    }

    /// A family of histograms with the buckets' upper bounds `buckets` (ascending; `+Inf` is added).
    public func histogram(
        _ name: String, help: String, labels: [String] = [], buckets: [Double] = Histogram.latencyBounds
    ) -> MetricFamily<Histogram> {
        precondition(!buckets.isEmpty && zip(buckets, buckets.dropFirst()).allSatisfy { $0 < $1 } && buckets.allSatisfy(\.isFinite),
                     "buckets of \(name) must be finite and ascending")
        return register(MetricFamily(name: name, help: help, labelNames: labels) { Histogram(upperBounds: buckets) })
    }

    /// Every metric in the order registered, as Prometheus text (`text/plain; version=0.0.4`).
    public func exposition() -> String {
        var text = ""
        for family in families.withLock({ $0 }) {
            family.write(into: &text)
        }
        return text
    }

    /// The content type of ``exposition()``.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    @discardableResult
    private func register<Family: ExposedFamily>(_ family: Family) -> Family {
        families.withLock { all in
            precondition(!all.contains { $0.name == family.name }, "metric \(family.name) is registered twice")
            all.append(family)
        }
        return family
    }
}

/// A family the registry can write out.
protocol ExposedFamily: Sendable {
    var name: String { get }
    func write(into text: inout String)
}

/// A label-less gauge or counter read at scrape time.
private struct SampledMetric: ExposedFamily {
    let name: String
    let help: String
    let type: String
    let sample: @Sendable () -> Double?

    func write(into text: inout String) {
        guard let value = sample() else { return }
        PrometheusText.header(name: name, help: help, type: type, into: &text)
        PrometheusText.sample(name: name, labels: [], value: PrometheusText.format(value), into: &text)
    }
}

extension MetricFamily: ExposedFamily where Series: ExposedSeries {
    func write(into text: inout String) {
        PrometheusText.header(name: name, help: help, type: Series.typeName, into: &text)
        for (values, series) in allSeries {
            series.write(name: name, labels: Array(zip(labelNames, values)), into: &text)
        }
    }
}

/// A series the registry can write out.
protocol ExposedSeries {
    static var typeName: String { get }
    func write(name: String, labels: [(String, String)], into text: inout String)
}

extension Counter: ExposedSeries {
    static var typeName: String { "counter" }

    func write(name: String, labels: [(String, String)], into text: inout String) {
        PrometheusText.sample(name: name, labels: labels, value: String(count), into: &text)
    }
}

extension Gauge: ExposedSeries {
    static var typeName: String { "gauge" }

    func write(name: String, labels: [(String, String)], into text: inout String) {
        PrometheusText.sample(name: name, labels: labels, value: PrometheusText.format(value), into: &text)
    }
}

extension Histogram: ExposedSeries {
    static var typeName: String { "histogram" }

    func write(name: String, labels: [(String, String)], into text: inout String) {
        let snapshot = self.snapshot
        var cumulative: UInt64 = 0
        for (index, count) in snapshot.bucketCounts.enumerated() {
            cumulative += count
            let bound = index < upperBounds.count ? PrometheusText.format(upperBounds[index]) : "+Inf"
            PrometheusText.sample(
                name: name + "_bucket", labels: labels + [("le", bound)], value: String(cumulative), into: &text)
        }
        PrometheusText.sample(name: name + "_sum", labels: labels, value: PrometheusText.format(snapshot.sum), into: &text)
        PrometheusText.sample(name: name + "_count", labels: labels, value: String(snapshot.count), into: &text)
    }
}
