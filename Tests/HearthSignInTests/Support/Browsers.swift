import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthProtocol
@testable import HearthSignIn

/// Answers of the loopback listener, as a browser saw them.
struct BrowserVisit: Sendable {
    var url: URL
    var status: Int
    var body: String
}

/// Plays the browser: records the authorization URL, then runs `script` (which usually GETs the redirect URI
/// with a code and the request's state, over a real socket).
final class ScriptedBrowser: BrowserOpener, @unchecked Sendable {
    // @unchecked: mutable state behind a lock.
    let provider: TestProvider
    let script: @Sendable (ScriptedBrowser, [String: String]) async throws -> Void
    let visits = Locked<[BrowserVisit]>([])
    let opened = Locked<[URL]>([])

    init(provider: TestProvider, script: @escaping @Sendable (ScriptedBrowser, [String: String]) async throws -> Void = ScriptedBrowser.approve) {
        self.provider = provider
        self.script = script
    }

    func open(_ url: URL) async throws {
        opened.withLock { $0.append(url) }
        let parameters = Dictionary(
            FormEncoding.decode(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "").map { ($0.name, $0.value) },
            uniquingKeysWith: { a, _ in a })
        provider.state.withLock { $0.authorization = parameters }
        try await script(self, parameters)
    }

    /// The default script: come back with a code and the right state.
    static let approve: @Sendable (ScriptedBrowser, [String: String]) async throws -> Void = { browser, parameters in
        try await browser.visit(parameters["redirect_uri"]!, ["code": "4/test-code", "state": parameters["state"]!])
    }

    /// GETs `base` with `query` like a browser following the redirect, and records the answer.
    @discardableResult
    func visit(_ base: String, _ query: [String: String], path: String? = nil) async throws -> BrowserVisit {
        var components = URLComponents(string: base)!
        if let path { components.path = path }
        components.percentEncodedQuery = query.isEmpty ? nil : FormEncoding.encode(query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        let url = components.url!
        let (data, response) = try await URLSession.shared.data(for: URLRequest(url: url))
        let visit = BrowserVisit(url: url, status: (response as! HTTPURLResponse).statusCode, body: String(decoding: data, as: UTF8.self))
        visits.withLock { $0.append(visit) }
        return visit
    }
}

extension ScriptedBrowser {
    /// POSTs `fields` as a form to `url`, as a browser submits a `form_post` page, and records the answer.
    @discardableResult
    func post(_ url: String, _ fields: [(String, String)], contentType: String = "application/x-www-form-urlencoded")
        async throws -> BrowserVisit
    {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(FormEncoding.encode(fields).utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        let visit = BrowserVisit(
            url: request.url!, status: (response as! HTTPURLResponse).statusCode, body: String(decoding: data, as: UTF8.self))
        visits.withLock { $0.append(visit) }
        return visit
    }
}

/// Records the URL and signals the test; does not come back (the test drives the redirect).
final class ParkedBrowser: BrowserOpener, @unchecked Sendable {
    let provider: TestProvider?
    private let stream: AsyncStream<URL>
    private let continuation: AsyncStream<URL>.Continuation

    init(provider: TestProvider? = nil) {
        self.provider = provider
        (stream, continuation) = AsyncStream.makeStream(of: URL.self)
    }

    func open(_ url: URL) async throws {
        let parameters = Dictionary(
            FormEncoding.decode(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "").map { ($0.name, $0.value) },
            uniquingKeysWith: { a, _ in a })
        provider?.state.withLock { $0.authorization = parameters }
        continuation.yield(url)
    }

    /// The next URL the flow opened.
    func nextURL() async -> URL {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()!
    }
}

func queryParameters(_ url: URL) -> [String: String] {
    Dictionary(
        FormEncoding.decode(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "").map { ($0.name, $0.value) },
        uniquingKeysWith: { a, _ in a })
}

/// A GoogleSignIn wired to the test provider, with an in-memory store and the test clock.
func makeSignIn(
    provider: TestProvider, clock: TestClock, browser: any BrowserOpener, store: any SignInSessionStore = InMemorySignInSessionStore(),
    configuration: SignInConfiguration? = nil, headlessBrowser: (any BrowserOpener)? = nil
) -> GoogleSignIn {
    GoogleSignIn(
        configuration: configuration ?? provider.configuration, sessionStore: store, transport: provider, browser: browser,
        headlessBrowser: headlessBrowser ?? browser, clock: clock.closure, signatureVerifier: PlatformIDTokenSignatureVerifier())
}
