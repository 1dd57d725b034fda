import Foundation

/// Something `scripts/postgres-cluster` started in a folder of its own (a throwaway cluster, a standby of one, a
/// PgBouncer), removed with `stop` when the test is done.
final class PostgresClusterScript {
    /// The superuser URL the script printed: `postgres://hearth@127.0.0.1:PORT/postgres`.
    let url: String
    /// The port in `url`.
    let port: UInt16
    /// The folder the script keeps it in.
    let directory: String

    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/postgres-cluster")

    private init(_ command: String, _ arguments: [String], directory: String) throws {
        self.directory = directory
        url = try Self.run([command] + arguments).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = URLComponents(string: url)?.port.flatMap({ UInt16(exactly: $0) }) else {
            throw RawHTTP.Failure(description: "scripts/postgres-cluster \(command) printed no URL: \(url)")
        }
        self.port = port
    }

    /// A new cluster (`start`).
    static func cluster() throws -> PostgresClusterScript {
        let directory = newDirectory()
        return try PostgresClusterScript("start", [directory], directory: directory)
    }

    /// A synchronous streaming standby of `primary` (`standby`): a commit on the primary returns once the standby
    /// has it.
    static func standby(of primary: PostgresClusterScript) throws -> PostgresClusterScript {
        let directory = newDirectory()
        return try PostgresClusterScript("standby", [primary.directory, directory], directory: directory)
    }

    /// A PgBouncer in transaction pooling mode in front of the cluster on 127.0.0.1:`port` (`pgbouncer`).
    static func pgbouncer(inFrontOfPort port: UInt16) throws -> PostgresClusterScript {
        let directory = newDirectory()
        return try PostgresClusterScript("pgbouncer", [directory, String(port)], directory: directory)
    }

    /// The same database name on this server (a pooler passes each name on to the cluster behind it).
    func url(database: String) -> String {
        var components = URLComponents(string: url)
        components?.path = "/" + database
        return components?.string ?? url
    }

    /// Stops the server at once (`pg_ctl stop -m immediate`, as a crash would), keeping its data.
    func crash() throws {
        try Self.run(["crash", directory])
    }

    /// Promotes a standby to primary (`pg_ctl promote`).
    func promote() throws {
        try Self.run(["promote", directory])
    }

    deinit {
        _ = try? Self.run(["stop", directory])
    }

    /// A folder of its own (the script makes it; as root it hands it to the user the cluster runs as).
    private static func newDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-pg-\(UUID().uuidString)").path
    }

    /// Runs the script and returns its standard output (its standard error goes to the test's); throws if it fails.
    /// posix_spawn and waitpid, as `OwnCluster` in PostgresTests does, rather than Foundation's `Process`, whose
    /// `waitUntilExit` was seen to wait forever for this script (which leaves daemons behind) after it had exited.
    @discardableResult
    private static func run(_ arguments: [String]) throws -> String {
        let description = "scripts/postgres-cluster \(arguments.joined(separator: " "))"
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw RawHTTP.Failure(description: "\(description): no pipe") }
        // Only the script gets the write end: a copy in another test's child would keep the pipe from ending.
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        let argv: [UnsafeMutablePointer<CChar>?] = ([script.path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, script.path, &actions, nil, argv, environ)
        close(pipeEnds[1])
        let reader = FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true)
        guard spawned == 0 else { throw RawHTTP.Failure(description: "\(description): cannot start it") }
        let output = reader.readDataToEndOfFile()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        guard status == 0 else { throw RawHTTP.Failure(description: "\(description) failed (status \(status))") }
        return String(decoding: output, as: UTF8.self)
    }
}
