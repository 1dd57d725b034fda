import Foundation
import Postgres
import Testing

/// A cluster of the test's own (scripts/postgres-cluster), so it can be restarted without disturbing other tests.
final class OwnCluster {
    let directory: String
    let url: String
    private static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/postgres-cluster").path

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-postgres-tests-\(UUID().uuidString)").path
        url = try Self.run("start", directory).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        _ = try? Self.run("stop", directory)
    }

    func restart() throws {
        _ = try Self.run("restart", directory)
    }

    /// Runs the script and returns its standard output; throws if it fails. (posix_spawn and waitpid rather than
    /// Foundation's `Process`, whose `waitUntilExit` was seen to hang here with the script already exited.)
    private static func run(_ command: String, _ directory: String) throws -> String {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw ClusterScriptFailed(command: command) }
        // Only the script gets the write end: a copy in another test's child would keep the pipe from ending.
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(script), strdup(command), strdup(directory), nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, script, &actions, nil, arguments, environ)
        close(pipeEnds[1])
        let reader = FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true)
        guard spawned == 0 else { throw ClusterScriptFailed(command: command) }
        let output = reader.readDataToEndOfFile()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        guard status == 0 else { throw ClusterScriptFailed(command: command) }
        return String(decoding: output, as: UTF8.self)
    }

    struct ClusterScriptFailed: Error {
        let command: String
    }
}

@Suite("Server restart")
struct RestartTests {
    @Test("after a server restart, the pool's next calls work on new sessions, without reopening the pool")
    func poolRecoversAfterRestart() throws {
        _ = try testDatabaseURL()  // the same precondition as every other test: scripts/test provides PostgreSQL
        let cluster = try OwnCluster()
        let pool = try PostgresConnectionPool(url: cluster.url, size: 3)
        defer { pool.close() }
        let before = try backendPIDsOnThreads(pool, threads: 3)
        try cluster.restart()
        let after = try backendPIDsOnThreads(pool, threads: 6)
        #expect(after.count == 6)
        #expect(Set(after).isDisjoint(with: before))
    }
}
