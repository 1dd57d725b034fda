import Foundation
import HearthCore
import HearthHTTP
import HearthServer
import Testing

/// `GET …/projects/{p}/auditEvents` at the request edge: who reaches it, and how bad input is answered.
@Suite("Audit events route")
struct AuditRouteTests {
    static let path = "\(AdminEdgeTests.base)/auditEvents"

    static func insertEvent(_ fixture: ServerFixture) throws -> AuditEvent {
        let event = AuditEvent(
            id: AuditEvent.newID(atMillis: 1_700_000_000_000), atMillis: 1_700_000_000_000, kind: .accountDisabled,
            localID: "uid-1", actor: .owner, detail: "fields=disabled")
        try fixture.platform.store.write { try $0.insertAuditEvent(event) }
        return event
    }

    @Test("a service account reads the log without --dev; Bearer owner, an expired token or an API key alone do not")
    func callers() throws {
        let fixture = try ServerFixture(development: false, adminVerifiers: [AdminEdgeTests.ServiceAccountStandIn()])
        let event = try Self.insertEvent(fixture)
        let allowed = fixture.call(.get, Self.path, headers: ["Authorization": "Bearer sa.good"])
        #expect(allowed.status == 200)
        #expect((allowed.json["events"] as? [[String: Any]])?.first?["id"] as? String == event.id)
        #expect((allowed.json["events"] as? [[String: Any]])?.first?["time"] as? String == "2023-11-14T22:13:20.000Z")
        for headers: HTTPHeaders in [AdminEdgeTests.owner, ["Authorization": "Bearer sa.expired"], [:], ["x-goog-api-key": "k"]] {
            let refused = fixture.call(.get, Self.path + "?key=k", headers: headers)
            #expect(refused.status == 401, "\(headers)")
            #expect(refused.json["events"] == nil)
        }
    }

    @Test("bad parameters are a 400 INVALID_ARGUMENT, never a 500; the tenant path is refused")
    func badInput() throws {
        let fixture = try ServerFixture()
        _ = try Self.insertEvent(fixture)
        for query in [
            "maxResults=abc", "maxResults=0", "maxResults=1001", "maxResults=-1", "kind=SIGN_IN", "kind=%FF",
            "since=%FF%FE", "since=2026-13-01T00:00:00Z", "since=99999999999999999999", "uid=%00", "uid=",
            "uid=\(String(repeating: "u", count: 129))", "pageToken=!!", "pageToken=%00",
        ] {
            let response = fixture.call(.get, "\(Self.path)?\(query)", headers: AdminEdgeTests.owner)
            #expect(response.status == 400, "\(query): \(String(decoding: response.body, as: UTF8.self))")
            #expect(response.error["status"] as? String == "INVALID_ARGUMENT", "\(query)")
        }
        let tenant = fixture.call(.get, "\(AdminEdgeTests.base)/tenants/t1/auditEvents", headers: AdminEdgeTests.owner)
        #expect(tenant.status != 200)
    }
}
