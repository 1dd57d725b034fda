import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import HearthSignIn

@Suite("Session stores")
struct SessionStoreTests {
    private func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hearth-signin-\(UUID().uuidString)")
    }

    private func mode(_ path: String) throws -> mode_t {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SignInError(.unknown, "stat \(path)") }
        return info.st_mode & 0o777
    }

    private func inode(_ path: String) throws -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SignInError(.unknown, "stat \(path)") }
        return UInt64(info.st_ino)
    }

    @Test("the file is 0600 in a 0700 directory, replaced atomically, with no temporary files left")
    func fileModesAndAtomicity() throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("hearth/google-signin.json")
        let store = FileSignInSessionStore(fileURL: file)
        #expect(try store.load() == nil)

        try store.save(Data("first".utf8))
        #expect(try mode(file.path) == 0o600)
        #expect(try mode(root.appendingPathComponent("hearth").path) == 0o700)
        #expect(try mode(root.path) == 0o700)
        #expect(try store.load() == Data("first".utf8))

        // A file someone made world-readable is replaced by a new 0600 file (rename, so a new inode).
        chmod(file.path, 0o644)
        let before = try inode(file.path)
        try store.save(Data("second".utf8))
        #expect(try mode(file.path) == 0o600)
        #expect(try inode(file.path) != before)
        #expect(try store.load() == Data("second".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["google-signin.json"])

        try store.remove()
        #expect(try store.load() == nil)
        try store.remove()
    }

    @Test("an existing directory keeps its mode")
    func existingDirectory() throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let store = FileSignInSessionStore(fileURL: root.appendingPathComponent("session.json"))
        try store.save(Data("x".utf8))
        #expect(try mode(root.path) == 0o755)
        #expect(try mode(root.appendingPathComponent("session.json").path) == 0o600)
    }

    @Test("a failed write reports keychain")
    func writeFailure() throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("not a directory".utf8).write(to: root)
        let store = FileSignInSessionStore(fileURL: root.appendingPathComponent("session.json"))
        let error = #expect(throws: SignInError.self) { try store.save(Data("x".utf8)) }
        #expect(error?.code == .keychain)
    }

    @Test("the default location follows XDG_CONFIG_HOME, else ~/.config")
    func defaultLocation() {
        #expect(FileSignInSessionStore.defaultFileURL(environment: ["XDG_CONFIG_HOME": "/xdg", "HOME": "/home/jane"]).path
            == "/xdg/hearth/google-signin.json")
        #expect(FileSignInSessionStore.defaultFileURL(environment: ["HOME": "/home/jane"]).path
            == "/home/jane/.config/hearth/google-signin.json")
        #expect(FileSignInSessionStore.defaultFileURL(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/jane"]).path
            == "/home/jane/.config/hearth/google-signin.json")
    }

    @Test("a signed-in session round-trips through the file store")
    func signInWithFileStore() async throws {
        let root = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let store = FileSignInSessionStore(fileURL: root.appendingPathComponent("google-signin.json"))
        let clock = TestClock()
        let provider = TestProvider(now: clock.closure)
        let user = try await makeSignIn(provider: provider, clock: clock, browser: ScriptedBrowser(provider: provider), store: store).signIn().user
        let restored = try await makeSignIn(provider: provider, clock: clock, browser: ParkedBrowser(), store: store).restorePreviousSignIn()
        #expect(restored.session == user.session)
        let text = String(decoding: try #require(try store.load()), as: UTF8.self)
        #expect(!text.contains("client_secret") && !text.contains("clientSecret"))
    }
}
