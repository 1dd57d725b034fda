import Foundation

/// The requests firebase-admin-python sends in emulator mode (`FIREBASE_AUTH_EMULATOR_HOST`; PROTOCOL.md
/// §8, `_user_mgt.UserManager`): `{v1}/projects/{project}/accounts…`, `Authorization: Bearer owner`, the
/// client-version headers, and JSON bodies as `json.dumps` writes them.
struct FirebaseAdminClient {
    let server: HearthProcess
    var projectID = "demo-hearth"
    var authorization: String? = "Bearer owner"

    private var headers: [(String, String)] {
        var headers = [
            ("Content-Type", "application/json"), ("X-Client-Version", "Python/Admin/7.1.0"),
            ("X-Goog-Api-Client", "gl-python/3.11.2 fire-admin/7.1.0"),
        ]
        if let authorization { headers.append(("Authorization", authorization)) }
        return headers
    }

    private var base: String { "/identitytoolkit.googleapis.com/v1/projects/\(projectID)" }

    /// POSTs `body`, the exact JSON text (`json.dumps` puts a space after `:` and `,`).
    func post(_ path: String, _ body: String, query: String = "") throws -> HTTPResult {
        try server.request("POST", base + path + query, headers: headers, body: Data(body.utf8))
    }

    /// `list_users`: a GET with `maxResults` and, after the first page, `nextPageToken` in the query.
    func listUsers(maxResults: Int, pageToken: String? = nil) throws -> HTTPResult {
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: "maxResults", value: String(maxResults))]
            + (pageToken.map { [URLQueryItem(name: "nextPageToken", value: $0)] } ?? [])
        return try server.request("GET", "\(base)/accounts:batchGet?\(components.percentEncodedQuery ?? "")", headers: headers)
    }

    /// `get_user(uid)`, `get_user_by_email`, `get_user_by_phone_number`: the first of `users`, or nil when
    /// it is missing (firebase-admin's UserNotFoundError).
    func lookUp(_ body: String) throws -> [String: Any]? {
        let result = try post("/accounts:lookup", body)
        guard result.status == 200 else { throw RawHTTP.Failure(description: "lookup: \(result.status) \(result.text)") }
        return (result.json["users"] as? [[String: Any]])?.first
    }
}
