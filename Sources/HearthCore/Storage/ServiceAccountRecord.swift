/// A service account as the store keeps it: who it is and the public half of its key. The private key
/// exists only in the JSON file `hearth service-accounts create` wrote; Hearth never stores it.
public struct ServiceAccountRecord: Sendable, Equatable {
    /// `private_key_id` of the key file: the `kid` of the JWTs the account signs. Unique forever.
    public var keyID: String
    /// `client_email`, lower-cased: `NAME@<projectId>.iam.hearth`. Unique among live (unrevoked) accounts,
    /// so a revoked name can be created again with a new key.
    public var email: String
    /// `client_id` of the key file (21 digits, as Google's).
    public var clientID: String
    /// The account's RSA public key, SPKI PEM.
    public var publicKeyPEM: String
    /// Seconds since 1970.
    public var createdAt: Int64
    /// Seconds since 1970 when the account was revoked; `nil` while it is live.
    public var revokedAt: Int64?

    public init(
        keyID: String, email: String, clientID: String, publicKeyPEM: String, createdAt: Int64, revokedAt: Int64? = nil
    ) {
        self.keyID = keyID
        self.email = email
        self.clientID = clientID
        self.publicKeyPEM = publicKeyPEM
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}
