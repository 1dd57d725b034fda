public import HearthCrypto
import BCrypt

/// A password hash imported from another system, with everything needed to check a password against it, and
/// the self-describing string Hearth stores for it in `Account.passwordHash`:
///
///     $hearth-import-v1$<parameters>$<salt>$<hash>
///
/// `<salt>` and `<hash>` are unpadded base64url (RFC 4648 §5; empty when there is none). `<parameters>` is
/// comma-separated `name=value` pairs in this fixed order, integers in decimal and byte strings in unpadded
/// base64url:
///
/// | `alg=`                         | then                               |
/// |--------------------------------|------------------------------------|
/// | `SCRYPT`                       | `rounds=`, `mem=`, `key=`, `sep=`  |
/// | `STANDARD_SCRYPT`              | `n=`, `r=`, `p=`, `dklen=`         |
/// | `BCRYPT`                       | nothing (`<hash>` holds the `$2…` string, `<salt>` is empty) |
/// | `PBKDF_SHA1`, `PBKDF2_SHA256`  | `rounds=`                          |
/// | `HMAC_MD5` … `HMAC_SHA512`     | `order=`, `key=`                   |
/// | `SHA1`, `SHA256`, `SHA512`     | `order=`, `rounds=`                |
/// | `MD5`                          | `rounds=`                          |
///
/// for example `$hearth-import-v1$alg=HMAC_SHA256,order=PASSWORD_AND_SALT,key=c2VjcmV0$TmFDbA$<32 bytes>`.
/// ``init(stored:)`` accepts only the exact string ``stored`` writes, with parameters inside the bounds of
/// ``ImportedHashScheme``, so a string changed in the database cannot make a verification expensive. The string
/// holds the signer key of HMAC and Firebase scrypt imports: treat it as the secret the export file was.
public struct ImportedPasswordHash: Sendable, Equatable {
    /// What every stored imported hash starts with (the version comes after it).
    public static let prefix = "$hearth-import-"
    static let versionTag = "hearth-import-v1"

    public var scheme: ImportedHashScheme
    public var salt: [UInt8]
    public var hash: [UInt8]

    /// A hash as imported, refused (``Refusal``) when it cannot be right for `scheme`: an empty hash, a salt or
    /// hash over 1,024 bytes, a bcrypt string that is not one or costs more than Hearth's cap, a hash whose length
    /// the algorithm cannot produce.
    public init(scheme: ImportedHashScheme, salt: [UInt8], hash: [UInt8]) throws(Refusal) {
        guard scheme.isWithinBounds else { throw Refusal("the hash parameters are outside Hearth's bounds") }
        guard !hash.isEmpty, hash.count <= ImportedHashScheme.maximumByteCount, salt.count <= ImportedHashScheme.maximumByteCount
        else { throw Refusal("passwordHash must be 1 to 1024 bytes and salt at most 1024 bytes") }
        switch scheme {
        case .bcrypt:
            guard salt.isEmpty, let text = String(validating: hash, as: UTF8.self), let cost = BCryptHash.cost(of: text)
            else { throw Refusal("a BCRYPT passwordHash is the whole $2a$/$2b$/$2y$ string, with no salt") }
            guard cost <= ImportedHashScheme.maximumBCryptCost else {
                throw Refusal("bcrypt cost \(cost) is over Hearth's cap of \(ImportedHashScheme.maximumBCryptCost)")
            }
        case .firebaseScrypt(let key, _, _, _):
            guard hash.count == key.count else { throw Refusal("a SCRYPT passwordHash is as long as the signer key") }
        case .standardScrypt(_, _, _, let dkLen):
            guard hash.count == dkLen else { throw Refusal("a STANDARD_SCRYPT passwordHash is dkLen bytes long") }
        case .pbkdf2:
            guard hash.count <= ImportedHashScheme.maximumPBKDF2HashLength else {
                throw Refusal("a PBKDF2 passwordHash is at most \(ImportedHashScheme.maximumPBKDF2HashLength) bytes")
            }
        case .hmac(let digest, _, _), .digest(let digest, _, _):
            guard hash.count == digest.byteCount else { throw Refusal("passwordHash is not as long as a \(digest.rawValue) digest") }
        case .md5:
            guard hash.count == 16 || hash.count == 32 else {
                throw Refusal("an MD5 passwordHash is the digest's 32 hex characters (or its 16 bytes)")
            }
        }
        self.scheme = scheme
        self.salt = salt
        self.hash = hash
    }

    /// Why an imported hash was refused; the text names no secret.
    public struct Refusal: Error, Equatable {
        public let message: String
        init(_ message: String) { self.message = message }
    }

    /// The string stored in `Account.passwordHash` (see the type's documentation).
    public var stored: String {
        var parameters = [("alg", scheme.algorithmName)]
        switch scheme {
        case .firebaseScrypt(let key, let separator, let rounds, let memoryCost):
            parameters += [("rounds", String(rounds)), ("mem", String(memoryCost)), ("key", Base64URL.encode(key)), ("sep", Base64URL.encode(separator))]
        case .standardScrypt(let n, let r, let p, let dkLen):
            parameters += [("n", String(n)), ("r", String(r)), ("p", String(p)), ("dklen", String(dkLen))]
        case .bcrypt:
            break
        case .pbkdf2(_, let rounds), .md5(let rounds):
            parameters += [("rounds", String(rounds))]
        case .hmac(_, let key, let order):
            parameters += [("order", order.rawValue), ("key", Base64URL.encode(key))]
        case .digest(_, let rounds, let order):
            parameters += [("order", order.rawValue), ("rounds", String(rounds))]
        }
        let text = parameters.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
        return "$\(Self.versionTag)$\(text)$\(Base64URL.encode(salt))$\(Base64URL.encode(hash))"
    }

    /// Parses a string ``stored`` wrote. Throws ``Refusal`` for anything else: another format or version, a
    /// missing, extra, repeated or reordered parameter, a number that is not plain decimal, bad base64url, or
    /// parameters outside the bounds.
    public init(stored text: String) throws(Refusal) {
        let parts = text.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == Self.versionTag, let salt = Base64URL.decode(parts[3]),
            let hash = Base64URL.decode(parts[4])
        else { throw Refusal("not a Hearth imported hash") }
        var values: [String: Substring] = [:]
        for pair in parts[2].split(separator: ",", omittingEmptySubsequences: false) {
            let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard nameAndValue.count == 2, values.updateValue(nameAndValue[1], forKey: String(nameAndValue[0])) == nil else {
                throw Refusal("malformed parameters")
            }
        }
        func number(_ name: String) throws(Refusal) -> Int {
            guard let text = values[name], text.count <= 9, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber),
                let value = Int(text), String(value) == text
            else { throw Refusal("parameter \(name) is not a number") }
            return value
        }
        func bytes(_ name: String) throws(Refusal) -> [UInt8] {
            guard let text = values[name], let value = Base64URL.decode(text) else { throw Refusal("parameter \(name) is not base64url") }
            return value
        }
        func order() throws(Refusal) -> PasswordHashOrder {
            guard let value = values["order"].flatMap({ PasswordHashOrder(rawValue: String($0)) }) else { throw Refusal("bad order") }
            return value
        }
        let scheme: ImportedHashScheme
        switch values["alg"] {
        case "SCRYPT":
            scheme = .firebaseScrypt(
                signerKey: try bytes("key"), saltSeparator: try bytes("sep"), rounds: try number("rounds"), memoryCost: try number("mem"))
        case "STANDARD_SCRYPT":
            scheme = .standardScrypt(n: try number("n"), r: try number("r"), p: try number("p"), dkLen: try number("dklen"))
        case "BCRYPT": scheme = .bcrypt
        case "PBKDF_SHA1": scheme = .pbkdf2(.sha1, rounds: try number("rounds"))
        case "PBKDF2_SHA256": scheme = .pbkdf2(.sha256, rounds: try number("rounds"))
        case "HMAC_MD5", "HMAC_SHA1", "HMAC_SHA256", "HMAC_SHA512":
            let digest = DigestAlgorithm(rawValue: String(values["alg"]!.dropFirst("HMAC_".count)))!
            scheme = .hmac(digest, key: try bytes("key"), order: try order())
        case "SHA1", "SHA256", "SHA512":
            scheme = .digest(DigestAlgorithm(rawValue: String(values["alg"]!))!, rounds: try number("rounds"), order: try order())
        case "MD5": scheme = .md5(rounds: try number("rounds"))
        default: throw Refusal("unknown algorithm")
        }
        try self.init(scheme: scheme, salt: salt, hash: hash)
        // Only the canonical spelling is accepted, so a stored string has exactly one meaning.
        guard stored == text else { throw Refusal("not in canonical form") }
    }
}
