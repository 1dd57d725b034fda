internal import COpenSSL

/// Helpers that move PEM text in and out of OpenSSL through memory BIOs. Pointers never leave these functions.
enum MemoryBIO {
    /// Runs `body` with a fresh writable memory BIO and returns everything written to it as text.
    ///
    /// - Parameters:
    ///   - operation: the name used in the error if `body` reports failure.
    ///   - body: writes into the BIO and returns whether it succeeded.
    static func writeText(operation: String, _ body: (OpaquePointer) -> Bool) throws(OpenSSLError) -> String {
        OpenSSLError.clearQueue()
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw OpenSSLError.drainingQueue(operation: "BIO_new")
        }
        defer { BIO_free(bio) }
        guard body(bio) else {
            throw OpenSSLError.drainingQueue(operation: operation)
        }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = hearth_openssl_bio_get_mem_data(bio, &data)
        guard length > 0, let data else {
            throw OpenSSLError.drainingQueue(operation: operation)
        }
        let bytes = UnsafeRawBufferPointer(start: data, count: Int(length))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One PEM block: its label (the text after `-----BEGIN `), whether it has RFC 1421 headers such as
    /// `Proc-Type: 4,ENCRYPTED`, and its decoded DER bytes.
    struct PEMBlock {
        var label: String
        var hasHeaders: Bool
        var der: [UInt8]
    }

    /// Reads the first PEM block in `text` with `PEM_read_bio`. Text before the block is ignored, as OpenSSL does.
    ///
    /// Reading the block generically (instead of with a typed `PEM_read_bio_*` call) lets callers check the label
    /// first, and never triggers OpenSSL's interactive password prompt for encrypted keys.
    static func readPEMBlock(_ text: String) throws(CryptoError) -> PEMBlock {
        let utf8 = Array(text.utf8)
        guard !utf8.isEmpty, utf8.count <= Int(Int32.max) else {
            throw CryptoError(.unsupportedFormat, reason: "no PEM block found")
        }
        OpenSSLError.clearQueue()
        let block: PEMBlock? = utf8.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            var name: UnsafeMutablePointer<CChar>? = nil
            var header: UnsafeMutablePointer<CChar>? = nil
            var data: UnsafeMutablePointer<UInt8>? = nil
            var length: Int = 0
            guard PEM_read_bio(bio, &name, &header, &data, &length) == 1, let name, let data else {
                hearth_openssl_free(name)
                hearth_openssl_free(header)
                hearth_openssl_free(data)
                return nil
            }
            defer {
                hearth_openssl_free(name)
                hearth_openssl_free(header)
                // The DER of a private key is secret: wipe it before handing the memory back.
                OPENSSL_cleanse(data, length)
                hearth_openssl_free(data)
            }
            let hasHeaders = header.map { $0.pointee != 0 } ?? false
            return PEMBlock(
                label: String(cString: name),
                hasHeaders: hasHeaders,
                der: Array(UnsafeBufferPointer(start: data, count: length)))
        }
        // Whatever PEM_read_bio queued (typically "no start line") is summarised by the error below.
        OpenSSLError.clearQueue()
        guard let block else {
            throw CryptoError(.unsupportedFormat, reason: "no readable PEM block found")
        }
        return block
    }
}

/// Conversions between big-endian byte strings and OpenSSL `BIGNUM`s.
enum BigNumber {
    /// Runs `body` with a temporary `BIGNUM` holding `bytes` (big-endian, unsigned), wiping and freeing it after.
    static func with<Result>(
        _ bytes: [UInt8], _ body: (OpaquePointer) throws(CryptoError) -> Result
    ) throws(CryptoError) -> Result {
        guard bytes.count <= Int(Int32.max), let number = BN_bin2bn(bytes, Int32(bytes.count), nil) else {
            OpenSSLError.clearQueue()
            throw CryptoError(.invalidKey, reason: "could not load a key component")
        }
        defer { BN_clear_free(number) }
        return try body(number)
    }

    /// The big-endian bytes of `number`, without leading zero bytes (zero gives an empty array).
    static func bytes(of number: OpaquePointer) -> [UInt8] {
        let count = (Int(BN_num_bits(number)) + 7) / 8
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 {
                initialized = Int(BN_bn2bin(number, buffer.baseAddress))
            } else {
                initialized = 0
            }
        }
    }

    /// Removes leading zero bytes from a big-endian byte string.
    static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return [] }
        return Array(bytes[first...])
    }
}
