/// What makes a Hearth admin access token one: the claims that set it apart from every ID token the same
/// signing keys sign. Its `iss` and `aud` are never a project's issuer or id, and it has no `firebase`
/// claim, so no ID-token check (Hearth's, firebase-admin's or a JWT library's with `iss`/`aud`) accepts it.
enum AdminAccessToken {
    static let issuer = "hearth:admin-access-token"

    static func audience(projectID: String) -> String { "hearth:admin:\(projectID)" }

    /// The claim naming the service account's key (`private_key_id`), so that revoking that account, even
    /// when a new one with the same name is made, ends its tokens.
    static let keyIDClaim = "sa_kid"

    /// At most one hour, and never longer than the signing keys stay published after a rotation.
    static func lifetime(_ project: ProjectConfiguration) -> Int64 { min(3600, project.idTokenLifetime) }
}
