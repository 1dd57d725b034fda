public import Foundation

/// How ``AdminAuth`` authorizes its calls to Hearth's admin endpoints.
///
/// ```swift
/// let credential = try AdminCredential.serviceAccount(json: Data(contentsOf: URL(filePath: "admin.json")))
/// let development = AdminCredential.owner   // only against `hearth serve --dev`
/// ```
public struct AdminCredential: Sendable {
    enum Kind: Sendable {
        case owner
        case serviceAccount(ServiceAccount)
    }

    let kind: Kind

    /// `Authorization: Bearer owner`, what firebase-admin sends in emulator mode. Hearth accepts it only with
    /// `--dev`. Custom tokens made with it are unsigned, as firebase-admin makes them for the emulator.
    public static let owner = AdminCredential(kind: .owner)

    /// A service account from a Google-format key file (`hearth service-accounts create NAME --out FILE`).
    ///
    /// Calls are authorized with access tokens that the library gets from the file's `token_uri` with the
    /// JWT-bearer grant (RFC 7523), signed with the file's private key, and keeps until five minutes before they
    /// expire. Custom tokens are signed with the same key.
    ///
    /// - Parameter json: the key file's contents.
    /// - Throws: ``HearthAdminError`` `.invalidCredential` when the file is not a usable service-account key.
    public static func serviceAccount(json: Data) throws(HearthAdminError) -> AdminCredential {
        AdminCredential(kind: .serviceAccount(try ServiceAccount(json: json)))
    }

    /// The key file's `project_id`; nil for ``owner``.
    public var projectID: String? {
        if case .serviceAccount(let account) = kind { return account.projectID }
        return nil
    }

    /// The key file's `client_email`; nil for ``owner``.
    public var clientEmail: String? {
        if case .serviceAccount(let account) = kind { return account.clientEmail }
        return nil
    }
}
