import Foundation

/// Calls `body` repeatedly for about `seconds` of CPU time (after 50 warm-up calls); returns calls per CPU
/// second, so other load on the machine affects the figure as little as possible.
public func rate(seconds: Double, _ body: () throws -> Void) rethrows -> Double {
    var usage = rusage()
    func cpu() -> Double {
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
    for _ in 0..<50 { try body() }
    let start = cpu()
    var count = 0
    while true {
        for _ in 0..<100 { try body() }
        count += 100
        let elapsed = cpu() - start
        if elapsed >= seconds { return Double(count) / elapsed }
    }
}
