extension ErrorCode {
    // Custom tokens and custom claims (PROTOCOL.md §3.4, §5.5).
    public static let missingCustomToken = ErrorCode(rawValue: "MISSING_CUSTOM_TOKEN")
    public static let invalidCustomToken = ErrorCode(rawValue: "INVALID_CUSTOM_TOKEN")
    public static let credentialMismatch = ErrorCode(rawValue: "CREDENTIAL_MISMATCH")
    public static let missingIdentifier = ErrorCode(rawValue: "MISSING_IDENTIFIER")
    public static let forbiddenClaim = ErrorCode(rawValue: "FORBIDDEN_CLAIM")
    public static let invalidClaims = ErrorCode(rawValue: "INVALID_CLAIMS")
    public static let claimsTooLarge = ErrorCode(rawValue: "CLAIMS_TOO_LARGE")
}
