/// `GET /v2/passwordPolicy`: the project's password rules, as the web SDK's `validatePassword` fetches them.
struct GetPasswordPolicyCall: BackendRequest {
    struct Response: Decodable, Sendable {
        struct Options: Decodable, Sendable {
            var minPasswordLength: Int?
            var maxPasswordLength: Int?
            var containsLowercaseCharacter: Bool?
            var containsUppercaseCharacter: Bool?
            var containsNumericCharacter: Bool?
            var containsNonAlphanumericCharacter: Bool?
        }

        var customStrengthOptions: Options?
        var allowedNonAlphanumericCharacters: [String]?
        var enforcementState: String?
        var forceUpgradeOnSignin: Bool?
        var schemaVersion: Int?
    }

    var body: EmptyBody { EmptyBody() }
    var method: HTTPMethod { .get }
    var service: Service { .identityPlatform("passwordPolicy") }
}
