import HearthCore
import HearthHTTP
import HearthProtocol

/// The password endpoints of the client API beside `accounts:signUp` and `accounts:update` (which serve
/// passwords too): `accounts:signInWithPassword`, the iOS SDK's `verifyPassword`. It shares the sign-in limit
/// per client; wrong passwords are counted in the store (`PasswordAttempt`).
enum PasswordRoutes {
    static func endpoints(_ platform: IdentityPlatform, edge: Edge)
        -> [(v1: String, legacy: String, chain: MiddlewareChain, responder: HTTPResponder)]
    {
        [
            ("accounts:signInWithPassword", "verifyPassword", edge.clientCall(.signInPerClient),
             IdentityToolkitRoutes.json(edge.scopes, use: { _ in .passwordSignIn }) { platform, fields, caller in
                 try platform.passwordAccounts.signIn(SignInWithPasswordRequest(fields: fields), by: caller)
             }),
        ]
    }
}
