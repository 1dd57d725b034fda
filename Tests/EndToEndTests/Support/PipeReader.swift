import Foundation

/// Reads a child's pipe to its end on a thread of its own, handing each chunk to `onChunk`, then calls `onEnd`.
///
/// Not `readabilityHandler`: on Linux its dispatch source can outlive the descriptor it watches (the handle closes
/// it on deinit while the cancelled source is still registered), and the dispatch manager thread crashed on that
/// once in a full run. A blocking read on a plain thread has nothing registered to outlive.
func readToEnd(_ handle: FileHandle, onChunk: @escaping @Sendable (Data) -> Void, onEnd: @escaping @Sendable () -> Void = {}) {
    let thread = Thread {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            onChunk(chunk)
        }
        onEnd()
    }
    thread.name = "pipe-reader"
    thread.start()
}
