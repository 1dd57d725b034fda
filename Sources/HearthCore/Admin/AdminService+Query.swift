public import HearthProtocol

extension AdminService {
    /// The most accounts one `accounts:query` answers (and its default), as in Identity Platform.
    public static let maximumQueryLimit: Int64 = 500

    /// `POST …/accounts:query`: the accounts any `expression` matches (every account without one), sorted
    /// by `sortBy` and `order` (ties by uid), from `offset`, at most `limit`; `returnUserInfo: false`
    /// answers only how many matched. Without expressions every account is read, so this is for
    /// administration, not for a hot path; `batchGet` pages through accounts cheaply.
    public func query(_ request: QueryAccountsRequest) throws -> QueryAccountsResponse {
        let limit = request.limit ?? Self.maximumQueryLimit
        guard (1...Self.maximumQueryLimit).contains(limit) else {
            throw WireError(.invalidArgument, "limit must be 1 to \(Self.maximumQueryLimit).")
        }
        let offset = request.offset ?? 0
        guard offset >= 0 else { throw WireError(.invalidArgument, "offset must not be negative.") }
        guard request.expression.allSatisfy({ $0.userId != nil || $0.email != nil || $0.phoneNumber != nil }) else {
            throw WireError(.invalidArgument, "Each expression must name a userId, email or phoneNumber.")
        }
        if !request.returnUserInfo && request.expression.isEmpty {
            return QueryAccountsResponse(recordsCount: try store.read { try $0.accountCount() }, userInfo: nil)
        }
        let matched = try store.read { reader in
            request.expression.isEmpty ? try Self.allAccounts(reader) : try Self.accounts(matching: request.expression, reader)
        }
        guard request.returnUserInfo else { return QueryAccountsResponse(recordsCount: matched.count, userInfo: nil) }
        let sorted = matched.sorted(by: Self.ordering(request.sortBy, descending: request.order == "DESC"))
        let slice = sorted.dropFirst(Int(min(offset, Int64(sorted.count)))).prefix(Int(limit))
        return QueryAccountsResponse(recordsCount: matched.count, userInfo: slice.map(UserRecord.init))
    }

    private static func allAccounts(_ reader: any StoreReader) throws -> [Account] {
        var all: [Account] = []
        while true {
            let page = try reader.accounts(after: all.last?.localID, limit: maximumBatch)
            all += page
            if page.count < maximumBatch { return all }
        }
    }

    /// Accounts that match every field one of `expressions` names, each once.
    private static func accounts(matching expressions: [QueryAccountsRequest.Expression], _ reader: any StoreReader)
        throws -> [Account]
    {
        var found: [String: Account] = [:]
        for expression in expressions {
            let candidate: Account? =
                if let userID = expression.userId {
                    try reader.account(localID: userID)
                } else if let email = expression.email {
                    try reader.account(email: email)
                } else if let phone = expression.phoneNumber {
                    try reader.account(phoneNumber: phone)
                } else {
                    nil
                }
            guard let account = candidate,
                expression.userId.map({ $0 == account.localID }) ?? true,
                expression.email.map({ $0.lowercased() == account.email }) ?? true,
                expression.phoneNumber.map({ $0 == account.phoneNumber }) ?? true
            else { continue }
            found[account.localID] = account
        }
        return Array(found.values)
    }

    /// The order of `sortBy` (`USER_ID` by UTF-8 bytes, `NAME`, `USER_EMAIL`, `CREATED_AT`,
    /// `LAST_LOGIN_AT`; missing values first), ties broken by uid.
    private static func ordering(_ sortBy: String, descending: Bool) -> (Account, Account) -> Bool {
        func key(_ account: Account) -> [UInt8] {
            switch sortBy {
            case "NAME": Array((account.displayName ?? "").utf8)
            case "USER_EMAIL": Array((account.email ?? "").utf8)
            case "CREATED_AT": bigEndian(account.createdAtMillis)
            case "LAST_LOGIN_AT": bigEndian(account.lastLoginAtMillis ?? 0)
            default: []
            }
        }
        func precedes(_ lhs: Account, _ rhs: Account) -> Bool {
            let (left, right) = (key(lhs), key(rhs))
            guard left == right else { return left.lexicographicallyPrecedes(right) }
            return lhs.localID.utf8.lexicographicallyPrecedes(rhs.localID.utf8)
        }
        return { lhs, rhs in descending ? precedes(rhs, lhs) : precedes(lhs, rhs) }
    }

    /// Bytes that sort as the (non-negative) number does.
    private static func bigEndian(_ value: Int64) -> [UInt8] {
        let biased = UInt64(bitPattern: value) ^ (1 << 63)
        return (0..<8).reversed().map { UInt8(truncatingIfNeeded: biased >> (UInt64($0) * 8)) }
    }
}
