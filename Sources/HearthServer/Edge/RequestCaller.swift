import HearthCore
import HearthHTTP

extension HTTPRequest {
    /// The caller of a client endpoint: the account's own user, from the client as limits name it
    /// (``clientKey``), which its audit events record.
    var endUser: Caller { .user(client: clientKey) }

    /// The caller of an admin endpoint: the administrator ``RequireAdmin`` accepted (`UNAUTHENTICATED` for a request
    /// it did not see). Admin calls are limited at the edge, not by the services, and their audit events record no
    /// client address.
    func administrator() throws -> Caller { .administrator(try adminCaller(), client: nil) }
}
