import Testing
import TerminalQRCode

@Suite("Terminal QR codes")
struct QRCodeTests {
    @Test("encodes an otpauth URL into a square symbol with the three finder patterns")
    func finderPatterns() throws {
        let code = try QRCode(encoding: "otpauth://totp/Portfolio:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Portfolio")
        #expect(code.size >= 21 && (code.size - 21) % 4 == 0)
        // Each corner holds a 7×7 finder: a dark ring, a light ring, a dark 3×3 core.
        for (top, left) in [(0, 0), (0, code.size - 7), (code.size - 7, 0)] {
            for offset in 0..<7 {
                #expect(code.isDark(row: top, column: left + offset))
                #expect(code.isDark(row: top + 6, column: left + offset))
                #expect(code.isDark(row: top + offset, column: left))
                #expect(code.isDark(row: top + offset, column: left + 6))
            }
            #expect(!code.isDark(row: top + 1, column: left + 1))
            #expect(code.isDark(row: top + 3, column: left + 3))
        }
    }

    @Test("longer texts need larger versions; the same text always gives the same symbol")
    func sizes() throws {
        let short = try QRCode(encoding: "hi")
        let long = try QRCode(encoding: String(repeating: "x", count: 300))
        #expect(long.size > short.size)
        #expect(try QRCode(encoding: "hi") == short)
        #expect(throws: QRCode.EncodingError.self) { try QRCode(encoding: "") }
        #expect(throws: QRCode.EncodingError.self) { try QRCode(encoding: String(repeating: "x", count: 5000)) }
    }

    @Test("terminal text: two module rows per line, quiet zone included, only block characters")
    func rendering() throws {
        let code = try QRCode(encoding: "otpauth://totp/x?secret=AAAA")
        let lines = code.terminalText().split(separator: "\n", omittingEmptySubsequences: false)
        let side = code.size + 8
        #expect(lines.count == (side + 1) / 2)
        #expect(lines.allSatisfy { $0.count == side })
        #expect(lines.allSatisfy { $0.allSatisfy { "█▀▄ ".contains($0) } })
        #expect(lines.first?.allSatisfy { $0 == "█" } == true, "the quiet zone prints light")
    }
}
