import HearthCore
import HearthHTTP
import HearthProtocol

/// The page an email's action link opens (`/__/auth/action`, in development also the emulator's
/// `/emulator/action`), server-rendered.
///
/// Opening a link (GET) never uses its code: a password reset shows a new-password form, and verifying, changing
/// or recovering an email shows a button; the code is used when the form is posted. Mail servers and scanners that
/// fetch every link therefore cannot use codes up (the Firebase emulator's page applies codes on GET; Hearth does
/// not). The posted form needs no CSRF token: it carries the code, which alone authorizes the action, and no
/// cookie or session is involved. Sign-in links are the exception: opening one redirects (303) to the continue URL
/// the code was issued with (never one from the request: no open redirect), carrying the link's parameters, so that
/// the app finishes with `signInWithEmailLink`; that uses nothing either.
///
/// Pages are `no-store`, may not be framed and send no `Referer` to other sites (the URL holds the code); their own
/// form posts keep their origin (`same-origin`: with `no-referrer` browsers post `Origin: null`, which the
/// development paths refuse).
struct ActionPageRoutes {
    static let productionPath = "/__/auth/action"
    static let emulatorPath = "/emulator/action"

    let actions: EmailActionService
    let limiter: RateLimiter

    var show: HTTPResponder {
        { [actions] request in
            let parameters = request.query
            do {
                let record = try actions.pendingAction(oobCode: parameters["oobCode"])
                let code = parameters["oobCode"] ?? ""
                switch record.kind {
                case .emailSignIn:
                    return try Self.redirectSignIn(to: actions.continueURL(of: record), parameters: parameters)
                case .passwordReset:
                    return Self.html(ActionPage.resetForm(path: request.path, oobCode: code, email: record.email))
                case .verifyEmail:
                    return Self.html(ActionPage.confirmForm(
                        path: request.path, oobCode: code, title: "Verify your email",
                        explanation: "Confirm that \(record.email) is your email address."))
                case .verifyAndChangeEmail:
                    return Self.html(ActionPage.confirmForm(
                        path: request.path, oobCode: code, title: "Change your email",
                        explanation: "Make \(record.newEmail ?? "") your sign-in email instead of \(record.email)."))
                case .recoverEmail:
                    return Self.html(ActionPage.confirmForm(
                        path: request.path, oobCode: code, title: "Restore your email",
                        explanation: "Make \(record.email) your sign-in email again instead of \(record.newEmail ?? "")."))
                }
            } catch let error as WireError {
                return Self.failure(error)
            }
        }
    }

    var complete: HTTPResponder {
        { [actions, limiter] request in
            let parameters = DevIdPRoutes.parameters(request)
            guard limiter.take(.signInPerClient, key: request.clientKey) else { return Self.failure(Throttle.refusal) }
            let code = parameters["oobCode"]
            // The code's owner; recorded with no client address, as the action page's changes have always been.
            let visitor = Caller.user(client: nil)
            do {
                let record = try actions.pendingAction(oobCode: code)
                switch record.kind {
                case .emailSignIn:
                    return try Self.redirectSignIn(to: actions.continueURL(of: record), parameters: parameters)
                case .passwordReset:
                    do {
                        _ = try actions.resetPassword(
                            ResetPasswordRequest(oobCode: code, newPassword: parameters["newPassword"] ?? ""), by: visitor)
                    } catch let error as WireError where [.weakPassword, .passwordDoesNotMeetRequirements].contains(error.code) {
                        return Self.html(
                            ActionPage.resetForm(
                                path: request.path, oobCode: code ?? "", email: record.email,
                                error: error.detail ?? error.message),
                            status: 400)
                    }
                    return Self.html(ActionPage.done(
                        title: "Password changed", message: "You can now sign in with your new password.",
                        continueURL: Self.continueLink(record, actions)))
                case .verifyEmail, .verifyAndChangeEmail, .recoverEmail:
                    _ = try actions.apply(oobCode: code, by: visitor)
                    let message = switch record.kind {
                    case .verifyEmail: "Your email has been verified. You can now sign in with your new account."
                    case .verifyAndChangeEmail: "Your sign-in email has been changed to \(record.newEmail ?? "")."
                    default: "Your sign-in email has been restored to \(record.email)."
                    }
                    return Self.html(ActionPage.done(title: "Done", message: message, continueURL: Self.continueLink(record, actions)))
                }
            } catch let error as WireError {
                return Self.failure(error)
            }
        }
    }

    /// 303 to the code's continue URL (checked again: ``EmailActionService/continueURL(of:)``) with the link's
    /// parameters added to its query.
    private static func redirectSignIn(to continueURL: BrowserURL?, parameters: [String: String]) -> HTTPResponse {
        guard let continueURL else {
            return failure(WireError(.invalidContinueURI, "This sign-in link has no continue URL."))
        }
        let pairs = parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return secured(HTTPResponse.redirect(to: continueURL.addingQuery(FormEncoding.encode(pairs)), status: 303))
    }

    /// The "Continue" link of a finished action's page: the code's continue URL while it is still acceptable, else none.
    private static func continueLink(_ record: OOBCodeRecord, _ actions: EmailActionService) -> String? {
        (try? actions.continueURL(of: record))?.description
    }

    private static func failure(_ error: WireError) -> HTTPResponse {
        let message = switch error.code {
        case .expiredOOBCode: "This link has expired. Ask for a new one."
        case .invalidOOBCode, .missingOOBCode: "This link is invalid or has already been used. Ask for a new one."
        default: error.detail ?? error.message
        }
        return html(ActionPage.failure(title: "Try again", message: message), status: error.httpStatus == 429 ? 429 : 400)
    }

    private static func html(_ text: String, status: Int = 200) -> HTTPResponse {
        secured(HTTPResponse.html(text, status: status))
    }

    private static func secured(_ response: HTTPResponse) -> HTTPResponse {
        Responses.securedPage(
            response,
            contentSecurityPolicy:
                "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    }
}
