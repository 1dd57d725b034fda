/// Seals secrets for storage with AES-256-GCM under the current key, and opens what the current or a previous
/// key sealed, so keys can rotate.
///
/// A sealed value is ASCII text that says how it was sealed:
///
///     hearth-sealed:v1:<key id>:<base64url(nonce ‖ ciphertext ‖ tag)>
///
/// The key id is the first 8 bytes of the SHA-256 of the key, in hex (`base64 -d | sha256sum | cut -c1-16` of
/// the key's base64), so the keyring finds the key that opens a value without trying them all.
///
/// The caller's `context` names the record that holds the secret. Each value is sealed with a random 96-bit
/// nonce under a key derived for its record, HMAC-SHA256(key, header ‖ context), with header ‖ context as
/// associated data. So a value moved to another record, or given another header, does not open; and the
/// 2³² bound on random nonces applies to the seals of one record, not to all seals under a key (a record is
/// sealed again each time it is written).
///
/// ```swift
/// let keyring = SecretKeyring(current: try .init(newKeyBytes), previous: [try .init(oldKeyBytes)])
/// let stored = try keyring.seal(secret, context: Array("signing_keys/k1".utf8))
/// let secret = try keyring.open(stored, context: Array("signing_keys/k1".utf8))
/// ```
public struct SecretKeyring: Sendable {
    /// A 256-bit sealing key and its id. Its description shows only the id.
    public struct Key: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
        /// 16 lower-case hex characters: the first 8 bytes of the key's SHA-256.
        public let id: String
        private let bytes: [UInt8]

        /// - Throws: ``CryptoError`` `.invalidKey` unless `bytes` holds exactly 32 bytes.
        public init(_ bytes: [UInt8]) throws {
            guard bytes.count == AES256GCM.Key.byteCount else {
                throw CryptoError(.invalidKey, reason: "a sealing key is \(AES256GCM.Key.byteCount) bytes, not \(bytes.count)")
            }
            self.bytes = bytes
            id = Hex.encode(SHA256.hash(bytes).prefix(8))
        }

        /// The AES key for one record's values: HMAC-SHA256(key, header ‖ context).
        func recordKey(_ headerAndContext: [UInt8]) throws -> AES256GCM.Key {
            try AES256GCM.Key(HMAC.sha256(key: bytes, message: headerAndContext))
        }

        public var description: String { "SecretKeyring.Key(\(id))" }
        public var debugDescription: String { description }
    }

    /// The key that seals.
    public let current: Key
    /// Keys that only open (older keys during a rotation), without the current key.
    public let previous: [Key]

    /// - Parameters:
    ///   - current: seals, and opens what it sealed.
    ///   - previous: open only; a repeat of `current` or of each other is dropped.
    public init(current: Key, previous: [Key] = []) {
        self.current = current
        var seen: Set<String> = [current.id]
        self.previous = previous.filter { seen.insert($0.id).inserted }
    }

    /// Every key id that opens, the current key's first.
    public var keyIDs: [String] { [current.id] + previous.map(\.id) }

    /// Whether `stored` is in the sealed format (of any version), as opposed to a plain value.
    public static func isSealed(_ stored: [UInt8]) -> Bool {
        stored.starts(with: SealedFormat.marker)
    }

    /// The id of the key that sealed `stored`, or nil when it is not a well-formed sealed value.
    public static func keyID(ofSealed stored: [UInt8]) -> String? {
        try? SealedFormat(parsing: stored).keyID
    }

    /// Seals `secret` under the current key, bound to `context`.
    /// - Returns: the sealed value (ASCII).
    /// - Throws: ``OpenSSLError`` when OpenSSL fails.
    public func seal(_ secret: [UInt8], context: [UInt8]) throws -> [UInt8] {
        let nonce = SecureRandom.bytes(count: AES256GCM.nonceByteCount)
        let associatedData = SealedFormat.header(keyID: current.id) + context
        let sealed = try AES256GCM.seal(
            secret, key: try current.recordKey(associatedData), nonce: nonce, associatedData: associatedData)
        return SealedFormat.header(keyID: current.id) + Array(Base64URL.encode(nonce + sealed).utf8)
    }

    /// Opens a sealed value with the key that sealed it.
    /// - Throws: ``CryptoError`` `.unsupportedFormat` when `stored` is not a sealed value of a known version,
    ///   `.unknownKey` when no key here has its key id, `.authenticationFailed` when it does not open under that
    ///   key with `context` (changed bytes, or sealed for another context).
    public func open(_ stored: [UInt8], context: [UInt8]) throws -> [UInt8] {
        let sealed = try SealedFormat(parsing: stored)
        guard let key = ([current] + previous).first(where: { $0.id == sealed.keyID }) else {
            throw CryptoError(.unknownKey, reason: "sealed under key \(sealed.keyID), which is not configured")
        }
        let associatedData = SealedFormat.header(keyID: sealed.keyID) + context
        return try AES256GCM.open(
            sealed.ciphertextAndTag, key: try key.recordKey(associatedData), nonce: sealed.nonce,
            associatedData: associatedData)
    }
}

/// The parts of a sealed value: `hearth-sealed:v1:<16 hex key id>:<base64url(nonce ‖ ciphertext ‖ tag)>`.
private struct SealedFormat {
    static let marker = Array("hearth-sealed:".utf8)
    static let version1 = Array("v1:".utf8)
    static let keyIDLength = 16

    let keyID: String
    let nonce: [UInt8]
    let ciphertextAndTag: [UInt8]

    static func isLowerHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    static func header(keyID: String) -> [UInt8] { marker + version1 + Array(keyID.utf8) + [UInt8(ascii: ":")] }

    init(parsing stored: [UInt8]) throws {
        guard stored.starts(with: Self.marker) else {
            throw CryptoError(.unsupportedFormat, reason: "not a sealed value")
        }
        let afterMarker = stored.dropFirst(Self.marker.count)
        guard afterMarker.starts(with: Self.version1) else {
            throw CryptoError(.unsupportedFormat, reason: "sealed in a format version this Hearth does not know")
        }
        let rest = afterMarker.dropFirst(Self.version1.count)
        let keyID = rest.prefix(Self.keyIDLength)
        guard keyID.count == Self.keyIDLength, keyID.allSatisfy(Self.isLowerHexDigit),
            rest.dropFirst(Self.keyIDLength).first == UInt8(ascii: ":"),
            let payload = Base64URL.decode(String(decoding: rest.dropFirst(Self.keyIDLength + 1), as: UTF8.self)),
            payload.count >= AES256GCM.nonceByteCount + AES256GCM.tagByteCount
        else {
            throw CryptoError(.unsupportedFormat, reason: "malformed sealed value")
        }
        self.keyID = String(decoding: keyID, as: UTF8.self)
        nonce = Array(payload.prefix(AES256GCM.nonceByteCount))
        ciphertextAndTag = Array(payload.dropFirst(AES256GCM.nonceByteCount))
    }
}
