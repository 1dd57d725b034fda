extension HearthStore {
    /// Runs `body` as a write (isolated as `isolation` says) whose uniqueness checks may lose a race: a body that
    /// looked for an email, identity or uid, found none and then met another write's new row at a unique key runs
    /// again (at most twice more), and this time finds the winner's row and decides by it (a sign-in joins the
    /// account, an update answers `EMAIL_EXISTS`). Needed for `.rowLocks` writes, where nothing else orders two
    /// first users of one key.
    func writeRetryingUniqueness<T>(_ isolation: WriteIsolation, _ body: (any StoreWriter) throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try write(isolation, body)
            } catch let error as StoreError
                where attempt < 2 && [.duplicateIdentity, .duplicateEmail, .duplicateLocalID].contains(error.code)
            {
                attempt += 1
            }
        }
    }
}
