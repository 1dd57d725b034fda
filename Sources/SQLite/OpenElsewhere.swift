#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether another process has the WAL-mode database at `path` open, asked the way SQLite asks it when it opens one.
///
/// Every connection to a WAL database holds a shared POSIX lock on the "dead man switch" byte of its `-shm` file (byte
/// 128: SQLite's `UNIX_SHM_DMS`, after the 8 lock bytes at 120) for as long as it is open, and SQLite tests that byte
/// with `F_GETLK` to learn whether it is the first connection. `F_GETLK` reports only other processes' locks, so this
/// process's own connections do not count. A missing `-shm` file means no connection anywhere. On other platforms
/// than Linux and macOS, and when the file cannot be read, it answers false.
public func isOpenInAnotherProcess(databasePath path: String) -> Bool {
    let descriptor = open(path + "-shm", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var lock = flock()
    lock.l_type = Int16(F_WRLCK)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = 128
    lock.l_len = 1
    guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return false }
    return lock.l_type != Int16(F_UNLCK)
}
