import HearthCore
import Testing

@Suite("TOTP, base32 and phone numbers")
struct TOTPTests {
    /// RFC 6238 Appendix B, SHA-1, 8 digits, secret "12345678901234567890".
    @Test("RFC 6238 test vectors", arguments: [
        (Int64(59), "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
        (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
    ])
    func rfc6238(time: Int64, expected: String) {
        let totp = TOTP(digits: 8, period: 30)
        let secret = Array("12345678901234567890".utf8)
        #expect(totp.code(secret: secret, step: totp.step(at: time)) == expected)
        #expect(totp.matchingStep(code: expected, secret: secret, at: time) == totp.step(at: time))
    }

    @Test("codes of the previous and next step are accepted, older ones are not")
    func window() {
        let totp = TOTP()
        let secret = Array("12345678901234567890".utf8)
        let now: Int64 = 1_800_000_015
        let step = totp.step(at: now)
        for offset: Int64 in [-1, 0, 1] {
            #expect(totp.matchingStep(code: totp.code(secret: secret, step: step + offset), secret: secret, at: now) == step + offset)
        }
        #expect(totp.matchingStep(code: totp.code(secret: secret, step: step - 2), secret: secret, at: now) == nil)
        #expect(totp.matchingStep(code: "12345", secret: secret, at: now) == nil)
        #expect(totp.matchingStep(code: "12345a", secret: secret, at: now) == nil)
    }

    @Test("base32 (RFC 4648 vectors) round trips")
    func base32() {
        let vectors = ["": "", "f": "MY", "fo": "MZXQ", "foo": "MZXW6", "foob": "MZXW6YQ", "fooba": "MZXW6YTB", "foobar": "MZXW6YTBOI"]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(Base32.decode(encoded) == Array(plain.utf8))
            #expect(Base32.decode(encoded.lowercased() + "==") == Array(plain.utf8))
        }
        #expect(Base32.decode("MZ1") == nil)
    }

    @Test("E.164 validation and masking")
    func phoneNumbers() {
        for valid in ["+15555551234", "+442071838750", "+8613800138000"] { #expect(PhoneNumbers.isE164(valid)) }
        for invalid in ["15555551234", "+0555555123", "+1 555 555 1234", "+123", "+1234567890123456", "+1555abc1234", ""] {
            #expect(!PhoneNumbers.isE164(invalid))
        }
        #expect(PhoneNumbers.masked("+15555551234") == "+*******1234")
    }
}
