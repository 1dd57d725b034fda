/// What ``AdminAuth/getUsers(_:)`` found: firebase-admin's `GetUsersResult`.
public struct GetUsersResult: Sendable, Equatable {
    /// The users found, in the server's order.
    public var users: [UserRecord]
    /// The identifiers no user matched.
    public var notFound: [UserIdentifier]
}

/// One page of ``AdminAuth/listUsers(pageSize:)``: firebase-admin's `ListUsersResult`.
public struct ListUsersPage: Sendable, Equatable {
    /// The users on this page, in uid order.
    public var users: [UserRecord]
    /// The token for the next page; nil on the last.
    public var nextPageToken: String?
}

/// One failed row of a batch call: its index in the input and why.
public struct BatchRowError: Sendable, Equatable {
    /// The row's position in the array that was passed.
    public var index: Int
    /// Why the row failed; ``HearthAdminError/serverCode`` holds the server's code.
    public var error: HearthAdminError
}

/// The outcome of ``AdminAuth/deleteUsers(_:)`` or ``AdminAuth/importUsers(_:)``: firebase-admin's
/// `DeleteUsersResult` / `UserImportResult`. The call succeeds even when rows fail.
public struct BatchResult: Sendable, Equatable {
    /// Rows that succeeded (for deletion, unknown uids count as deleted, as in firebase-admin).
    public var successCount: Int
    /// Rows that failed.
    public var failureCount: Int { errors.count }
    /// Why each failed row failed.
    public var errors: [BatchRowError]
}
