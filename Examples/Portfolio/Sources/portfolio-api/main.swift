import Foundation
import HearthAdmin
import HearthCommandLine
import HearthHTTP
import HearthVerify

// portfolio-api: the documents' backend. Settings from flags or the same-named environment variables:
//   --port N (PORTFOLIO_API_PORT, default 8088; 0 = any free port)   --data-dir DIR (PORTFOLIO_DATA_DIR, default ./.portfolio)
//   --hearth-url URL (HEARTH_URL, default http://127.0.0.1:9099)     --project-id ID (HEARTH_PROJECT_ID, default demo-hearth)
//   --api-key KEY (HEARTH_API_KEY, default portfolio-api): used to ask Hearth whether a session was revoked
//   --no-revocation-check: trust valid signatures without asking Hearth
//   --admin-credential FILE (HEARTH_ADMIN_CREDENTIAL): a service-account key file (`hearth service-accounts create`)
//     for GET /admin/users; without it the admin API is called as `owner`, which only `hearth serve --dev` accepts
// Exit status: 0 after SIGINT/SIGTERM, 64 for usage errors, 1 when it cannot start.

let usage = """
    Usage: portfolio-api [--port N] [--data-dir DIR] [--hearth-url URL] [--project-id ID] [--api-key KEY]
                         [--admin-credential FILE] [--no-revocation-check]

    Serves GET /portfolioList for the caller of a Hearth ID token (Authorization: Bearer <token>), and
    GET /admin/users (every user and their portfolios) for callers whose token has the claim admin: true.
    Each flag may also be given as an environment variable: PORTFOLIO_API_PORT, PORTFOLIO_DATA_DIR, HEARTH_URL,
    HEARTH_PROJECT_ID, HEARTH_API_KEY, HEARTH_ADMIN_CREDENTIAL.
    """

func printLine(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

do {
    let options = try ParsedOptions(
        Array(CommandLine.arguments.dropFirst()),
        valued: ["port", "data-dir", "hearth-url", "project-id", "api-key", "admin-credential"], switches: ["no-revocation-check", "help"])
    if options.flags.contains("help") {
        printLine(usage)
        exit(0)
    }
    let environment = ProcessInfo.processInfo.environment
    let settings = OptionValues(options: options, environment: environment)
    guard let port = UInt16(settings["port", "PORTFOLIO_API_PORT", default: "8088"]) else {
        throw UsageError("--port must be a port number")
    }
    let hearthText = settings["hearth-url", "HEARTH_URL", default: "http://127.0.0.1:9099"]
    guard let hearthURL = URL(string: hearthText), hearthURL.scheme == "http" || hearthURL.scheme == "https" else {
        throw UsageError("--hearth-url must be an http(s) URL")
    }
    let projectID = settings["project-id", "HEARTH_PROJECT_ID", default: "demo-hearth"]
    let apiKey = settings["api-key", "HEARTH_API_KEY", default: "portfolio-api"]
    let dataDirectory = settings["data-dir", "PORTFOLIO_DATA_DIR", default: "./.portfolio"]
    let credentialPath = settings["admin-credential", "HEARTH_ADMIN_CREDENTIAL", default: ""]
    let credential: AdminCredential
    if credentialPath.isEmpty {
        credential = .owner
    } else {
        do {
            credential = try .serviceAccount(json: try Data(contentsOf: URL(fileURLWithPath: credentialPath)))
        } catch {
            FileHandle.standardError.write(Data("portfolio-api: cannot use the admin credential \(credentialPath): \(error)\n".utf8))
            exit(1)
        }
    }

    let store: PortfolioStore
    do {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        store = try PortfolioStore(path: (dataDirectory as NSString).appendingPathComponent("portfolio.sqlite"))
    } catch {
        FileHandle.standardError.write(Data("portfolio-api: cannot open the database in \(dataDirectory): \(error)\n".utf8))
        exit(1)
    }
    let api = PortfolioAPI(
        verifier: IDTokenVerifier(hearthURL: hearthURL, projectID: projectID),
        revocation: options.flags.contains("no-revocation-check") ? nil : RevocationCheck(hearthURL: hearthURL, apiKey: apiKey),
        admin: AdminAuth(serverURL: hearthURL, projectID: projectID, credential: credential), store: store, log: printLine)
    let server = HTTPServer(
        configuration: .init(host: "127.0.0.1", port: port, threadCount: 4), handler: api.handler,
        log: { printLine($0.logLine) })
    do {
        try server.start()
    } catch {
        FileHandle.standardError.write(Data("portfolio-api: cannot listen: \(error)\n".utf8))
        exit(1)
    }
    printLine("portfolio-api is listening on http://127.0.0.1:\(server.port) — trusting Hearth at \(hearthText), project \(projectID)")
    var received: Int32 = 0
    sigwait(&stopSignals, &received)
    server.shutdown(gracePeriod: .seconds(5))
    store.close()
    exit(0)
} catch let error as UsageError {
    FileHandle.standardError.write(Data("portfolio-api: \(error.message)\n".utf8))
    exit(64)
}
