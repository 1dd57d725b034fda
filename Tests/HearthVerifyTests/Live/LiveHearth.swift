import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthCrypto
import Synchronization

/// A real `hearth serve --dev` on an ephemeral port with a temporary data directory, plus the HTTP calls a client
/// makes to get an ID token from it.
final class LiveHearth: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The `hearth` binary: `HEARTH_BINARY`, or `.build/debug/hearth` (then release) of the package these tests
    /// belong to (symlinks resolved, so a package that links these sources finds the original checkout's build).
    static let binary: URL? = {
        if let path = ProcessInfo.processInfo.environment["HEARTH_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let here = URL(fileURLWithPath: #filePath)
        var roots = [here.resolvingSymlinksInPath()]
        if roots[0] != here { roots.append(here) }
        for file in roots {
            // …/Tests/HearthVerifyTests/Live/LiveHearth.swift → package root
            let root = file.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            for configuration in ["debug", "release"] {
                let candidate = root.appendingPathComponent(".build/\(configuration)/hearth")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }()

    static var isAvailable: Bool { binary != nil }

    let dataDirectory: URL
    let port: Int
    private let process: Process

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts the server and waits (up to 60 s) for its banner.
    init(arguments: [String] = []) throws {
        guard let binary = Self.binary else { throw Failure(description: "no hearth binary") }
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("hearthverify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--dev", "--port", "0", "--data-dir", dataDirectory.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        self.process = process

        // Read lines until the banner names the port (or the process exits).
        let prefix = "Hearth is listening on http://127.0.0.1:"
        let found = Mutex<Int?>(nil)
        let output = Mutex("")
        let ready = DispatchSemaphore(value: 0)
        Thread {
            let handle = pipe.fileHandleForReading
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                let text = String(decoding: buffer, as: UTF8.self)
                output.withLock { $0 = text }
                if found.withLock({ $0 }) == nil, let range = text.range(of: prefix) {
                    let digits = text[range.upperBound...].prefix(while: \.isNumber)
                    if let port = Int(digits), text[range.upperBound...].dropFirst(digits.count).first != nil {
                        found.withLock { $0 = port }
                        ready.signal()
                    }
                }
            }
            ready.signal()
        }.start()
        _ = ready.wait(timeout: .now() + 60)
        guard let port = found.withLock({ $0 }) else {
            process.terminate()
            throw Failure(description: "hearth did not start: " + output.withLock { $0 })
        }
        self.port = port
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// Runs `hearth users <action> <uid>` against this server's data directory.
    func users(_ action: String, _ uid: String) throws {
        try run(["users", action, uid, "--data-dir", dataDirectory.path])
    }

    /// Runs `hearth keys rotate` against this server's data directory.
    func rotateKeys() throws {
        try run(["keys", "rotate", "--data-dir", dataDirectory.path])
    }

    private func run(_ arguments: [String]) throws {
        let command = Process()
        command.executableURL = Self.binary
        command.arguments = arguments
        command.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") }
        let pipe = Pipe()
        command.standardOutput = pipe
        command.standardError = pipe
        try command.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        command.waitUntilExit()
        guard command.terminationStatus == 0 else {
            throw Failure(description: "hearth \(arguments.prefix(2).joined(separator: " ")) failed: \(String(decoding: output, as: UTF8.self))")
        }
    }

    /// Signs `email` in through the dev Google IdP and Hearth, as an app would: authorization request with PKCE
    /// (headless), code exchange, then `verifyAssertion`. Returns Hearth's ID token and the uid.
    func signIn(email: String) throws -> (idToken: String, uid: String) {
        let clientID = "hearth-dev.apps.googleusercontent.com"
        let redirectURI = "http://127.0.0.1:1/oauth2callback"
        let verifier = SecureRandom.token()
        let challenge = Base64URL.encode(SHA256.hash(verifier))
        let query = form([
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI), ("scope", "email profile"),
            ("state", "s"), ("code_challenge", challenge), ("code_challenge_method", "S256"), ("login_hint", email),
            ("prompt", "none"),
        ])
        let authorization = try send(URLRequest(url: URL(string: "\(url.absoluteString)/dev/google/o/oauth2/v2/auth?\(query)")!))
        guard authorization.status == 302, let location = authorization.location,
            let code = URLComponents(string: location)?.queryItems?.first(where: { $0.name == "code" })?.value
        else { throw Failure(description: "no authorization code: HTTP \(authorization.status)") }

        var exchange = URLRequest(url: URL(string: "\(url.absoluteString)/dev/google/token")!)
        exchange.httpMethod = "POST"
        exchange.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        exchange.httpBody = Data(form([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("client_id", clientID),
            ("code_verifier", verifier),
        ]).utf8)
        let google = try send(exchange)
        guard google.status == 200, let googleToken = try JSONSerialization.jsonObject(with: google.body) as? [String: Any],
            let googleIDToken = googleToken["id_token"] as? String
        else { throw Failure(description: "token exchange failed: HTTP \(google.status)") }

        var assertion = URLRequest(
            url: URL(string: "\(url.absoluteString)/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion?key=k")!)
        assertion.httpMethod = "POST"
        assertion.setValue("application/json", forHTTPHeaderField: "Content-Type")
        assertion.httpBody = try JSONSerialization.data(withJSONObject: [
            "requestUri": "http://localhost", "postBody": "providerId=google.com&id_token=\(googleIDToken)",
            "returnSecureToken": true,
        ])
        let session = try send(assertion)
        guard session.status == 200, let json = try JSONSerialization.jsonObject(with: session.body) as? [String: Any],
            let idToken = json["idToken"] as? String, let uid = json["localId"] as? String
        else { throw Failure(description: "verifyAssertion failed: HTTP \(session.status)") }
        return (idToken, uid)
    }

    /// The number of keys the server's JWKS publishes.
    func publishedKeyCount() throws -> Int {
        let answer = try send(URLRequest(url: url.appendingPathComponent(".well-known/jwks.json")))
        let json = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        return (json?["keys"] as? [Any])?.count ?? 0
    }

    private func form(_ fields: [(String, String)]) -> String {
        var components = URLComponents()
        components.queryItems = fields.map { URLQueryItem(name: $0.0, value: $0.1) }
        return (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }

    private struct Answer {
        var status: Int
        var location: String?
        var body: Data
    }

    /// Sends without following redirects.
    private func send(_ request: URLRequest) throws -> Answer {
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let result = Mutex<Result<Answer, Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            if let response = response as? HTTPURLResponse {
                let answer = Answer(
                    status: response.statusCode, location: response.value(forHTTPHeaderField: "Location"), body: data ?? Data())
                result.withLock { $0 = .success(answer) }
            } else {
                result.withLock { $0 = .failure(Failure(description: "request failed: \(String(describing: error))")) }
            }
            done.signal()
        }.resume()
        done.wait()
        return try result.withLock { $0 }!.get()
    }

    private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }
}

/// Waits until the wall clock is past `date` (Hearth compares `iat` and `validSince` in whole seconds).
func sleepUntil(after date: Date) {
    let wait = date.timeIntervalSinceNow
    if wait > 0 { usleep(UInt32((wait + 0.05) * 1_000_000)) }
}
