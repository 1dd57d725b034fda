public import HearthCrypto

/// Verification keys by key ID, each bound to exactly one algorithm: RSA keys to RS256, P-256 keys to ES256.
///
/// ``verify(_:)`` picks the key by the token's `kid` and verifies with *that key's* algorithm; the header's `alg`
/// must name the same algorithm, and `none` is never accepted. There is no default key and no trying of every key,
/// so an RS256 header never reaches an EC key, an ES256 header never reaches an RSA key, and HMAC is never used.
///
/// Verification covers the signature only. It does **not** check claims: `exp`, `nbf`, `iat`, `iss`, `aud`, `sub`
/// and `nonce` are the caller's job.
///
/// ```swift
/// var keys = JWTKeySet(jwks: try JSONDecoder().decode(JSONWebKeySet.self, from: jwksData))
/// keys.add(localKey, keyID: "dev-1")
/// let jwt = try keys.verify(token)
/// let claims = try jwt.claims(as: IDTokenClaims.self)
/// // now check claims.exp, claims.iss, claims.aud …
/// ```
public struct JWTKeySet: Sendable {
    /// A verification key; its type decides its one algorithm.
    private enum Entry: Sendable {
        case rsa(RSAPublicKey)
        case p256(P256PublicKey)

        var algorithm: JWSAlgorithm {
            switch self {
            case .rsa: .rs256
            case .p256: .es256
            }
        }

        func isValidSignature(_ signature: [UInt8], for signingInput: ArraySlice<UInt8>) -> Bool {
            switch self {
            case .rsa(let key): key.isValidSHA256Signature(signature, for: signingInput)
            case .p256(let key): key.isValidSHA256Signature(signature, for: signingInput)
            }
        }
    }

    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private let headers = HeaderCache()

    /// Creates an empty set.
    public init() {}

    /// Imports the usable keys of a JWKS.
    ///
    /// A key is imported when it has a non-empty `kid`, no `use` or `use` `"sig"`, and is either `kty` `"RSA"` with
    /// `n`/`e` that ``JSONWebKey/rsaPublicKey()`` accepts (bound to RS256), or `kty` `"EC"` on `crv` `"P-256"` with
    /// `x`/`y` that ``JSONWebKey/p256PublicKey()`` accepts (bound to ES256). An `alg` must be absent or name that same
    /// algorithm: a key whose `alg` disagrees with its type (`"ES256"` on an RSA key, `"HS256"` on any) is skipped.
    /// Any other key is skipped; one bad key never makes the import fail. When two keys share a `kid`, the first wins.
    ///
    /// - Parameter jwks: the key set.
    public init(jwks: JSONWebKeySet) {
        for jwk in jwks.keys {
            guard let kid = jwk.kid, !kid.isEmpty, !contains(keyID: kid) else { continue }
            guard jwk.use == nil || jwk.use == "sig" else { continue }
            switch try? jwk.boundAlgorithm() {
            case .rs256:
                if let key = try? jwk.rsaPublicKey() { add(key, keyID: kid) }
            case .es256:
                if let key = try? jwk.p256PublicKey() { add(key, keyID: kid) }
            case nil:
                continue
            }
        }
    }

    /// Adds an RSA key, bound to RS256, or replaces the key that has the same ID.
    ///
    /// - Parameters:
    ///   - key: the public key.
    ///   - keyID: its `kid`; must not be empty.
    ///   - algorithm: the one algorithm tokens for this key must use; must be ``JWSAlgorithm/rs256``.
    public mutating func add(_ key: RSAPublicKey, keyID: String, algorithm: JWSAlgorithm = .rs256) {
        precondition(algorithm == .rs256, "an RSA key is bound to RS256")
        add(.rsa(key), keyID: keyID)
    }

    /// Adds a P-256 key, bound to ES256, or replaces the key that has the same ID.
    ///
    /// - Parameters:
    ///   - key: the public key.
    ///   - keyID: its `kid`; must not be empty.
    public mutating func add(_ key: P256PublicKey, keyID: String) {
        add(.p256(key), keyID: keyID)
    }

    private mutating func add(_ entry: Entry, keyID: String) {
        precondition(!keyID.isEmpty, "JWTKeySet keys need a non-empty key ID")
        if entries.updateValue(entry, forKey: keyID) == nil {
            order.append(keyID)
        }
    }

    /// The key IDs, in the order the keys were first added.
    public var keyIDs: [String] { order }

    /// Whether a key with this ID is in the set.
    public func contains(keyID: String) -> Bool {
        entries[keyID] != nil
    }

    /// Verifies a compact JWS and returns its header and payload.
    ///
    /// The checks, in order, and the code each failure throws:
    ///
    /// 1. three dot-separated segments, header and payload not empty, all base64url without `=`: `.malformedToken`
    /// 2. the header is a JSON object with a string `alg`, and no `crit`: `.invalidHeader`
    /// 3. `alg` is not `none` (in any case) and is a registered JWS algorithm: `.unsupportedAlgorithm`
    /// 4. `kid` is present and not empty: `.missingKeyID`
    /// 5. a key has that `kid`: `.unknownKeyID`
    /// 6. `alg` is the key's algorithm: `.algorithmMismatch`
    /// 7. the signature is not empty and verifies with the key's algorithm (for ES256: exactly 64 bytes of r ‖ s,
    ///    never DER): `.invalidSignature`
    /// 8. the payload is shaped like a JSON object (`{` … `}`): `.invalidPayload`; decoding it fully is the caller's
    ///    next step (``VerifiedJWT/claims(as:)``), so it is not parsed twice
    ///
    /// Claims are not checked; see the type's documentation.
    ///
    /// - Parameter token: the compact JWS.
    /// - Returns: the verified header and payload.
    /// - Throws: ``JOSEError`` as listed.
    public func verify(_ token: String) throws(JOSEError) -> VerifiedJWT {
        try verify(token, keyID: nil)
    }

    /// Verifies a compact JWS with the key the caller chose as `keyID` (for example by the token's `iss`, for
    /// signers that send no `kid`): a `kid` in the header must name that same key. Otherwise as ``verify(_:)``.
    public func verify(_ token: String, keyID chosen: String) throws(JOSEError) -> VerifiedJWT {
        try verify(token, keyID: Optional(chosen))
    }

    private func verify(_ token: String, keyID chosen: String?) throws(JOSEError) -> VerifiedJWT {
        let jws = try CompactJWS.parse(token, headers: headers)
        let header = jws.header
        guard !jws.hasCriticalParameters else {
            throw JOSEError(.invalidHeader, reason: "the header uses \"crit\", and no extensions are understood")
        }
        guard header.alg.lowercased() != "none" else {
            throw JOSEError(.unsupportedAlgorithm, reason: "unsecured tokens (alg \"none\") are never accepted")
        }
        guard JWSAlgorithm.registeredNames.contains(header.alg) else {
            throw JOSEError(.unsupportedAlgorithm, reason: "alg \(JOSEError.quoted(header.alg)) is not a JWS algorithm")
        }
        if let chosen, let kid = header.kid, kid != chosen {
            throw JOSEError(.unknownKeyID, reason: "kid \(JOSEError.quoted(kid)) is not the key of the token's signer")
        }
        guard let kid = chosen ?? header.kid, !kid.isEmpty else {
            throw JOSEError(.missingKeyID, reason: "the header has no \"kid\"")
        }
        guard let entry = entries[kid] else {
            throw JOSEError(.unknownKeyID, reason: "no key has kid \(JOSEError.quoted(kid))")
        }
        guard header.alg == entry.algorithm.rawValue else {
            throw JOSEError(
                .algorithmMismatch,
                reason: "kid \(JOSEError.quoted(kid)) is bound to \(entry.algorithm.rawValue), the header says \(JOSEError.quoted(header.alg))")
        }
        guard !jws.signature.isEmpty else {
            throw JOSEError(.invalidSignature, reason: "the signature is empty")
        }
        guard entry.isValidSignature(jws.signature, for: jws.signingInput) else {
            throw JOSEError(.invalidSignature, reason: "the signature does not verify with kid \(JOSEError.quoted(kid))")
        }
        guard JSONObjectCheck.looksLikeObject(jws.payload) else {
            throw JOSEError(.invalidPayload, reason: "the payload is not a JSON object")
        }
        return VerifiedJWT(header: header, payload: jws.payload)
    }
}
