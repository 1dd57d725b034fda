/// Why a SAML response was refused. Each has a stable ``code``; ``reason`` is safe to log (it never holds the
/// document, only names and values cut short).
public struct SAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable reason code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        private init(_ name: String) { self.name = name }

        /// Not well-formed XML, not a `samlp:Response`, a required element missing, or larger than the limit.
        public static let malformed = Code("malformed")
        /// The document has a DTD (`<!DOCTYPE`) or declares entities: refused before parsing.
        public static let documentTypeDeclared = Code("documentTypeDeclared")
        /// Two elements carry the same `ID`, or more than one assertion is present (signature wrapping).
        public static let ambiguous = Code("ambiguous")
        /// An `EncryptedAssertion` (not supported).
        public static let encryptedAssertion = Code("encryptedAssertion")
        /// Neither the response nor its assertion is signed.
        public static let unsigned = Code("unsigned")
        /// A signature does not verify with any of the identity provider's certificates, or uses an algorithm that
        /// is not allowed.
        public static let invalidSignature = Code("invalidSignature")
        /// A signature that verifies covers another element than the one it is attached to (signature wrapping).
        public static let wrongReference = Code("wrongReference")
        /// The identity provider's certificate cannot be read.
        public static let badCertificate = Code("badCertificate")
        /// The response's status is not `Success`.
        public static let notSuccessful = Code("notSuccessful")
        /// The issuer is not the identity provider.
        public static let wrongIssuer = Code("wrongIssuer")
        /// `Destination` or the subject confirmation's `Recipient` is not the service provider's ACS URL.
        public static let wrongRecipient = Code("wrongRecipient")
        /// The audience restriction does not name the service provider.
        public static let wrongAudience = Code("wrongAudience")
        /// The assertion (or its subject confirmation) has expired.
        public static let expired = Code("expired")
        /// The assertion's `NotBefore` is still in the future.
        public static let notYetValid = Code("notYetValid")
        /// `InResponseTo` names a request this service provider did not issue (or one already answered).
        public static let unknownRequest = Code("unknownRequest")
        /// The assertion has no subject `NameID`, or no bearer subject confirmation.
        public static let missingSubject = Code("missingSubject")

        public var description: String { name }
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public static func == (lhs: SAMLError, rhs: SAMLError) -> Bool { lhs.code == rhs.code }

    public var description: String { "SAMLError.\(code): \(reason)" }

    /// A value taken from the document, escaped and cut to 64 characters.
    static func quoted(_ value: String) -> String {
        String(reflecting: value.count > 64 ? String(value.prefix(64)) + "…" : value)
    }
}
