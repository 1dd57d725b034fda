import Foundation
import HearthCrypto
import Testing

/// The documents' app and backend, as built binaries: `hearth serve --dev`, `portfolio-api` and the
/// `portfolio` terminal app, each on ephemeral ports with temporary data, driven through stdout and
/// exit statuses.
final class PortfolioStack: @unchecked Sendable {
    let hearth: HearthProcess
    let api: ServiceProcess

    init() throws {
        hearth = HearthProcess()
        try hearth.start()
        let hearthURL = hearth.baseURL
        api = ServiceProcess(
            executable: builtExecutable("portfolio-api"), readyPrefixes: ["portfolio-api is listening on http://127.0.0.1:"]
        ) { port, directory in
            ["--port", String(port), "--data-dir", directory.path, "--hearth-url", hearthURL]
        }
        try api.start()
    }

    /// A user of the terminal app, with their own saved session.
    func user() -> PortfolioUser { PortfolioUser(stack: self) }
}

struct PortfolioUser {
    let stack: PortfolioStack
    let sessionDirectory = HearthProcess.temporaryDirectory()

    @discardableResult
    func run(_ arguments: String..., apiURL: String? = nil, extraEnvironment: [String: String] = [:]) throws -> ProgramResult {
        var environment = [
            "HEARTH_URL": stack.hearth.baseURL, "PORTFOLIO_API_URL": apiURL ?? stack.api.baseURL,
            "PORTFOLIO_SESSION_DIR": sessionDirectory.path,
        ]
        environment.merge(extraEnvironment, uniquingKeysWith: { _, new in new })
        return try runProgramSplit(builtExecutable("portfolio"), arguments, environment: environment)
    }

    /// The app with its standard input on a pipe, for commands that prompt.
    func interactive(_ arguments: [String]) throws -> InteractiveProgram {
        try InteractiveProgram(
            builtExecutable("portfolio"), arguments,
            environment: [
                "HEARTH_URL": stack.hearth.baseURL, "PORTFOLIO_API_URL": stack.api.baseURL,
                "PORTFOLIO_SESSION_DIR": sessionDirectory.path,
            ])
    }

    /// The uid `whoami` prints.
    func uid() throws -> String {
        let whoami = try run("whoami")
        guard let line = whoami.stdout.split(separator: "\n").first(where: { $0.contains("uid") }) else {
            throw RawHTTP.Failure(description: "no uid in: \(whoami.stdout) \(whoami.stderr)")
        }
        return String(line.split(separator: " ").last ?? "")
    }
}

@Suite("Portfolio app and backend (e2e)", .blocking)
struct PortfolioFlowTests {
    @Test("sign-in (new, then returning), whoami, list, sign-out")
    func documentsFlow() throws {
        let stack = try PortfolioStack()
        let ada = stack.user()

        let first = try ada.run("sign-in", "--as", "ada.lovelace@example.com")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Welcome, ada.lovelace@example.com!"))
        #expect(first.stdout.contains("new user"))

        let again = try ada.run("sign-in", "--as", "ada.lovelace@example.com")
        #expect(again.status == 0)
        #expect(!again.stdout.contains("new user"))

        let whoami = try ada.run("whoami")
        #expect(whoami.status == 0)
        #expect(whoami.stdout.contains("Welcome, ada.lovelace@example.com"))
        #expect(whoami.stdout.contains("name   Ada Lovelace"))
        #expect(whoami.stdout.contains("(verified)"))

        let list = try ada.run("list")
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("Portfolios of ada.lovelace@example.com"))
        #expect(list.stdout.contains("My First Portfolio"))

        let token = try ada.run("token")
        #expect(token.status == 0)
        #expect(token.stdout.split(separator: ".").count == 3)

        let out = try ada.run("sign-out")
        #expect(out.status == 0)
        #expect(out.stdout.contains("Signed out."))
        let after = try ada.run("whoami")
        #expect(after.status == 3)
        #expect(after.stderr.contains("Not signed in. Run `portfolio sign-in` first."))
        #expect(try ada.run("list").status == 3)
    }

    @Test("interactive sign-in: the browser gets the account chooser, adds an account, and the loopback redirect finishes")
    func interactiveSignIn() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        // A scripted "browser" on PATH as xdg-open: it loads the chooser page, fills in "Add an account" and
        // submits it, then follows the redirect back to the app's loopback listener, as a person would.
        let bin = HearthProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: bin) }
        let browser = bin.appendingPathComponent("xdg-open")
        try Data(Self.scriptedBrowser.utf8).write(to: browser)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: browser.path)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try user.run(
            "sign-in", extraEnvironment: ["PATH": path, "DISPLAY": ":99", "BROWSER_TEST_EMAIL": "chooser@example.com"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("Welcome, chooser@example.com!"))
        let whoami = try user.run("whoami")
        #expect(whoami.stdout.contains("name   Chosen Person"))
    }

    static let scriptedBrowser = #"""
        #!/usr/bin/env python3
        import html, os, re, sys, urllib.parse, urllib.request
        url = sys.argv[1]
        page = urllib.request.urlopen(url).read().decode()
        form = page[page.index('id="add"'):]
        form = form[:form.index("</form>")]
        fields = {name: html.unescape(value) for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)}
        fields.update(email=os.environ["BROWSER_TEST_EMAIL"], name="Chosen Person", email_verified="true")
        action = urllib.parse.urljoin(url, "/dev/google/o/oauth2/v2/auth")
        body = urllib.parse.urlencode(fields).encode()
        print(urllib.request.urlopen(urllib.request.Request(action, body)).read().decode()[:200])
        """#

    @Test("each user sees only their own portfolios")
    func onlyMyData() throws {
        let stack = try PortfolioStack()
        let ada = stack.user()
        let grace = stack.user()
        try ada.run("sign-in", "--as", "ada@example.com")
        try grace.run("sign-in", "--as", "grace@example.com")
        let adaList = try ada.run("list").stdout
        let graceList = try grace.run("list").stdout
        let id = { (text: String) in text.split(separator: "(").last.map { String($0.dropLast(2)) } ?? "" }
        #expect(adaList.contains("Portfolios of ada@example.com"))
        #expect(graceList.contains("Portfolios of grace@example.com"))
        #expect(!id(adaList).isEmpty && id(adaList) != id(graceList))
        #expect(try ada.run("list").stdout == adaList)
    }

    @Test("a revoked session is signed out and told to sign in again")
    func revocation() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        try user.run("sign-in", "--as", "revoked@example.com")
        let uid = try user.uid()
        // Revocation compares an ID token's `iat` in whole seconds, as Firebase does: a token issued in the
        // same second as the revocation still passes. Revoke in a later second, as a real operator would.
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try stack.hearth.runCommand(["users", "revoke", uid]).status == 0)
        let list = try user.run("list")
        #expect(list.status == 5, "\(list.stdout) \(list.stderr)")
        #expect(list.stderr.contains("Sign in again"))
        #expect(try user.run("whoami").status == 3)
        #expect(try user.run("sign-in", "--as", "revoked@example.com").status == 0)
        #expect(try user.run("list").status == 0)
    }

    @Test("a disabled user is refused with a clear message")
    func disabled() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        try user.run("sign-in", "--as", "disabled@example.com")
        let uid = try user.uid()
        #expect(try stack.hearth.runCommand(["users", "disable", uid]).status == 0)
        let list = try user.run("list")
        #expect(list.status == 5)
        #expect(list.stderr.contains("disabled"))
        let signIn = try user.run("sign-in", "--as", "disabled@example.com")
        #expect(signIn.status != 0)
        #expect(signIn.stderr.contains("disabled"))
    }

    @Test("the API refuses missing, tampered and foreign tokens with 401")
    func apiRefusals() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        try user.run("sign-in", "--as", "tamper@example.com")
        let token = try user.run("token").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let good = try RawHTTP.send(port: stack.api.port, method: "GET", path: "/portfolioList", headers: [("Authorization", "Bearer \(token)")])
        #expect(good.status == 200)
        let bare = try RawHTTP.send(port: stack.api.port, method: "GET", path: "/portfolioList", headers: [("Authorization", token)])
        #expect(bare.status == 200, "the documents' app sends the bare token")

        var parts = token.split(separator: ".").map(String.init)
        var payload = JWTParts.claims(token)
        payload["sub"] = "someone-else"
        parts[1] = Base64URL.encode(try JSONSerialization.data(withJSONObject: payload))
        let tampered = parts.joined(separator: ".")
        for header in [nil, "Bearer ", "Bearer \(tampered)", "Basic dXNlcjpwYXNz", "Bearer not-a-jwt"] {
            let response = try RawHTTP.send(
                port: stack.api.port, method: "GET", path: "/portfolioList", headers: header.map { [("Authorization", $0)] } ?? [])
            #expect(response.status == 401, "\(header ?? "no header")")
            #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(response.header("WWW-Authenticate")?.contains(token) != true)
        }
    }

    @Test("an unreachable API or Hearth gets an actionable message and its own exit status")
    func unreachable() throws {
        let stack = try PortfolioStack()
        let user = stack.user()
        try user.run("sign-in", "--as", "offline@example.com")
        let closedPort = "http://127.0.0.1:1"
        let list = try user.run("list", apiURL: closedPort)
        #expect(list.status == 4)
        #expect(list.stderr.contains("Is portfolio-api running?"))
        let usage = try user.run("list", "--bogus")
        #expect(usage.status == 64)
    }
}
