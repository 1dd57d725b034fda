import HearthCrypto

/// Keeps a rotated session's current refresh token in a form only the holder of the token it replaced
/// can read, so that a client retrying a lost refresh response gets the same successor again while the
/// store never holds a usable token.
///
/// The successor's secret (32 random bytes; its session id is not secret from the store) is XORed with
/// HMAC-SHA256 keyed by the replaced token: a pad that needs the token itself (the store keeps only its
/// SHA-256). A token is replaced once, so each pad seals exactly one secret.
enum SuccessorSeal {
    private static let label = Array("hearth refresh-token successor".utf8)

    /// `secret` (from `Identifiers.secret()`) sealed under `token`.
    static func seal(_ secret: String, under token: String) -> [UInt8] {
        guard let bytes = Base64URL.decode(secret), bytes.count == 32 else {
            preconditionFailure("a refresh token's secret is 32 random bytes in base64url")
        }
        return zip(bytes, pad(for: token)).map { $0 ^ $1 }
    }

    /// The secret sealed under `token`, or nil if `sealed` is not a sealed secret.
    static func open(_ sealed: [UInt8], under token: String) -> String? {
        guard sealed.count == 32 else { return nil }
        return Base64URL.encode(zip(sealed, pad(for: token)).map { $0 ^ $1 })
    }

    private static func pad(for token: String) -> [UInt8] {
        HMAC.sha256(key: Array(token.utf8), message: label)
    }
}
