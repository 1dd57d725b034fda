import Foundation
import Testing

/// `hearth tenants list|create|get|delete` against the built binary, on a data directory `hearth serve --dev` made;
/// a tenant the command creates is served by the tenant API of the next server on that directory.
@Suite("hearth tenants (e2e)", .blocking)
struct TenantsCommandTests {
    @Test("create, list, get and delete tenants; bad names and unknown ids refused with exit 1")
    func tenants() throws {
        let server = HearthProcess()
        try server.start()
        server.stop()
        func tenants(_ arguments: [String]) throws -> ProgramResult {
            try runProgramSplit(HearthProcess.executable, ["tenants"] + arguments + ["--data-dir", server.dataDirectory.path])
        }

        let created = try tenants(["create", "Acme-Corp", "--allow-password-signup"])
        #expect(created.status == 0, "\(created.stderr)")
        let id = try #require(created.stdout.split(separator: " ").dropFirst(2).first.map(String.init))
        #expect(id.hasPrefix("acme-corp-") && id.count == "acme-corp-".count + 5, "\(created.stdout)")
        #expect(try tenants(["create", "Beta-Corp"]).status == 0)

        let shown = try tenants(["get", id])
        #expect(shown.status == 0, "\(shown.stderr)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(record["name"] as? String == "projects/demo-hearth/tenants/\(id)")
        #expect(record["displayName"] as? String == "Acme-Corp")
        #expect(record["allowPasswordSignup"] as? Bool == true)

        let listed = try tenants(["list", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let names = try listed.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["displayName"] as? String
        }
        #expect(names == ["Acme-Corp", "Beta-Corp"])
        let table = try tenants(["list"])
        #expect(table.stdout.hasPrefix("ID") && table.stdout.contains("\(id)") && table.stdout.contains("password"))

        let badName = try tenants(["create", "no"])
        #expect(badName.status == 1 && badName.stderr.contains("INVALID_DISPLAY_NAME"), "\(badName.stderr)")
        let usage = try tenants(["get", id, "--json"])
        #expect(usage.status == 64, "\(usage.stderr)")

        // The tenant API of a server on the same directory sees what the command made.
        try server.start()
        let answer = try server.request(
            "GET", "/identitytoolkit.googleapis.com/v2/projects/demo-hearth/tenants/\(id)",
            headers: [("Authorization", "Bearer owner")])
        #expect(answer.status == 200 && answer.text.contains("\"displayName\":\"Acme-Corp\""), "\(answer.text)")
        server.stop()

        let deleted = try tenants(["delete", id])
        #expect(deleted.status == 0 && deleted.stdout.contains("Deleted tenant \(id)."), "\(deleted.stderr)")
        let missing = try tenants(["delete", id])
        #expect(missing.status == 1 && missing.stderr.contains("no tenant with id \(id)"), "\(missing.stderr)")
    }

    @Test("hearth users --tenant acts on that tenant's users only; the same email is two users; deleting the tenant deletes them")
    func usersOfATenant() throws {
        let server = HearthProcess()
        try server.start()
        server.stop()
        let directory = ["--data-dir", server.dataDirectory.path]
        func hearth(_ arguments: [String]) throws -> ProgramResult {
            try runProgramSplit(HearthProcess.executable, arguments + directory)
        }
        let created = try hearth(["tenants", "create", "Acme-Corp"])
        let id = try #require(created.stdout.split(separator: " ").dropFirst(2).first.map(String.init), "\(created.stdout)")

        let inTenant = try hearth(["users", "create", "--email", "ada@example.com", "--tenant", id])
        #expect(inTenant.status == 0, "\(inTenant.stderr)")
        let inProject = try hearth(["users", "create", "--email", "ada@example.com"])
        #expect(inProject.status == 0, "\(inProject.stderr)")
        let tenantUID = inTenant.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").last.map(String.init)
        let projectUID = inProject.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").last.map(String.init)
        #expect(tenantUID != nil && tenantUID != projectUID, "\(inTenant.stdout) \(inProject.stdout)")

        let listed = try hearth(["users", "list", "--json", "--tenant", id])
        #expect(listed.stdout.split(separator: "\n").count == 1 && listed.stdout.contains(tenantUID ?? "?"), "\(listed.stdout)")
        let found = try hearth(["users", "find", "--email", "ada@example.com", "--tenant", id])
        #expect(found.status == 0 && found.stdout.contains(tenantUID ?? "?") && !found.stdout.contains(projectUID ?? "?"))
        let notThere = try hearth(["users", "show", tenantUID ?? "?"])
        #expect(notThere.status == 1, "the project does not see the tenant's user: \(notThere.stdout)")

        let unknown = try hearth(["users", "list", "--tenant", "ghost-00000"])
        #expect(unknown.status == 64 && unknown.stderr.contains("ghost-00000"), "\(unknown.stderr)")

        #expect(try hearth(["tenants", "delete", id]).status == 0)
        let projectLeft = try hearth(["users", "list", "--json"])
        #expect(projectLeft.stdout.split(separator: "\n").count == 1 && projectLeft.stdout.contains(projectUID ?? "?"))
        let recreated = try hearth(["tenants", "create", "Acme-Corp"])
        let newID = try #require(recreated.stdout.split(separator: " ").dropFirst(2).first.map(String.init))
        let empty = try hearth(["users", "list", "--json", "--tenant", newID])
        #expect(empty.status == 0 && empty.stdout.isEmpty, "a new tenant starts with no users: \(empty.stdout)")
    }
}
