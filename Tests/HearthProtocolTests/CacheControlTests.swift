import Foundation
import HearthProtocol
import Testing

@Suite("Cache-Control: freshness lifetime")
struct CacheControlTests {
    @Test(
        "max-age minus Age; no-cache and no-store win; invalid max-age is stale; nil when nothing is said",
        arguments: [
            ("public, max-age=300, must-revalidate, no-transform", nil, 300.0),
            ("public, max-age=300", "120", 180), ("max-age=300", "400", 0), ("MAX-AGE=60", nil, 60),
            ("max-age=\"90\"", nil, 90), ("public, s-maxage=100", nil, nil), ("no-cache", nil, 0),
            ("private, no-store", nil, 0), ("max-age=3600, no-cache", nil, 0), ("no-cache=\"set-cookie\", max-age=60", nil, 0),
            ("max-age=soon", nil, 0), ("max-age=-5", nil, 0), ("max-age", nil, 0), ("max-age=", nil, 0),
            (nil, "10", nil), ("", nil, nil), (",,", nil, nil),
            ("max-age=60, max-age=6000", nil, 60), ("max-age=300", "soon", 300), ("max-age=300", "100, 200", 200),
            ("max-age=99999999999999999999999", nil, 2_147_483_648), ("max-age=0000000000000000000060", nil, 60),
            ("max-age=300", "99999999999999999999999", 0),
        ] as [(String?, String?, TimeInterval?)])
    func lifetime(cacheControl: String?, age: String?, expected: TimeInterval?) {
        #expect(CacheControl.freshnessLifetime(cacheControl: cacheControl, age: age) == expected)
    }
}
