import HearthConsole
import HearthCore
import HearthCrypto
import HearthHTTP
import HearthProtocol

/// Who may use the console, decided on every request: in development a visitor from loopback is let in without
/// signing in (unless sign-in is required); everyone else needs a valid session cookie of an account that is still an
/// administrator (``ConsoleSession``). Changes are POSTs that must also pass ``ConsoleCSRF``. Every console response
/// is `no-store`, may not be framed and loads nothing from elsewhere.
struct ConsoleGate: Sendable {
    let platform: IdentityPlatform
    let session: ConsoleSession
    let csrf: ConsoleCSRF
    let cookies: ConsoleCookies
    /// Development without required sign-in: loopback visitors are let in as the owner.
    let opensOnLoopback: Bool
    let development: Bool
    /// The sign-in provider's name for the sign-in page; nil when sign-in is not configured.
    let signInName: String?
    let log: @Sendable (String) -> Void

    /// A visitor who was let in.
    struct Visit {
        let viewer: ConsoleViewer
        /// Who the visitor's changes are recorded as done by: `console:<uid>`, or `owner` in open development (with
        /// no client address, as console changes have always been recorded).
        let caller: Caller
        /// The cookie the CSRF token is bound to.
        let binding: String
        /// A `Set-Cookie` to send with the answer (the open-development cookie, the first time).
        let newCookie: String?
    }

    private enum Admission {
        case visit(Visit)
        case refused(HTTPResponse)
    }

    /// A page: lets the visitor in (or answers the refusal), then renders; errors become a console page.
    func page(_ body: @escaping @Sendable (HTTPRequest, Visit) throws -> HTTPResponse) -> HTTPResponder {
        { request in
            switch admit(request, changing: false) {
            case .refused(let response): return Self.secured(response)
            case .visit(let visit):
                return Self.secured(run(request, visit) {
                    try Self.checkText(request, form: [:])
                    return try body(request, visit)
                })
            }
        }
    }

    /// A change: a POST let in like a page whose form must carry the visitor's CSRF token and come from the console's
    /// origin; `body` gets the decoded form.
    func change(_ body: @escaping @Sendable (HTTPRequest, [String: String], Visit) throws -> HTTPResponse) -> HTTPResponder {
        { request in
            switch admit(request, changing: true) {
            case .refused(let response): return Self.secured(response)
            case .visit(let visit):
                let form = Self.form(of: request)
                if let refusal = csrf.refusal(of: request, binding: visit.binding, form: form) {
                    return Self.secured(HTTPResponse.html(
                        ConsoleLayout.page(title: "Not done", viewer: visit.viewer, section: nil, body: ConsoleHTML.alert(refusal)),
                        status: 403))
                }
                return Self.secured(run(request, visit) {
                    try Self.checkText(request, form: form)
                    return try body(request, form, visit)
                })
            }
        }
    }

    private func admit(_ request: HTTPRequest, changing: Bool) -> Admission {
        if opensOnLoopback && Self.isLoopback(request.remoteAddress) {
            let existing = ConsoleCookies.value(ConsoleCookies.open, in: request)
            let binding = existing ?? SecureRandom.token()
            return .visit(Visit(
                viewer: ConsoleViewer(name: nil, csrfToken: ConsoleCSRF.token(binding: binding), development: development),
                caller: Caller(client: nil, actor: .owner), binding: binding,
                newCookie: existing == nil ? cookies.setting(ConsoleCookies.open, binding, maxAge: 86_400 * 365) : nil))
        }
        guard let signInName else {
            return .refused(HTTPResponse.html(MessagePage.message(
                title: "Console sign-in is not configured",
                text: "Set console.clientId (and console.clientSecret) to sign administrators in; docs/CONFIGURATION.md, “Admin console”.",
                again: false), status: 503))
        }
        guard let cookie = ConsoleCookies.value(ConsoleCookies.session, in: request) else {
            return .refused(signInPage(signInName, changing: changing, endedSession: false))
        }
        do {
            let account = try session.administrator(cookie: cookie)
            return .visit(Visit(
                viewer: ConsoleViewer(
                    name: account.email ?? account.localID, csrfToken: ConsoleCSRF.token(binding: cookie), development: development),
                caller: .console(uid: account.localID, client: nil), binding: cookie, newCookie: nil))
        } catch ConsoleSession.Refusal.notAdministrator {
            var response = HTTPResponse.html(Self.notAdministrator, status: 403)
            response.headers.add(name: "Set-Cookie", value: cookies.deleting(ConsoleCookies.session))
            return .refused(response)
        } catch ConsoleSession.Refusal.signedOut {
            return .refused(signInPage(signInName, changing: changing, endedSession: true))
        } catch {
            return .refused(failure(request, error, viewer: nil))
        }
    }

    /// The sign-in page (401); a change without a session is refused (403) and changes nothing.
    private func signInPage(_ name: String, changing: Bool, endedSession: Bool) -> HTTPResponse {
        let message = endedSession ? "Your console session has ended. Sign in again." : nil
        var response = changing
            ? HTTPResponse.html(MessagePage.message(title: "Not done", text: "Sign in to the console first; nothing was changed."), status: 403)
            : HTTPResponse.html(MessagePage.signIn(providerName: name, message: message), status: 401)
        if endedSession { response.headers.add(name: "Set-Cookie", value: cookies.deleting(ConsoleCookies.session)) }
        return response
    }

    static let notAdministrator = MessagePage.message(
        title: "Not an administrator",
        text: "This account may not use the Hearth console: only accounts with the custom claim \"hearthAdmin\": true may (hearth users set-claims).")

    private func run(_ request: HTTPRequest, _ visit: Visit, _ body: () throws -> HTTPResponse) -> HTTPResponse {
        var response: HTTPResponse
        do {
            response = try body()
        } catch {
            response = failure(request, error, viewer: visit.viewer)
        }
        if let cookie = visit.newCookie { response.headers.add(name: "Set-Cookie", value: cookie) }
        return response
    }

    /// A console page naming what went wrong (the wire error's message; faults are logged, never shown).
    func failure(_ request: HTTPRequest, _ error: any Error, viewer: ConsoleViewer?) -> HTTPResponse {
        let failure = WireFailure(error)
        if let fault = failure.fault {
            log("\(fault) method=\(request.method) path=\(RequestLogEntry.sanitized(request.path))")
        }
        let text = failure.wire.message
        let title = request.method == .post ? "Not done" : "Not available"
        let html = viewer.map {
            ConsoleLayout.page(title: title, viewer: $0, section: nil, body: ConsoleHTML.alert(text))
        } ?? MessagePage.message(title: title, text: text, again: false)
        return HTTPResponse.html(html, status: failure.wire.httpStatus)
    }

    /// Refuses a path or query with a control character, or a form value with NUL (which no store keeps as text):
    /// such input is answered 400 before anything is looked up or changed.
    static func checkText(_ request: HTTPRequest, form: [String: String]) throws {
        let control = { (text: String) in text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
        guard !control(request.path), !request.queryItems.contains(where: { control($0.name) || control($0.value) }),
            !form.values.contains(where: { $0.unicodeScalars.contains("\u{0}") })
        else { throw WireError(.invalidArgument, "The request holds a control character.") }
    }

    /// The fields of a form post (`application/x-www-form-urlencoded`); the first of a repeated name wins.
    static func form(of request: HTTPRequest) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in FormEncoding.decode(String(decoding: request.body, as: UTF8.self)) where fields[name] == nil {
            fields[name] = value
        }
        return fields
    }

    /// Whether the client (as the edge resolved it) is on this machine: `127.0.0.0/8` or `::1`.
    static func isLoopback(_ address: String?) -> Bool {
        guard let bytes = address.flatMap(IPAddress.init)?.bytes else { return false }
        return bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
    }

    /// The headers every console answer carries.
    static func secured(_ response: HTTPResponse) -> HTTPResponse {
        Responses.securedPage(
            response,
            contentSecurityPolicy:
                "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    }
}
