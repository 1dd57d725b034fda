import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal's settings while echo is off, for the interrupt handler to put back.
nonisolated(unsafe) private var terminalBeforeHiding = termios()

extension Prompter {
    /// Asks for a secret (a password): on a terminal the typed characters are not shown (echo off through
    /// termios, restored afterwards, also on Ctrl-C); from piped input one line is read. The answer is never
    /// printed or logged, and is not trimmed.
    func askSecret(_ question: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &terminalBeforeHiding) == 0 else {
            FileHandle.standardOutput.write(Data(question.utf8))
            return try readSecretLine()
        }
        var hidden = terminalBeforeHiding
        hidden.c_lflag &= ~tcflag_t(ECHO)
        let previousHandler = signal(SIGINT) { _ in
            tcsetattr(STDIN_FILENO, TCSANOW, &terminalBeforeHiding)
            _exit(130)
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden)
        // Echo is off before the question shows, so nothing typed after it can be echoed.
        FileHandle.standardOutput.write(Data(question.utf8))
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &terminalBeforeHiding)
            signal(SIGINT, previousHandler)
            // The user's Enter was not echoed either.
            FileHandle.standardOutput.write(Data("\n".utf8))
        }
        return try readSecretLine()
    }

    /// Asks for a new password twice; they must match and not be empty.
    func askNewPassword(_ question: String = "New password: ") throws -> String {
        let password = try askSecret(question)
        guard !password.isEmpty else {
            throw AppFailure(message: "The password is empty. Run the command again.", status: ExitStatus.failure)
        }
        guard try askSecret("Repeat the password: ") == password else {
            throw AppFailure(message: "The passwords do not match. Run the command again.", status: ExitStatus.failure)
        }
        return password
    }

    private func readSecretLine() throws -> String {
        guard let line = readLine(strippingNewline: true) else {
            throw AppFailure(
                message: "No answer (input ended). Run the command again.", status: ExitStatus.signInFailed)
        }
        return line
    }
}
