import Foundation
@testable import HearthMetrics
import Synchronization
import Testing

@Suite("Prometheus text exposition")
struct ExpositionTests {
    @Test("HELP and TYPE come once per family, then one line per series ordered by label values")
    func counterFamily() {
        let registry = MetricsRegistry()
        let requests = registry.counter("app_requests_total", help: "Requests served.", labels: ["route", "status_class"])
        requests.labels("/b", "2xx").increment()
        requests.labels("/a", "4xx").increment(by: 3)
        requests.labels("/b", "2xx").increment()
        #expect(registry.exposition() == """
            # HELP app_requests_total Requests served.
            # TYPE app_requests_total counter
            app_requests_total{route="/a",status_class="4xx"} 3
            app_requests_total{route="/b",status_class="2xx"} 2

            """)
    }

    @Test("label values escape backslash, double quote and line feed; help escapes backslash and line feed only")
    func escaping() {
        let registry = MetricsRegistry()
        let family = registry.gauge("odd", help: "A \\ \"quoted\"\nhelp.", labels: ["value"])
        family.labels("a\\b\"c\nd").set(1.5)
        #expect(registry.exposition() == """
            # HELP odd A \\\\ "quoted"\\nhelp.
            # TYPE odd gauge
            odd{value="a\\\\b\\"c\\nd"} 1.5

            """)
    }

    @Test("histograms: cumulative buckets with le, +Inf, _sum and _count; a value on a bound counts in that bucket")
    func histogram() {
        let registry = MetricsRegistry()
        let latency = registry.histogram("op_seconds", help: "Latency.", labels: ["op"], buckets: [0.1, 1])
        let series = latency.labels("read")
        series.observe(0.1)
        series.observe(0.5)
        series.observe(3)
        #expect(registry.exposition() == """
            # HELP op_seconds Latency.
            # TYPE op_seconds histogram
            op_seconds_bucket{op="read",le="0.1"} 1
            op_seconds_bucket{op="read",le="1"} 2
            op_seconds_bucket{op="read",le="+Inf"} 3
            op_seconds_sum{op="read"} 3.6
            op_seconds_count{op="read"} 3

            """)
    }

    @Test("a family without series still says what it is; sampled gauges are read at scrape time and skipped when nil")
    func emptyAndSampled() {
        let registry = MetricsRegistry()
        _ = registry.counter("none_total", help: "Nothing yet.")
        let value = ValueBox()
        registry.gauge("sampled", help: "Sampled.") { value.current.withLock { $0 } }
        registry.gauge("absent", help: "Never there.") { nil }
        value.current.withLock { $0 = 7 }
        #expect(registry.exposition() == """
            # HELP none_total Nothing yet.
            # TYPE none_total counter
            # HELP sampled Sampled.
            # TYPE sampled gauge
            sampled 7

            """)
    }

    @Test("a sampled counter is typed counter and shows its count as a number")
    func sampledCounter() {
        let registry = MetricsRegistry()
        registry.counter("trips_total", help: "Trips.") { 1_234 }
        registry.counter("unknown_total", help: "Not known yet.") { nil }
        #expect(registry.exposition() == """
            # HELP trips_total Trips.
            # TYPE trips_total counter
            trips_total 1234

            """)
    }

    @Test("sample values: integers plain, fractions as decimals, infinities and NaN as Prometheus spells them")
    func numbers() {
        #expect(PrometheusText.format(42) == "42")
        #expect(PrometheusText.format(-3) == "-3")
        #expect(PrometheusText.format(0.0025) == "0.0025")
        #expect(PrometheusText.format(.infinity) == "+Inf")
        #expect(PrometheusText.format(-.infinity) == "-Inf")
        #expect(PrometheusText.format(.nan) == "NaN")
    }

    @Test("names follow Prometheus' rules")
    func names() {
        #expect(PrometheusText.isValidName("hearth_http_requests_total"))
        #expect(PrometheusText.isValidName("ns:metric"))
        #expect(!PrometheusText.isValidName("9lives"))
        #expect(!PrometheusText.isValidName("with-dash"))
        #expect(!PrometheusText.isValidName(""))
    }

    @Test("counters, gauges and histograms stay exact under concurrent updates")
    func concurrency() {
        let registry = MetricsRegistry()
        let counter = registry.counter("c_total", help: "c").labels()
        let gauge = registry.gauge("g", help: "g").labels()
        let histogram = registry.histogram("h", help: "h", buckets: [1]).labels()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 {
                counter.increment()
                gauge.add(1)
                histogram.observe(0.5)
            }
        }
        #expect(counter.count == 80_000)
        #expect(gauge.value == 80_000)
        #expect(histogram.snapshot == Histogram.Snapshot(bucketCounts: [80_000, 0], count: 80_000, sum: 40_000))
    }
}

extension ExpositionTests {
    @Test("a lazy series is exposed only once used, is the family's own series, and stays exact across threads")
    func lazySeries() {
        let registry = MetricsRegistry()
        let family = registry.counter("lazy_total", help: "l", labels: ["route"])
        let handle = family.lazySeries("/a")
        #expect(!registry.exposition().contains("lazy_total{"))
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { handle.series.increment() }
        }
        #expect(handle.series === family.labels("/a"))
        #expect(registry.exposition().contains(#"lazy_total{route="/a"} 80000"# + "\n"))
    }

    @Test("a histogram's count is its buckets' total in every scrape, even while observations go on")
    func histogramCountMatchesBuckets() {
        let histogram = MetricsRegistry().histogram("h", help: "h", buckets: [1, 2]).labels()
        let scrapes = Mutex<[Histogram.Snapshot]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            for step in 0..<20_000 {
                if index == 0, step % 100 == 0 {
                    let snapshot = histogram.snapshot
                    scrapes.withLock { $0.append(snapshot) }
                }
                histogram.observe(Double(step % 3))
            }
        }
        for snapshot in scrapes.withLock({ $0 }) {
            #expect(snapshot.count == snapshot.bucketCounts.reduce(0, +))
        }
        #expect(histogram.snapshot.bucketCounts == [53_336, 26_664, 0])
    }
}

/// A value a sampled gauge reads.
private final class ValueBox: Sendable {
    let current = Mutex<Double>(0)
}
