import Foundation
import Testing

@testable import HearthCore

@Suite("Timestamps")
struct TimestampsTests {
    @Test("RFC 3339 with exactly the milliseconds given, before and after 1970")
    func exactMilliseconds() {
        // 1796057819439 ms is 1796057819.4389999… s as a Double: formatting a Date gave `.438`.
        #expect(Timestamps.rfc3339(millis: 1_796_057_819_439) == "2026-11-30T16:56:59.439Z")
        #expect(Timestamps.rfc3339(millis: 1_764_579_600_000) == "2025-12-01T09:00:00.000Z")
        #expect(Timestamps.rfc3339(millis: 1_764_579_600_007) == "2025-12-01T09:00:00.007Z")
        #expect(Timestamps.rfc3339(millis: 0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamps.rfc3339(millis: -1) == "1969-12-31T23:59:59.999Z")
        #expect(Timestamps.rfc3339(millis: -1_000) == "1969-12-31T23:59:59.000Z")
        for millis in stride(from: Int64(1_796_057_819_000), to: 1_796_057_820_000, by: 1) {
            #expect(Timestamps.rfc3339(millis: millis).hasSuffix(String(format: ".%03lldZ", millis % 1000)))
        }
    }
}
