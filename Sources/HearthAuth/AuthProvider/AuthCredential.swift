public import Foundation

/// Proof of an identity at a provider, to pass to `Auth.signIn(with:)` or `User.link(with:)`.
///
/// Make one with a provider's factory, e.g. `GoogleAuthProvider.credential(withIDToken:accessToken:)`.
/// The tokens inside are secrets: they are kept internal and print as `<redacted>`.
public struct AuthCredential: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The provider ID, e.g. `google.com`.
    public let provider: String

    /// The provider's ID token (`id_token` in `postBody`).
    let idToken: String?
    /// The provider's access token (`access_token`).
    let accessToken: String?
    /// The raw nonce whose hash is in the ID token (`nonce`).
    let rawNonce: String?
    /// A pending token from an earlier verifyAssertion response, replayed instead of the tokens.
    let pendingToken: String?
    /// The name Sign in with Apple gives on the first authorization only (`user` in `postBody`).
    let fullName: PersonNameComponents?
    /// For `EmailAuthProvider` credentials: the email with its password or sign-in link.
    let emailCredential: EmailCredential?

    init(
        provider: String, idToken: String?, accessToken: String?, rawNonce: String? = nil, pendingToken: String? = nil,
        fullName: PersonNameComponents? = nil
    ) {
        self.provider = provider
        self.idToken = idToken
        self.accessToken = accessToken
        self.rawNonce = rawNonce
        self.pendingToken = pendingToken
        self.fullName = fullName
        emailCredential = nil
    }

    init(email: EmailCredential) {
        provider = EmailAuthProvider.id
        idToken = nil
        accessToken = nil
        rawNonce = nil
        pendingToken = nil
        fullName = nil
        emailCredential = email
    }

    public var description: String { "AuthCredential(provider: \(provider), tokens: <redacted>)" }
    public var debugDescription: String { description }
}

extension AuthCredential: CustomReflectable {
    /// `dump()` and debuggers see the provider only.
    public var customMirror: Mirror { Mirror(self, children: ["provider": provider, "tokens": "<redacted>"]) }
}

/// Credentials for Google, from the tokens Google Sign-In (or `HearthSignIn`) returned.
///
/// ```swift
/// let credential = GoogleAuthProvider.credential(withIDToken: googleIDToken, accessToken: googleAccessToken)
/// let result = try await Auth.auth().signIn(with: credential)
/// ```
public enum GoogleAuthProvider {
    /// `google.com`.
    public static let id = "google.com"

    /// A credential from a Google ID token and access token.
    public static func credential(withIDToken idToken: String, accessToken: String) -> AuthCredential {
        AuthCredential(provider: id, idToken: idToken, accessToken: accessToken)
    }
}

/// Credentials for any OpenID Connect provider (Apple, `oidc.*`, Google with a nonce), shaped like FirebaseAuth's
/// `OAuthProvider`.
///
/// ```swift
/// // Sign in with Apple: the raw nonce whose SHA-256 (hex) was sent in the authorization request, and the name
/// // Apple gives only on the first authorization.
/// let credential = OAuthProvider.appleCredential(
///     withIDToken: appleIDToken, rawNonce: rawNonce, fullName: appleIDCredential.fullName)
/// try await Auth.auth().signIn(with: credential)
/// ```
public enum OAuthProvider {
    /// A credential from a provider's ID token, the raw nonce whose SHA-256 the ID token carries, and optionally
    /// an access token.
    public static func credential(
        providerID: AuthProviderID, idToken: String, rawNonce: String, accessToken: String? = nil
    ) -> AuthCredential {
        AuthCredential(provider: providerID.rawValue, idToken: idToken, accessToken: accessToken, rawNonce: rawNonce)
    }

    /// A credential from a provider's ID token and optionally an access token, without a nonce.
    public static func credential(providerID: AuthProviderID, idToken: String, accessToken: String? = nil) -> AuthCredential {
        AuthCredential(provider: providerID.rawValue, idToken: idToken, accessToken: accessToken)
    }

    /// A credential from a provider's access token alone.
    public static func credential(providerID: AuthProviderID, accessToken: String) -> AuthCredential {
        AuthCredential(provider: providerID.rawValue, idToken: nil, accessToken: accessToken)
    }

    /// A Sign in with Apple credential (`apple.com`): Apple's ID token, the raw nonce whose lowercase hex SHA-256
    /// the token's `nonce` claim carries, and the user's name when Apple gave it (first authorization only).
    ///
    /// As the iOS SDK does, the name is sent (`user` = `{"name":{"firstName":…,"lastName":…}}`, keys sorted) only
    /// when it has a given or a family name; the server stores it as the display name.
    public static func appleCredential(
        withIDToken idToken: String, rawNonce: String?, fullName: PersonNameComponents?
    ) -> AuthCredential {
        AuthCredential(
            provider: AuthProviderID.apple.rawValue, idToken: idToken, accessToken: nil, rawNonce: rawNonce,
            fullName: fullName)
    }
}

/// A provider ID as FirebaseAuth spells them: `AuthProviderID.apple` is `apple.com`; `.custom("oidc.acme")` for
/// any other.
public struct AuthProviderID: Hashable, Sendable {
    public let rawValue: String

    private init(rawValue: String) { self.rawValue = rawValue }

    /// `apple.com`.
    public static var apple: Self { Self(rawValue: "apple.com") }
    /// `password`.
    public static var email: Self { Self(rawValue: "password") }
    /// `facebook.com`.
    public static var facebook: Self { Self(rawValue: "facebook.com") }
    /// `gc.apple.com`.
    public static var gameCenter: Self { Self(rawValue: "gc.apple.com") }
    /// `github.com`.
    public static var gitHub: Self { Self(rawValue: "github.com") }
    /// `google.com`.
    public static var google: Self { Self(rawValue: "google.com") }
    /// `phone`.
    public static var phone: Self { Self(rawValue: "phone") }
    /// Any other provider, such as an OpenID Connect provider `oidc.<name>`.
    public static func custom(_ value: String) -> Self { Self(rawValue: value) }
}
