extension ImportedPasswordHash {
    /// What `Account.passwordHash` stores for an imported row's `passwordHash` and `salt` (base64 text):
    ///
    /// - with a hash algorithm (`scheme`), the ``stored`` string of the checked ``ImportedPasswordHash``;
    /// - without one, a hash Hearth wrote itself, as `hearth users export` writes it (the base64 of the stored
    ///   text): an Argon2id PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) or a `$hearth-import-v1$` string,
    ///   taken as it is (with no salt beside it; the salt is inside).
    ///
    /// Throws ``Refusal`` for anything else, naming what is wrong but never the hash.
    public static func storedHash(passwordHash: String, salt: String?, scheme: ImportedHashScheme?) throws(Refusal) -> String {
        guard let hash = ProtoBytes.decode(passwordHash) else { throw Refusal("passwordHash must be base64") }
        var saltBytes: [UInt8] = []
        if let salt, !salt.isEmpty {
            guard let decoded = ProtoBytes.decode(salt) else { throw Refusal("salt must be base64") }
            saltBytes = decoded
        }
        if let scheme {
            return try ImportedPasswordHash(scheme: scheme, salt: saltBytes, hash: hash).stored
        }
        guard saltBytes.isEmpty, let text = String(validating: hash, as: UTF8.self) else {
            throw Refusal("hashAlgorithm is required to import a password hash")
        }
        if text.hasPrefix(prefix) {
            return try ImportedPasswordHash(stored: text).stored
        }
        guard isArgon2idPHC(text) else { throw Refusal("hashAlgorithm is required to import a password hash") }
        return text
    }

    /// Whether `text` has the shape of libargon2's Argon2id encoding (the hasher checks its parameters).
    static func isArgon2idPHC(_ text: String) -> Bool {
        let parts = text.split(separator: "$", omittingEmptySubsequences: false)
        let base64 = { (part: Substring) in
            !part.isEmpty && part.utf8.allSatisfy { $0.isBase64Character }
        }
        guard text.utf8.count <= 512, parts.count == 6, parts[0].isEmpty, parts[1] == "argon2id", parts[2] == "v=19",
            base64(parts[4]), base64(parts[5])
        else { return false }
        let parameters = parts[3].split(separator: ",", omittingEmptySubsequences: false)
        return parameters.count == 3 && zip(parameters, ["m=", "t=", "p="]).allSatisfy { parameter, name in
            parameter.hasPrefix(name) && parameter.count > 2 && parameter.count <= 12
                && parameter.dropFirst(2).utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        }
    }
}

extension UInt8 {
    /// A character of standard base64 without padding (libargon2's PHC encoding).
    fileprivate var isBase64Character: Bool {
        switch self {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "+"), UInt8(ascii: "/"):
            true
        default: false
        }
    }
}
