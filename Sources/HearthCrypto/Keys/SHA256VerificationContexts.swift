internal import COpenSSL
internal import Synchronization

/// A small pool of `EVP_PKEY_CTX`s initialised for checking signatures over SHA-256 digests with one public key.
///
/// This is the hot path of token verification: a check hashes the message and reuses an idle context, so it makes
/// no OpenSSL algorithm look-ups per call.
///
/// `@unchecked Sendable`: the key is never modified, and OpenSSL allows concurrent read-only use of an `EVP_PKEY`.
/// The only mutable state, the idle contexts, sits behind a `Mutex`, and a context is used by one thread at a time
/// between check-out and check-in.
final class SHA256VerificationContexts: @unchecked Sendable {
    /// An initialised `EVP_PKEY_CTX *`. `@unchecked Sendable`: handed between threads only through the `Mutex`.
    private struct Context: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Idle contexts kept for reuse; more than this many idle ones are freed instead.
    private static let maximumIdleContexts = 64

    private let key: OpaquePointer
    private let rsaPadding: Int32?
    private let idleContexts: Mutex<[Context]>

    /// Makes the first context now, so a key OpenSSL cannot verify with is refused here, not on first use.
    ///
    /// - Parameters:
    ///   - key: the public key; the pool holds its own reference to it.
    ///   - rsaPadding: the RSA padding mode for RSA keys, `nil` for other key types.
    init(key: OpaquePointer, rsaPadding: Int32?) throws(OpenSSLError) {
        let first = try Self.makeContext(for: key, rsaPadding: rsaPadding)
        EVP_PKEY_up_ref(key)
        self.key = key
        self.rsaPadding = rsaPadding
        var idle: [Context] = []
        idle.reserveCapacity(Self.maximumIdleContexts)
        idle.append(first)
        self.idleContexts = Mutex(idle)
    }

    deinit {
        idleContexts.withLock { contexts in
            for context in contexts {
                EVP_PKEY_CTX_free(context.pointer)
            }
            contexts.removeAll()
        }
        EVP_PKEY_free(key)
    }

    /// Whether `signature` (in the key type's own encoding: PKCS#1 v1.5 bytes, or a DER ECDSA-Sig-Value) is valid
    /// for the SHA-256 digest of `message`.
    func isValid(_ signature: [UInt8], forSHA256Of message: ArraySlice<UInt8>) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA256.byteCount) { digest in
            message.withUnsafeBytes { input in
                FetchedDigest.sha256.hash(input.baseAddress, count: input.count, into: digest.baseAddress!)
            }
            let context = checkOut()
            defer { checkIn(context) }
            let status = signature.withUnsafeBufferPointer { signatureBytes in
                EVP_PKEY_verify(context.pointer, signatureBytes.baseAddress, signatureBytes.count, digest.baseAddress, digest.count)
            }
            guard status == 1 else {
                // A rejected signature leaves entries on this thread's error queue; don't let them pile up.
                OpenSSLError.clearQueue()
                return false
            }
            return true
        }
    }

    private static func makeContext(for key: OpaquePointer, rsaPadding: Int32?) throws(OpenSSLError) -> Context {
        OpenSSLError.clearQueue()
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_CTX_new_from_pkey")
        }
        guard EVP_PKEY_verify_init(context) == 1,
            rsaPadding.map({ EVP_PKEY_CTX_set_rsa_padding(context, $0) == 1 }) ?? true,
            EVP_PKEY_CTX_set_signature_md(context, FetchedDigest.sha256.pointer) == 1
        else {
            EVP_PKEY_CTX_free(context)
            throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_verify_init")
        }
        return Context(pointer: context)
    }

    private func checkOut() -> Context {
        if let idle = idleContexts.withLock({ $0.popLast() }) {
            return idle
        }
        do {
            return try Self.makeContext(for: key, rsaPadding: rsaPadding)
        } catch {
            // The same call succeeded when this pool was made; failing now means memory ran out.
            preconditionFailure("\(error)")
        }
    }

    private func checkIn(_ context: Context) {
        let kept = idleContexts.withLock { contexts -> Bool in
            guard contexts.count < Self.maximumIdleContexts else { return false }
            contexts.append(context)
            return true
        }
        if !kept {
            EVP_PKEY_CTX_free(context.pointer)
        }
    }
}
