internal import CQREncode

/// A QR code (libqrencode), and its rendering for a terminal with Unicode half blocks, so that an
/// authenticator app can scan an `otpauth://` URL straight off the screen.
///
/// ```swift
/// let code = try QRCode(encoding: "otpauth://totp/Portfolio:ada@example.com?secret=…")
/// print(code.terminalText())
/// ```
public struct QRCode: Sendable, Equatable {
    /// Modules per side.
    public let size: Int
    /// Row-major, `true` for a dark module.
    public let modules: [Bool]

    public struct EncodingError: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { "QR encoding failed: \(reason)" }
    }

    /// Encodes `text` as 8-bit data with medium error correction (the smallest version that fits).
    public init(encoding text: String) throws {
        guard !text.isEmpty else { throw EncodingError(reason: "nothing to encode") }
        guard let symbol = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw EncodingError(reason: "the text is too long for a QR code")
        }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        // Bit 0 of each byte is the module's colour (1 = dark); the other bits describe its role.
        modules = (0..<(width * width)).map { symbol.pointee.data[$0] & 1 == 1 }
        size = width
    }

    public func isDark(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }

    /// Two module rows per text line (`▀`, `▄`, `█`, space), light on dark as terminals show it best,
    /// with the 4-module quiet zone scanners need.
    public func terminalText(quietZone: Int = 4) -> String {
        let range = -quietZone..<(size + quietZone)
        var lines: [String] = []
        var row = range.lowerBound
        while row < range.upperBound {
            var line = ""
            for column in range {
                // Printed inverted: a light module is a filled cell.
                let top = !isDark(row: row, column: column)
                let bottom = row + 1 < range.upperBound ? !isDark(row: row + 1, column: column) : false
                switch (top, bottom) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
            row += 2
        }
        return lines.joined(separator: "\n")
    }
}
