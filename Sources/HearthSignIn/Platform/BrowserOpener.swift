public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HearthProtocol

/// Shows the authorization URL to the user: the external user agent of RFC 8252 §6.
///
/// `open` should return once the URL is handed over; the redirect arrives separately (at the loopback listener, or
/// through ``GoogleSignIn/handle(_:)``).
public protocol BrowserOpener: Sendable {
    func open(_ url: URL) async throws
}

/// Opens the URL in the user's default browser: `xdg-open` on Linux, `open` on macOS.
///
/// When that is not possible (no `DISPLAY`/`WAYLAND_DISPLAY` on Linux, as over SSH; the launcher is missing or
/// exits with an error; other platforms) it prints `Open this URL to sign in: …` to standard error instead, so
/// the user can open it by hand.
public struct SystemBrowserOpener: BrowserOpener {
    public init() {}

    public func open(_ url: URL) async throws {
        #if os(Linux) || os(macOS) || os(FreeBSD) || os(OpenBSD)
        #if os(macOS)
        let launcher = ["/usr/bin/open", url.absoluteString]
        #else
        let environment = ProcessInfo.processInfo.environment
        guard !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty else {
            PrintingBrowserOpener.show(url)
            return
        }
        let launcher = ["/usr/bin/env", "xdg-open", url.absoluteString]
        #endif
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher[0])
        process.arguments = Array(launcher.dropFirst())
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Do not wait for the launcher: some (text browsers, a browser that was not running) stay in the
        // foreground. Fall back to printing if it turns out to have failed.
        process.terminationHandler = { finished in
            if finished.terminationStatus != 0 { PrintingBrowserOpener.show(url) }
        }
        do {
            try process.run()
        } catch {
            PrintingBrowserOpener.show(url)
        }
        #else
        PrintingBrowserOpener.show(url)
        #endif
    }
}

/// Prints `Open this URL to sign in: <url>` to standard error and does nothing else; for terminals without a
/// browser.
public struct PrintingBrowserOpener: BrowserOpener {
    public init() {}

    public func open(_ url: URL) async throws {
        Self.show(url)
    }

    static func show(_ url: URL) {
        FileHandle.standardError.write(Data("Open this URL to sign in: \(url.absoluteString)\n".utf8))
    }
}

/// Fetches the URL with `URLSession` and follows its redirects, like a browser that nobody looks at.
///
/// With `login_hint` and `prompt=none` Hearth's dev IdP redirects straight back with a code, so the chain ends at
/// the loopback listener and the flow completes without a browser: for tests, demos and CI. Real Google always
/// needs a person, so this opener is only useful against the dev IdP.
///
/// A `form_post` response (Sign in with Apple) arrives as a page whose form posts itself to the redirect URI. When a
/// 2xx HTML page holds such a form (method post, an action, only hidden inputs), this opener submits it as a
/// browser running the page's script would, up to ``maximumFormPosts`` times. For Hearth's dev Apple with a
/// `login_hint`; real Apple needs a person and an HTTPS redirect.
///
/// - Throws: ``SignInError`` `.unknown` when the chain ends with a status other than 2xx (for example the IdP's error
///   page for an unregistered redirect URI).
public struct HeadlessBrowserOpener: BrowserOpener {
    /// How many self-submitting forms one `open` submits at most (a guard against pages that post to each other).
    public static let maximumFormPosts = 3

    private let session: URLSession

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        self.session = URLSession(configuration: configuration)
    }

    public func open(_ url: URL) async throws {
        var request = URLRequest(url: url)
        request.setValue("text/html", forHTTPHeaderField: "Accept")
        for _ in 0...Self.maximumFormPosts {
            let (body, response) = try await fetch(request)
            guard let form = Self.selfPostingForm(body, response) else { return }
            request = URLRequest(url: form.action)
            request.httpMethod = "POST"
            request.setValue("text/html", forHTTPHeaderField: "Accept")
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(FormEncoding.encode(form.fields.map { ($0.name, $0.value) }).utf8)
        }
        throw SignInError(.unknown, "headless sign-in: more than \(Self.maximumFormPosts) pages posted a form")
    }

    /// One request, its redirects followed; fails unless the final status is 2xx.
    private func fetch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse?) {
        let body: Data
        let response: URLResponse
        do {
            (body, response) = try await session.data(for: request)
        } catch let error as URLError where error.code == .cancelled {
            throw SignInError.canceled
        } catch is CancellationError {
            throw SignInError.canceled
        } catch {
            throw SignInError(.unknown, "headless sign-in: the request failed: \(error.localizedDescription)")
        }
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            let place = response.url.map(Self.withoutQuery) ?? request.url.map(Self.withoutQuery) ?? "the server"
            throw SignInError(.unknown, "headless sign-in: \(place) answered HTTP \(status) instead of redirecting back")
        }
        return (body, http)
    }

    /// The page's self-submitting form, when the answer is HTML that has one.
    private static func selfPostingForm(_ body: Data, _ response: HTTPURLResponse?) -> SelfPostingForm? {
        guard let response, let pageURL = response.url,
            response.value(forHTTPHeaderField: "Content-Type")?.lowercased().hasPrefix("text/html") == true
        else { return nil }
        return SelfPostingForm(html: String(decoding: body, as: UTF8.self), pageURL: pageURL)
    }

    /// The URL without its query, which can hold a code.
    private static func withoutQuery(_ url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.fragment = nil
        return components?.string ?? "the server"
    }
}
