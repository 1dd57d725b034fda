import Foundation
import HearthCore
import HearthHTTP
import HearthProtocol
import Synchronization
import Testing
@testable import HearthServer

/// What the dev providers' endpoints answer when the fault is the server's: never a bare 500 for a store that is
/// only unavailable (a database failing over), and nothing of the error's detail.
@Suite("Dev providers: server failures")
struct DevProviderFailureTests {
    private func answer(_ error: any Error) throws -> (status: Int, body: [String: JSONValue], logged: [String]) {
        let logged = Mutex<[String]>([])
        let response = DevIdPRoutes.oauth(log: { line in logged.withLock { $0.append(line) } }) { throw error }
        let body = try #require(try JSONValue(parsing: Data(response.body)).objectValue)
        return (response.status, body, logged.withLock { $0 })
    }

    @Test("an unavailable store is 503 temporarily_unavailable; anything else 500 server_error; both logged by code only")
    func oauthEndpoints() throws {
        let unavailable = try answer(StoreError(.unavailable, "connection to 10.0.0.5 refused: secret-host"))
        #expect(unavailable.status == 503)
        #expect(unavailable.body["error"] == "temporarily_unavailable")
        #expect(unavailable.logged.count == 1)
        #expect(unavailable.body.description.contains("secret-host") == false)

        struct Bug: Error {}
        let bug = try answer(Bug())
        #expect(bug.status == 500)
        #expect(bug.body["error"] == "server_error")
        #expect(bug.logged == ["error=internal type=Bug in=devidp"])
    }
}
