import Foundation
import HearthProtocol
import Testing

@testable import HearthAuth

@Suite("Configuration")
struct ConfigurationTests {
    func writePlist(_ dictionary: [String: Any], format: PropertyListSerialization.PropertyListFormat = .xml) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-plist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("GoogleService-Info.plist")
        try PropertyListSerialization.data(fromPropertyList: dictionary, format: format, options: 0).write(to: url)
        return url
    }

    @Test("HearthOptions reads a GoogleService-Info.plist")
    func plist() throws {
        let url = try writePlist([
            "API_KEY": "AIzaSyPlist", "PROJECT_ID": "demo-plist", "CLIENT_ID": "123-abc.apps.googleusercontent.com",
            "REVERSED_CLIENT_ID": "com.googleusercontent.apps.123-abc", "GOOGLE_APP_ID": "1:123:ios:abc",
            "IS_SIGNIN_ENABLED": true,
        ])
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let options = try HearthOptions(contentsOf: url)
        #expect(
            options
                == HearthOptions(
                    apiKey: "AIzaSyPlist", projectID: "demo-plist", clientID: "123-abc.apps.googleusercontent.com",
                    reversedClientID: "com.googleusercontent.apps.123-abc"))

        let binary = try writePlist(["API_KEY": "k", "PROJECT_ID": "p"], format: .binary)
        defer { try? FileManager.default.removeItem(at: binary.deletingLastPathComponent()) }
        #expect(try HearthOptions(contentsOf: binary) == HearthOptions(apiKey: "k", projectID: "p"))
    }

    @Test("a missing or empty required key is a clear error", arguments: ["API_KEY", "PROJECT_ID"])
    func missingKey(key: String) throws {
        var dictionary: [String: Any] = ["API_KEY": "k", "PROJECT_ID": "p", "CLIENT_ID": "c"]
        dictionary.removeValue(forKey: key)
        let url = try writePlist(dictionary)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(throws: HearthOptionsError.missingKey(key, path: url.path)) { try HearthOptions(contentsOf: url) }
        do {
            _ = try HearthOptions(contentsOf: url)
        } catch {
            #expect("\(error)".contains(key))
        }

        dictionary[key] = ""
        let empty = try writePlist(dictionary)
        defer { try? FileManager.default.removeItem(at: empty.deletingLastPathComponent()) }
        #expect(throws: HearthOptionsError.missingKey(key, path: empty.path)) { try HearthOptions(contentsOf: empty) }
    }

    @Test("a file that is not a plist dictionary, or no file, is an error")
    func badFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-plist-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("notes.plist")
        try Data("just text".utf8).write(to: text)
        #expect(throws: HearthOptionsError.notADictionary(path: text.path)) { try HearthOptions(contentsOf: text) }
        let missing = directory.appendingPathComponent("absent.plist")
        #expect(throws: HearthOptionsError.self) { try HearthOptions(contentsOf: missing) }
    }

    @Test("named instances are created once and returned as is")
    func namedInstances() {
        let name = "named-\(UUID().uuidString)"
        let first = Auth.auth(name: name, options: Fixture.options, sessionStore: InMemorySessionStore(), transport: FakeTransport())
        let second = Auth.auth(
            name: name, options: HearthOptions(apiKey: "other", projectID: "other"), sessionStore: InMemorySessionStore())
        #expect(first === second)
        #expect(second.options == Fixture.options)
        #expect(first.name == name)
    }

    @Test("Auth.configure creates the default instance that Auth.auth() returns")
    func defaultInstance() {
        // The only test that touches the process-wide default instance.
        Auth.configure(options: Fixture.options, sessionStore: InMemorySessionStore(), transport: FakeTransport())
        #expect(Auth.auth() === Auth.auth())
        #expect(Auth.auth().name == "[DEFAULT]")
        #expect(Auth.auth().options == Fixture.options)
        #expect(Auth.auth(name: "[DEFAULT]", options: HearthOptions(apiKey: "x", projectID: "y")) === Auth.auth())
    }
}
