public import HearthCrypto

/// Verification keys by key ID, each bound to exactly one algorithm.
///
/// ``verify(_:)`` picks the key by the token's `kid` and verifies with *that key's* algorithm; the header's `alg`
/// must name the same algorithm, and `none` is never accepted. There is no default key and no trying of every key.
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
    private struct Entry: Sendable {
        var key: RSAPublicKey
        var algorithm: JWSAlgorithm
    }

    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private let headers = HeaderCache()

    /// Creates an empty set.
    public init() {}

    /// Imports the usable keys of a JWKS.
    ///
    /// A key is imported when it has a non-empty `kid`, `kty` `"RSA"`, no `use` or `use` `"sig"`, an `alg` that is
    /// absent (bound to RS256) or one of ``JWSAlgorithm``, and `n`/`e` that ``JSONWebKey/rsaPublicKey()`` accepts.
    /// Any other key is skipped; one bad key never makes the import fail. When two keys share a `kid`, the first wins.
    ///
    /// - Parameter jwks: the key set.
    public init(jwks: JSONWebKeySet) {
        for jwk in jwks.keys {
            guard let kid = jwk.kid, !kid.isEmpty, !contains(keyID: kid), jwk.kty == "RSA" else { continue }
            guard jwk.use == nil || jwk.use == "sig" else { continue }
            guard let algorithm = jwk.alg.map(JWSAlgorithm.init(rawValue:)) ?? .rs256 else { continue }
            guard let key = try? jwk.rsaPublicKey() else { continue }
            add(key, keyID: kid, algorithm: algorithm)
        }
    }

    /// Adds a key, or replaces the key that has the same ID.
    ///
    /// - Parameters:
    ///   - key: the public key.
    ///   - keyID: its `kid`; must not be empty.
    ///   - algorithm: the one algorithm tokens for this key must use.
    public mutating func add(_ key: RSAPublicKey, keyID: String, algorithm: JWSAlgorithm = .rs256) {
        precondition(!keyID.isEmpty, "JWTKeySet keys need a non-empty key ID")
        if entries.updateValue(Entry(key: key, algorithm: algorithm), forKey: keyID) == nil {
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
    /// 7. the signature is not empty and verifies with the key's algorithm: `.invalidSignature`
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
        let valid: Bool
        switch entry.algorithm {
        case .rs256:
            valid = entry.key.isValidSHA256Signature(jws.signature, for: jws.signingInput)
        }
        guard valid else {
            throw JOSEError(.invalidSignature, reason: "the signature does not verify with kid \(JOSEError.quoted(kid))")
        }
        guard JSONObjectCheck.looksLikeObject(jws.payload) else {
            throw JOSEError(.invalidPayload, reason: "the payload is not a JSON object")
        }
        return VerifiedJWT(header: header, payload: jws.payload)
    }
}
