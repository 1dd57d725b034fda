/// Runs one OpenSSL password-based key derivation that writes `byteCount` bytes, giving `derive` the password,
/// salt and output pointers; a status other than 1 becomes an ``OpenSSLError`` naming `operation`.
func derivePasswordKey(
    password: [UInt8], salt: [UInt8], byteCount: Int, operation: String,
    _ derive: (UnsafePointer<CChar>?, UnsafePointer<UInt8>?, UnsafeMutablePointer<UInt8>?) -> Int32
) throws -> [UInt8] {
    OpenSSLError.clearQueue()
    var status: Int32 = 0
    let output = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
        status = password.withUnsafeBytes { passwordBytes in
            salt.withUnsafeBytes { saltBytes in
                derive(
                    passwordBytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                    saltBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), buffer.baseAddress)
            }
        }
        initialized = status == 1 ? byteCount : 0
    }
    guard status == 1 else { throw OpenSSLError.drainingQueue(operation: operation) }
    return output
}
