/// The project's password rules, from `GET /v2/passwordPolicy` (the web SDK's `PasswordPolicy`).
public struct PasswordPolicy: Sendable, Equatable {
    /// The shortest allowed password, in UTF-16 code units; 6 when the server sets none (the server's own floor).
    public let minPasswordLength: Int
    /// The longest allowed password, in UTF-16 code units, if limited.
    public let maxPasswordLength: Int?
    public let requiresLowercase: Bool
    public let requiresUppercase: Bool
    public let requiresDigits: Bool
    /// A character from `allowedNonAlphanumericCharacters` is required.
    public let requiresSymbols: Bool
    /// The characters that count as symbols; empty when the server lists none (then any character that is not
    /// an ASCII letter or digit counts).
    public let allowedNonAlphanumericCharacters: String
    /// `ENFORCE` (the server refuses passwords that break the rules) or `OFF` (only this check uses them).
    public let enforcementState: String
    /// Whether a password that breaks the rules must be changed at the next sign-in.
    public let forceUpgradeOnSignin: Bool
    public let schemaVersion: Int

    /// The web SDK's floor when the server sends no minimum.
    static let defaultMinimumLength = 6

    init(_ response: GetPasswordPolicyCall.Response) {
        let options = response.customStrengthOptions
        minPasswordLength = options?.minPasswordLength ?? Self.defaultMinimumLength
        maxPasswordLength = options?.maxPasswordLength
        requiresLowercase = options?.containsLowercaseCharacter ?? false
        requiresUppercase = options?.containsUppercaseCharacter ?? false
        requiresDigits = options?.containsNumericCharacter ?? false
        requiresSymbols = options?.containsNonAlphanumericCharacter ?? false
        allowedNonAlphanumericCharacters = (response.allowedNonAlphanumericCharacters ?? []).joined()
        let state = response.enforcementState ?? "OFF"
        enforcementState = state == "ENFORCEMENT_STATE_UNSPECIFIED" ? "OFF" : state
        forceUpgradeOnSignin = response.forceUpgradeOnSignin ?? false
        schemaVersion = response.schemaVersion ?? 1
    }

    /// Checks `password` against every rule, as the web SDK and Hearth do: letters and digits are ASCII, lengths
    /// count UTF-16 code units.
    public func validate(_ password: String) -> PasswordValidationStatus {
        let length = password.utf16.count
        let scalars = password.unicodeScalars
        let isSymbol: (Unicode.Scalar) -> Bool =
            allowedNonAlphanumericCharacters.isEmpty
            ? { !(("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)) }
            : { allowedNonAlphanumericCharacters.unicodeScalars.contains($0) }
        return PasswordValidationStatus(
            passwordPolicy: self,
            meetsMinPasswordLength: length >= minPasswordLength,
            meetsMaxPasswordLength: maxPasswordLength.map { length <= $0 } ?? true,
            meetsLowercaseRequirement: !requiresLowercase || scalars.contains { ("a"..."z").contains($0) },
            meetsUppercaseRequirement: !requiresUppercase || scalars.contains { ("A"..."Z").contains($0) },
            meetsDigitsRequirement: !requiresDigits || scalars.contains { ("0"..."9").contains($0) },
            meetsSymbolsRequirement: !requiresSymbols || scalars.contains(where: isSymbol))
    }
}

/// How a password fares against the policy (the web SDK's `PasswordValidationStatus`). A rule the policy does
/// not have counts as met.
public struct PasswordValidationStatus: Sendable, Equatable {
    public let passwordPolicy: PasswordPolicy
    public let meetsMinPasswordLength: Bool
    public let meetsMaxPasswordLength: Bool
    public let meetsLowercaseRequirement: Bool
    public let meetsUppercaseRequirement: Bool
    public let meetsDigitsRequirement: Bool
    public let meetsSymbolsRequirement: Bool

    /// Whether every rule is met.
    public var isValid: Bool {
        meetsMinPasswordLength && meetsMaxPasswordLength && meetsLowercaseRequirement && meetsUppercaseRequirement
            && meetsDigitsRequirement && meetsSymbolsRequirement
    }
}
