import HearthVerify
import Testing

@Suite("BearerToken")
struct BearerTokenTests {
    static let jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1In0.c2lnbmF0dXJl"

    @Test(
        "extracts the token from an Authorization header",
        arguments: [
            ("Bearer \(jwt)", jwt), ("bearer \(jwt)", jwt), ("BEARER \(jwt)", jwt), ("Bearer   \(jwt)  ", jwt),
            ("  Bearer\t\(jwt)", jwt), (jwt, jwt), ("  \(jwt) ", jwt), ("Bearer not-a-jwt", "not-a-jwt"),
        ] as [(String?, String?)])
    func accepted(header: String?, expected: String?) {
        #expect(BearerToken.extract(fromAuthorizationHeader: header) == expected)
    }

    @Test(
        "returns nil for missing, empty, other schemes and junk",
        arguments: [
            nil, "", "   ", "Bearer", "Bearer ", "Bearer    ", "Basic dXNlcjpwYXNz", "Basic \(jwt)", "Token \(jwt)",
            "Bearer \(jwt) extra", "Bearer a b", "not-a-jwt", "a.b", "a..c", "a.b.c.d", "a.b.c!", "\(jwt).",
            "Bearer,\(jwt)",
        ] as [String?])
    func refused(header: String?) {
        #expect(BearerToken.extract(fromAuthorizationHeader: header) == nil)
    }
}
