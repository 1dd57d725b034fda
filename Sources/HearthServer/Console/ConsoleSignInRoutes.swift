import HearthConsole
import HearthCore
import HearthCrypto
import HearthDevProviders
import HearthHTTP
import HearthProtocol

/// How an administrator signs in to the console, through Hearth itself: `/console/sign-in` starts an
/// authorization-code flow (state, nonce, PKCE S256) at the configured provider as the console's client, keeping the
/// flow's secrets in a short-lived `SameSite=Lax` cookie (so any instance can finish it); `/console/callback` checks
/// the state against that cookie, exchanges the code, signs in with `signInWithIdp` as an app does, and lets in only
/// an account with `"hearthAdmin": true`, giving it a console session (`mintConsoleSession`). An administrator with a
/// second factor finishes with an authenticator-app code (`mfaSignIn:finalize`); phone factors are refused.
struct ConsoleSignInRoutes: Sendable {
    let platform: IdentityPlatform
    let provider: ConsoleSignInProvider
    let publicURL: String
    let cookies: ConsoleCookies
    let csrf: ConsoleCSRF
    let sessionLifetime: Int64

    /// The redirect URI the console's client must register at the provider.
    static func callbackURI(publicURL: String) -> String { publicURL + ConsolePaths.callback }

    var start: HTTPResponder {
        { [provider, publicURL, cookies] _ in
            let (verifier, challenge, state, nonce) = DevIdentityProvider.newFlowSecrets()
            let query = FormEncoding.encode([
                ("response_type", "code"), ("client_id", provider.clientID),
                ("redirect_uri", Self.callbackURI(publicURL: publicURL)), ("scope", "openid email profile"),
                ("state", state), ("nonce", nonce), ("code_challenge", challenge), ("code_challenge_method", "S256"),
            ])
            let separator = provider.authorizationEndpoint.contains("?") ? "&" : "?"
            var response = HTTPResponse.redirect(to: provider.authorizationEndpoint + separator + query, status: 302)
            let flow = [state, verifier, nonce].joined(separator: ".")
            response.headers.add(name: "Set-Cookie", value: cookies.setting(ConsoleCookies.flow, flow, maxAge: 600, sameSite: "Lax"))
            return ConsoleGate.secured(response)
        }
    }

    var callback: HTTPResponder {
        { request in
            // The flow's cookie is deleted first, so that its deletion comes before a new session's cookie.
            var response = finish(request)
            var headers = HTTPHeaders([("Set-Cookie", cookies.deleting(ConsoleCookies.flow))])
            for (name, value) in response.headers { headers.add(name: name, value: value) }
            response.headers = headers
            return ConsoleGate.secured(response)
        }
    }

    private func finish(_ request: HTTPRequest) -> HTTPResponse {
        if request.query["error"] != nil {
            return refusal("Sign-in cancelled", "The provider did not sign you in.", status: 400)
        }
        let flow = ConsoleCookies.value(ConsoleCookies.flow, in: request)?.split(separator: ".").map(String.init) ?? []
        guard flow.count == 3, let state = request.query["state"],
            ConstantTime.equals(Array(state.utf8), Array(flow[0].utf8)), let code = request.query["code"], !code.isEmpty
        else {
            return refusal("Unknown sign-in", "This sign-in was not started in this browser or has expired. Start again.", status: 400)
        }
        do {
            let redirectURI = Self.callbackURI(publicURL: publicURL)
            let providerIDToken = try provider.exchange(code, redirectURI, flow[1])
            let signIn = try platform.accounts.signInWithIdp(
                SignInWithIdpRequest(
                    requestUri: redirectURI,
                    postBody: FormEncoding.encode([
                        ("providerId", provider.providerID), ("id_token", providerIDToken), ("nonce", flow[2]),
                    ]),
                    returnSecureToken: true),
                by: request.endUser)
            guard let localID = signIn.localId, signIn.idToken != nil || signIn.mfaPendingCredential != nil else {
                return refusal("Not signed in", "Hearth did not sign this account in (\(signIn.errorMessage ?? "it needs confirmation")).", status: 403)
            }
            guard let account = try platform.store.read({ try $0.account(localID: localID) }),
                ConsoleSession.isAdministrator(account)
            else { return HTTPResponse.html(ConsoleGate.notAdministrator, status: 403) }
            guard let idToken = signIn.idToken else {
                return secondFactorStep(pending: signIn.mfaPendingCredential ?? "", factors: signIn.mfaInfo ?? [])
            }
            return try session(idToken: idToken)
        } catch {
            let failure = WireFailure(error)
            return refusal("Sign-in failed", failure.fault == nil ? failure.wire.message : "Hearth could not sign you in.", status: 400)
        }
    }

    /// The second step of an administrator with a second factor: a form for an authenticator app's code, the pending
    /// sign-in kept in a `SameSite=Strict` cookie for 10 minutes. SMS factors are not offered (the console sends no SMS).
    private func secondFactorStep(pending: String, factors: [MFAEnrollmentInfo]) -> HTTPResponse {
        guard let factor = factors.first(where: { $0.totpInfo != nil }) else {
            return refusal(
                "Second factor required",
                "This account's second factor is a phone; the console takes only authenticator-app (TOTP) codes. Enrol an authenticator app, or use another administrator account.",
                status: 403)
        }
        var response = HTTPResponse.html(MessagePage.secondFactor(
            csrfToken: ConsoleCSRF.token(binding: pending), enrollmentID: factor.mfaEnrollmentId,
            factorName: factor.displayName ?? "Authenticator app"))
        response.headers.add(name: "Set-Cookie", value: cookies.setting(ConsoleCookies.secondFactor, pending, maxAge: 600))
        return ConsoleGate.secured(response)
    }

    /// `POST /console/second-factor`: the authenticator code for the pending sign-in in the cookie (CSRF-checked like
    /// every change); a wrong code shows the form again (the fifth ends the pending sign-in, as in an app).
    var secondFactor: HTTPResponder {
        { [platform, csrf, cookies] request in
            guard let pending = ConsoleCookies.value(ConsoleCookies.secondFactor, in: request) else {
                return ConsoleGate.secured(refusal("Sign-in expired", "This sign-in has expired. Start again.", status: 400))
            }
            let form = ConsoleGate.form(of: request)
            if let refused = csrf.refusal(of: request, binding: pending, form: form) {
                return ConsoleGate.secured(refusal("Not signed in", refused, status: 403))
            }
            var response: HTTPResponse
            do {
                let tokens = try platform.mfa.finalizeSignIn(
                    FinalizeMFASignInRequest(
                        mfaPendingCredential: pending, mfaEnrollmentId: form["enrollment"],
                        totpVerificationInfo: TOTPVerificationInfo(verificationCode: form["code"] ?? "")),
                    by: request.endUser)
                guard ConsoleSession.isAdministrator(try platform.tokens.authenticate(idToken: tokens.idToken).account) else {
                    return ConsoleGate.secured(HTTPResponse.html(ConsoleGate.notAdministrator, status: 403))
                }
                response = try session(idToken: tokens.idToken)
            } catch let error as WireError where error.code != .invalidMFAPendingCredential && error.httpStatus == 400 {
                return ConsoleGate.secured(HTTPResponse.html(MessagePage.secondFactor(
                    csrfToken: ConsoleCSRF.token(binding: pending), enrollmentID: form["enrollment"] ?? "",
                    factorName: "Authenticator app", error: "Not signed in: \(error.message)"), status: 400))
            } catch {
                let failure = WireFailure(error)
                response = refusal("Sign-in failed", failure.fault == nil ? failure.wire.message : "Hearth could not sign you in.", status: 400)
            }
            var headers = HTTPHeaders([("Set-Cookie", cookies.deleting(ConsoleCookies.secondFactor))])
            for (name, value) in response.headers { headers.add(name: name, value: value) }
            response.headers = headers
            return ConsoleGate.secured(response)
        }
    }

    /// The console session of the holder of `idToken`: its cookie, and the step into the console.
    private func session(idToken: String) throws -> HTTPResponse {
        let cookie = try platform.tokens.mintConsoleSession(idToken: idToken, lifetime: sessionLifetime)
        var response = HTTPResponse.html(MessagePage.continueInto(ConsolePaths.users))
        response.headers.add(name: "Set-Cookie", value: cookies.setting(ConsoleCookies.session, cookie, maxAge: sessionLifetime))
        return response
    }

    private func refusal(_ title: String, _ text: String, status: Int) -> HTTPResponse {
        HTTPResponse.html(MessagePage.message(title: title, text: text), status: status)
    }
}
