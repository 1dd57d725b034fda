/// Decides which user's session the store holds. Each ``GoogleUser`` gets a generation; only the current
/// generation may write, so a refresh finishing after a sign-out or a newer sign-in cannot bring an old session
/// back. The slot holds no users, so users that outlive their ``GoogleSignIn`` still save their refreshes.
final class SessionSlot: Sendable {
    private struct State {
        var current: UInt64?
        var next: UInt64 = 1
    }

    let store: any SignInSessionStore
    private let state = Locked(State())

    init(store: any SignInSessionStore) {
        self.store = store
    }

    func newGeneration() -> UInt64 {
        state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Saves `session` if `generation` is current; a failure is ignored (the tokens stay valid in memory).
    func saveIfCurrent(_ generation: UInt64, _ session: SessionState) {
        state.withLock { state in
            guard state.current == generation else { return }
            try? store.save(session.encoded())
        }
    }

    /// Saves `session` (when given) and makes `generation` current. When `requireSave` and the save fails,
    /// nothing changes.
    func install(_ generation: UInt64, saving session: SessionState?, requireSave: Bool) throws {
        try state.withLock { state in
            if let session {
                do {
                    try store.save(session.encoded())
                } catch where requireSave {
                    throw error
                } catch {}
            }
            state.current = generation
        }
    }

    /// Forgets the current generation and deletes the stored session.
    func clear() {
        state.withLock { state in
            state.current = nil
            try? store.remove()
        }
    }
}
