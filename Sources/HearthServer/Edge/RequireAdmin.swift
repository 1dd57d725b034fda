import Foundation
import HearthCore
import HearthHTTP
import HearthProtocol

/// Lets a request through to an admin route only when one of the configured verifiers accepts its
/// `Authorization: Bearer <token>` and the path names this server's project. An API key counts for
/// nothing here. Refusals are Firebase's: 401 `UNAUTHENTICATED` without a bearer token or with one no
/// verifier recognizes (the emulator's messages), a verifier's own error for a token it refuses, and
/// `PROJECT_NOT_FOUND` for another project. The caller it accepted goes on with the request
/// (``HTTPRequest/adminCaller``), for the audit log.
struct RequireAdmin: HTTPMiddleware {
    let verifiers: [any AdminTokenVerifier]
    let projectID: String

    func respond(to request: HTTPRequest, next: HTTPResponder) throws -> HTTPResponse {
        guard let token = Self.bearerToken(of: request) else { throw Self.missingCredential }
        guard let caller = try caller(for: token) else { throw Self.invalidCredential }
        let requested = request.pathParameters["project"] ?? ""
        guard requested == projectID else {
            throw WireError(
                .projectNotFound, "Requested project ID \(requested), but this Hearth server serves \(projectID).")
        }
        var request = request
        request.values[AdminCallerKey.self] = caller
        return try next(request)
    }

    private func caller(for token: String) throws -> AdminCaller? {
        for verifier in verifiers {
            if let caller = try verifier.caller(bearerToken: token) { return caller }
        }
        return nil
    }

    /// The text after `Bearer ` (the scheme in any case), if the request carries a non-empty one.
    static func bearerToken(of request: HTTPRequest) -> String? {
        guard let header = request.headers["Authorization"] else { return nil }
        let scheme = "bearer "
        guard header.utf8.count > scheme.utf8.count, header.lowercased().hasPrefix(scheme) else { return nil }
        let token = header.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// The request value ``RequireAdmin`` sets: the caller it accepted.
    enum AdminCallerKey: RequestValueKey {
        typealias Value = AdminCaller
    }

    static let missingCredential = WireError(
        .unauthenticated,
        "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        reason: "required")

    static let invalidCredential = WireError(
        .unauthenticated,
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        reason: "authError")
}

extension HTTPRequest {
    /// The administrator ``RequireAdmin`` let through; `UNAUTHENTICATED` for a request it did not see, so a route
    /// registered without it acts for nobody.
    func adminCaller() throws -> AdminCaller {
        guard let caller = values[RequireAdmin.AdminCallerKey.self] else { throw RequireAdmin.missingCredential }
        return caller
    }
}
