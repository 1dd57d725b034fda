import Foundation
import HearthCore
import HearthDevProviders
import HearthHTTP
import HearthProtocol
import Synchronization

/// `/dev/google/try`: the whole sign-in of the documents' app, in a browser. It starts an
/// authorization request (PKCE, state, nonce) at the dev IdP with `/dev/google/callback` as redirect;
/// the callback exchanges the code and signs in to Hearth with the Google ID token, exactly as an app
/// does, and shows the resulting claims.
struct DevPlaygroundRoutes {
    let platform: IdentityPlatform
    let provider: DevIdentityProvider
    let publicURL: String
    /// `state` → PKCE verifier of flows started here (in memory: a dev convenience, not shared).
    let pending: PendingFlows
    let edge: Edge

    static let tryPath = "\(DevIdPRoutes.base)/try"
    static let callbackPath = "\(DevIdPRoutes.base)/callback"
    static let clientID = "hearth-dev.apps.googleusercontent.com"

    /// The redirect URI the dev client must register for the playground.
    static func callbackURI(publicURL: String) -> String { publicURL + callbackPath }

    final class PendingFlows: Sendable {
        private let flows = Mutex<[String: (verifier: String, nonce: String, expiresAt: Date)]>([:])

        func add(state: String, verifier: String, nonce: String) {
            flows.withLock { flows in
                let now = Date()
                flows = flows.filter { $0.value.expiresAt > now }
                if flows.count >= 1000 { flows.removeAll() }
                flows[state] = (verifier, nonce, now.addingTimeInterval(600))
            }
        }

        func take(state: String) -> (verifier: String, nonce: String)? {
            flows.withLock { flows in
                guard let flow = flows.removeValue(forKey: state), flow.expiresAt > Date() else { return nil }
                return (flow.verifier, flow.nonce)
            }
        }
    }

    func register(in router: inout Router) {
        router.add(.get, Self.tryPath, edge.restrictedPlain.handler(start))
        router.add(.get, Self.callbackPath, edge.restrictedPlain.handler(callback))
    }

    private var start: HTTPHandler {
        { [pending, publicURL] _ in
            let (verifier, challenge, state, nonce) = DevIdentityProvider.newFlowSecrets()
            pending.add(state: state, verifier: verifier, nonce: nonce)
            let query = FormEncoding.encode([
                ("response_type", "code"), ("client_id", Self.clientID),
                ("redirect_uri", Self.callbackURI(publicURL: publicURL)), ("scope", "openid email profile"),
                ("state", state), ("nonce", nonce), ("code_challenge", challenge),
                ("code_challenge_method", "S256"),
            ])
            return HTTPResponse.redirect(to: "\(DevIdPRoutes.base)/o/oauth2/v2/auth?\(query)", status: 302)
        }
    }

    private var callback: HTTPHandler {
        { [platform, provider, pending, publicURL] request in
            if let error = request.query["error"] {
                return page("Sign-in cancelled", "<p>The dev IdP answered <code>\(HTML.escape(error))</code>. "
                    + "<a href=\"\(Self.tryPath)\">Try again</a>.</p>", status: 200)
            }
            guard let state = request.query["state"], let flow = pending.take(state: state),
                let code = request.query["code"]
            else {
                return page("Unknown sign-in", "<p>This sign-in was not started here or has expired. "
                    + "<a href=\"\(Self.tryPath)\">Start again</a>.</p>", status: 400)
            }
            do {
                let google = try provider.token([
                    "grant_type": "authorization_code", "code": code, "client_id": Self.clientID,
                    "redirect_uri": Self.callbackURI(publicURL: publicURL), "code_verifier": flow.verifier,
                ])
                guard let googleIDToken = google["id_token"]?.stringValue else { throw WireError(.invalidIdpResponse) }
                let signIn = try platform.accounts.signInWithIdp(
                    SignInWithIdpRequest(
                        requestUri: publicURL,
                        postBody: FormEncoding.encode([
                            ("providerId", "google.com"), ("id_token", googleIDToken), ("nonce", flow.nonce),
                        ]),
                        returnSecureToken: true, returnIdpCredential: true),
                    by: request.endUser)
                guard let idToken = signIn.idToken else {
                    return page("Not signed in", "<p>Hearth answered without tokens: <code>\(HTML.escape(signIn.errorMessage ?? (signIn.needConfirmation == true ? "needConfirmation" : "unknown")))</code></p>", status: 200)
                }
                let body = """
                    <p>Welcome, <strong>\(HTML.escape(signIn.email ?? "(no email)"))</strong> — uid <code>\(HTML.escape(signIn.localId ?? ""))</code>\(signIn.isNewUser == true ? " (new user)" : "").</p>
                    <h2>Google ID token claims</h2><pre>\(HTML.escape(DevIdentityProvider.displayClaims(of: googleIDToken)))</pre>
                    <h2>Hearth ID token claims</h2><pre>\(HTML.escape(DevIdentityProvider.displayClaims(of: idToken)))</pre>
                    <p><a href="\(Self.tryPath)">Sign in again</a></p>
                    """
                return page("Signed in", body, status: 200)
            } catch {
                let detail = (error as? WireError)?.message ?? (error as? OAuthError)?.error ?? "internal error"
                return page("Sign-in failed", "<p><code>\(HTML.escape(detail))</code></p>", status: 400)
            }
        }
    }
}

private func page(_ title: String, _ body: String, status: Int) -> HTTPResponse {
    var response = HTTPResponse.html(
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(HTML.escape(title)) – Hearth</title></head>
        <body style="font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem">
        <h1>\(HTML.escape(title))</h1>\(body)</body></html>
        """, status: status)
    response.headers["Cache-Control"] = "no-store"
    return response
}
