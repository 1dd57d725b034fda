import HearthProtocol

/// The admin answers, as far as the library reads them.
enum WireReply {
    struct Lookup: Decodable {
        var users: [HearthProtocol.UserRecord]?
    }

    struct LocalID: Decodable {
        var localId: String
    }

    /// An answer whose fields are not needed (`accounts:delete` sends only `kind`).
    struct Empty: Decodable {}

    struct BatchGet: Decodable {
        var users: [HearthProtocol.UserRecord]?
        var nextPageToken: String?
    }

    struct RowError: Decodable {
        var index: Int
        var message: String?
    }

    /// `accounts:batchDelete`: `errors[{index, localId, message}]`.
    struct BatchDelete: Decodable {
        var errors: [RowError]?
    }

    /// `accounts:batchCreate`: `error[{index, message}]`.
    struct BatchCreate: Decodable {
        var error: [RowError]?
    }

    struct SessionCookie: Decodable {
        var sessionCookie: String
    }
}

extension BatchResult {
    /// The result for `count` rows from the server's row errors; a row error's index outside the input is an
    /// unexpected response.
    init(count: Int, rows: [WireReply.RowError], unknown: HearthAdminError.Code) throws(HearthAdminError) {
        var errors: [BatchRowError] = []
        for row in rows {
            guard (0..<count).contains(row.index) else {
                throw HearthAdminError(.unexpectedResponse, message: "a row error names index \(row.index) of \(count) rows")
            }
            errors.append(BatchRowError(index: row.index, error: HearthAdminError(rowMessage: row.message ?? "", unknown: unknown)))
        }
        self.init(successCount: count - Set(errors.map(\.index)).count, errors: errors.sorted { $0.index < $1.index })
    }
}
