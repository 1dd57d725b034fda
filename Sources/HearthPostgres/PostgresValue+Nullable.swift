import Postgres

extension PostgresValue {
    /// `.null` for `nil`, else the value.
    static func nullable(_ text: String?) -> PostgresValue { text.map { .text($0) } ?? .null }
    static func nullable(_ number: Int64?) -> PostgresValue { number.map { .int64($0) } ?? .null }
    static func nullable(_ bytes: [UInt8]?) -> PostgresValue { bytes.map { .bytes($0) } ?? .null }
}
