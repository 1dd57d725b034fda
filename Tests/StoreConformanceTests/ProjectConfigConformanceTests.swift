import Foundation
import HearthCore
import Testing

/// The configuration set through the config API, proved on each `StoreKind`: absent until put, one record per scope
/// (a tenant's view keeps its own), a put replaces the record, and a write that throws leaves the previous one.
@Suite("Store conformance: project configuration")
struct ProjectConfigConformanceTests {
    @Test("absent until put; a put replaces it; each scope has its own", arguments: StoreKind.allCases)
    func putAndReplace(kind: StoreKind) throws {
        try withStore(kind) { store throws in
            #expect(try store.read { try $0.projectConfig() } == nil)
            let first = ProjectConfigRecord(settings: #"{"signIn":{"anonymous":{"enabled":false}}}"#, updatedAtMillis: 10)
            try store.write { try $0.putProjectConfig(first) }
            #expect(try store.read { try $0.projectConfig() } == first)
            let tenant = store.scoped(to: try .tenant("t-1"))
            #expect(try tenant.read { try $0.projectConfig() } == nil, "a tenant does not see the project's")
            let second = ProjectConfigRecord(settings: #"{"authorizedDomains":["app.example.com"]}"#, updatedAtMillis: 20)
            try store.write { try $0.putProjectConfig(second) }
            #expect(try store.read { try $0.projectConfig() } == second)
            let tenants = ProjectConfigRecord(settings: "{}", updatedAtMillis: 30)
            try tenant.write { try $0.putProjectConfig(tenants) }
            #expect(try tenant.read { try $0.projectConfig() } == tenants)
            #expect(try store.read { try $0.projectConfig() } == second)
        }
    }

    @Test("a write that throws after a put leaves the configuration it had", arguments: StoreKind.allCases)
    func rollback(kind: StoreKind) throws {
        struct Abort: Error {}
        try withStore(kind) { store throws in
            let kept = ProjectConfigRecord(settings: "{}", updatedAtMillis: 1)
            try store.write { try $0.putProjectConfig(kept) }
            #expect(throws: Abort.self) {
                try store.write { writer throws in
                    try writer.putProjectConfig(ProjectConfigRecord(settings: #"{"mfa":{}}"#, updatedAtMillis: 2))
                    throw Abort()
                }
            }
            #expect(try store.read { try $0.projectConfig() } == kept)
        }
    }
}
