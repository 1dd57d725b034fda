/// The configuration settings one scope's services enforce (``ProjectSettings``), as they read them: through the
/// instance's ``ProjectConfigDirectory`` (at most 5 s old), from ``ProjectConfigService``.
public struct ScopeSettings: Sendable {
    /// The scope whose settings these are (the project's, or a tenant's).
    public let scope: StoreScope
    let directory: ProjectConfigDirectory
    let service: ProjectConfigService

    /// The settings of the scope, read outside any transaction.
    public func current() throws -> ProjectSettings {
        try directory.settings(in: scope, read: service.settings(in:))
    }

    /// The settings of the scope, read through `reader` when they are not cached (inside a transaction a second one
    /// could wait on the first).
    func current(reading reader: any StoreReader) throws -> ProjectSettings {
        try directory.settings(in: scope) { try service.settings(from: reader, in: $0) }
    }

    /// The project's settings, for what is project-wide (the authorized domains), whatever the scope.
    func project() throws -> ProjectSettings {
        try directory.settings(in: .project, read: service.settings(in:))
    }

    /// Refuses a new password that the scope's password policy refuses (`WEAK_PASSWORD`,
    /// `PASSWORD_DOES_NOT_MEET_REQUIREMENTS`); checked before any hashing.
    func checkNewPassword(_ password: String) throws {
        try current().passwordPolicy.check(password)
    }

    /// `settings` with the continue-URL hosts and the action URL the config API set for the project, where it set
    /// them.
    func emailActions(_ settings: EmailActionSettings) throws -> EmailActionSettings {
        let project = try project()
        var current = settings
        if let domains = project.authorizedDomains { current.authorizedDomains = domains }
        if let url = project.emailActionURL { current.actionURL = url }
        current.customTemplates = project.emailTemplates
        return current
    }
}
