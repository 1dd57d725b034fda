import Foundation
public import HearthProtocol

/// Identity Platform's rules for tenants: ids, display names, and the settings kept as JSON objects. Each refusal is
/// a `WireError` with a stable code and changes nothing.
public enum TenantRules {
    /// The longest tenant id accepted (the longest a `StoreScope` may have).
    public static let maximumIDLength = StoreScope.maximumTenantIDLength
    /// How many random characters follow the display name in a generated id (`display-name-x4k2q`).
    public static let idSuffixLength = 5
    /// The most test phone numbers a tenant may have (Firebase's limit).
    public static let maximumTestPhoneNumbers = 10
    /// The longest JSON text one setting may take.
    public static let maximumSettingBytes = 16 * 1024

    /// A tenant id in a path or page token: 1 to 128 ASCII letters, digits and hyphens (`INVALID_TENANT_ID`).
    public static func checkID(_ id: String, code: ErrorCode = .invalidTenantID) throws {
        guard (1...maximumIDLength).contains(id.utf8.count), id.utf8.allSatisfy(isIDByte) else {
            throw WireError(code, "A tenant id has 1 to \(maximumIDLength) letters, digits and hyphens.")
        }
    }

    /// Identity Platform's display-name rule, as firebase-admin checks it too: 4 to 20 characters, a letter first,
    /// then letters, digits and hyphens (`INVALID_DISPLAY_NAME`).
    public static func checkDisplayName(_ name: String) throws {
        let bytes = Array(name.utf8)
        guard (4...20).contains(bytes.count), let first = bytes.first, isLetter(first), bytes.allSatisfy(isIDByte)
        else {
            throw WireError(
                .invalidDisplayName,
                "The display name must start with a letter and have 4 to 20 letters, digits and hyphens.")
        }
    }

    /// A new id in Identity Platform's shape: the display name lower-cased, a hyphen, and five random lower-case
    /// letters and digits (`my-tenant-x4k2q`).
    public static func newID(displayName: String) -> String {
        displayName.lowercased() + "-" + Identifiers.lowercaseAlphanumeric(length: idSuffixLength)
    }

    // MARK: Settings

    /// `mfaConfig`: `state`, `enabledProviders` and `providerConfigs` (TOTP), with Identity Platform's values.
    static func checkMFAConfig(_ value: JSONValue) throws {
        let states: Set<String> = ["STATE_UNSPECIFIED", "DISABLED", "ENABLED", "MANDATORY"]
        try checkObject(value, "mfaConfig", [
            "state": { states.contains($0.stringValue ?? "") },
            "enabledProviders": { value in
                value.arrayValue?.allSatisfy { ["ENABLED_PROVIDERS_UNSPECIFIED", "PHONE_SMS"].contains($0.stringValue ?? "") }
                    ?? false
            },
            "providerConfigs": { value in
                value.arrayValue?.allSatisfy { config in
                    (try? checkObject(config, "mfaConfig.providerConfigs", [
                        "state": { states.contains($0.stringValue ?? "") },
                        "totpProviderConfig": { totp in
                            (try? checkObject(totp, "totpProviderConfig", [
                                "adjacentIntervals": { (0...10).contains(integer($0) ?? -1) },
                            ])) != nil
                        },
                    ])) != nil
                } ?? false
            },
        ])
    }

    /// `testPhoneNumbers`: at most ten E.164 numbers, each with a six-digit code.
    static func checkTestPhoneNumbers(_ value: JSONValue) throws {
        guard let numbers = value.objectValue, numbers.count <= maximumTestPhoneNumbers else {
            throw WireError(
                .invalidArgument, "testPhoneNumbers must be an object of at most \(maximumTestPhoneNumbers) numbers.")
        }
        for (number, code) in numbers {
            guard PhoneNumbers.isE164(number) else {
                throw WireError(.invalidArgument, "testPhoneNumbers must name E.164 phone numbers.")
            }
            guard let code = code.stringValue, code.utf8.count == 6, code.utf8.allSatisfy({ (0x30...0x39).contains($0) })
            else { throw WireError(.invalidArgument, "Each test phone number has a code of six digits.") }
        }
    }

    /// `passwordPolicyConfig`: the enforcement state, the policy versions (their strength options) and
    /// `forceUpgradeOnSignin`; `lastUpdateTime` is output only and accepted as text.
    static func checkPasswordPolicyConfig(_ value: JSONValue) throws {
        let isBool: (JSONValue) -> Bool = { $0.boolValue != nil }
        let strength: [String: (JSONValue) -> Bool] = [
            "minPasswordLength": { (6...30).contains(integer($0) ?? -1) },
            "maxPasswordLength": { (6...4096).contains(integer($0) ?? -1) },
            "containsLowercaseCharacter": isBool, "containsUppercaseCharacter": isBool,
            "containsNumericCharacter": isBool, "containsNonAlphanumericCharacter": isBool,
        ]
        try checkObject(value, "passwordPolicyConfig", [
            "passwordPolicyEnforcementState": {
                ["PASSWORD_POLICY_ENFORCEMENT_STATE_UNSPECIFIED", "OFF", "ENFORCE"].contains($0.stringValue ?? "")
            },
            "passwordPolicyVersions": { value in
                value.arrayValue?.allSatisfy { version in
                    (try? checkObject(version, "passwordPolicyVersions", [
                        "customStrengthOptions": { (try? checkObject($0, "customStrengthOptions", strength)) != nil },
                        "schemaVersion": { integer($0) != nil },
                    ])) != nil
                } ?? false
            },
            "forceUpgradeOnSignin": isBool,
            "lastUpdateTime": { $0.stringValue != nil },
        ])
        do {
            _ = try PasswordPolicy(configForm: value.objectValue ?? [:])
        } catch {
            throw WireError(.invalidArgument, "passwordPolicyConfig: \(error.message)")
        }
    }

    /// `smsRegionConfig`: one policy of known regions (``SMSRegionPolicy/check(_:)``), refused as `INVALID_ARGUMENT`.
    static func checkSMSRegionConfig(_ value: JSONValue) throws {
        do {
            try SMSRegionPolicy.check(value)
        } catch let error as WireError {
            throw WireError(.invalidArgument, error.detail)
        }
    }

    /// `emailPrivacyConfig`: `enableImprovedEmailPrivacy`.
    static func checkEmailPrivacyConfig(_ value: JSONValue) throws {
        try checkObject(value, "emailPrivacyConfig", ["enableImprovedEmailPrivacy": { $0.boolValue != nil }])
    }

    /// The JSON text a checked setting is stored as, refused when longer than ``maximumSettingBytes``.
    static func storedText(_ value: JSONValue, _ name: String) throws -> String {
        let data = value.jsonData(sortedKeys: true)
        guard data.count <= maximumSettingBytes else {
            throw WireError(.invalidArgument, "\(name) is too long.")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// An object whose members each have a rule in `rules` and keep it (`INVALID_ARGUMENT` naming `name`).
    private static func checkObject(_ value: JSONValue, _ name: String, _ rules: [String: (JSONValue) -> Bool])
        throws
    {
        guard let members = value.objectValue else { throw WireError(.invalidArgument, "\(name) must be an object.") }
        for (key, member) in members.sorted(by: { $0.key < $1.key }) {
            guard let rule = rules[key] else {
                throw WireError(.invalidArgument, "\(name) has no field \"\(TenantFields.shown(key))\".")
            }
            guard rule(member) else { throw WireError(.invalidArgument, "\(name).\(key) has a value it cannot take.") }
        }
    }

    private static func integer(_ value: JSONValue) -> Int64? {
        switch value {
        case .integer(let number): number
        case .string(let text): Int64(text)
        default: nil
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isIDByte(_ byte: UInt8) -> Bool { isLetter(byte) || (0x30...0x39).contains(byte) || byte == 0x2D }
}
