extension ErrorCode {
    // Custom tokens (PROTOCOL.md §3.4, §5.5); the claims rules share the admin API's codes.
    public static let missingCustomToken = ErrorCode(rawValue: "MISSING_CUSTOM_TOKEN")
    public static let invalidCustomToken = ErrorCode(rawValue: "INVALID_CUSTOM_TOKEN")
    public static let credentialMismatch = ErrorCode(rawValue: "CREDENTIAL_MISMATCH")
    public static let missingIdentifier = ErrorCode(rawValue: "MISSING_IDENTIFIER")
}
