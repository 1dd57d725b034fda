import Foundation
import HearthCore
import HearthSQLite
import Testing

/// The audit events the built `hearth serve --dev` writes to its SQLite database: an admin call recorded as the
/// caller the edge accepted, a client call with the client's address.
@Suite("Audit events (e2e)", .blocking)
struct AuditEventsTests {
    @Test("an admin call with Bearer owner is recorded as owner; a client sign-up with its address")
    func ownerAndClient() throws {
        let server = HearthProcess()
        try server.start()
        let created = try FirebaseAdminClient(server: server).post("/accounts", #"{"localId": "audited-1"}"#)
        #expect(created.status == 200, "\(created.text)")
        let guest = try FirebaseIOSClient(server: server).signUpAnonymously()
        #expect(guest.status == 200, "\(guest.text)")
        let guestID = try #require(guest.json["localId"] as? String)
        #expect(server.stop() == 0)

        let store = try SQLiteStore(path: server.dataDirectory.appendingPathComponent("hearth.sqlite").path)
        defer { store.close() }
        let events = try store.read { try $0.auditEvents(AuditQuery(limit: 100)) }
        let recorded = events.map { "\($0.kind) \($0.localID ?? "-") \($0.provider ?? "-") \($0.clientAddress ?? "-") \($0.actor)" }
        #expect(recorded.sorted() == ["account_created audited-1 - - owner", "sign_up \(guestID) anonymous 127.0.0.1 user"])
    }
}
