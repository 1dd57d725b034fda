import HearthCore
import HearthCrypto

/// How a dev account looks to Apple's clients: derived from the dev account, so it is the same after a restart.
enum DevAppleIdentity {
    static let relayDomain = "privaterelay.appleid.com"

    /// An Apple-style user identifier, `000123.<32 hex>.0456`, stable for the dev account.
    static func subject(of account: DevIdPAccount) -> String {
        let digest = SHA256.hash("hearth-dev-apple-subject\u{0}" + account.subject)
        let team = format3(Int(digest[0]) << 8 | Int(digest[1]))
        let tail = format3(Int(digest[18]) << 8 | Int(digest[19]))
        return "000\(team).\(Identifiers.hex(Array(digest[2..<18]))).0\(tail)"
    }

    /// A private-relay address (`<10 letters and digits>@privaterelay.appleid.com`), stable per dev account and client ID.
    static func relayEmail(of account: DevIdPAccount, clientID: String) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let digest = SHA256.hash("hearth-dev-apple-relay\u{0}" + account.subject + "\u{0}" + clientID)
        return String(digest.prefix(10).map { alphabet[Int($0) % alphabet.count] }) + "@" + relayDomain
    }

    /// Three decimal digits of `value`.
    private static func format3(_ value: Int) -> String {
        let text = String(value % 1000)
        return String(repeating: "0", count: 3 - text.count) + text
    }
}
