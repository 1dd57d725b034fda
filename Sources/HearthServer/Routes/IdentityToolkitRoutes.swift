import HearthCore
import HearthHTTP
import HearthProtocol

/// The Firebase Auth client endpoints: Identity Toolkit v1, the iOS SDK's legacy v3 names mapped onto
/// them (PROTOCOL.md §1.2), and Secure Token's `/v1/token`.
struct IdentityToolkitRoutes {
    let platform: IdentityPlatform
    let log: @Sendable (String) -> Void

    static let v1 = "/identitytoolkit.googleapis.com/v1"
    static let v2 = "/identitytoolkit.googleapis.com/v2"
    static let legacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
    static let secureToken = "/securetoken.googleapis.com/v1/token"

    /// v1 endpoints the iOS SDK reaches through legacy v3 names that Hearth does not serve yet.
    static let unimplementedLegacyNames: [String: String] = [
        "createAuthUri": "accounts:createAuthUri", "emailLinkSignin": "accounts:signInWithEmailLink",
        "getOobConfirmationCode": "accounts:sendOobCode", "getProjectConfig": "projects",
        "getRecaptchaParam": "recaptchaParams", "publicKeys": "publicKeys", "resetPassword": "accounts:resetPassword",
        "sendVerificationCode": "accounts:sendVerificationCode", "setProjectConfig": "setProjectConfig",
        "signupNewUser": "accounts:signUp", "verifyCustomToken": "accounts:signInWithCustomToken",
        "verifyPassword": "accounts:signInWithPassword", "verifyPhoneNumber": "accounts:signInWithPhoneNumber",
        "signOutUser": "signOutUser", "downloadAccount": "accounts:batchGet", "uploadAccount": "accounts:batchCreate",
    ]

    func register(in router: inout Router) {
        let endpoints: [(v1: String, legacy: String, handler: HTTPHandler)] = [
            ("accounts:signInWithIdp", "verifyAssertion", clientCall { fields in
                try platform.accounts.signInWithIdp(SignInWithIdpRequest(fields: fields))
            }),
            ("accounts:lookup", "getAccountInfo", clientCall { fields in
                try platform.accounts.lookup(LookupRequest(fields: fields))
            }),
            ("accounts:update", "setAccountInfo", clientCall { fields in
                try platform.accounts.update(UpdateAccountRequest(fields: fields))
            }),
            ("accounts:delete", "deleteAccount", clientCall { fields in
                try platform.accounts.delete(DeleteAccountRequest(fields: fields))
            }),
        ]
        for endpoint in endpoints {
            router.add(.post, "\(Self.v1)/\(endpoint.v1)", endpoint.handler)
            router.add(.post, "\(Self.legacy)/\(endpoint.legacy)", endpoint.handler)
        }
        for (legacyName, v1Name) in Self.unimplementedLegacyNames {
            let handler = notImplemented(v1Name)
            router.add(.post, "\(Self.legacy)/\(legacyName)", handler)
            router.add(.get, "\(Self.legacy)/\(legacyName)", handler)
        }
        let mfaEndpoints: [(String, HTTPHandler)] = [
            ("accounts/mfaEnrollment:start", clientCall { fields in
                try platform.mfa.startEnrollment(StartMFAEnrollmentRequest(fields: fields))
            }),
            ("accounts/mfaEnrollment:finalize", clientCall { fields in
                try platform.mfa.finalizeEnrollment(FinalizeMFAEnrollmentRequest(fields: fields))
            }),
            ("accounts/mfaEnrollment:withdraw", clientCall { fields in
                try platform.mfa.withdraw(WithdrawMFARequest(fields: fields))
            }),
            ("accounts/mfaSignIn:start", clientCall { fields in
                try platform.mfa.startSignIn(StartMFASignInRequest(fields: fields))
            }),
            ("accounts/mfaSignIn:finalize", clientCall { fields in
                try platform.mfa.finalizeSignIn(FinalizeMFASignInRequest(fields: fields))
            }),
        ]
        for (name, handler) in mfaEndpoints {
            router.add(.post, "\(Self.v2)/\(name)", handler)
        }
        router.add(.post, Self.secureToken, refresh)
        router.add(.get, "/", status)
    }

    /// Wraps an operation that takes the request's JSON fields: API key check, body decoding, errors
    /// rendered in the wire envelope.
    private func clientCall<Response: Encodable>(
        _ operation: @escaping @Sendable (RequestFields) throws -> Response
    ) -> HTTPHandler {
        { [platform, log] request in
            Self.respond(log: log) {
                try APIKey.check(request, policy: platform.project.apiKeys)
                return Responses.json(try operation(try RequestFields(json: request.body)))
            }
        }
    }

    private func notImplemented(_ name: String) -> HTTPHandler {
        { _ in
            Responses.error(WireError(.notImplemented, "\(name) is not implemented by this Hearth server yet."))
        }
    }

    /// `securetoken /v1/token`: form (JS, REST) or JSON (iOS) bodies, snake_case or camelCase keys.
    private var refresh: HTTPHandler {
        { [platform, log] request in
            Self.respond(log: log) {
                try APIKey.check(request, policy: platform.project.apiKeys)
                let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
                let fields = contentType.hasPrefix("application/x-www-form-urlencoded")
                    ? RequestFields(form: String(decoding: request.body, as: UTF8.self))
                    : try RequestFields(json: request.body)
                return Responses.json(try platform.tokens.refresh(RefreshTokenRequest(fields: fields)))
            }
        }
    }

    /// `GET /`: a health check, in the emulator's shape as well.
    private var status: HTTPHandler {
        { [platform] _ in
            Responses.json([
                "authEmulator": ["ready": true],
                "hearth": ["ready": true, "projectId": .string(platform.project.projectID)],
            ] as [String: JSONValue])
        }
    }

    /// Runs `body`, turning thrown errors into wire envelopes. Anything that is not a `WireError` is a
    /// server fault: it is logged (type and description only) and answered 500 INTERNAL.
    static func respond(log: @Sendable (String) -> Void, _ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let error as WireError {
            return Responses.error(error)
        } catch let error as StoreError {
            log("error=store code=\(error.code) detail=\"\(error.detail)\"")
            return Responses.error(WireError(.unavailable, "The account store is unavailable. Try again later."))
        } catch {
            log("error=internal type=\(type(of: error))")
            return Responses.error(WireError(.internalError, "Internal error."))
        }
    }
}
