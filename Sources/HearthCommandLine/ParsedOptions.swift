/// A usage error: printed as one line, exit status 64 (EX_USAGE).
public struct UsageError: Error, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// Command-line options of one command, parsed by a small table-driven parser shared by Hearth's
/// executables: `--name value`, `--name=value`, `--switch`, and positional arguments.
public struct ParsedOptions: Sendable {
    public private(set) var values: [String: String] = [:]
    public private(set) var flags: Set<String> = []
    public private(set) var positionals: [String] = []

    /// - Parameters:
    ///   - valued: options that take a value (`--port 9099` or `--port=9099`).
    ///   - switches: options without a value (`--dev`).
    public init(_ arguments: [String], valued: Set<String>, switches: Set<String>) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                if argument.hasPrefix("-") && argument != "-" { throw UsageError("unknown option '\(argument)'") }
                positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if switches.contains(name) {
                guard inlineValue == nil else { throw UsageError("option '--\(name)' does not take a value") }
                flags.insert(name)
            } else if valued.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                        throw UsageError("option '--\(name)' needs a value")
                    }
                    values[name] = arguments[index]
                    index += 1
                }
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
    }
}

/// A setting read from a flag, else an environment variable, else a default.
public struct OptionValues: Sendable {
    private let options: ParsedOptions
    private let environment: [String: String]

    public init(options: ParsedOptions, environment: [String: String]) {
        self.options = options
        self.environment = environment
    }

    /// `--flag` if given, else the non-empty environment `variable`, else nil.
    public func value(flag: String, variable: String) -> String? {
        options.values[flag] ?? environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    public subscript(flag: String, variable: String, default fallback: String) -> String {
        value(flag: flag, variable: variable) ?? fallback
    }
}
