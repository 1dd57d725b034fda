import HearthCommandLine

/// `hearth db <command>`: commands that act on the whole database (`backup`, `copy`).
enum DatabaseCommand {
    static func run(_ arguments: [String]) throws {
        switch arguments.first {
        case nil, "--help", "-h", "help":
            print(Help.db)
        case "backup":
            try DatabaseBackupCommand.run(Array(arguments.dropFirst()))
        case "copy":
            try DatabaseCopyCommand.run(Array(arguments.dropFirst()))
        case let other?:
            throw UsageError("unknown db command '\(other)' (backup or copy)")
        }
    }
}
