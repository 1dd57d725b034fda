public import HearthCore

/// The configuration the config API set (`project_config`): one row per scope, the settings as JSON text.
extension SQLCatalogue {
    static let projectConfigByScope = SQLStatement { d in
        "SELECT settings, updated_at_millis FROM project_config WHERE tenant_id = \(d.scope)"
    }
    static let putProjectConfig = SQLStatement { d in
        """
        INSERT INTO project_config (tenant_id, settings, updated_at_millis) VALUES (\(d.scope), :settings, :updated_at_millis)
        ON CONFLICT (tenant_id) DO UPDATE SET settings = excluded.settings, updated_at_millis = excluded.updated_at_millis
        """
    }

    static let projectConfigLookups: [(name: String, statement: SQLStatement)] = [
        ("projectConfigByScope", projectConfigByScope)
    ]
}

extension SQLStoreReading {
    public func projectConfig() throws -> ProjectConfigRecord? {
        try run("projectConfig()") {
            try queryFirst(SQLCatalogue.projectConfigByScope, [:]) {
                ProjectConfigRecord(settings: try $0.requiredText(0), updatedAtMillis: try $0.requiredInt64(1))
            }
        }
    }
}

extension SQLStoreWriting {
    public func putProjectConfig(_ config: ProjectConfigRecord) throws {
        try run("putProjectConfig") {
            _ = try execute(
                SQLCatalogue.putProjectConfig,
                ["settings": .text(config.settings), "updated_at_millis": .integer(config.updatedAtMillis)])
        }
    }
}
