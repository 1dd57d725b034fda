public import HearthProtocol

/// The project's password policy, as Firebase's: every new password needs at least 6 characters
/// (`WEAK_PASSWORD`); an enforced custom policy adds a length range and character classes
/// (`PASSWORD_DOES_NOT_MEET_REQUIREMENTS`, listing every requirement missed). Clients read it from
/// `GET /v2/passwordPolicy` (``wireForm``) and the web SDK's `validatePassword` applies the same rules.
///
/// Lengths count UTF-16 code units and the classes are ASCII letters and digits and
/// ``allowedNonAlphanumericCharacters``, exactly as the web SDK counts them.
public struct PasswordPolicy: Sendable, Equatable {
    public enum EnforcementState: String, Sendable, Equatable, CaseIterable {
        case enforce = "ENFORCE"
        case off = "OFF"
    }

    /// Firebase's floor, whatever the policy.
    public static let minimumLength = 6
    public static let minLengthRange = 6...30
    public static let maximumLength = 4_096
    /// The characters that count as non-alphanumeric (Identity Platform's list).
    public static let allowedNonAlphanumericCharacters: [Character] = Array("^$*.[]{}()?\"!@#%&/\\,><':;|_~`")
    private static let symbolScalars = Set(allowedNonAlphanumericCharacters.flatMap(\.unicodeScalars))

    public let enforcementState: EnforcementState
    public let minLength: Int
    public let maxLength: Int
    public let requireLowercase: Bool
    public let requireUppercase: Bool
    public let requireNumeric: Bool
    public let requireNonAlphanumeric: Bool
    /// Whether a sign-in with the right password that this (enforced) policy refuses is refused too
    /// (`PASSWORD_DOES_NOT_MEET_REQUIREMENTS`: the user resets the password), as Identity Platform's
    /// `forceUpgradeOnSignin`.
    public let forceUpgradeOnSignin: Bool

    public init(
        enforcementState: EnforcementState, minLength: Int = PasswordPolicy.minimumLength,
        maxLength: Int = PasswordPolicy.maximumLength, requireLowercase: Bool = false, requireUppercase: Bool = false,
        requireNumeric: Bool = false, requireNonAlphanumeric: Bool = false, forceUpgradeOnSignin: Bool = false
    ) throws(InvalidPasswordSetting) {
        guard Self.minLengthRange.contains(minLength) else {
            throw InvalidPasswordSetting(message: "password policy minLength must be between 6 and 30, not \(minLength)")
        }
        guard (minLength...Self.maximumLength).contains(maxLength) else {
            throw InvalidPasswordSetting(message: "password policy maxLength must be between minLength (\(minLength)) and 4096, not \(maxLength)")
        }
        self.enforcementState = enforcementState
        self.minLength = minLength
        self.maxLength = maxLength
        self.requireLowercase = requireLowercase
        self.requireUppercase = requireUppercase
        self.requireNumeric = requireNumeric
        self.requireNonAlphanumeric = requireNonAlphanumeric
        self.forceUpgradeOnSignin = forceUpgradeOnSignin
    }

    /// The policy a `passwordPolicyConfig` object states (the config API's and the tenant API's shape): its
    /// enforcement state (`ENFORCE`, else off), the first version's `customStrengthOptions` (each option left out
    /// takes its default) and `forceUpgradeOnSignin`.
    public init(configForm config: [String: JSONValue]) throws(InvalidPasswordSetting) {
        let version = config["passwordPolicyVersions"]?.arrayValue?.first?.objectValue ?? [:]
        let options = version["customStrengthOptions"]?.objectValue ?? [:]
        func length(_ name: String, _ fallback: Int) -> Int {
            switch options[name] {
            case .integer(let number): Int(clamping: number)
            case .string(let text): Int(text) ?? fallback
            default: fallback
            }
        }
        func flag(_ name: String) -> Bool { options[name]?.boolValue ?? false }
        try self.init(
            enforcementState: config["passwordPolicyEnforcementState"]?.stringValue == "ENFORCE" ? .enforce : .off,
            minLength: length("minPasswordLength", Self.minimumLength),
            maxLength: length("maxPasswordLength", Self.maximumLength),
            requireLowercase: flag("containsLowercaseCharacter"), requireUppercase: flag("containsUppercaseCharacter"),
            requireNumeric: flag("containsNumericCharacter"),
            requireNonAlphanumeric: flag("containsNonAlphanumericCharacter"),
            forceUpgradeOnSignin: config["forceUpgradeOnSignin"]?.boolValue ?? false)
    }

    /// Firebase's default: no custom policy, only the 6-character floor.
    public static let firebaseDefault = try! PasswordPolicy(enforcementState: .off)

    /// Refuses `password` as Firebase does: `WEAK_PASSWORD` under 6 characters, then, when enforced,
    /// `PASSWORD_DOES_NOT_MEET_REQUIREMENTS` naming every requirement it misses.
    public func check(_ password: String) throws(WireError) {
        let length = password.utf16.count
        guard length >= Self.minimumLength else {
            throw WireError(.weakPassword, "Password should be at least 6 characters")
        }
        guard enforcementState == .enforce else { return }
        let missing = missingRequirements(password, length: length)
        guard missing.isEmpty else {
            throw WireError(
                .passwordDoesNotMeetRequirements, "Missing password requirements: [\(missing.joined(separator: ", "))]")
        }
    }

    /// The requirements `password` misses, in Firebase's order and words.
    private func missingRequirements(_ password: String, length: Int) -> [String] {
        // Code points, as the web SDK's charAt sees them (a combining accent does not hide the letter before it).
        let scalars = Set(password.unicodeScalars)
        func contains(_ test: (Unicode.Scalar) -> Bool) -> Bool { scalars.contains(where: test) }
        var missing: [String] = []
        if length < minLength { missing.append("Password must contain at least \(minLength) characters") }
        if length > maxLength { missing.append("Password may contain at most \(maxLength) characters") }
        if requireLowercase, !contains({ ("a"..."z").contains($0) }) {
            missing.append("Password must contain a lower case character")
        }
        if requireUppercase, !contains({ ("A"..."Z").contains($0) }) {
            missing.append("Password must contain an upper case character")
        }
        if requireNumeric, !contains({ ("0"..."9").contains($0) }) {
            missing.append("Password must contain a numeric character")
        }
        if requireNonAlphanumeric, !contains(Self.symbolScalars.contains) {
            missing.append("Password must contain a non-alphanumeric character")
        }
        return missing
    }

    /// The policy as the project configuration answers it (`passwordPolicyConfig`: the enforcement state, one version
    /// with its strength options, `forceUpgradeOnSignin`).
    public var configForm: JSONValue {
        .object([
            "passwordPolicyEnforcementState": .string(enforcementState.rawValue),
            "passwordPolicyVersions": [["customStrengthOptions": wireForm.objectValue?["customStrengthOptions"] ?? [:]]],
            "forceUpgradeOnSignin": .bool(forceUpgradeOnSignin),
        ])
    }

    /// Why a sign-in with `password` (already verified) is refused until the password is changed: the policy's
    /// refusal under `forceUpgradeOnSignin` and enforcement; nil when the sign-in may go on.
    public func upgradeRefusal(for password: String) -> WireError? {
        guard forceUpgradeOnSignin, enforcementState == .enforce else { return nil }
        do {
            try check(password)
            return nil
        } catch {
            return error
        }
    }

    /// The body of `GET /v2/passwordPolicy`, in the shape the web SDK's `validatePassword` reads.
    public var wireForm: JSONValue {
        .object([
            "customStrengthOptions": .object([
                "minPasswordLength": .integer(Int64(minLength)),
                "maxPasswordLength": .integer(Int64(maxLength)),
                "containsLowercaseCharacter": .bool(requireLowercase),
                "containsUppercaseCharacter": .bool(requireUppercase),
                "containsNumericCharacter": .bool(requireNumeric),
                "containsNonAlphanumericCharacter": .bool(requireNonAlphanumeric),
            ]),
            "allowedNonAlphanumericCharacters": .array(Self.allowedNonAlphanumericCharacters.map { .string(String($0)) }),
            "schemaVersion": 1,
            "enforcementState": .string(enforcementState.rawValue),
            "forceUpgradeOnSignin": .bool(forceUpgradeOnSignin),
        ])
    }
}
