import Foundation
import SQLite
import Synchronization
import Testing

/// A directory under the system's temporary directory, removed with everything in it on `deinit`.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-sqlite-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }
}

/// Values collected from several threads.
final class Collected<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])
    func add(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}

/// Runs `body(index)` on `count` new threads and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}

func fileBytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// Expects `body` to throw a `SQLiteError` whose code matches `code` (a primary code matches its
/// extended codes) and returns the error.
@discardableResult
func expectSQLiteError<T>(
    _ code: SQLiteError.ResultCode, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
) -> SQLiteError? {
    let error = #expect(throws: SQLiteError.self, sourceLocation: sourceLocation) { _ = try body() }
    if let error {
        #expect(code ~= error.code, "got \(error.code.name)", sourceLocation: sourceLocation)
    }
    return error
}
