/// Accepts `Bearer owner`, what the Admin SDKs send to an emulator (`FIREBASE_AUTH_EMULATOR_HOST`), as the
/// emulator does: any case. For development only: `owner` is no secret, so a server that configures this
/// verifier lets anyone who reaches it administer every account.
public struct DevelopmentOwnerVerifier: AdminTokenVerifier {
    public init() {}

    public func caller(bearerToken token: String) throws -> AdminCaller? {
        token.lowercased() == "owner" ? .owner : nil
    }
}
