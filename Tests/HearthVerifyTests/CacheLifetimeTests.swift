import Foundation
@testable import HearthVerify
import Testing

@Suite("JWKS fetching: Cache-Control")
struct CacheLifetimeTests {
    @Test(
        "max-age minus Age, 0 for no-cache/no-store, nil when unknown",
        arguments: [
            ("public, max-age=300, must-revalidate, no-transform", nil, 300.0),
            ("public, max-age=300", "120", 180), ("max-age=300", "400", 0), ("MAX-AGE=60", nil, 60),
            ("max-age=\"90\"", nil, 90), ("public, s-maxage=100", nil, nil), ("no-cache", nil, 0),
            ("private, no-store", nil, 0), ("max-age=soon", nil, nil), (nil, "10", nil), ("max-age=-5", nil, nil),
        ] as [(String?, String?, TimeInterval?)])
    func lifetime(cacheControl: String?, age: String?, expected: TimeInterval?) {
        #expect(CacheLifetime.seconds(cacheControl: cacheControl, age: age) == expected)
    }
}
