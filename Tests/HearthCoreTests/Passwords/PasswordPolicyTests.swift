import HearthCore
import HearthProtocol
import Testing

@Suite("Password policy")
struct PasswordPolicyTests {
    static let strict = try! PasswordPolicy(
        enforcementState: .enforce, minLength: 8, maxLength: 12, requireLowercase: true, requireUppercase: true,
        requireNumeric: true, requireNonAlphanumeric: true)

    private func refusal(_ policy: PasswordPolicy, _ password: String) -> String? {
        do {
            try policy.check(password)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("every policy refuses fewer than 6 characters with Firebase's WEAK_PASSWORD message")
    func weakPassword() {
        for policy in [PasswordPolicy.firebaseDefault, Self.strict] {
            #expect(refusal(policy, "12345") == "WEAK_PASSWORD : Password should be at least 6 characters")
            #expect(refusal(policy, "") == "WEAK_PASSWORD : Password should be at least 6 characters")
        }
        #expect(refusal(.firebaseDefault, "123456") == nil)
    }

    @Test("an enforced policy lists every missing requirement, in Firebase's words and order")
    func missingRequirements() {
        #expect(refusal(Self.strict, "abcdefg") == """
            PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain at least 8 \
            characters, Password must contain an upper case character, Password must contain a numeric character, \
            Password must contain a non-alphanumeric character]
            """)
        #expect(refusal(Self.strict, "ABCDEFGH1!") == """
            PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password must contain a lower case \
            character]
            """)
        #expect(refusal(Self.strict, "Abcdefgh1!xyz") == """
            PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [Password may contain at most 12 \
            characters]
            """)
        #expect(refusal(Self.strict, "Abcdefg1!") == nil)
    }

    @Test("classes are ASCII letters and digits and Identity Platform's symbols, as the web SDK counts them")
    func characterClasses() {
        // Non-ASCII letters are neither lower nor upper case; '-' and spaces are not on the symbol list.
        #expect(refusal(Self.strict, "ÉÉéé1!ab")?.contains("upper case") == true)
        #expect(refusal(Self.strict, "Abcdefg1-")?.contains("non-alphanumeric") == true)
        #expect(refusal(Self.strict, "Abcdefg1 ")?.contains("non-alphanumeric") == true)
        #expect(refusal(Self.strict, "Abcdefg1`") == nil)
        #expect(refusal(Self.strict, "Abcdefg1\\") == nil)
        #expect(refusal(Self.strict, "Abcdefgh١!")?.contains("numeric") == true)
    }

    @Test("lengths count UTF-16 code units, like JavaScript's length")
    func utf16Length() {
        #expect(refusal(.firebaseDefault, "🔑🔑🔑") == nil)
        #expect(refusal(.firebaseDefault, "🔑🔑") != nil)
    }

    @Test("a policy that is OFF checks only the 6-character floor")
    func offPolicy() throws {
        let off = try PasswordPolicy(enforcementState: .off, minLength: 12, requireUppercase: true)
        #expect(refusal(off, "abcdef") == nil)
        #expect(refusal(off, "abcde") != nil)
    }

    @Test("settings out of Firebase's ranges are refused")
    func validation() {
        #expect(throws: PasswordPolicy.Invalid.self) { try PasswordPolicy(enforcementState: .enforce, minLength: 5) }
        #expect(throws: PasswordPolicy.Invalid.self) { try PasswordPolicy(enforcementState: .enforce, minLength: 31) }
        #expect(throws: PasswordPolicy.Invalid.self) { try PasswordPolicy(enforcementState: .enforce, maxLength: 4_097) }
        #expect(throws: PasswordPolicy.Invalid.self) {
            try PasswordPolicy(enforcementState: .enforce, minLength: 10, maxLength: 9)
        }
    }

    @Test("the wire form is what GET /v2/passwordPolicy returns and the web SDK reads")
    func wireForm() {
        let symbols: [JSONValue] = "^$*.[]{}()?\"!@#%&/\\,><':;|_~`".map { .string(String($0)) }
        #expect(Self.strict.wireForm == [
            "customStrengthOptions": [
                "minPasswordLength": 8, "maxPasswordLength": 12, "containsLowercaseCharacter": true,
                "containsUppercaseCharacter": true, "containsNumericCharacter": true,
                "containsNonAlphanumericCharacter": true,
            ],
            "allowedNonAlphanumericCharacters": .array(symbols),
            "schemaVersion": 1,
            "enforcementState": "ENFORCE",
            "forceUpgradeOnSignin": false,
        ])
        guard case .object(let fields) = PasswordPolicy.firebaseDefault.wireForm else {
            Issue.record("not an object")
            return
        }
        #expect(fields["enforcementState"] == "OFF")
    }
}
