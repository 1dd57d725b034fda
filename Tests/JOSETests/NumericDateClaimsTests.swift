import Foundation
import HearthCrypto
import JOSE
import Testing

/// `VerifiedJWT.claims(as:)` reads `Date` claims as NumericDates: whole seconds from 1970 to 9999.
@Suite("Date claims are NumericDates")
struct NumericDateClaimsTests {
    struct Times: Decodable, Equatable {
        var exp: Date
        var iat: Date?
    }

    func times(_ payload: String) throws -> Times {
        let token = try JWTSigner(privateKey: TestKeys.primary, keyID: "k").sign(payload: Data(payload.utf8))
        var keys = JWTKeySet()
        keys.add(TestKeys.primary.publicKey, keyID: "k")
        return try keys.verify(token).claims(as: Times.self)
    }

    @Test("whole seconds, as integers or integral doubles, decode to dates")
    func accepted() throws {
        #expect(try times(#"{"exp":1700000000}"#).exp == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try times(#"{"exp":1.7e9,"iat":1700000000.0}"#) == Times(
            exp: Date(timeIntervalSince1970: 1_700_000_000), iat: Date(timeIntervalSince1970: 1_700_000_000)))
        #expect(try times(#"{"exp":0}"#).exp == Date(timeIntervalSince1970: 0))
        #expect(try times(#"{"exp":253402300799}"#).exp == Date(timeIntervalSince1970: 253_402_300_799))
    }

    @Test(
        "dates outside whole seconds 1970…9999 are invalidPayload",
        arguments: [
            "1e20", "9223372036854775807", "1e300", "-9223372036854775808", "-1e300", "-1", "253402300800", "1700000000.5",
            "1e-300", "\"1700000000\"", "true",
        ])
    func refused(value: String) {
        #expect(throws: JOSEError(.invalidPayload, reason: "")) { try times(#"{"exp":"# + value + "}") }
        #expect(throws: JOSEError(.invalidPayload, reason: "")) { try times(#"{"exp":1700000000,"iat":"# + value + "}") }
    }
}
