import Foundation
import Testing

/// firebase-admin for Python itself, installed from PyPI into a virtual environment under `.build`, driving
/// the built `hearth serve --dev --firebase-issuer` in emulator mode (`FIREBASE_AUTH_EMULATOR_HOST`).
@Suite("firebase-admin-python against hearth serve --dev (e2e)")
struct FirebaseAdminPythonTests {
    static let firebaseAdminVersion = "7.7.0"

    /// The virtual environment's `python`, made (and firebase-admin installed) on first use.
    static func python() throws -> URL {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let venv = root.appendingPathComponent(".build/e2e-firebase-admin-\(firebaseAdminVersion)")
        let python = venv.appendingPathComponent("bin/python")
        let marker = venv.appendingPathComponent("installed")
        if FileManager.default.fileExists(atPath: marker.path) { return python }
        let made = try runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-m", "venv", "--clear", venv.path])
        guard made.status == 0 else { throw RawHTTP.Failure(description: "python3 -m venv failed:\n\(made.output)") }
        let installed = try runProgram(python, ["-m", "pip", "install", "--quiet", "firebase-admin==\(firebaseAdminVersion)"])
        guard installed.status == 0 else { throw RawHTTP.Failure(description: "pip install failed:\n\(installed.output)") }
        try Data().write(to: marker)
        return python
    }

    /// Runs one phase of `script` against `server`; the script asserts every result itself.
    private func run(_ phase: String, _ server: HearthProcess, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let script = server.dataDirectory.appendingPathComponent("firebase_admin_e2e.py")
        try Data(Self.script.utf8).write(to: script)
        return try runProgram(
            try Self.python(), [script.path, phase] + arguments,
            environment: ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(server.port)", "PYTHONUNBUFFERED": "1"])
    }

    @Test("user management, claims in the next refresh, revocation, verify_id_token, list_users over 2,500 users")
    func userManagement() throws {
        let server = HearthProcess(arguments: ["--dev", "--firebase-issuer"])
        try server.start()
        let client = FirebaseIOSClient(server: server)
        let google = try DevGoogle(server: server).signIn(email: "python@example.com")
        let session = try SignedIn(client.verifyAssertion(idToken: google.idToken, accessToken: nil))

        let manage = try run("manage", server, [session.localID, session.idToken])
        #expect(manage.status == 0, "\(manage.output)")
        #expect(manage.output.contains("manage: ok"))
        let refreshed = try client.refresh(session.refreshToken)
        let idToken = try #require(refreshed.json["id_token"] as? String, "\(refreshed.text)")
        #expect(JWTParts.claims(idToken)["admin"] as? Bool == true)
        let refreshToken = try #require(refreshed.json["refresh_token"] as? String)

        let revoke = try run("revoke", server, [session.localID, idToken])
        #expect(revoke.status == 0, "\(revoke.output)")
        #expect(revoke.output.contains("revoke: ok"))
        #expect(try client.refresh(refreshToken).errorMessage?.hasPrefix("TOKEN_EXPIRED") == true)
    }

    /// The Python side: `manage UID ID_TOKEN` and `revoke UID ID_TOKEN`.
    static let script = #"""
        import sys, time
        import firebase_admin
        from firebase_admin import auth

        firebase_admin.initialize_app(options={"projectId": "demo-hearth"})
        phase, uid, id_token = sys.argv[1], sys.argv[2], sys.argv[3]

        def manage():
            user = auth.get_user(uid)
            assert user.email == "python@example.com", user.email
            assert user.provider_data[0].provider_id == "google.com"
            assert user.user_metadata.creation_timestamp > 1_600_000_000_000
            assert auth.get_user_by_email("PYTHON@example.com").uid == uid
            claims = auth.verify_id_token(id_token)
            assert claims["uid"] == uid and claims["firebase"]["sign_in_provider"] == "google.com", claims
            assert auth.verify_id_token(id_token, check_revoked=True)["uid"] == uid

            created = auth.create_user(uid="py-created", email="Created@Example.com", phone_number="+15555550123",
                                       display_name="Created", photo_url="https://example.com/c.png", email_verified=True)
            assert (created.uid, created.email, created.phone_number, created.email_verified) == \
                ("py-created", "created@example.com", "+15555550123", True), created
            assert auth.get_user_by_phone_number("+15555550123").uid == "py-created"
            try:
                auth.create_user(uid="py-created")
                raise AssertionError("duplicate uid accepted")
            except auth.UidAlreadyExistsError:
                pass
            try:
                auth.create_user(email="created@example.com")
                raise AssertionError("duplicate email accepted")
            except auth.EmailAlreadyExistsError:
                pass

            found = auth.get_users([auth.UidIdentifier("py-created"), auth.EmailIdentifier("python@example.com"),
                                    auth.PhoneIdentifier("+15555550199"),
                                    auth.ProviderIdentifier("google.com", user.provider_data[0].uid)])
            assert sorted(u.uid for u in found.users) == sorted(["py-created", uid]), [u.uid for u in found.users]
            assert len(found.not_found) == 1 and isinstance(found.not_found[0], auth.PhoneIdentifier)

            updated = auth.update_user("py-created", disabled=True, display_name=auth.DELETE_ATTRIBUTE,
                                       phone_number=auth.DELETE_ATTRIBUTE, custom_claims={"role": "editor"})
            assert updated.disabled and updated.display_name is None and updated.phone_number is None
            assert updated.custom_claims == {"role": "editor"}
            auth.set_custom_user_claims(uid, {"admin": True})
            assert auth.get_user(uid).custom_claims == {"admin": True}

            for start in range(0, 2500, 1000):
                batch = [auth.ImportUserRecord(uid=f"bulk-{i:05d}", email=f"bulk{i}@example.com",
                                               custom_claims={"n": i})
                         for i in range(start, min(start + 1000, 2500))]
                result = auth.import_users(batch)
                assert (result.success_count, result.failure_count) == (len(batch), 0), result.errors
            rejected = auth.import_users([auth.ImportUserRecord(uid="bulk-dup", email="bulk7@example.com")])
            assert rejected.failure_count == 1 and rejected.errors[0].index == 0

            uids = [u.uid for u in auth.list_users(max_results=1000).iterate_all()]
            assert len(uids) == 2502 and uids == sorted(uids) and len(set(uids)) == 2502, len(uids)
            page = auth.list_users(max_results=1000)
            pages = 0
            while page:
                pages += 1
                page = page.get_next_page()
            assert pages == 3, pages

            deleted = auth.delete_users(["bulk-00000", "bulk-00001", "nobody"])
            assert (deleted.success_count, deleted.failure_count) == (3, 0)
            auth.delete_user("py-created")
            try:
                auth.get_user("py-created")
                raise AssertionError("deleted user found")
            except auth.UserNotFoundError:
                pass

        def revoke():
            issued_at = auth.verify_id_token(id_token)["iat"]
            # validSince has second precision, as Firebase's: revoke in a later second than the token's.
            while int(time.time()) <= issued_at:
                time.sleep(0.05)
            auth.revoke_refresh_tokens(uid)
            assert auth.get_user(uid).tokens_valid_after_timestamp > issued_at * 1000
            try:
                auth.verify_id_token(id_token, check_revoked=True)
                raise AssertionError("revoked token accepted")
            except auth.RevokedIdTokenError:
                pass
            auth.update_user(uid, disabled=True)
            try:
                auth.verify_id_token(id_token, check_revoked=True)
                raise AssertionError("token of a disabled user accepted")
            except auth.UserDisabledError:
                pass
            auth.update_user(uid, disabled=False)

        {"manage": manage, "revoke": revoke}[phase]()
        print(f"{phase}: ok")
        """#
}
