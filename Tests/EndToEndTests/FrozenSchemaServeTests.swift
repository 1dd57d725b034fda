import Foundation
import SQLite
import Testing

/// `hearth serve` on a SQLite database frozen with the schema from before scopes (Tests/Fixtures/README.md): the
/// upgraded database signs its password user in and refreshes the refresh token it held, over HTTP.
@Suite("Frozen-schema upgrade (e2e)", .blocking)
struct FrozenSchemaServeTests {
    @Test("a frozen user signs in with their password and refreshes their frozen refresh token after the upgrade")
    func frozenUserSignsInAndRefreshes() throws {
        let folder = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/frozen-before-scopes.sqlite.sql")
        do {
            let connection = try SQLiteConnection(path: folder.appendingPathComponent("hearth.sqlite").path)
            try connection.executeScript(try String(contentsOf: dump, encoding: .utf8))
        }

        let server = HearthProcess(dataDirectory: folder)
        try server.start()
        defer { _ = server.stop() }
        let signedIn = try SignedIn(try PasswordClients(server: server).iosSignIn(
            email: "alice@frozen.example", password: "frozen-password-1"))
        #expect(signedIn.localID == "frozen-alice")
        let refreshed = try FirebaseIOSClient(server: server).refresh(
            "frozenSessionAlice.frozen-secret-of-alice-0123456789abcdefghijk")
        #expect(refreshed.status == 200, "\(refreshed.text)")
        #expect(refreshed.json["user_id"] as? String == "frozen-alice")
    }
}
