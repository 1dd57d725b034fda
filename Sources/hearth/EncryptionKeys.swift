import Foundation
import HearthCommandLine
import HearthCore

/// Where keys for secrets at rest come from: base64 text in an environment variable, or a file that holds one
/// key per line (blank lines and lines starting with `#` are skipped) and that only its owner may read.
/// A key is 32 random bytes in standard base64 (`openssl rand -base64 32`).
enum EncryptionKeySource: Equatable {
    /// Keys given directly, comma-separated; `name` is the variable, for messages (the value never is).
    case value(String, name: String)
    case file(String)

    /// The source set in `environment` by the `value` or the `file` variable; both set is an error.
    init?(environment: [String: String], value valueName: String, file fileName: String) throws {
        let value = environment[valueName].flatMap { $0.isEmpty ? nil : $0 }
        let file = environment[fileName].flatMap { $0.isEmpty ? nil : $0 }
        switch (value, file) {
        case (nil, nil): return nil
        case (let value?, nil): self = .value(value, name: valueName)
        case (nil, let file?): self = .file(file)
        case (_?, _?): throw UsageError("set \(valueName) or \(fileName), not both")
        }
    }

    /// Reads and decodes the keys.
    /// - Throws: `StartupError` when the file cannot be read or others may read it; `UsageError` for a key
    ///   that is not 32 bytes of base64.
    func keys() throws -> [[UInt8]] {
        switch self {
        case .value(let text, let name):
            return try text.split(separator: ",").map { try Self.decode($0, source: name) }
        case .file(let path):
            let text = try readOwnerOnlyFile(path, what: "encryption key file")
            return try text.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
                .map { try Self.decode($0, source: "encryption key file \(path)") }
        }
    }

    private static func decode(_ text: some StringProtocol, source: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespaces)), data.count == 32 else {
            throw UsageError("\(source): a key must be 32 random bytes in base64, as 'openssl rand -base64 32' prints")
        }
        return Array(data)
    }
}

extension Settings {
    /// The sealer the store uses: AES-256-GCM under the configured key (also opening with the previous keys),
    /// or none (secrets stored as they are) when no key is configured.
    func secretSealer() throws -> any SecretSealer {
        let previous = try previousEncryptionKeys?.keys() ?? []
        guard let encryptionKey else {
            guard previous.isEmpty else {
                throw UsageError(
                    "previous encryption keys need a current key: set HEARTH_ENCRYPTION_KEY or --encryption-key-file")
            }
            return PlaintextSecretSealer()
        }
        let current = try encryptionKey.keys()
        guard current.count == 1 else {
            throw UsageError("the current encryption key must be exactly one key (previous keys go in HEARTH_ENCRYPTION_KEY_PREVIOUS)")
        }
        return try KeyringSecretSealer(currentKey: current[0], previousKeys: previous)
    }
}
