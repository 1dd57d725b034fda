internal import CSQLite

/// The text a connection's variable function answers; kept alive by the connection that defined it.
final class SQLiteVariable {
    var value: String

    init(_ value: String) { self.value = value }
}

extension SQLiteConnection {
    /// Makes the SQL function `name()` of this connection answer `value` (as text) from now on, defining the
    /// function on first use: a value that every statement of a transaction reads without a bound parameter (a store
    /// sets the scope its transaction acts in). Statements prepared before still see the new value, as the function
    /// is called when they run. It may be used only in statements, not in views, triggers or the schema.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/create_function.html>
    public func setVariable(_ name: String, to value: String) throws {
        if let variable = variables[name] {
            variable.value = value
            return
        }
        let variable = SQLiteVariable(value)
        let resultCode = sqlite3_create_function_v2(
            handle, name, 0, SQLITE_UTF8 | SQLITE_DIRECTONLY, Unmanaged.passUnretained(variable).toOpaque(),
            { context, _, _ in
                guard let context, let box = sqlite3_user_data(context) else { return }
                let variable = Unmanaged<SQLiteVariable>.fromOpaque(box).takeUnretainedValue()
                hearth_sqlite_result_text_copy(context, variable.value)
            }, nil, nil, nil)
        try sqliteCheck(resultCode, handle)
        variables[name] = variable
    }
}
