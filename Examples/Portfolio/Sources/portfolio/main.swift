import Foundation
import HearthCommandLine

let help = """
    portfolio — the documents' app in a terminal: sign in with an email and password, Google or Apple (or as a
    guest) through Hearth, see who you are, and list your portfolios from the app's backend.

    Usage: portfolio <command> [options]

    Commands:
      sign-up [--email EMAIL]
                             Create an account with an email and a password (asked twice, not shown).
      sign-in --email EMAIL  Sign in with an email and password (asked for, not shown).
      reset-password EMAIL [--code CODE]
                             Email a password reset link; with --code (the link's oobCode), set a new password.
      verify-email [--code CODE]
                             Email the signed-in user a verification link; with --code, verify the address.
      sign-in [--as EMAIL]   Sign in with Google. --as uses Hearth's dev IdP without a browser.
      sign-in --apple [--as EMAIL] [--hide-email]
                             Sign in with Apple (Hearth's dev Apple by default). --hide-email asks the dev Apple
                             for a private relay address.
      sign-in --guest        Sign in as a guest (an anonymous account); link a sign-in method later.
      link google|apple [--as EMAIL]
                             Link Google or Apple to your account; a guest keeps its uid and portfolios.
      delete-account [--as EMAIL]
                             Delete your account (asks you to type "delete"). With Apple linked, signs in with
                             Apple once more and revokes the app's Apple tokens first.
      whoami                 Show the signed-in user (uid, email, name, photo).
      list                   List your portfolios from the portfolio API (sends your ID token).
      token                  Print your current ID token (refreshed when needed).
      sign-out               Sign out of Hearth and Google.
      mfa list               List your second factors.
      mfa enroll-totp [--name NAME]          Add an authenticator app (shows a QR code, then asks for a code).
      mfa enroll-phone NUMBER [--name NAME]  Add a phone (texts a code to NUMBER, then asks for it).
      mfa remove ID          Remove a second factor.

    Prompts read from the terminal or from piped input (one answer per line). Passwords are never shown.
    With `hearth serve --dev`, emailed codes are listed at <HEARTH_URL>/emulator/v1/projects/<project>/oobCodes.

    Options (each also as an environment variable):
      --hearth-url URL       HEARTH_URL (default http://127.0.0.1:9099)
      --api-key KEY          HEARTH_API_KEY (default portfolio-demo; any key works with hearth serve --dev)
      --project-id ID        HEARTH_PROJECT_ID (default demo-hearth)
      --api-url URL          PORTFOLIO_API_URL (default http://127.0.0.1:8088)
      --session-dir DIR      PORTFOLIO_SESSION_DIR (default: ~/.config/hearth)
      --google-client-id ID  PORTFOLIO_GOOGLE_CLIENT_ID (default hearth-dev.apps.googleusercontent.com)
      --google-issuer URL    PORTFOLIO_GOOGLE_ISSUER (default <HEARTH_URL>/dev/google; https://accounts.google.com for real Google)
      --google-client-secret PORTFOLIO_GOOGLE_CLIENT_SECRET (Desktop-type Google clients)
      --apple-client-id ID   PORTFOLIO_APPLE_CLIENT_ID (default dev.hearth.portfolio)
      --apple-issuer URL     PORTFOLIO_APPLE_ISSUER (default <HEARTH_URL>/dev/apple; real Apple needs an HTTPS
                             redirect, which a terminal app cannot receive: see HearthSignIn's AppleSignIn)

    Exit status: 0 success, 1 failure, 3 not signed in, 4 a server is unreachable,
    5 the session ended (revoked, disabled, deleted: sign in again), 6 sign-in failed or was cancelled,
    64 usage error.
    """

func writeLine(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
func fail(_ message: String, _ status: Int32) -> Never {
    FileHandle.standardError.write(Data("portfolio: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first, !["--help", "-h", "help"].contains(command) else {
    writeLine(help)
    exit(arguments.isEmpty ? ExitStatus.usage : ExitStatus.success)
}
let options: ParsedOptions
let settings: PortfolioSettings
do {
    options = try ParsedOptions(
        Array(arguments.dropFirst()), valued: PortfolioSettings.valuedOptions, switches: ["help", "apple", "guest", "hide-email"])
    if options.flags.contains("help") {
        writeLine(help)
        exit(ExitStatus.success)
    }
    let commands = [
        "sign-in", "sign-up", "reset-password", "verify-email", "whoami", "list", "token", "sign-out", "mfa", "link",
        "delete-account",
    ]
    guard commands.contains(command) else {
        throw UsageError("unknown command '\(command)' (try 'portfolio --help')")
    }
    if command == "mfa" {
        let expected = ["list": 1, "enroll-totp": 1, "enroll-phone": 2, "remove": 2]
        guard let action = options.positionals.first, let count = expected[action] else {
            throw UsageError("mfa needs one of: list, enroll-totp, enroll-phone NUMBER, remove ID")
        }
        guard options.positionals.count == count else { throw UsageError("usage: portfolio mfa \(action)\(count == 2 ? " <argument>" : "")") }
    } else if command == "link" {
        guard options.positionals.count == 1, ["google", "apple"].contains(options.positionals[0]) else {
            throw UsageError("usage: portfolio link google|apple [--as EMAIL]")
        }
    } else if command == "reset-password" {
        guard options.positionals.count == 1 else {
            throw UsageError("usage: portfolio reset-password EMAIL [--code CODE]")
        }
    } else if let extra = options.positionals.first {
        throw UsageError("unexpected argument '\(extra)'")
    }
    if options.values["name"] != nil && command != "mfa" { throw UsageError("--name is only for mfa enroll-…") }
    if options.values["as"] != nil && !["sign-in", "link", "delete-account"].contains(command) {
        throw UsageError("--as is only for sign-in, link and delete-account")
    }
    if options.values["email"] != nil && !["sign-in", "sign-up"].contains(command) {
        throw UsageError("--email is only for sign-in and sign-up")
    }
    if options.values["code"] != nil && !["reset-password", "verify-email"].contains(command) {
        throw UsageError("--code is only for reset-password and verify-email")
    }
    let flags = options.flags
    if options.values["email"] != nil
        && (flags.contains("apple") || flags.contains("guest") || options.values["as"] != nil)
    {
        throw UsageError("--email signs in with a password: leave out --apple, --guest and --as")
    }
    if (flags.contains("apple") || flags.contains("guest")) && command != "sign-in" {
        throw UsageError("--apple and --guest are only for sign-in")
    }
    if flags.contains("apple") && flags.contains("guest") { throw UsageError("choose one of --apple and --guest") }
    if flags.contains("guest") && options.values["as"] != nil { throw UsageError("--as is not for guests") }
    if flags.contains("hide-email") && !flags.contains("apple") { throw UsageError("--hide-email is only for sign-in --apple") }
    settings = try PortfolioSettings(options: options, environment: ProcessInfo.processInfo.environment)
} catch let error as UsageError {
    fail(error.message, ExitStatus.usage)
} catch {
    fail("\(error)", ExitStatus.usage)
}

do {
    let app = try PortfolioApp(settings: settings, write: writeLine)
    switch command {
    case "sign-in" where options.flags.contains("guest"): try await app.signInAsGuest()
    case "sign-in" where options.flags.contains("apple"):
        try await app.signInWithApple(as: options.values["as"], hideEmail: options.flags.contains("hide-email"))
    case "sign-in":
        if let email = options.values["email"] {
            try await app.signIn(email: email)
        } else {
            try await app.signIn(as: options.values["as"])
        }
    case "sign-up": try await app.signUp(email: options.values["email"])
    case "reset-password": try await app.resetPassword(email: options.positionals[0], code: options.values["code"])
    case "verify-email": try await app.verifyEmail(code: options.values["code"])
    case "link": try await app.link(options.positionals[0], as: options.values["as"])
    case "delete-account": try await app.deleteAccount(as: options.values["as"])
    case "whoami": try await app.whoAmI()
    case "list": try await app.list()
    case "token": try await app.token()
    case "mfa":
        let positionals = options.positionals
        switch positionals[0] {
        case "list": try await app.listFactors()
        case "enroll-totp": try await app.enrollTOTP(name: options.values["name"])
        case "enroll-phone": try await app.enrollPhone(positionals[1], name: options.values["name"])
        default: try await app.removeFactor(positionals[1])
        }
    default: try app.signOut()
    }
    exit(ExitStatus.success)
} catch let failure as AppFailure {
    fail(failure.message, failure.status)
} catch {
    fail("\(error)", ExitStatus.failure)
}
