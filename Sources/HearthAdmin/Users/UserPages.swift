import Foundation
extension AdminAuth {
    /// The most users one page of ``listUsers(pageSize:)`` holds, as Firebase.
    public static let maximumPageSize = 1000

    /// Every user, page by page in uid order (`GET accounts:batchGet` with `maxResults` and `nextPageToken`).
    ///
    /// Each iteration step fetches one page; iterating again starts from the first page.
    ///
    /// ```swift
    /// for try await page in auth.listUsers(pageSize: 500) {
    ///     for user in page.users { … }
    /// }
    /// ```
    ///
    /// - Parameter pageSize: 1…``maximumPageSize`` users per page; other values are clamped.
    public func listUsers(pageSize: Int = maximumPageSize) -> UserPages {
        UserPages(auth: self, pageSize: min(max(pageSize, 1), Self.maximumPageSize))
    }

    /// One page of users: firebase-admin's `listUsers(maxResults, pageToken)`.
    ///
    /// - Parameters:
    ///   - pageSize: 1…``maximumPageSize``.
    ///   - pageToken: the previous page's ``ListUsersPage/nextPageToken``; nil for the first page.
    /// - Throws: ``HearthAdminError``: `.invalidArgument` for a page size out of range, `.invalidPageToken`, …
    public func listUsersPage(pageSize: Int = maximumPageSize, pageToken: String? = nil) async throws(HearthAdminError) -> ListUsersPage {
        guard (1...Self.maximumPageSize).contains(pageSize) else {
            throw HearthAdminError(.invalidArgument, message: "pageSize must be between 1 and \(Self.maximumPageSize)")
        }
        var query = [("maxResults", String(pageSize))]
        if let pageToken {
            guard !pageToken.isEmpty else { throw HearthAdminError(.invalidPageToken, message: "the page token is empty") }
            query.append(("nextPageToken", pageToken))
        }
        let reply = try await backend.get("/accounts:batchGet", query: query, as: WireReply.BatchGet.self)
        var users: [UserRecord] = []
        for wire in reply.users ?? [] { users.append(try UserRecord(wire: wire)) }
        let next = reply.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
        return ListUsersPage(users: users, nextPageToken: next)
    }
}

/// The pages of ``AdminAuth/listUsers(pageSize:)``: an `AsyncSequence` of ``ListUsersPage``.
///
/// The sequence ends after the page without a next-page token. Empty pages are skipped (so no users means no pages,
/// and the empty page Hearth may send after an exactly full last page is not yielded), and a token the server
/// repeats ends the iteration with `.unexpectedResponse` instead of looping.
public struct UserPages: AsyncSequence, Sendable {
    /// One page of users.
    public typealias Element = ListUsersPage
    /// Iteration throws only ``HearthAdminError``.
    public typealias Failure = HearthAdminError

    let auth: AdminAuth
    let pageSize: Int

    /// An iterator that starts from the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(auth: auth, pageSize: pageSize)
    }

    /// Fetches one page per step.
    public struct Iterator: AsyncIteratorProtocol {
        /// One page of users.
        public typealias Element = ListUsersPage
        /// Iteration throws only ``HearthAdminError``.
        public typealias Failure = HearthAdminError

        let auth: AdminAuth
        let pageSize: Int
        private var nextToken: String?
        private var finished = false

        init(auth: AdminAuth, pageSize: Int) {
            self.auth = auth
            self.pageSize = pageSize
        }

        /// The next page that has users, or nil after the last.
        public mutating func next() async throws(HearthAdminError) -> ListUsersPage? {
            while !finished {
                let token = nextToken
                let page = try await auth.listUsersPage(pageSize: pageSize, pageToken: token)
                if let next = page.nextPageToken {
                    guard next != token else {
                        finished = true
                        throw HearthAdminError(.unexpectedResponse, message: "Hearth sent the same page token twice")
                    }
                    nextToken = next
                } else {
                    finished = true
                }
                if !page.users.isEmpty { return page }
            }
            return nil
        }
    }
}
