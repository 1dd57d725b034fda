public import HearthProtocol

/// How a write body ends when it does not throw: keep its changes and answer a value, or keep its
/// changes and answer an error.
///
/// A body that throws always rolls back. "Commit, then fail" is only ever said by returning
/// `.commitThenFail`, so whether a counted wrong attempt is kept never depends on which error type
/// happens to be thrown (DESIGN.md decision 12).
///
/// ```swift
/// let enrollment = try store.transaction { writer -> WriteOutcome<MFAEnrollment> in
///     guard codeIsRight else {
///         try writer.saveLimitCounter(counted)                  // the wrong attempt is kept…
///         return .commitThenFail(WireError(.invalidCode))       // …and the caller gets the error
///     }
///     return .commit(enrollment)
/// }
/// ```
public enum WriteOutcome<Value> {
    /// Commit the body's changes and return `Value`.
    case commit(Value)
    /// Commit the body's changes, then throw the error to the caller.
    case commitThenFail(WireError)
}

extension HearthStore {
    /// Runs `body` as one write transaction (isolated as `isolation` says) whose outcome says whether it
    /// succeeded; see ``WriteOutcome``. Errors thrown by `body` roll it back and are rethrown unchanged.
    public func transaction<Value>(
        _ isolation: WriteIsolation = .serializable, _ body: (any StoreWriter) throws -> WriteOutcome<Value>
    ) throws -> Value {
        switch try write(isolation, body) {
        case .commit(let value): return value
        case .commitThenFail(let error): throw error
        }
    }
}
