public import Foundation
public import JOSE
import HearthCrypto
import Synchronization

/// The RS256 keys of one issuer: the current key signs, and every key whose tokens may still be
/// valid is published (JWKS and X.509) so that rotation never breaks verification.
///
/// Keys live in the store so that every instance signs with the same key; an instance reloads them
/// when asked to verify a token with an unknown `kid`, and at most every `reloadInterval` seconds.
public final class SigningKeyRing: Sendable {
    /// Which keys in the shared `signing_keys` table belong to this ring.
    public enum Owner: Sendable {
        /// Hearth's own ID tokens.
        case sessions
        /// The development Google look-alike (its key ids start with `devidp-`).
        case devIdentityProvider
        /// The development Sign in with Apple look-alike (its key ids start with `devapple-`).
        case devApple

        var keyIDPrefix: String {
            switch self {
            case .sessions: ""
            case .devIdentityProvider: "devidp-"
            case .devApple: "devapple-"
            }
        }

        func owns(_ keyID: String) -> Bool {
            switch self {
            case .sessions:
                !keyID.hasPrefix(Owner.devIdentityProvider.keyIDPrefix) && !keyID.hasPrefix(Owner.devApple.keyIDPrefix)
            case .devIdentityProvider, .devApple: keyID.hasPrefix(keyIDPrefix)
            }
        }
    }

    /// A snapshot of the ring.
    public struct Keys: Sendable {
        public let signer: JWTSigner
        public let verification: JWTKeySet
        public let published: JSONWebKeySet
        /// `kid` → PEM certificate, for google-auth-style verifiers.
        public let certificates: [String: String]
        /// `published` and `certificates` as JSON, encoded once per key change (served as they are).
        public let publishedJSON: Data
        public let certificatesJSON: Data
        public let records: [SigningKeyRecord]
        var loadedAt: Int64
    }

    private let store: any HearthStore
    private let time: any TimeSource
    private let owner: Owner
    private let tokenLifetime: Int64
    private let reloadInterval: Int64
    private let audit: AuditRecorder
    private let state: Mutex<Keys?> = Mutex(nil)
    /// Certificates are costly to make; keep them per key id across reloads.
    private let certificateCache: Mutex<[String: String]> = Mutex([:])

    /// - Parameter audit: records rotations.
    public init(
        store: any HearthStore, time: any TimeSource, owner: Owner = .sessions, tokenLifetime: Int64 = 3600,
        reloadInterval: Int64 = 5, audit: AuditLog = AuditLog()
    ) {
        self.audit = AuditRecorder(audit, time: time)
        self.store = store
        self.time = time
        self.owner = owner
        self.tokenLifetime = tokenLifetime
        self.reloadInterval = reloadInterval
    }

    /// Loads the keys, creating the first one if the store has none. Call once at start.
    @discardableResult
    public func loadOrCreate() throws -> Keys {
        let records = try store.write { writer -> [SigningKeyRecord] in
            let existing = try writer.signingKeys().filter { owner.owns($0.keyID) }
            if existing.contains(where: { $0.retiredAt == nil }) { return existing }
            try writer.insertSigningKey(try makeKey())
            return try writer.signingKeys().filter { owner.owns($0.keyID) }
        }
        return try install(records)
    }

    /// The current keys, reloading them from the store when they are older than the reload interval.
    public func current() throws -> Keys {
        if let keys = state.withLock({ $0 }), time.nowSeconds - keys.loadedAt < reloadInterval {
            return keys
        }
        return try reload()
    }

    /// Re-reads the keys from the store (for example after another instance rotated them); keys are only
    /// parsed again when the stored set changed.
    @discardableResult
    public func reload() throws -> Keys {
        let records = try store.read { try $0.signingKeys() }.filter { owner.owns($0.keyID) }
        guard records.contains(where: { $0.retiredAt == nil }) else { return try loadOrCreate() }
        let now = time.nowSeconds
        let unchanged = state.withLock { installed -> Keys? in
            guard var keys = installed, keys.records == records, !hasExpiredKeys(keys, now: now) else { return nil }
            keys.loadedAt = now
            installed = keys
            return keys
        }
        if let unchanged { return unchanged }
        return try install(records)
    }

    /// Checks the signature of `token` with the published keys, reloading them once for an unknown `kid` (a
    /// key another instance just made). Claims are the caller's to check.
    public func verify(_ token: String) throws -> VerifiedJWT {
        do {
            return try current().verification.verify(token)
        } catch let error as JOSEError where error.code == .unknownKeyID {
            return try reload().verification.verify(token)
        }
    }

    /// Whether a retired key in `keys` has passed its publication window since it was installed.
    private func hasExpiredKeys(_ keys: Keys, now: Int64) -> Bool {
        keys.records.contains { record in
            guard let retiredAt = record.retiredAt else { return false }
            return !isPublished(retiredAt: retiredAt, now: now) && keys.verification.contains(keyID: record.keyID)
        }
    }

    /// Makes a new current key; the previous one stays published until its tokens have expired, and
    /// keys past that point are deleted. Returns the new key's record.
    /// - Parameter caller: who rotated it, for the audit log.
    @discardableResult
    public func rotate(by caller: Caller) throws -> SigningKeyRecord {
        let now = time.nowSeconds
        let newKey = try makeKey()
        let records = try store.write { writer -> [SigningKeyRecord] in
            for record in try writer.signingKeys() where owner.owns(record.keyID) {
                if record.retiredAt == nil {
                    try writer.retireSigningKey(keyID: record.keyID, at: now)
                } else if let retiredAt = record.retiredAt, !isPublished(retiredAt: retiredAt, now: now) {
                    try writer.deleteSigningKey(keyID: record.keyID)
                }
            }
            try writer.insertSigningKey(newKey)
            try audit.record(.keyRotated, by: caller, detail: "key=\(newKey.keyID)", in: writer)
            return try writer.signingKeys().filter { owner.owns($0.keyID) }
        }
        try install(records)
        return newKey
    }

    /// A retired key stays published while tokens it signed can still be unexpired (plus a margin for skew).
    private func isPublished(retiredAt: Int64, now: Int64) -> Bool {
        retiredAt + tokenLifetime + 600 > now
    }

    private func makeKey() throws -> SigningKeyRecord {
        let key = try RSAPrivateKey.generate(bits: 2048)
        return SigningKeyRecord(
            keyID: Identifiers.keyID(prefix: owner.keyIDPrefix), algorithm: JWSAlgorithm.rs256.rawValue,
            privateKeyPEM: key.pemRepresentation, createdAt: time.nowSeconds)
    }

    @discardableResult
    private func install(_ records: [SigningKeyRecord]) throws -> Keys {
        let now = time.nowSeconds
        guard let currentRecord = records.last(where: { $0.retiredAt == nil }) else {
            throw StoreError(.corrupt, "no current signing key")
        }
        var verification = JWTKeySet()
        var published: [JSONWebKey] = []
        var certificates: [String: String] = [:]
        var signer: JWTSigner?
        for record in records where record.retiredAt.map({ isPublished(retiredAt: $0, now: now) }) ?? true {
            guard record.algorithm == JWSAlgorithm.rs256.rawValue else { continue }
            let privateKey = try RSAPrivateKey(pemRepresentation: record.privateKeyPEM)
            verification.add(privateKey.publicKey, keyID: record.keyID, algorithm: .rs256)
            published.append(JSONWebKey(publicKey: privateKey.publicKey, keyID: record.keyID, algorithm: .rs256))
            certificates[record.keyID] = try certificate(for: record, key: privateKey)
            if record.keyID == currentRecord.keyID {
                signer = JWTSigner(privateKey: privateKey, keyID: record.keyID, algorithm: .rs256)
            }
        }
        guard let signer else { throw StoreError(.corrupt, "current signing key has an unsupported algorithm") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let keySet = JSONWebKeySet(keys: published)
        let keys = Keys(
            signer: signer, verification: verification, published: keySet, certificates: certificates,
            publishedJSON: try encoder.encode(keySet), certificatesJSON: try encoder.encode(certificates),
            records: records, loadedAt: now)
        state.withLock { $0 = keys }
        return keys
    }

    private func certificate(for record: SigningKeyRecord, key: RSAPrivateKey) throws -> String {
        if let cached = certificateCache.withLock({ $0[record.keyID] }) { return cached }
        let start = Date(timeIntervalSince1970: TimeInterval(record.createdAt - 3600))
        let pem = try X509Certificate.selfSignedPEM(
            for: key, commonName: "securetoken.system.gserviceaccount.com", notBefore: start,
            notAfter: start.addingTimeInterval(10 * 365 * 86400))
        certificateCache.withLock { $0[record.keyID] = pem }
        return pem
    }
}
