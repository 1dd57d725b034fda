/// What one Hearth project is: its ids, issuer, accepted API keys and trusted Google clients.
public struct ProjectConfiguration: Sendable {
    /// Which API keys client calls may use.
    public enum APIKeyPolicy: Sendable, Equatable {
        /// Any non-empty key (development, like the Firebase emulator).
        case anyNonEmpty
        /// Only these keys.
        case only(Set<String>)

        public func accepts(_ key: String) -> Bool {
            switch self {
            case .anyNonEmpty: !key.isEmpty
            case .only(let keys): keys.contains(key)
            }
        }
    }

    public var projectID: String
    /// Sent as `project_id` in token responses (Firebase sends the project number).
    public var projectNumber: String
    /// `iss` of every ID token; `aud` is `projectID`.
    public var issuer: String
    public var apiKeys: APIKeyPolicy
    /// OAuth client IDs whose Google ID tokens (`aud`) and access tokens may sign in.
    public var googleClientIDs: Set<String>
    /// Lifetime of ID tokens, in seconds.
    public var idTokenLifetime: Int64
    /// Allowed clock difference when checking `iat`/`exp` of incoming tokens, in seconds.
    public var clockSkew: Int64

    public init(
        projectID: String, projectNumber: String = "0", issuer: String, apiKeys: APIKeyPolicy,
        googleClientIDs: Set<String>, idTokenLifetime: Int64 = 3600, clockSkew: Int64 = 300
    ) {
        self.projectID = projectID
        self.projectNumber = projectNumber
        self.issuer = issuer
        self.apiKeys = apiKeys
        self.googleClientIDs = googleClientIDs
        self.idTokenLifetime = idTokenLifetime
        self.clockSkew = clockSkew
    }
}
