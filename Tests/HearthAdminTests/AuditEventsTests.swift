import Foundation
import HearthProtocol
import Testing

@testable import HearthAdmin

@Suite("auditEvents")
struct AuditEventsTests {
    let harness = Harness()

    static let event: JSONValue = [
        "id": "1764579600123-AbCdEfGh1234", "time": "2025-12-01T09:00:00.123Z", "kind": "account_disabled",
        "localId": "uid-1", "provider": "google.com", "clientAddress": "203.0.113.9",
        "actor": "service-account:ops@demo.iam.hearth", "detail": "fields=disabled",
    ]

    @Test("a GET with the filters in the query; typed events, nil fields nil, the next page's token")
    func request() async throws {
        harness.transport.enqueue(
            "auditEvents",
            json: [
                "events": [
                    Self.event,
                    ["id": "1764579600000-zzzzzzzzzzzz", "time": "2025-12-01T09:00:00Z", "kind": "key_rotated", "actor": "system", "detail": ""],
                ],
                "nextPageToken": "1764579600000-zzzzzzzzzzzz",
            ])
        let page = try await harness.auth().auditEvents(
            uid: "uid-1", kind: "account_disabled", since: Date(timeIntervalSince1970: 1_764_579_600.123), pageSize: 2,
            pageToken: "1764579700000-a+b/cdefghijk")
        let request = try #require(harness.transport.requests.first)
        #expect(request.method == "GET" && request.body == nil)
        #expect(request.url.absoluteString == Fixture.projectBase
            + "/auditEvents?maxResults=2&uid=uid-1&kind=account_disabled&since=1764579600123&pageToken=1764579700000-a%2Bb%2Fcdefghijk")
        #expect(request.headers["Authorization"] == "Bearer owner")
        #expect(page.nextPageToken == "1764579600000-zzzzzzzzzzzz")
        #expect(page.events.count == 2)
        let first = try #require(page.events.first)
        #expect(first.id == "1764579600123-AbCdEfGh1234" && first.kind == "account_disabled" && first.uid == "uid-1")
        #expect(first.time == Date(timeIntervalSince1970: 1_764_579_600.123))
        #expect(first.provider == "google.com" && first.clientAddress == "203.0.113.9" && first.detail == "fields=disabled")
        #expect(first.actor == "service-account:ops@demo.iam.hearth")
        let project = page.events[1]
        #expect(project.uid == nil && project.provider == nil && project.clientAddress == nil && project.actor == "system")
    }

    @Test("the last page has no token; the defaults send only maxResults=100")
    func lastPage() async throws {
        harness.transport.enqueue("auditEvents", json: ["events": []])
        let page = try await harness.auth().auditEvents()
        #expect(page == AuditLogPage(events: [], nextPageToken: nil))
        #expect(harness.transport.requests.first?.url.query == "maxResults=100")
    }

    @Test("a page size outside 1…1000, a bad uid or an empty token is refused before any call; the server's errors map")
    func refusals() async {
        let auth = harness.auth()
        #expect(await adminError { try await auth.auditEvents(pageSize: 0) }?.code == .invalidArgument)
        #expect(await adminError { try await auth.auditEvents(pageSize: 1001) }?.code == .invalidArgument)
        #expect(await adminError { try await auth.auditEvents(uid: "") }?.code == .invalidUID)
        #expect(await adminError { try await auth.auditEvents(pageToken: "") }?.code == .invalidPageToken)
        #expect(harness.transport.requests.isEmpty)
        harness.transport.enqueueError("auditEvents", message: "INVALID_ARGUMENT : kind must be one of sign_in, …")
        #expect(await adminError { try await auth.auditEvents(kind: "nope") }?.code == .invalidArgument)
    }

    @Test("an event whose time is not RFC 3339 is an unexpected response")
    func badTime() async {
        var event = Self.event.objectValue ?? [:]
        event["time"] = "yesterday"
        harness.transport.enqueue("auditEvents", json: ["events": [.object(event)]])
        #expect(await adminError { try await harness.auth().auditEvents() }?.code == .unexpectedResponse)
    }
}
