#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Creates an empty file at `path`, readable and writable by its owner only (0600), unless something already
/// exists there. SQLite would create a new database with 0644 (less the umask) and gives its `-wal`, `-shm` and
/// `-journal` files the mode of the database file, so creating the file first keeps all of them owner-only
/// whatever the process's umask. An empty file is an empty database to SQLite.
///
/// Failures are left for SQLite to report when it opens the path (a missing directory, no permission).
func createOwnerOnlyFileIfMissing(_ path: String) {
    // ":memory:" and "" are SQLite's in-memory and temporary databases, not paths.
    guard !path.isEmpty, path != ":memory:" else { return }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
    if descriptor >= 0 { close(descriptor) }
}
