import Foundation
import HearthCommandLine

/// Entry point: `hearth <command> [options]`. Exit status 0 on success, 64 for usage and
/// configuration errors (one line on stderr), 1 when the server cannot run (port, data directory, database).

// Every file Hearth creates (the database, its -wal and -shm files, directories) is its owner's alone.
umask(0o077)

/// Writes one line to stdout right away (one write(2) per line, so lines from many threads never
/// interleave, and log collectors reading a pipe see each line as it happens).
func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String, status: Int32) -> Never {
    printNote(message)
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case nil, "--help", "-h":
        print(Help.main)
    case "--version", "version":
        if let extra = arguments.dropFirst().first { throw UsageError("unexpected argument '\(extra)'") }
        print(HearthVersion.line)
    case "help":
        switch arguments.dropFirst().first {
        case nil: print(Help.main)
        case "serve": print(Help.serve)
        case "keys": print(Help.keys)
        case "users": print(Help.users)
        case "service-accounts": print(Help.serviceAccounts)
        case "tenants": print(Help.tenants)
        case "db": print(Help.db)
        case "audit": print(Help.audit)
        case let other?: throw UsageError("unknown command '\(other)'")
        }
    case "serve":
        try ServeCommand.run(Array(arguments.dropFirst()))
    case "keys":
        try KeysCommand.run(Array(arguments.dropFirst()))
    case "users":
        try UsersCommand.run(Array(arguments.dropFirst()))
    case "service-accounts":
        try ServiceAccountsCommand.run(Array(arguments.dropFirst()))
    case "tenants":
        try TenantsCommand.run(Array(arguments.dropFirst()))
    case "db":
        try DatabaseCommand.run(Array(arguments.dropFirst()))
    case "audit":
        try AuditCommand.run(Array(arguments.dropFirst()))
    case let command?:
        throw UsageError("unknown command '\(command)' (try 'hearth --help')")
    }
} catch let error as UsageError {
    fail(error.message, status: 64)
} catch let error as StartupError {
    fail(error.message, status: 1)
} catch {
    fail("\(error)", status: 1)
}
