public import Foundation
public import HearthProtocol

extension AdminAuth {
    /// One page of Hearth's audit log, newest first (`GET …/auditEvents`, a Hearth extension): sign-ins, account
    /// changes, lockouts and key rotations, with who acted and from where; never a secret.
    ///
    /// - Parameters:
    ///   - uid: only events of this user.
    ///   - kind: only events of this kind (`sign_in`, `account_disabled`, … as docs/CONFIGURATION.md lists them).
    ///   - since: only events at or after this time.
    ///   - pageSize: 1…1000 events.
    ///   - pageToken: the previous page's ``AuditLogPage/nextPageToken``; nil for the first page.
    /// - Throws: ``HearthAdminError``: `.invalidArgument` for a page size out of range, an unknown kind or a page token
    ///   the server did not give; `.invalidPageToken` for an empty one; any error of the call.
    public func auditEvents(
        uid: String? = nil, kind: String? = nil, since: Date? = nil, pageSize: Int = AuditEventsRequest.defaultMaxResults,
        pageToken: String? = nil
    ) async throws(HearthAdminError) -> AuditLogPage {
        guard AuditEventsRequest.maxResultsRange.contains(pageSize) else {
            throw HearthAdminError(.invalidArgument, message: "pageSize must be between 1 and 1000")
        }
        if let uid { try Self.checkUID(uid) }
        var query = [("maxResults", String(pageSize))]
        if let uid { query.append(("uid", uid)) }
        if let kind { query.append(("kind", kind)) }
        if let since { query.append(("since", String(Int64((since.timeIntervalSince1970 * 1000).rounded())))) }
        if let pageToken {
            guard !pageToken.isEmpty else { throw HearthAdminError(.invalidPageToken, message: "the page token is empty") }
            query.append(("pageToken", pageToken))
        }
        let reply = try await backend.get("/auditEvents", query: query, as: AuditEventsResponse.self)
        var events: [AuditLogEvent] = []
        for record in reply.events {
            guard let time = RFC3339.date(from: record.time) else {
                throw HearthAdminError(.unexpectedResponse, message: "an audit event's time is not RFC 3339: \(record.time)")
            }
            events.append(
                AuditLogEvent(
                    id: record.id, time: time, kind: record.kind, uid: record.localId, provider: record.provider,
                    clientAddress: record.clientAddress, actor: record.actor, detail: record.detail))
        }
        return AuditLogPage(events: events, nextPageToken: reply.nextPageToken.flatMap { $0.isEmpty ? nil : $0 })
    }
}

/// One page of ``AdminAuth/auditEvents(uid:kind:since:pageSize:pageToken:)``.
public struct AuditLogPage: Sendable, Equatable {
    /// Newest first.
    public var events: [AuditLogEvent]
    /// The token of the next page; nil when this page was not full (the last).
    public var nextPageToken: String?
}

/// One event of Hearth's audit log.
public struct AuditLogEvent: Sendable, Equatable {
    /// Time-ordered; unique.
    public var id: String
    public var time: Date
    /// `sign_in`, `sign_in_failed`, `account_disabled`, `key_rotated`, …
    public var kind: String
    /// The user the event concerns; nil for project events (key rotations, lockouts of a client).
    public var uid: String?
    /// The provider (`google.com`, `password`) or second factor (`phone`, `totp`) involved, if any.
    public var provider: String?
    /// The client's address, when the event came from a request.
    public var clientAddress: String?
    /// Who acted: `user`, `owner`, `command-line`, `system`, `service-account:<email>` or `console:<uid>`.
    public var actor: String
    /// A short fact for people (`fields=disabled`, `code=INVALID_PASSWORD`); never a secret.
    public var detail: String
}
