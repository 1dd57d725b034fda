/// How a store protects the secrets it writes to disk: the private keys of signing keys, the TOTP secrets of
/// MFA enrolments and verification sessions, and the provider refresh tokens of linked identities and of the
/// revocation queue. A store seals each such value on every write and opens it on every
/// read, so the rest of Hearth only ever sees plain records.
///
/// Implementations: ``PlaintextSecretSealer`` (no key configured: values are stored as they are) and
/// ``KeyringSecretSealer`` (AES-256-GCM under a current key, with previous keys for rotation). Legacy plain values
/// are read by both, so encryption can be turned on for an existing database; sealing them is the job of
/// ``SecretResealing/resealSecrets()``.
public protocol SecretSealer: Sendable {
    /// Whether new values are sealed (false when no key is configured).
    var encrypts: Bool { get }
    /// The form in which `secret` is stored: sealed and bound to `field`, or `secret` itself when not encrypting.
    /// - Throws: `StoreError` `.unavailable` when sealing fails.
    func seal(_ secret: [UInt8], for field: SecretField) throws -> [UInt8]
    /// The secret from its stored form: a value sealed for `field` under a configured key, or a plain value.
    /// - Throws: `StoreError` `.unavailable` when the value is sealed under a key that is not configured (or no
    ///   key is), `.corrupt` when it is malformed or does not open (changed bytes, or sealed for another record).
    func open(_ stored: [UInt8], for field: SecretField) throws -> [UInt8]
    /// How `stored` is kept, judged from its form alone (nothing is decrypted).
    func state(of stored: [UInt8]) -> StoredSecretState
}

extension SecretSealer {
    /// Whether a value in `state` is not in the form `seal` gives today (plain while encrypting, or sealed under
    /// a previous key).
    public func needsResealing(_ state: StoredSecretState) -> Bool {
        state != (encrypts ? .sealedWithCurrentKey : .plain)
    }
}

/// How one stored secret is kept.
public enum StoredSecretState: Sendable, Equatable {
    case plain
    case sealedWithCurrentKey
    /// Sealed under another key: a previous key, or one that is not configured.
    case sealedWithOtherKey
}

/// Which secret a stored value holds: the kind of record and its identity. The identity is authenticated with
/// the sealed value, so a value copied into another record does not open. The same fields (and so the same
/// associated data) are used by every store, so sealed values survive a move between stores.
public struct SecretField: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        /// `SigningKeyRecord.privateKeyPEM`, by key id.
        case signingKey = "signing-key"
        /// `MFAEnrollment.totpSecret`, by enrolment id (unique across accounts).
        case mfaEnrollmentTOTPSecret = "mfa-enrollment-totp"
        /// `VerificationSession.totpSecret`, by session hash.
        case verificationSessionTOTPSecret = "verification-session-totp"
        /// `LinkedIdentity.providerRefreshToken`'s token, by `<provider id>/<raw id>` (unique across accounts).
        case identityProviderRefreshToken = "identity-provider-refresh-token"
        /// `ProviderTokenRevocation.token`, by revocation id.
        case providerTokenRevocation = "provider-token-revocation"
        /// `ProviderConfigRecord.clientSecret`, by `<kind>/<provider id>` (the same in every scope).
        case providerConfigClientSecret = "provider-config-client-secret"
    }

    public let kind: Kind
    public let recordID: String

    public init(_ kind: Kind, recordID: String) {
        self.kind = kind
        self.recordID = recordID
    }

    /// The field of `identity`'s provider refresh token.
    public static func providerRefreshToken(providerID: String, rawID: String) -> SecretField {
        SecretField(.identityProviderRefreshToken, recordID: "\(providerID)/\(rawID)")
    }

    /// What is authenticated with the sealed value: `<kind>/<record id>`.
    public var associatedData: [UInt8] { Array("\(kind.rawValue)/\(recordID)".utf8) }

    /// Operator-facing; names the record except for verification sessions, whose id is the hash of a secret.
    public var description: String {
        switch kind {
        case .signingKey: "the private key of signing key \(recordID)"
        case .mfaEnrollmentTOTPSecret: "the TOTP secret of MFA enrolment \(recordID)"
        case .verificationSessionTOTPSecret: "the TOTP secret of a verification session"
        case .identityProviderRefreshToken: "the provider refresh token of identity \(recordID)"
        case .providerTokenRevocation: "the token of provider-token revocation \(recordID)"
        case .providerConfigClientSecret: "the client secret of provider configuration \(recordID)"
        }
    }
}

/// How many secrets a store holds in each form.
public struct SecretInventory: Sendable, Equatable {
    public var plain = 0
    public var sealedWithCurrentKey = 0
    public var sealedWithOtherKey = 0

    public init(plain: Int = 0, sealedWithCurrentKey: Int = 0, sealedWithOtherKey: Int = 0) {
        self.plain = plain
        self.sealedWithCurrentKey = sealedWithCurrentKey
        self.sealedWithOtherKey = sealedWithOtherKey
    }

    public var total: Int { plain + sealedWithCurrentKey + sealedWithOtherKey }

    /// Counts one more value in `state`.
    public mutating func count(_ state: StoredSecretState) {
        switch state {
        case .plain: plain += 1
        case .sealedWithCurrentKey: sealedWithCurrentKey += 1
        case .sealedWithOtherKey: sealedWithOtherKey += 1
        }
    }
}

/// A store that can check and rewrite every secret it holds, for the startup check and `hearth keys reencrypt`
/// (`SQLiteStore` and `PostgresStore`; `hearth` holds its store as `any HearthStore & SecretResealing`).
public protocol SecretResealing {
    /// Seals the secrets the store writes and opens those it reads.
    var sealer: any SecretSealer { get }
    /// Opens every stored secret with the store's sealer and counts them by form.
    /// - Throws: the `StoreError` of the first secret that does not open (see ``SecretSealer/open(_:for:)``).
    func secretInventory() throws -> SecretInventory
    /// Rewrites every secret that ``SecretSealer/needsResealing(_:)`` in one write transaction: sealed under the
    /// current key (or plain when the sealer does not encrypt). Nothing changes if one does not open.
    /// - Returns: the inventory before the rewrite.
    func resealSecrets() throws -> SecretInventory
}
