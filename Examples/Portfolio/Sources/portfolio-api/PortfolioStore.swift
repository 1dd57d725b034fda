import Foundation
import SQLite

/// A portfolio as the API returns it.
struct Portfolio: Codable, Sendable, Equatable {
    var portfolioId: String
    var portfolioName: String
}

/// The portfolios of every user, in SQLite. Each user only ever sees their own.
final class PortfolioStore: Sendable {
    private let pool: SQLiteConnectionPool

    init(path: String) throws {
        var migrator = SQLiteMigrator()
        migrator.register(1, "create portfolios") { db in
            try db.executeScript(
                """
                CREATE TABLE portfolios (
                    portfolio_id TEXT PRIMARY KEY,
                    owner_uid TEXT NOT NULL,
                    name TEXT NOT NULL,
                    created_at_millis INTEGER NOT NULL
                ) STRICT;
                CREATE INDEX portfolios_owner ON portfolios(owner_uid, created_at_millis);
                """)
        }
        pool = try SQLiteConnectionPool(path: path, configuration: .init(readerCount: 2), migrator: migrator)
    }

    /// The caller's portfolios; a user seen for the first time gets a starter portfolio.
    func portfolios(of uid: String) throws -> [Portfolio] {
        let existing = try pool.read { try Self.select(uid, $0) }
        if !existing.isEmpty { return existing }
        return try pool.write { db in
            let current = try Self.select(uid, db)
            guard current.isEmpty else { return current }
            try db.execute(
                "INSERT INTO portfolios (portfolio_id, owner_uid, name, created_at_millis) VALUES (?, ?, ?, ?)",
                [.text(UUID().uuidString.lowercased()), .text(uid), .text("My First Portfolio"),
                 .integer(Int64(Date().timeIntervalSince1970 * 1000))])
            return try Self.select(uid, db)
        }
    }

    /// Every user's portfolios by owner uid, for the admin listing (read only: nobody gets a starter portfolio).
    func portfoliosByOwner() throws -> [String: [Portfolio]] {
        try pool.read { db in
            var byOwner: [String: [Portfolio]] = [:]
            try db.query("SELECT owner_uid, portfolio_id, name FROM portfolios ORDER BY created_at_millis, portfolio_id") { row in
                byOwner[try row.requiredText(0), default: []].append(
                    Portfolio(portfolioId: try row.requiredText(1), portfolioName: try row.requiredText(2)))
            }
            return byOwner
        }
    }

    private static func select(_ uid: String, _ db: SQLiteConnection) throws -> [Portfolio] {
        try db.queryAll(
            "SELECT portfolio_id, name FROM portfolios WHERE owner_uid = ? ORDER BY created_at_millis, portfolio_id",
            [.text(uid)]
        ) { row in Portfolio(portfolioId: try row.requiredText(0), portfolioName: try row.requiredText(1)) }
    }

    func close() { try? pool.close() }
}
