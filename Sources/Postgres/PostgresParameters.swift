/// Parameter values laid out the way `PQexecPrepared` takes them: a pointer, a length and a format per
/// parameter. Text-form values are NUL-terminated text (format 0); `.bytes` is raw binary (format 1); `.null`
/// is a null pointer.
struct PostgresParameters: ~Copyable {
    private let buffers: [UnsafeMutableRawBufferPointer?]
    let lengths: [Int32]
    let formats: [Int32]

    /// - Throws: `PostgresError` for text containing the NUL character (PostgreSQL text cannot hold it, and libpq
    ///   would silently cut the value there) or a value longer than libpq can send; the error names the
    ///   parameter, not its value.
    init(_ parameters: [PostgresValue]) throws {
        var buffers: [UnsafeMutableRawBufferPointer?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        do {
            for (index, parameter) in parameters.enumerated() {
                let (bytes, format) = try Self.encode(parameter, number: index + 1)
                guard let bytes else {
                    buffers.append(nil)
                    lengths.append(0)
                    formats.append(0)
                    continue
                }
                guard let length = Int32(exactly: bytes.count) else {
                    throw PostgresError(message: "parameter $\(index + 1) is too long to send")
                }
                // One spare byte: the terminating NUL of a text value, and a non-null pointer for empty bytes.
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count + 1, alignment: 1)
                buffer.copyBytes(from: bytes)
                buffer[bytes.count] = 0
                buffers.append(buffer)
                lengths.append(length)
                formats.append(format)
            }
        } catch {
            for buffer in buffers { buffer?.deallocate() }
            throw error
        }
        self.buffers = buffers
        self.lengths = lengths
        self.formats = formats
    }

    /// No parameters.
    init() {
        buffers = []
        lengths = []
        formats = []
    }

    deinit {
        for buffer in buffers { buffer?.deallocate() }
    }

    var count: Int32 { Int32(buffers.count) }

    /// The value pointers, valid while `self` lives.
    var values: [UnsafePointer<CChar>?] {
        buffers.map { $0.map { UnsafePointer($0.baseAddress!.assumingMemoryBound(to: CChar.self)) } }
    }

    /// The bytes to send (`nil` for NULL) and the format: 0 text, 1 binary.
    private static func encode(_ value: PostgresValue, number: Int) throws -> ([UInt8]?, Int32) {
        switch value {
        case .null:
            return (nil, 0)
        case .text(let text):
            guard !text.utf8.contains(0) else {
                throw PostgresError(message: "parameter $\(number) is text containing the NUL character")
            }
            return (Array(text.utf8), 0)
        case .int64(let number):
            return (Array(String(number).utf8), 0)
        case .bool(let flag):
            return (Array((flag ? "t" : "f").utf8), 0)
        case .bytes(let bytes):
            return (bytes, 1)
        }
    }
}
