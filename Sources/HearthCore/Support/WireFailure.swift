public import HearthProtocol

/// The one place where any error a Hearth operation throws becomes the wire error a client sees.
///
/// Operations throw `WireError`s for everything a client can cause, and let `StoreError`s through;
/// the request edge (and the CLI) answer with ``init(_:)``'s `wire`. A failure that is the server's
/// own (the store is down, a bug) also carries an operator-facing `fault` to log: error types and
/// stable codes only, never request values or secrets.
public struct WireFailure: Sendable {
    public var wire: WireError
    /// Set when the failure is the server's, not the client's.
    public var fault: String?

    public init(_ error: any Error) {
        switch error {
        case let error as WireError:
            wire = error
        case let error as StoreError:
            switch error.code {
            case .duplicateEmail: wire = WireError(.emailExists)
            case .duplicateIdentity: wire = WireError(.federatedUserIDAlreadyLinked)
            case .duplicateLocalID: wire = WireError(.duplicateLocalID)
            case .notFound: wire = WireError(.userNotFound)
            case .unavailable, .closed, .corrupt:
                wire = WireError(.unavailable, "The account store is unavailable. Try again later.")
                fault = "error=store code=\(error.code) detail=\"\(error.detail)\""
            default:
                wire = WireError(.internalError, "Internal error.")
                fault = "error=store code=\(error.code) detail=\"\(error.detail)\""
            }
        default:
            wire = WireError(.internalError, "Internal error.")
            fault = "error=internal type=\(type(of: error))"
        }
    }
}
