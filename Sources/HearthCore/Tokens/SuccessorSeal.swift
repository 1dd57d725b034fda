import HearthCrypto

/// Keeps a rotated refresh token's successor in a form only the holder of the rotated token can read,
/// so that a client retrying a lost refresh response gets the same successor again while the store
/// never holds a usable token.
///
/// The successor's 32 random bytes are XORed with HMAC-SHA256 keyed by the rotated token: a pad that
/// needs the token itself (the store keeps only its SHA-256). A token is rotated once, so each pad
/// seals exactly one successor.
enum SuccessorSeal {
    private static let label = Array("hearth refresh-token successor".utf8)

    /// `successor` (a token from `Identifiers.secret()`) sealed under `token`.
    static func seal(_ successor: String, under token: String) -> [UInt8] {
        guard let bytes = Base64URL.decode(successor), bytes.count == 32 else {
            preconditionFailure("a refresh token is 32 random bytes in base64url")
        }
        return zip(bytes, pad(for: token)).map { $0 ^ $1 }
    }

    /// The successor sealed under `token`, or nil if `sealed` is not a sealed token.
    static func open(_ sealed: [UInt8]?, under token: String) -> String? {
        guard let sealed, sealed.count == 32 else { return nil }
        return Base64URL.encode(zip(sealed, pad(for: token)).map { $0 ^ $1 })
    }

    private static func pad(for token: String) -> [UInt8] {
        HMAC.sha256(key: Array(token.utf8), message: label)
    }
}
