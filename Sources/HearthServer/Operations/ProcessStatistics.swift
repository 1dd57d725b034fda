import Foundation
import HearthMetrics

/// The process' resident memory and open file descriptors, read from `/proc/self` at each scrape (Linux;
/// elsewhere the gauges are left out).
enum ProcessStatistics {
    static func register(in registry: MetricsRegistry) {
        registry.gauge("process_resident_memory_bytes", help: "Resident memory size in bytes.") { residentBytes() }
        registry.gauge("process_open_fds", help: "Open file descriptors.") { openFileDescriptors() }
    }

    /// The second field of `/proc/self/statm` (resident pages) times the page size.
    static func residentBytes() -> Double? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Double(fields[1]) else { return nil }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The entries of `/proc/self/fd`, less the one listing it.
    static func openFileDescriptors() -> Double? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return Double(max(0, entries.count - 1))
    }
}
