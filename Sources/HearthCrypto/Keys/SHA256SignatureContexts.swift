internal import COpenSSL
internal import Synchronization

/// A small pool of `EVP_PKEY_CTX`s initialised for making or checking signatures over SHA-256 digests with one key.
///
/// This is the hot path of token signing and verification: a call hashes the message and reuses an idle context, so
/// it makes no OpenSSL algorithm look-ups per call.
///
/// `@unchecked Sendable`: the key is never modified, and OpenSSL allows concurrent use of an `EVP_PKEY` by separate
/// contexts. The only mutable state, the idle contexts, sits behind a `Mutex`, and a context is used by one thread at
/// a time between check-out and check-in.
final class SHA256SignatureContexts: @unchecked Sendable {
    /// What the contexts are initialised for.
    enum Operation {
        case sign
        case verify
    }

    /// An initialised `EVP_PKEY_CTX *`. `@unchecked Sendable`: handed between threads only through the `Mutex`.
    private struct Context: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Idle contexts kept for reuse; more than this many idle ones are freed instead.
    private static let maximumIdleContexts = 64

    private let key: OpaquePointer
    private let operation: Operation
    private let rsaPadding: Int32?
    private let idleContexts: Mutex<[Context]>

    /// Makes the first context now, so a key OpenSSL cannot use is refused here, not on first use.
    ///
    /// - Parameters:
    ///   - key: the key (a key pair for signing); the pool holds its own reference to it.
    ///   - operation: signing or verifying.
    ///   - rsaPadding: the RSA padding mode for RSA keys, `nil` for other key types.
    init(key: OpaquePointer, operation: Operation, rsaPadding: Int32?) throws(OpenSSLError) {
        let first = try Self.makeContext(for: key, operation: operation, rsaPadding: rsaPadding)
        EVP_PKEY_up_ref(key)
        self.key = key
        self.operation = operation
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
    /// for the SHA-256 digest of `message`. Only for verification pools.
    func isValid(_ signature: [UInt8], forSHA256Of message: ArraySlice<UInt8>) -> Bool {
        precondition(operation == .verify, "a signing pool does not verify")
        return withSHA256(of: message) { digest in
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

    /// Signs the SHA-256 digest of `message`, in the key type's own encoding (PKCS#1 v1.5 bytes for RSA, a DER
    /// ECDSA-Sig-Value for EC). Only for signing pools.
    func sign(sha256Of message: ArraySlice<UInt8>) throws(OpenSSLError) -> [UInt8] {
        precondition(operation == .sign, "a verification pool does not sign")
        OpenSSLError.clearQueue()
        let capacity = Int(EVP_PKEY_get_size(key))
        let signature = withSHA256(of: message) { digest in
            let context = checkOut()
            defer { checkIn(context) }
            var failed = false
            let signature = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                var length = capacity
                failed = EVP_PKEY_sign(context.pointer, buffer.baseAddress, &length, digest.baseAddress, digest.count) != 1
                initialized = failed ? 0 : length
            }
            return failed ? nil : signature
        }
        guard let signature else {
            throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_sign")
        }
        return signature
    }

    private func withSHA256<Result>(of message: ArraySlice<UInt8>, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA256.byteCount) { digest in
            message.withUnsafeBytes { input in
                FetchedDigest.sha256.hash(input.baseAddress, count: input.count, into: digest.baseAddress!)
            }
            return body(digest)
        }
    }

    private static func makeContext(for key: OpaquePointer, operation: Operation, rsaPadding: Int32?) throws(OpenSSLError) -> Context {
        OpenSSLError.clearQueue()
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            throw OpenSSLError.drainingQueue(operation: "EVP_PKEY_CTX_new_from_pkey")
        }
        let initialised = switch operation {
        case .sign: EVP_PKEY_sign_init(context)
        case .verify: EVP_PKEY_verify_init(context)
        }
        guard initialised == 1,
            rsaPadding.map({ EVP_PKEY_CTX_set_rsa_padding(context, $0) == 1 }) ?? true,
            EVP_PKEY_CTX_set_signature_md(context, FetchedDigest.sha256.pointer) == 1
        else {
            EVP_PKEY_CTX_free(context)
            throw OpenSSLError.drainingQueue(operation: operation == .sign ? "EVP_PKEY_sign_init" : "EVP_PKEY_verify_init")
        }
        return Context(pointer: context)
    }

    private func checkOut() -> Context {
        if let idle = idleContexts.withLock({ $0.popLast() }) {
            return idle
        }
        do {
            return try Self.makeContext(for: key, operation: operation, rsaPadding: rsaPadding)
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
