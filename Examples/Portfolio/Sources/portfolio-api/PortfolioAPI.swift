import Foundation
import HearthAdmin
import HearthHTTP
import HearthProtocol
import HearthVerify

/// The documents' backend: `GET /portfolioList` answers the caller's portfolios, and only theirs.
/// The caller proves who they are with a Hearth ID token in `Authorization` (`Bearer <token>`, or the
/// bare token as the documents' app sends it); anything else is a 401.
///
/// `GET /admin/users` answers every user (listed through Hearth's admin API) with their portfolios, to callers
/// whose token carries the custom claim `admin: true` (`hearth users set-claims UID '{"admin":true}'`); other
/// callers get a 403.
struct PortfolioAPI: Sendable {
    let verifier: IDTokenVerifier
    let revocation: RevocationCheck?
    let admin: AdminAuth
    let store: PortfolioStore
    let log: @Sendable (String) -> Void

    var handler: HTTPHandler {
        var router = Router()
        router.add(.get, "/portfolioList", portfolioList)
        router.add(.get, "/admin/users", adminUsers)
        router.add(.get, "/", { _ in Self.json(["status": "ok"]) })
        return router.handler(errorRenderer: { error in Self.json(["error": error.reason], status: error.status) })
    }

    private var portfolioList: HTTPHandler {
        { request in
            let verified: VerifiedToken
            switch caller(of: request) {
            case .success(let token): verified = token
            case .failure(let refusal): return refusal.response
            }
            do {
                let portfolios = try store.portfolios(of: verified.uid)
                let who = verified.email ?? verified.uid
                return Self.json(PortfolioList(message: "Portfolios of \(who)", portfolio: portfolios))
            } catch {
                log("event=store_error type=\(type(of: error))")
                return Self.json(["error": "The portfolio store is unavailable."], status: 503)
            }
        }
    }

    private var adminUsers: HTTPHandler {
        { request in
            let verified: VerifiedToken
            switch caller(of: request) {
            case .success(let token): verified = token
            case .failure(let refusal): return refusal.response
            }
            guard verified.claims["admin"] == true else {
                log("event=forbidden route=admin_users")
                return Self.json(["error": "Listing users needs the admin role (the custom claim admin: true)."], status: 403)
            }
            let users: [HearthAdmin.UserRecord]
            do {
                users = try awaitBlocking { [admin] in
                    var all: [HearthAdmin.UserRecord] = []
                    for try await page in admin.listUsers() { all += page.users }
                    return all
                }
            } catch {
                log("event=admin_error code=\((error as? HearthAdminError)?.code.description ?? "unknown")")
                return Self.json(["error": "Hearth did not list the users."], status: 502)
            }
            do {
                let portfolios = try store.portfoliosByOwner()
                return Self.json(AdminUserList(users: users.map { user in
                    AdminUser(uid: user.uid, email: user.email, disabled: user.disabled, portfolio: portfolios[user.uid] ?? [])
                }))
            } catch {
                log("event=store_error type=\(type(of: error))")
                return Self.json(["error": "The portfolio store is unavailable."], status: 503)
            }
        }
    }

    /// A 401 answer for a request without an acceptable ID token.
    struct Refusal: Error {
        var response: HTTPResponse
    }

    /// The verified ID token in the request's `Authorization` header, or the 401 to answer.
    private func caller(of request: HTTPRequest) -> Result<VerifiedToken, Refusal> {
        guard let token = BearerToken.extract(fromAuthorizationHeader: request.headers["Authorization"]) else {
            return .failure(Refusal(response: Self.unauthorized(nil, "Send your Hearth ID token in the Authorization header.")))
        }
        do throws(VerificationError) {
            return .success(try verify(token))
        } catch {
            log("event=rejected code=\(error.code)")
            return .failure(Refusal(response: Self.unauthorized(error, "Your ID token was not accepted (\(error.code)).")))
        }
    }

    /// Signature and claims, and unless disabled, whether Hearth still considers the session valid.
    private func verify(_ token: String) throws(VerificationError) -> VerifiedToken {
        if let revocation { return try verifier.verify(token, checkRevoked: revocation) }
        return try verifier.verify(token)
    }

    struct PortfolioList: Encodable {
        var message: String
        var portfolio: [Portfolio]
    }

    struct AdminUser: Encodable {
        var uid: String
        var email: String?
        var disabled: Bool
        var portfolio: [Portfolio]
    }

    struct AdminUserList: Encodable {
        var users: [AdminUser]
    }

    static func unauthorized(_ error: VerificationError?, _ message: String) -> HTTPResponse {
        var response = json(["error": message], status: 401)
        response.headers["WWW-Authenticate"] = error?.wwwAuthenticateHeader ?? "Bearer"
        return response
    }

    static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return HTTPResponse.json((try? encoder.encode(value)) ?? Data("{}".utf8), status: status)
    }
}
