/// Who called an admin endpoint (`/v1/projects/{p}/accounts…`), once its bearer token was accepted.
public enum AdminCaller: Sendable, Equatable {
    /// `Authorization: Bearer owner`, accepted only in development (what the Admin SDKs send to an emulator).
    case owner
    /// A service account, through an access token Hearth's token endpoint issued to it.
    case serviceAccount(email: String)
}

/// Recognizes one kind of admin credential. The request edge asks each configured verifier in turn; no admin
/// route is reachable without one of them accepting the request's bearer token.
public protocol AdminTokenVerifier: Sendable {
    /// The caller `token` (the text after `Bearer `) stands for, or nil when this verifier does not recognize
    /// the token's kind.
    ///
    /// - Throws: `WireError` when the token is of this verifier's kind but is refused (expired, revoked,
    ///   signed by an unknown key).
    func caller(bearerToken token: String) throws -> AdminCaller?
}
