import Foundation

/// A running count on stderr (`hearth: exported 12000 users`), rewritten in place, when stderr is a
/// terminal; nothing when it is a file or a pipe, so logs and scripts see only the summary.
struct TerminalProgress {
    let verb: String
    private let isTerminal = isatty(STDERR_FILENO) == 1

    init(verb: String) { self.verb = verb }

    func update(_ count: Int) {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\rhearth: \(verb) \(count) users".utf8))
    }

    /// Ends the line the count was written on.
    func finish() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
