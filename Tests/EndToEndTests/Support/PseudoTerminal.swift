import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A pseudo-terminal for a child program: the child's stdin and stdout are the terminal, so it sees a TTY
/// (`isatty`) and its termios settings apply; the test types into it and reads what the screen would show,
/// echo included.
final class PseudoTerminal: @unchecked Sendable {
    // @unchecked: the descriptors are used by the owning test; the screen goes through a lock.
    private let controller: Int32
    /// The child's side; kept open by the test so its settings can be read after the child ends.
    let terminal: Int32
    private let screen = Locked(Data())
    private var reader: Thread?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        // Glibc's module map leaves out the pseudo-terminal functions (they need _XOPEN_SOURCE); look them up.
        typealias OpenFunction = @convention(c) (Int32) -> Int32
        typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        guard let open_ = dlsym(nil, "posix_openpt"), let grant = dlsym(nil, "grantpt"),
            let unlock = dlsym(nil, "unlockpt"), let name_ = dlsym(nil, "ptsname")
        else { throw Failure(description: "no pseudo-terminal functions in libc") }
        controller = unsafeBitCast(open_, to: OpenFunction.self)(O_RDWR | O_NOCTTY)
        guard controller >= 0, unsafeBitCast(grant, to: OpenFunction.self)(controller) == 0,
            unsafeBitCast(unlock, to: OpenFunction.self)(controller) == 0,
            let name = unsafeBitCast(name_, to: NameFunction.self)(controller)
        else {
            throw Failure(description: "no pseudo-terminal (errno \(errno))")
        }
        terminal = open(name, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw Failure(description: "cannot open \(String(cString: name))") }
        let controller = self.controller
        let screen = self.screen
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(controller, &buffer, buffer.count)
                if count <= 0 { return }
                screen.withLock { $0.append(contentsOf: buffer[0..<count]) }
            }
        }
        reader.start()
        self.reader = reader
    }

    /// The child's standard input and output.
    var fileHandle: FileHandle { FileHandle(fileDescriptor: terminal, closeOnDealloc: false) }

    /// Everything the terminal showed so far.
    var shown: String { String(decoding: screen.value, as: UTF8.self) }

    /// Waits until the screen shows `text`.
    func waitFor(_ text: String, timeout: TimeInterval = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if shown.contains(text) { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw Failure(description: "the terminal never showed '\(text)'; it showed:\n\(shown)")
    }

    /// Types `line` and Enter.
    func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }

    /// Whether the terminal echoes what is typed (its current termios `ECHO` flag).
    var echoes: Bool {
        var settings = termios()
        guard tcgetattr(terminal, &settings) == 0 else { return false }
        return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    deinit {
        close(terminal)
        close(controller)
    }
}
