import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

@Suite("Persistence")
struct PersistenceTests {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hearth-auth-tests-\(UUID().uuidString)")
    }

    static func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("FileSessionStore: directory 0700, file 0600, atomic replace, no temporary files left")
    func fileStore() throws {
        let root = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("nested/hearth")
        let store = try FileSessionStore(directory: directory)
        #expect(try Self.mode(directory) == 0o700)

        #expect(try store.load(key: "k") == nil)
        try store.save(Data("first".utf8), key: "k")
        let file = store.fileURL(forKey: "k")
        #expect(try Self.mode(file) == 0o600)
        #expect(try store.load(key: "k") == Data("first".utf8))

        // A replacement is a new file renamed over the old one: an open handle still reads the old
        // content, which an in-place rewrite would have clobbered.
        let oldHandle = try FileHandle(forReadingFrom: file)
        defer { try? oldHandle.close() }
        try store.save(Data("second, longer".utf8), key: "k")
        #expect(try oldHandle.readToEnd() == Data("first".utf8))
        #expect(try store.load(key: "k") == Data("second, longer".utf8))
        #expect(try Self.mode(file) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [file.lastPathComponent])

        try store.remove(key: "k")
        #expect(try store.load(key: "k") == nil)
        try store.remove(key: "k")  // removing nothing is fine
    }

    @Test("FileSessionStore keys become distinct, safe file names")
    func fileNames() throws {
        #expect(FileSessionStore.fileName(forKey: "hearth.auth.AIza-key_1.[DEFAULT]") == "hearth.auth.AIza-key_1.%5BDEFAULT%5D")
        #expect(FileSessionStore.fileName(forKey: "../etc/passwd") == "%2E.%2Fetc%2Fpasswd")
        #expect(FileSessionStore.fileName(forKey: "a/b") != FileSessionStore.fileName(forKey: "a_b"))
        #expect(FileSessionStore.fileName(forKey: "") == "%")

        let root = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = try FileSessionStore(directory: root)
        try store.save(Data("x".utf8), key: "../escape")
        #expect(store.fileURL(forKey: "../escape").deletingLastPathComponent().standardizedFileURL.path == root.standardizedFileURL.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["%2E.%2Fescape"])
    }

    @Test("FileSessionStore defaults to $XDG_CONFIG_HOME/hearth or ~/.config/hearth")
    func defaultDirectory() {
        let directory = FileSessionStore.defaultDirectory()
        #expect(directory.lastPathComponent == "hearth")
        if let config = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            #expect(directory.deletingLastPathComponent().standardizedFileURL.path == URL(fileURLWithPath: config).standardizedFileURL.path)
        } else {
            #expect(directory.deletingLastPathComponent().lastPathComponent == ".config")
        }
    }

    @Test("a session saved through FileSessionStore is restored by a new Auth; signOut removes it")
    func roundTrip() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = Harness(store: try FileSessionStore(directory: directory))
        let original = try await harness.signIn().user

        let file = try FileSessionStore(directory: directory).fileURL(forKey: "hearth.auth.\(Fixture.apiKey).[DEFAULT]")
        #expect(try Self.mode(file) == 0o600)
        // The refresh token is in the file, but never in descriptions.
        #expect(!"\(original)".contains("refresh-1"))

        let clock = ManualClock()
        let transport = FakeTransport()
        let restoredAuth = Auth(
            options: Fixture.options, sessionStore: try FileSessionStore(directory: directory), transport: transport,
            clock: { clock.now })
        let restored = try #require(restoredAuth.currentUser)
        #expect(restored.uid == Fixture.uid)
        #expect(restored.email == "ada@example.com")
        #expect(restored.displayName == "Ada Lovelace")
        #expect(restored.photoURL == original.photoURL)
        #expect(restored.metadata == original.metadata)
        #expect(restored.providerData.map(\.providerID) == ["google.com"])
        #expect(restored.refreshToken == "refresh-1")
        // The restored token is still fresh: no request.
        #expect(try await restored.getIDToken() == Fixture.idToken())
        #expect(transport.requests.isEmpty)
        // And it refreshes with the stored refresh token once it is not.
        clock.advance(by: 3500)
        transport.enqueue("token", json: Fixture.refreshResponse(idToken: "restored.refresh.x"))
        #expect(try await restored.getIDToken() == "restored.refresh.x")
        #expect(transport.requests(to: "token").first?.json?["refreshToken"] == "refresh-1")

        try restoredAuth.signOut()
        #expect(restoredAuth.currentUser == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let afterSignOut = Auth(options: Fixture.options, sessionStore: try FileSessionStore(directory: directory))
        #expect(afterSignOut.currentUser == nil)
    }

    @Test("sessions are kept per API key and instance name; unreadable data counts as signed out")
    func keys() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store, name: "work")
        try await harness.signIn()
        #expect(try store.load(key: "hearth.auth.\(Fixture.apiKey).work") != nil)
        #expect(Auth(options: Fixture.options, name: "home", sessionStore: store).currentUser == nil)
        #expect(Auth(options: Fixture.options, name: "work", sessionStore: store).currentUser?.uid == Fixture.uid)
        let otherKey = HearthOptions(apiKey: "other", projectID: "demo-hearth")
        #expect(Auth(options: otherKey, name: "work", sessionStore: store).currentUser == nil)

        try store.save(Data("{not json".utf8), key: "hearth.auth.\(Fixture.apiKey).broken")
        #expect(Auth(options: Fixture.options, name: "broken", sessionStore: store).currentUser == nil)
    }

    @Test("the stored session holds the profile but not a password hash the server sent")
    func noPasswordHash() async throws {
        let store = InMemorySessionStore()
        let harness = Harness(store: store)
        var lookup = Fixture.userRecord()
        if case .object(var body) = lookup, case .array(var users) = body["users"], case .object(var user) = users[0] {
            user["passwordHash"] = "c2VjcmV0LWhhc2g="
            users[0] = .object(user)
            body["users"] = .array(users)
            lookup = .object(body)
        }
        harness.transport.enqueue("verifyAssertion", json: Fixture.signInResponse())
        harness.transport.enqueue("getAccountInfo", json: lookup)
        try await harness.auth.signIn(with: Fixture.googleCredential)
        let data = try #require(try store.load(key: "hearth.auth.\(Fixture.apiKey).[DEFAULT]"))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("ada@example.com"))
        #expect(!text.contains("c2VjcmV0LWhhc2g="))
    }

    @Test("signOut: clears the user; a store that cannot remove → keychainError and the user stays")
    func signOut() async throws {
        let store = FailingSessionStore()
        let harness = Harness(store: store)
        let user = try await harness.signIn().user
        store.setFailing(true)
        let error = try #require(await authError { try harness.auth.signOut() })
        #expect(error.code == .keychainError)
        #expect(harness.auth.currentUser === user)
        store.setFailing(false)
        try harness.auth.signOut()
        #expect(harness.auth.currentUser == nil)
        try harness.auth.signOut()  // signing out twice is fine
    }

    @Test("a sign-in whose session cannot be saved fails with keychainError")
    func saveFailure() async throws {
        let store = FailingSessionStore()
        store.setFailing(true)
        let harness = Harness(store: store)
        let error = try #require(await authError { try await harness.signIn() })
        #expect(error.code == .keychainError)
        #expect(harness.auth.currentUser == nil)
    }
}
