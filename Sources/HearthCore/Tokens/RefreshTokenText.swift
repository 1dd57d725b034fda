import HearthCrypto

/// A refresh token's text: `<session id>.<secret>`, the secret 256 random bits in base64url (which has
/// no `.`). Naming the session lets a refresh find it by primary key and keep the whole rotation state in
/// it (`RefreshSession`). Clients treat refresh tokens as opaque strings.
///
/// A tenant's sessions add their scope: `<session id>.<secret>.<tenant id>` (tenant ids have no `.`), since clients
/// refresh without naming a tenant. The marker only says which scope's store to look in: the stored hash covers the
/// whole text, and the session is looked up in that scope only, so a marker changed to another scope finds nothing.
/// The project's tokens are unchanged.
///
/// Tokens issued before migration 5 are a bare secret (no `.`): `sessionID` is nil and their session is
/// found through the legacy token table. Knowing a session id alone (it is in the store, not secret from
/// whoever reads the database) lets one end that session, as reuse, never use it.
struct RefreshTokenText {
    /// The token as the client holds it.
    let text: String
    /// The session it names; nil for a legacy token.
    let sessionID: String?
    /// The tenant it names (its third part); nil for the project's tokens.
    let tenantID: String?
    /// What the store keeps: lower-case hex SHA-256 of `text`.
    let hash: String

    /// A presented token, whatever it holds.
    init(_ text: String) {
        self.text = text
        sessionID = text.firstIndex(of: ".").map { String(text[..<$0]) }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        tenantID = parts.count == 3 && !parts[2].isEmpty ? String(parts[2]) : nil
        hash = Identifiers.hash(text)
    }

    /// The token of `sessionID` with `secret` (from `Identifiers.secret()`), in the scope of `tenantID` (nil: the
    /// project).
    init(sessionID: String, secret: String, tenantID: String? = nil) {
        self.init(sessionID + "." + secret + (tenantID.map { "." + $0 } ?? ""))
    }

    /// A new session id: 128 random bits, base64url.
    static func newSessionID() -> String { SecureRandom.token(byteCount: 16) }

    /// Whether this token's hash is `storedHash`, compared in constant time.
    func matches(_ storedHash: String?) -> Bool {
        guard let storedHash else { return false }
        return ConstantTime.equals(Array(hash.utf8), Array(storedHash.utf8))
    }
}
