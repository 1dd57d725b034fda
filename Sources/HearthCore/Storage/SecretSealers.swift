public import HearthCrypto

/// The sealer when no encryption key is configured: values are stored as they are. A value that was sealed
/// (under a key that is no longer configured) does not open, with an error that says so.
public struct PlaintextSecretSealer: SecretSealer {
    public init() {}

    public var encrypts: Bool { false }

    public func seal(_ secret: [UInt8], for field: SecretField) throws -> [UInt8] { secret }

    public func open(_ stored: [UInt8], for field: SecretField) throws -> [UInt8] {
        guard SecretKeyring.isSealed(stored) else { return stored }
        let key = SecretKeyring.keyID(ofSealed: stored).map { " under key \($0)" } ?? ""
        throw StoreError(.unavailable, "\(field) is encrypted\(key), but no encryption key is configured")
    }

    public func state(of stored: [UInt8]) -> StoredSecretState {
        SecretKeyring.isSealed(stored) ? .sealedWithOtherKey : .plain
    }
}

/// Seals with AES-256-GCM under the keyring's current key and opens under any of its keys (see
/// ``SecretKeyring`` for the format). Plain values written before encryption was turned on are read as they are.
public struct KeyringSecretSealer: SecretSealer {
    public let keyring: SecretKeyring

    public init(keyring: SecretKeyring) {
        self.keyring = keyring
    }

    /// A sealer whose current key is `currentKey` and which also opens with `previousKeys` (32 bytes each).
    /// - Throws: `CryptoError` `.invalidKey` for a key of another length.
    public init(currentKey: [UInt8], previousKeys: [[UInt8]] = []) throws {
        keyring = SecretKeyring(current: try .init(currentKey), previous: try previousKeys.map { try .init($0) })
    }

    public var encrypts: Bool { true }

    /// The id of the key that seals (see ``SecretKeyring/Key/id``), for operators.
    public var currentKeyID: String { keyring.current.id }

    public func seal(_ secret: [UInt8], for field: SecretField) throws -> [UInt8] {
        do {
            return try keyring.seal(secret, context: field.associatedData)
        } catch {
            throw StoreError(.unavailable, "cannot encrypt \(field): \(error)")
        }
    }

    public func open(_ stored: [UInt8], for field: SecretField) throws -> [UInt8] {
        guard SecretKeyring.isSealed(stored) else { return stored }
        do {
            return try keyring.open(stored, context: field.associatedData)
        } catch let error as CryptoError where error.code == .unknownKey {
            let key = SecretKeyring.keyID(ofSealed: stored) ?? "?"
            throw StoreError(
                .unavailable,
                "\(field) is encrypted under key \(key), which is not configured (configured: "
                    + "\(keyring.keyIDs.joined(separator: ", ")))")
        } catch let error as CryptoError where error.code == .authenticationFailed {
            throw StoreError(.corrupt, "\(field) does not decrypt: it was changed, or copied from another record")
        } catch {
            throw StoreError(.corrupt, "\(field) cannot be decrypted: \(error)")
        }
    }

    public func state(of stored: [UInt8]) -> StoredSecretState {
        guard SecretKeyring.isSealed(stored) else { return .plain }
        return SecretKeyring.keyID(ofSealed: stored) == keyring.current.id ? .sealedWithCurrentKey : .sealedWithOtherKey
    }
}
