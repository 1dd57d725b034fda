import Foundation
import HearthCore
import HearthHTTP
import HearthProtocol
import HearthServer
import Testing

/// Who the audit log says acted, and from where, when a change comes over HTTP: the admin routes record the
/// caller the edge accepted, the client routes the client's address.
@Suite("Audit events at the request edge")
struct AuditActorRouteTests {
    static let base = AdminEdgeTests.base
    static let v1 = "/identitytoolkit.googleapis.com/v1"

    static func events(_ store: InMemoryStore) throws -> [AuditEvent] {
        try store.read { try $0.auditEvents(AuditQuery(limit: 1_000)) }.reversed()
    }

    @Test("an admin call is recorded as the caller the edge accepted: owner, or the service account")
    func adminCaller() throws {
        let store = InMemoryStore()
        let fixture = try ServerFixture(
            store: store, adminVerifiers: [AdminEdgeTests.ServiceAccountStandIn(), DevelopmentOwnerVerifier()])
        let byOwner = fixture.postJSON(Self.base + "/accounts", #"{"localId":"by-owner"}"#, headers: AdminEdgeTests.owner)
        let byRobot = fixture.postJSON(
            Self.base + "/accounts", #"{"localId":"by-robot"}"#, headers: ["Authorization": "Bearer sa.good"])
        let update = fixture.postJSON(
            Self.base + "/accounts:update", #"{"localId":"by-owner","disableUser":true}"#,
            headers: ["Authorization": "Bearer sa.good"])
        let delete = fixture.postJSON(
            Self.base + "/accounts:delete", #"{"localId":"by-robot"}"#, headers: AdminEdgeTests.owner)
        #expect([byOwner, byRobot, update, delete].map(\.status) == [200, 200, 200, 200])
        let robot = AuditActor.serviceAccount(email: "robot@demo-hearth.iam.example")
        let recorded = try Self.events(store).map { "\($0.kind) \($0.localID ?? "-") \($0.actor)" }.sorted()
        #expect(
            recorded == [
                "account_created by-owner owner", "account_created by-robot \(robot)",
                "account_updated by-owner \(robot)", "account_disabled by-owner \(robot)",
                "account_deleted by-robot owner",
            ].sorted())
        #expect(try Self.events(store).allSatisfy { $0.clientAddress == nil })
    }

    @Test("a refused admin call records nothing")
    func refusedAdminCall() throws {
        let store = InMemoryStore()
        let fixture = try ServerFixture(store: store)
        let refused = fixture.postJSON(
            Self.base + "/accounts", #"{"localId":"nobody"}"#, headers: ["Authorization": "Bearer not-owner"])
        #expect(refused.status == 401)
        #expect(try Self.events(store).isEmpty)
    }

    @Test("client calls are recorded with the client's address (sign-up, unlink, deletion); a refresh records nothing")
    func clientAddress() throws {
        let store = InMemoryStore()
        let fixture = try ServerFixture(store: store)
        let address = "198.51.100.23"
        let signedUp = fixture.postJSON(
            Self.v1 + "/accounts:signUp?key=k", #"{"email":"ada@example.com","password":"a long passphrase"}"#,
            from: address)
        #expect(signedUp.status == 200, "\(signedUp.json)")
        let localID = try #require(signedUp.json["localId"] as? String)
        let idToken = try #require(signedUp.json["idToken"] as? String)
        let refreshToken = try #require(signedUp.json["refreshToken"] as? String)
        let renamed = fixture.postJSON(
            Self.v1 + "/accounts:update?key=k", #"{"idToken":"\#(idToken)","deleteProvider":["password"]}"#, from: address)
        #expect(renamed.status == 200, "\(renamed.json)")
        let refresh = #"{"grant_type":"refresh_token","refresh_token":"\#(refreshToken)"}"#
        // A refresh records nothing: it is the hot path.
        #expect(fixture.postJSON("/securetoken.googleapis.com/v1/token?key=k", refresh, from: address).status == 200)
        let deleted = fixture.postJSON(Self.v1 + "/accounts:delete?key=k", #"{"idToken":"\#(idToken)"}"#, from: address)
        #expect(deleted.status == 200, "\(deleted.json)")
        let recorded = try Self.events(store).map { "\($0.kind) \($0.localID ?? "-") \($0.clientAddress ?? "-") \($0.actor)" }
        #expect(
            recorded.sorted() == [
                "sign_up \(localID) \(address) user", "unlink \(localID) \(address) user",
                "account_deleted \(localID) \(address) user",
            ].sorted())
        #expect(try Self.events(store).allSatisfy { !$0.detail.contains("passphrase") && !$0.detail.contains(refreshToken) })
    }
}
