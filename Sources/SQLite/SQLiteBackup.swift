internal import CSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteConnection {
    /// How ``backup(into:pacing:progress:)`` copies: pages per step, and how often a step that
    /// finds a database locked is tried again.
    public struct BackupPacing: Sendable {
        /// Pages copied per `sqlite3_backup_step` (-1: all at once).
        public var pagesPerStep: Int32
        /// How many times in a row a step that answers `SQLITE_BUSY` or `SQLITE_LOCKED` is tried again.
        public var busyRetries: Int
        /// The pause before each retry, in milliseconds.
        public var busyPauseMilliseconds: Int

        public init(pagesPerStep: Int32 = 256, busyRetries: Int = 500, busyPauseMilliseconds: Int = 20) {
            precondition(pagesPerStep != 0, "a step must copy pages")
            self.pagesPerStep = pagesPerStep
            self.busyRetries = busyRetries
            self.busyPauseMilliseconds = busyPauseMilliseconds
        }
    }

    /// Copies this connection's database into `destination`'s, replacing its contents, with SQLite's online
    /// backup API (`sqlite3_backup_init`, `_step`, `_finish`), a few pages per step.
    ///
    /// The copy is one consistent snapshot: it runs inside a read transaction on this connection, so commits
    /// made by other connections while it runs are not in it, and they do not restart it. In WAL mode those
    /// writers are never blocked by the copy (a reader holds no lock a writer waits for; only checkpoints
    /// stop at the snapshot until the copy ends). A step that finds either database locked (`SQLITE_BUSY`,
    /// `SQLITE_LOCKED`) is tried again after a pause, up to `pacing.busyRetries` times in a row.
    ///
    /// Must not be called inside a transaction on this connection, and `destination` must not be in use.
    ///
    /// - Parameter progress: called after each step with the pages still to copy and the total.
    /// - Throws: `SQLiteError` from the source read, a step that kept failing, or `sqlite3_backup_finish`;
    ///   `destination` then holds an incomplete copy.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/backup.html>, <https://www.sqlite.org/c3ref/backup_finish.html>
    public func backup(
        into destination: SQLiteConnection, pacing: BackupPacing = BackupPacing(),
        progress: (_ remaining: Int, _ total: Int) -> Void = { _, _ in }
    ) throws {
        // The read transaction pins one snapshot for every step (sqlite3_backup_step reuses an open one).
        try transaction(.deferred) {
            _ = try queryFirst("SELECT count(*) FROM sqlite_schema") { $0.int(0) }
            guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
                throw sqliteError(sqlite3_errcode(destination.handle), destination.handle, sql: nil)
            }
            var stepCode = SQLITE_OK
            var busyInARow = 0
            while stepCode == SQLITE_OK || stepCode == SQLITE_BUSY || stepCode == SQLITE_LOCKED {
                stepCode = sqlite3_backup_step(backup, pacing.pagesPerStep)
                if stepCode == SQLITE_BUSY || stepCode == SQLITE_LOCKED {
                    busyInARow += 1
                    if busyInARow > pacing.busyRetries { break }
                    usleep(useconds_t(pacing.busyPauseMilliseconds * 1000))
                    continue
                }
                busyInARow = 0
                progress(Int(sqlite3_backup_remaining(backup)), Int(sqlite3_backup_pagecount(backup)))
            }
            // finish releases the backup and returns the failed step's code (SQLITE_OK after SQLITE_DONE), with
            // the message in the destination connection; a step that gave up on a lock is reported as such.
            let finishCode = sqlite3_backup_finish(backup)
            if stepCode == SQLITE_BUSY || stepCode == SQLITE_LOCKED { throw sqliteError(stepCode, nil, sql: nil) }
            try sqliteCheck(finishCode, destination.handle)
        }
    }
}
