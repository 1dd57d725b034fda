import HearthCore
import HearthProtocol
import Testing

/// A ``Caller`` is who the audit log says acted, and from where: its actor and client reach the events of a user's
/// operation, an administrator's and the operator's, and whether it is an administrator decides what an email
/// action may do.
@Suite("Caller reaches the audit log")
struct CallerAuditTests {
    static let address = "198.51.100.44"

    @Test("a user's operation: the event carries the user and the caller's address")
    func userOperation() throws {
        let f = try AuditFixture()
        let guest = try f.platform.accounts.signUp(SignUpRequest(), by: .user(client: Self.address))
        let event = try f.only(.signUp)
        #expect(event.localID == guest.localId)
        #expect(event.actor == .user)
        #expect(event.clientAddress == Self.address)
    }

    @Test("an administrator's operation: the event carries the caller's actor and address")
    func adminOperation() throws {
        let f = try AuditFixture()
        let robot = Caller.administrator(.serviceAccount(email: "robot@p.iam.example"), client: Self.address)
        var create = AdminCreateAccountRequest()
        create.localId = "made-by-robot"
        _ = try f.platform.admin.create(create, by: robot)
        var disable = AdminUpdateAccountRequest(localId: "made-by-robot")
        disable.disableUser = true
        _ = try f.platform.admin.update(disable, by: robot)
        let recorded = try f.events().map { "\($0.kind) \($0.actor) \($0.clientAddress ?? "-")" }
        let actor = "service-account:robot@p.iam.example"
        #expect(
            recorded.sorted() == [
                "account_created \(actor) \(Self.address)", "account_updated \(actor) \(Self.address)",
                "account_disabled \(actor) \(Self.address)",
            ].sorted())
    }

    @Test("the console's and the command line's operations are recorded as theirs")
    func consoleAndCommandLine() throws {
        let f = try AuditFixture()
        var create = AdminCreateAccountRequest()
        create.localId = "target"
        _ = try f.platform.admin.create(create, by: .console(uid: "admin-1", client: Self.address))
        try f.platform.admin.setDisabled(localID: "target", true, by: .commandLine)
        f.test.time.advance(by: 10)
        try f.platform.admin.revokeSessions(localID: "target", by: .console(uid: "admin-1", client: nil))
        _ = try f.platform.sessionKeys.rotate(by: .commandLine)
        let recorded = try f.events().map { "\($0.kind) \($0.actor) \($0.clientAddress ?? "-")" }
        #expect(
            recorded.sorted() == [
                "account_created console:admin-1 \(Self.address)", "account_updated command-line -",
                "account_disabled command-line -", "account_updated console:admin-1 -",
                "sessions_revoked console:admin-1 -", "key_rotated command-line -",
            ].sorted())
    }

    @Test("only an administrator may ask an email action for its link back")
    func administratorDecidesEmailActions() throws {
        let f = try AuditFixture()
        _ = try f.passwordSignUp("ada@example.com")
        var request = SendOobCodeRequest(requestType: "PASSWORD_RESET", email: "ada@example.com")
        request.returnOobLink = true
        #expect(wireErrorCode { _ = try f.platform.emailActions.sendOobCode(request, by: .user(client: Self.address)) }
            == .insufficientPermission)
        let answer = try f.platform.emailActions.sendOobCode(request, by: .commandLine)
        #expect(answer.oobLink != nil)
    }

    @Test("Caller's constructors name the actors the audit log stores")
    func constructors() {
        #expect(Caller.user(client: "a").actor == .user && Caller.user(client: "a").client == "a")
        #expect(Caller.administrator(.owner, client: nil).actor == .owner)
        #expect(Caller.console(uid: "u", client: nil).actor == .console(uid: "u"))
        #expect(Caller.commandLine == Caller(client: nil, actor: .commandLine))
        #expect(Caller.system == Caller(client: nil, actor: .system))
        #expect(!Caller.user(client: nil).isAdministrator && Caller.commandLine.isAdministrator)
    }
}
