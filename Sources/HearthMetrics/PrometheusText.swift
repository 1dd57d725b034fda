/// The pieces of Prometheus' text exposition format, version 0.0.4
/// (https://prometheus.io/docs/instrumenting/exposition_formats/).
enum PrometheusText {
    /// `# HELP` and `# TYPE` lines; in help text `\` and line feeds are escaped.
    static func header(name: String, help: String, type: String, into text: inout String) {
        text += "# HELP \(name) \(escaped(help, quotes: false))\n# TYPE \(name) \(type)\n"
    }

    /// One sample line: `name{label="value",…} value`.
    static func sample(name: String, labels: [(String, String)], value: String, into text: inout String) {
        text += name
        if !labels.isEmpty {
            text += "{"
            for (index, (label, labelValue)) in labels.enumerated() {
                if index > 0 { text += "," }
                text += label
                text += "=\""
                text += escaped(labelValue, quotes: true)
                text += "\""
            }
            text += "}"
        }
        text += " "
        text += value
        text += "\n"
    }

    /// `\` as `\\`, a line feed as `\n`, and in label values `"` as `\"`.
    static func escaped(_ value: String, quotes: Bool) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\n" || (quotes && $0 == "\"") }) else { return value }
        var result = ""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\"" where quotes: result += "\\\""
            default: result.append(character)
            }
        }
        return result
    }

    /// A sample value as Go's parser reads it: integers without a fraction, `+Inf`, `-Inf`, `NaN`.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*`.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
        }
    }
}
