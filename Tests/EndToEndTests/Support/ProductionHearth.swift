import Foundation
import Testing

/// `hearth serve` as an operator runs it (no `--dev`), for attacks that must be tried against production rules: a
/// Google stand-in (``MockGoogle``) for `google.com`, an `oidc.partner` provider whose tokens the same stand-in signs
/// (untrusted for emails, the default), TOTP second factors, and email over SMTP to an ``SMTPSink`` on loopback.
///
/// Tests of the recent-sign-in rule shorten its window (`sessions.recentSignInSeconds`) and wait it out, rather than
/// move the server's clock: libfaketime (Debian's `faketime`) preloaded into a Swift program empties its
/// `CommandLine.arguments` (seen with libfaketime 0.9.10 and Swift 6.3), so `hearth serve` would not start.
final class ProductionHearth: @unchecked Sendable {
    // @unchecked: used by the one test that made it.
    static let apiKey = "AIzaSyAttack-web-key"
    static let projectID = "attack-project"
    static let partnerProvider = "oidc.partner"
    static let partnerClientID = "partner-client"
    static let appHost = "app.example.com"

    let google: MockGoogle
    let sink: SMTPSink
    let server: HearthProcess
    /// Seconds a sign-in counts as recent.
    let recentSignInSeconds: Int

    /// - Parameters:
    ///   - trustsPartnerEmails: whether the operator trusts `oidc.partner`'s verified emails.
    ///   - recentSignInSeconds: how long a sign-in counts as recent (Firebase's five minutes unless shortened).
    ///   - extra: config-file settings merged over the defaults.
    init(trustsPartnerEmails: Bool = false, recentSignInSeconds: Int = 300, extra: [String: Any] = [:]) throws {
        google = try MockGoogle()
        sink = try SMTPSink()
        self.recentSignInSeconds = recentSignInSeconds
        let directory = HearthProcess.temporaryDirectory()
        var settings: [String: Any] = [
            "apiKeys": [Self.apiKey], "projectId": Self.projectID,
            "oidcProviders": [
                [
                    "providerId": Self.partnerProvider, "issuer": MockGoogle.issuer, "clientIds": [Self.partnerClientID],
                    "jwksUri": google.jwksURI,
                ].merging(trustsPartnerEmails ? ["trustedForEmailVerification": true] : [:]) { _, new in new }
            ],
            "mfa": ["enabled": true, "factors": ["totp"]], "sessions": ["recentSignInSeconds": recentSignInSeconds],
            "emailActions": ["authorizedDomains": [Self.appHost]],
            "email": ["from": "Attack Test <no-reply@example.com>", "smtp": ["url": "smtp://127.0.0.1:\(sink.port)", "tls": "none"]],
        ]
        settings.merge(extra, uniquingKeysWith: { _, new in new })
        let config = try google.configFile(in: directory, extra: settings)
        server = HearthProcess(arguments: ["--config", config.path], dataDirectory: directory)
        try server.start()
    }

    /// Waits until every sign-in made so far is no longer recent (their ID tokens stay valid for their hour).
    func waitPastRecentSignIn() {
        Thread.sleep(forTimeInterval: Double(recentSignInSeconds) + 1.5)
    }

    // MARK: Client calls

    /// `POST /identitytoolkit.googleapis.com/<path>` as the web SDK sends it (`v1/accounts:…`, `v2/accounts/mfa…`).
    func call(_ path: String, _ body: [String: Any]) throws -> HTTPResult {
        try server.postJSON(
            "/identitytoolkit.googleapis.com/\(path)?key=\(Self.apiKey)", body,
            headers: [("X-Client-Version", "Chrome/JsCore/11.0.0/FirebaseCore-web"), ("Origin", "https://\(Self.appHost)")])
    }

    /// `POST …/v1/accounts:<name>`.
    func accounts(_ name: String, _ body: [String: Any]) throws -> HTTPResult { try call("v1/accounts:\(name)", body) }

    /// The web SDK's `signInWithCredential` for an ID token of `providerID` (`idToken`: linking to that user).
    func signInWithIdp(providerID: String, token: String, linking idToken: String? = nil) throws -> HTTPResult {
        var body: [String: Any] = [
            "requestUri": "http://localhost", "postBody": "id_token=\(token)&providerId=\(providerID)",
            "returnSecureToken": true, "returnIdpCredential": true,
        ]
        if let idToken { body["idToken"] = idToken }
        return try accounts("signInWithIdp", body)
    }

    /// A Google sign-in of `subject` with `email` (verified unless said), `hd` naming a hosted domain.
    func google(_ subject: String, email: String, verified: Bool = true, hd: String? = nil, linking idToken: String? = nil)
        throws -> HTTPResult
    {
        var claims = google.claims(subject: subject, email: email, emailVerified: verified)
        if let hd { claims["hd"] = hd }
        return try signInWithIdp(providerID: "google.com", token: try google.sign(claims), linking: idToken)
    }

    /// A sign-in through `oidc.partner`, an IdP that lets its users claim any address as verified.
    func partner(_ subject: String, email: String, verified: Bool = true, linking idToken: String? = nil) throws -> HTTPResult {
        var claims = google.claims(subject: subject, email: email, emailVerified: verified)
        claims["aud"] = Self.partnerClientID
        claims["azp"] = Self.partnerClientID
        return try signInWithIdp(providerID: Self.partnerProvider, token: try google.sign(claims), linking: idToken)
    }

    func signUp(_ email: String, _ password: String) throws -> HTTPResult {
        try accounts("signUp", ["email": email, "password": password, "returnSecureToken": true])
    }

    func signInWithPassword(_ email: String, _ password: String) throws -> HTTPResult {
        try accounts("signInWithPassword", ["email": email, "password": password, "returnSecureToken": true])
    }

    /// `securetoken /v1/token` with a refresh token, as the SDKs refresh.
    func refresh(_ refreshToken: String) throws -> HTTPResult {
        try server.request(
            "POST", "/securetoken.googleapis.com/v1/token?key=\(Self.apiKey)",
            headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("grant_type=refresh_token&refresh_token=\(refreshToken)".utf8))
    }

    func lookup(_ idToken: String) throws -> [String: Any] {
        (try accounts("lookup", ["idToken": idToken]).json["users"] as? [[String: Any]])?.first ?? [:]
    }

    // MARK: Email

    /// The action link of the newest email to `address`, once at least `count` have reached it: its `mode` and
    /// `oobCode`.
    func mail(to address: String, count: Int = 1) throws -> (mode: String, oobCode: String, link: String) {
        let deadline = Date().addingTimeInterval(30)
        var received = sink.messages.filter { $0.recipients.contains(address) }
        while received.count < count, Date() < deadline {
            usleep(20_000)
            received = sink.messages.filter { $0.recipients.contains(address) }
        }
        let message = try #require(received.last, "no email to \(address)")
        let text = try #require(message.text)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("http") }, "no link in \(text)")
        let url = try #require(URLComponents(string: String(line)))
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        return (try #require(query["mode"]), try #require(query["oobCode"]), String(line))
    }

    /// How many emails reached `address` so far.
    func mailCount(to address: String) -> Int { sink.messages.filter { $0.recipients.contains(address) }.count }
}

extension HTTPResult {
    /// The wire code of an error envelope (`error.message` up to its first space), "" for none.
    var wireCode: String { String((errorMessage ?? "").prefix { $0 != " " }) }
}
