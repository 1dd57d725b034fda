import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthProtocol
import JOSE
import Testing
@testable import HearthSignIn

/// The `hearth` binary: `$HEARTH_BINARY`, else the main package's debug build.
enum HearthBinary {
    static var path: String {
        if let path = ProcessInfo.processInfo.environment["HEARTH_BINARY"], !path.isEmpty { return path }
        // Tests/HearthSignInTests/<this file> → the package root. Symlinked checkouts resolve to /work/main.
        let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidate = root.appendingPathComponent(".build/debug/hearth").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : "/work/main/.build/debug/hearth"
    }

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }
}

/// `hearth serve --dev --port 0` in a temporary data directory, stopped on deinit.
final class DevServer: @unchecked Sendable {
    // @unchecked: `process` is set once in init and only read afterwards.
    let process = Process()
    let dataDirectory: URL
    let port: Int

    init() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-signin-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: HearthBinary.path)
        process.arguments = ["serve", "--dev", "--port", "0", "--data-dir", dataDirectory.path]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Read until the banner names the port (or the output ends).
        var text = ""
        var found: Int?
        while found == nil {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: "Hearth is listening on http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix(while: \.isNumber)
                if text[range.upperBound...].dropFirst(digits.count).first != nil { found = Int(digits) }
            }
        }
        guard let found else {
            process.terminate()
            throw SignInError(.unknown, "hearth did not start:\n\(text)")
        }
        port = found
        // Keep draining the output so the server never blocks on a full pipe. A plain thread, not
        // `readabilityHandler`, whose dispatch source can outlive the descriptor on Linux.
        let reader = output.fileHandleForReading
        Thread { while !reader.availableData.isEmpty {} }.start()
    }

    var issuer: URL { URL(string: "http://127.0.0.1:\(port)/dev/google")! }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: dataDirectory)
    }
}

/// Sends through URLSession, and at the first token request sets the test clock back to real time (see the test).
struct ClockResettingTransport: SignInTransport {
    let inner = URLSessionSignInTransport()
    let offset: Locked<TimeInterval>

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        if request.url?.path.hasSuffix("/token") == true { offset.withLock { $0 = 0 } }
        return try await inner.send(request)
    }
}

@Suite("Live: hearth serve --dev", .serialized)
struct LiveDevIdPTests {
    @Test(
        "headless sign-in, refresh after forced expiry, disconnect",
        .enabled(if: HearthBinary.isAvailable, "needs the hearth binary (HEARTH_BINARY or .build/debug/hearth)"))
    func endToEnd() async throws {
        // On a thread of its own: the dev IdP's code must reach its token endpoint within five minutes, however
        // busy the rest of the run keeps the shared pool (CI once took six).
        try await withTaskExecutorPreference(DedicatedThreadExecutor.shared) { try await signInRefreshDisconnect() }
    }

    private func signInRefreshDisconnect() async throws {
        let server = try DevServer()
        let offset = Locked<TimeInterval>(0)
        let clock: @Sendable () -> Date = { Date().addingTimeInterval(offset.current) }
        let store = InMemorySignInSessionStore()
        let configuration = SignInConfiguration(clientID: "hearth-dev.apps.googleusercontent.com", issuer: server.issuer)
        let signIn = GoogleSignIn(
            configuration: configuration, sessionStore: store, transport: ClockResettingTransport(offset: offset),
            browser: ParkedBrowser(), clock: clock)

        // 1. Headless sign-in: the dev IdP redirects straight to the loopback listener.
        let email = "live.tester@example.com"
        let result = try await signIn.signIn(hint: email, nonce: "live-nonce-0123456789abcdef", headless: true, timeout: .seconds(60))
        let user = result.user
        #expect(user.profile?.email == email)
        #expect(user.profile?.name == "Live Tester")
        let userID = try #require(user.userID)
        #expect(userID.count == 21)
        #expect(user.grantedScopes?.contains("openid") == true)
        #expect(signIn.currentUser === user)
        #expect(signIn.hasPreviousSignIn())

        // The ID token verifies independently against the dev IdP's published keys.
        let idToken = try #require(user.idToken?.tokenString)
        let (jwksData, _) = try await URLSession.shared.data(from: server.issuer.appendingPathComponent("oauth2/v3/certs"))
        let verified = try JWTKeySet(jwks: try JSONDecoder().decode(JSONWebKeySet.self, from: jwksData)).verify(idToken)
        let claims = try #require(try JSONValue(parsing: verified.payload).objectValue)
        #expect(claims["iss"]?.stringValue == server.issuer.absoluteString)
        #expect(claims["aud"]?.stringValue == configuration.clientID)
        #expect(claims["nonce"]?.stringValue == "live-nonce-0123456789abcdef")
        #expect(claims["sub"]?.stringValue == userID)
        #expect(try await userInfoStatus(server, user.accessToken.tokenString) == 200)

        // 2. Force expiry through the injected clock. The dev IdP stamps iat/exp with real time, so the transport
        //    puts the clock back to real time when the refresh request goes out, and the new ID token verifies.
        let firstAccessToken = user.accessToken.tokenString
        try await user.refreshTokensIfNeeded()
        #expect(user.accessToken.tokenString == firstAccessToken, "fresh tokens: no refresh")
        offset.withLock { $0 = 3600 }
        try await user.refreshTokensIfNeeded()
        let secondAccessToken = user.accessToken.tokenString
        #expect(secondAccessToken != firstAccessToken)
        #expect(user.userID == userID)
        #expect(try await userInfoStatus(server, secondAccessToken) == 200)
        let stored = try #require(try store.load())
        #expect(SessionState.decode(stored)?.accessToken == secondAccessToken)

        // 3. Restore from the store in a new instance: no network needed.
        let restored = try await GoogleSignIn(
            configuration: configuration, sessionStore: store, transport: URLSessionSignInTransport(), browser: ParkedBrowser()
        ).restorePreviousSignIn()
        #expect(restored.accessToken.tokenString == secondAccessToken)

        // 4. Disconnect: revoked at the dev IdP, signed out locally; the old tokens are refused.
        try await signIn.disconnect()
        #expect(signIn.currentUser == nil)
        #expect(!signIn.hasPreviousSignIn())
        #expect(try await userInfoStatus(server, secondAccessToken) == 401)
        #expect(try await userInfoStatus(server, firstAccessToken) == 401)
    }

    @Test("the dev IdP's error page for an unknown client ends a headless sign-in at once",
          .enabled(if: HearthBinary.isAvailable, "needs the hearth binary (HEARTH_BINARY or .build/debug/hearth)"))
    func unknownClient() async throws {
        let server = try DevServer()
        let signIn = GoogleSignIn(
            configuration: SignInConfiguration(clientID: "unknown.apps.googleusercontent.com", issuer: server.issuer),
            sessionStore: InMemorySignInSessionStore(), browser: ParkedBrowser())
        let error = await #expect(throws: SignInError.self) {
            try await withTaskExecutorPreference(DedicatedThreadExecutor.shared) {
                _ = try await signIn.signIn(hint: "x@example.com", headless: true, timeout: .seconds(60))
            }
        }
        #expect(error?.message.contains("HTTP 400") == true)
    }

    private func userInfoStatus(_ server: DevServer, _ accessToken: String) async throws -> Int {
        var request = URLRequest(url: server.issuer.appendingPathComponent("oauth2/v3/userinfo"))
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as! HTTPURLResponse).statusCode
    }
}
