import Foundation
import HearthCore
import HearthHTTP
import HearthProtocol

/// Where verifiers find Hearth's public keys: JWKS (also at securetoken's JWK path), the X.509 PEM map
/// google-auth style libraries read, and the issuer's OpenID discovery document.
struct KeyRoutes {
    let platform: IdentityPlatform
    let options: ServerOptions
    let edge: Edge

    static let jwksPath = "/.well-known/jwks.json"
    static let securetokenJWKPath = "/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
    static let securetokenX509Path = "/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"

    func register(in router: inout Router) {
        let jwks = edge.firebase.handler(
            Self.document(\.publishedJSON, of: platform.sessionKeys, maxAge: options.keyCacheMaxAge))
        router.add(.get, Self.jwksPath, jwks)
        router.add(.get, Self.securetokenJWKPath, jwks)
        // The X.509 map verifies ID tokens (securetoken's path) and session cookies (Identity Toolkit's publicKeys).
        let certificates = edge.firebase.handler(
            Self.document(\.certificatesJSON, of: platform.sessionKeys, maxAge: options.keyCacheMaxAge))
        for path in [Self.securetokenX509Path, "\(IdentityToolkitRoutes.legacy)/publicKeys", "\(IdentityToolkitRoutes.v1)/publicKeys"] {
            router.add(.get, path, certificates)
        }
        router.add(.get, "/\(platform.project.projectID)/.well-known/openid-configuration", edge.firebase.handler(discovery))
    }

    /// Serves one of a key ring's documents (encoded once per key change) with `Cache-Control`. Shared
    /// with the dev IdP's certs.
    static func document(
        _ document: any KeyPath<SigningKeyRing.Keys, Data> & Sendable, of ring: SigningKeyRing, maxAge: Int
    ) -> HTTPResponder {
        { _ in Responses.cacheable(HTTPResponse.json(try ring.current()[keyPath: document]), maxAge: maxAge) }
    }

    private var discovery: HTTPResponder {
        { [platform, options] _ in
            Responses.cacheable(
                Responses.json([
                    "issuer": .string(platform.project.issuer),
                    "jwks_uri": .string(options.publicURL + Self.jwksPath),
                    "response_types_supported": ["id_token"],
                    "subject_types_supported": ["public"],
                    "id_token_signing_alg_values_supported": ["RS256"],
                    "claims_supported": [
                        "iss", "aud", "sub", "iat", "exp", "auth_time", "user_id", "email", "email_verified",
                        "phone_number", "name", "picture", "firebase",
                    ],
                ] as [String: JSONValue]), maxAge: options.keyCacheMaxAge)
        }
    }
}

/// The Firebase emulator's REST helpers that Hearth offers in development.
struct EmulatorRoutes {
    let platform: IdentityPlatform
    let sentCodes: (@Sendable () -> [DeliveredCode])?
    let edge: Edge

    func register(in router: inout Router) {
        router.add(.delete, "/emulator/v1/projects/{project}/accounts", edge.restrictedFirebase.handler(deleteAllAccounts))
        router.add(.get, "/emulator/v1/projects/{project}/verificationCodes", edge.restrictedFirebase.handler(verificationCodes))
    }

    /// `GET /emulator/v1/projects/{p}/verificationCodes`: SMS codes whose session is still open (a code
    /// disappears once used or expired), as `{"verificationCodes":[{phoneNumber, code, sessionInfo}]}`.
    private var verificationCodes: HTTPResponder {
        { [platform, sentCodes] request in
            try Self.requireProject(request, platform)
            let open = try (sentCodes?() ?? []).filter { try platform.mfa.isOpenSession(sessionInfo: $0.sessionInfo) }
            struct Listing: Encodable { var verificationCodes: [DeliveredCode] }
            return Responses.json(Listing(verificationCodes: open))
        }
    }

    /// `DELETE /emulator/v1/projects/{p}/accounts`: wipes every account (and its sessions).
    private var deleteAllAccounts: HTTPResponder {
        { [platform] request in
            try Self.requireProject(request, platform)
            try platform.accounts.deleteAllAccounts()
            return Responses.json([:] as [String: JSONValue])
        }
    }

    private static func requireProject(_ request: HTTPRequest, _ platform: IdentityPlatform) throws {
        guard request.pathParameters["project"] == platform.project.projectID else {
            throw WireError(.notFound, "Unknown project \(request.pathParameters["project"] ?? "").")
        }
    }
}
