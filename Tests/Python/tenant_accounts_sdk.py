"""Drives firebase-admin's tenant-scoped client (tenant_mgt.auth_for_tenant, emulator mode) and the client API with
`tenantId` against a running `hearth serve --dev`, and prints what each call returned.

Tenants are made through tenant_mgt (its v2 base URL pointed at the server, owner.py); the tenant
clients then call `/v1/projects/{p}/tenants/{t}/accounts…` on their own. Client calls are the REST requests the JS SDK
sends, with `tenantId` in the body.

Usage: python tenant_accounts_sdk.py '{"base": "http://127.0.0.1:PORT", "project": "demo-hearth"}'
Prints one JSON object: {"<step>": {"ok": true, "value": …} or {"ok": false, "error": "…"}}.
"""
import base64
import json
import sys
import urllib.error
import urllib.request

from firebase_admin import auth, tenant_mgt
from owner import owner_app
from steps import results, step

settings = json.loads(sys.argv[1])
base, project = settings["base"], settings["project"]
app = owner_app(base, project)
V1 = "/identitytoolkit.googleapis.com/v1"


def call(method, path, body=None, admin=False, query=None):
    """A request to the server (a client call with an API key, an admin call as the owner); returns (status, JSON)."""
    headers = {"Content-Type": "application/json"}
    if admin:
        headers["Authorization"] = "Bearer owner"
    query = query if query is not None else ("" if admin else "?key=dev-key")
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{base}{path}{query}", data, headers, method=method)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def client(name, body):
    """A client call (`accounts:<name>`); its JSON, or RuntimeError naming the error's code."""
    path = f"{V1}/accounts:{name}" if not name.startswith("/") else name
    status, answer = call("POST", path, body)
    if status != 200:
        raise RuntimeError(answer.get("error", {}).get("message", str(answer)))
    return answer


def refused(name, body):
    """The error code (the message's first word) of a client call that must fail; the answer if it succeeded."""
    try:
        return {"succeeded": client(name, body)}
    except RuntimeError as error:
        return str(error).split(" ")[0]


def claims_of(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def refresh(token, **extra):
    return client("/securetoken.googleapis.com/v1/token", {"grantType": "refresh_token", "refreshToken": token, **extra})


def patch_tenant(tenant, **fields):
    mask = ",".join(fields)
    status, answer = call("PATCH", f"/identitytoolkit.googleapis.com/v2/projects/{project}/tenants/{tenant}",
                          fields, admin=True, query=f"?updateMask={mask}")
    if status != 200:
        raise RuntimeError(f"PATCH answered {status}: {answer}")
    return {name: answer.get(name) for name in fields}


created = {}
step("tenants", lambda: created.update(
    a=tenant_mgt.create_tenant("Tenant-A", allow_password_sign_up=True, enable_email_link_sign_in=True,
                               app=app).tenant_id,
    b=tenant_mgt.create_tenant("Tenant-B", allow_password_sign_up=True, app=app).tenant_id) or created)
a_id, b_id = created.get("a", "a-missing"), created.get("b", "b-missing")
ta = tenant_mgt.auth_for_tenant(a_id, app=app)
tb = tenant_mgt.auth_for_tenant(b_id, app=app)


def record(user):
    return {"uid": user.uid, "email": user.email, "name": user.display_name, "tenant": user.tenant_id}


# -- firebase-admin's tenant client
step("create_user", lambda: record(ta.create_user(uid="alice", email="alice@example.com", password="alice-pass-1")))
step("get_user", lambda: record(ta.get_user("alice")))
step("get_user_by_email", lambda: record(ta.get_user_by_email("alice@example.com")))
step("get_user_other_tenant", lambda: record(tb.get_user("alice")))
step("get_user_project", lambda: record(auth.get_user("alice", app=app)))
step("update_user", lambda: record(ta.update_user("alice", display_name="Alice of A")))
step("update_user_other_tenant", lambda: record(tb.update_user("alice", display_name="Mallory")))
step("list_users", lambda: sorted(user.uid for user in ta.list_users().iterate_all()))
step("list_users_other_tenant", lambda: sorted(user.uid for user in tb.list_users().iterate_all()))
step("list_users_project", lambda: sorted(user.uid for user in auth.list_users(app=app).iterate_all()))

custom = {}


def custom_sign_in():
    custom["token"] = ta.create_custom_token("carol", {"tier": "gold"}).decode()
    answer = client("signInWithCustomToken", {"token": custom["token"], "tenantId": a_id, "returnSecureToken": True})
    custom.update(idToken=answer["idToken"], refreshToken=answer["refreshToken"])
    claims = claims_of(answer["idToken"])
    return {"uid": claims["sub"], "tenant": claims["firebase"].get("tenant"), "tier": claims.get("tier")}


step("custom_token_sign_in", custom_sign_in)
step("custom_token_without_tenant", lambda: refused("signInWithCustomToken", {"token": custom.get("token")}))
step("custom_token_other_tenant",
     lambda: refused("signInWithCustomToken", {"token": custom.get("token"), "tenantId": b_id}))
step("project_custom_token_in_tenant", lambda: refused(
    "signInWithCustomToken", {"token": auth.create_custom_token("dave", app=app).decode(), "tenantId": a_id}))
step("verify_id_token", lambda: (lambda claims: {"uid": claims["uid"], "tenant": claims["firebase"].get("tenant")})(
    ta.verify_id_token(custom.get("idToken"), check_revoked=True)))
step("verify_id_token_other_tenant", lambda: tb.verify_id_token(custom.get("idToken")))
# The project's client checks no tenant itself (firebase-admin); checking revocation looks the user up in the project.
step("verify_id_token_project", lambda: auth.verify_id_token(custom.get("idToken"), app=app)["firebase"].get("tenant"))
step("verify_id_token_project_check_revoked", lambda: auth.verify_id_token(
    custom.get("idToken"), app=app, check_revoked=True))

cookie = {}


def session_cookie():
    status, answer = call("POST", f"{V1}/projects/{project}/tenants/{a_id}:createSessionCookie",
                          {"idToken": custom.get("idToken"), "validDuration": 3600}, admin=True)
    if status != 200:
        raise RuntimeError(f"createSessionCookie answered {status}: {answer}")
    cookie["value"] = answer["sessionCookie"]
    claims = auth.verify_session_cookie(cookie["value"], app=app)
    return {"uid": claims["uid"], "tenant": claims["firebase"].get("tenant")}


def cookie_refused(path):
    status, answer = call("POST", path, {"idToken": custom.get("idToken")}, admin=True)
    return answer.get("error", {}).get("message", f"{status}").split(" ")[0]


step("create_session_cookie", session_cookie)
step("session_cookie_project_path", lambda: cookie_refused(f"{V1}/projects/{project}:createSessionCookie"))
step("session_cookie_other_tenant", lambda: cookie_refused(f"{V1}/projects/{project}/tenants/{b_id}:createSessionCookie"))


def refreshed():
    answer = refresh(custom.get("refreshToken"))
    custom["refreshToken"] = answer["refresh_token"]
    return {"uid": answer["user_id"], "tenant": claims_of(answer["id_token"])["firebase"].get("tenant"),
            "marked": answer["refresh_token"].endswith("." + a_id)}


step("refresh", refreshed)

# -- the same email in two tenants and the project: three accounts, each signing in only in its own scope
same = {}


def same_email():
    for scope, tenant in (("a", a_id), ("b", b_id), ("project", None)):
        body = {"email": "same@example.com", "password": f"pass-of-{scope}", "returnSecureToken": True}
        if tenant:
            body["tenantId"] = tenant
        same[scope] = client("signUp", body)
    return {scope: {"uid": answer["localId"], "tenant": claims_of(answer["idToken"])["firebase"].get("tenant")}
            for scope, answer in same.items()}


def sign_in_same(scope, tenant, password_of):
    body = {"email": "same@example.com", "password": f"pass-of-{password_of}", "returnSecureToken": True}
    if tenant:
        body["tenantId"] = tenant
    return refused("signInWithPassword", body) if scope != password_of else client("signInWithPassword", body)["localId"]


step("same_email_sign_ups", same_email)
step("legacy_sign_in", lambda: client("/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword", {
    "email": "same@example.com", "password": "pass-of-a", "tenantId": a_id, "returnSecureToken": True})["localId"])
step("same_email_sign_ins", lambda: {
    f"{scope}-with-{owner}": sign_in_same(scope, tenant, owner)
    for scope, tenant in (("a", a_id), ("b", b_id), ("project", None)) for owner in ("a", "b", "project")})

# -- isolation: tenant A's ID token, uid, refresh token and custom token used with tenant B or the project
a_user = same.get("a", {})
a_token, a_refresh, a_uid = a_user.get("idToken"), a_user.get("refreshToken", ""), a_user.get("localId")


def admin_refused(operation):
    try:
        return {"succeeded": str(operation())}
    except Exception as error:  # firebase-admin's typed errors
        return type(error).__name__


def isolation():
    cases = {}
    for label, tenant in (("other_tenant", b_id), ("project", None)):
        scope = {"tenantId": tenant} if tenant else {}
        cases[f"lookup/{label}"] = refused("lookup", {"idToken": a_token, **scope})
        cases[f"update/{label}"] = refused("update", {"idToken": a_token, "displayName": "Mallory", **scope})
        cases[f"delete/{label}"] = refused("delete", {"idToken": a_token, **scope})
        cases[f"mfaEnrollment_start/{label}"] = refused(
            "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start",
            {"idToken": a_token, "phoneEnrollmentInfo": {"phoneNumber": "+15555550100"}, **scope})
        cases[f"sendOobCode_verify/{label}"] = refused(
            "sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": a_token, **scope})
        cases[f"signUp_link/{label}"] = refused(
            "signUp", {"idToken": a_token, "email": "linked@example.com", "password": "pass-1234", **scope})
        cases[f"signInWithCustomToken/{label}"] = refused("signInWithCustomToken", {"token": custom.get("token"), **scope})
    cases["refresh_named/other_tenant"] = refused(
        "/securetoken.googleapis.com/v1/token", {"grantType": "refresh_token", "refreshToken": a_refresh, "tenantId": b_id})
    # Without tenantId (as the JS SDK refreshes) the token's own scope serves it: A's, never the project's.
    cases["refresh_unnamed"] = claims_of(refresh(a_refresh)["id_token"])["firebase"].get("tenant")
    cases["refresh_marker_other_tenant"] = refused("/securetoken.googleapis.com/v1/token", {
        "grantType": "refresh_token", "refreshToken": a_refresh[: -len(a_id)] + b_id})
    cases["refresh_marker_removed"] = refused("/securetoken.googleapis.com/v1/token", {
        "grantType": "refresh_token", "refreshToken": a_refresh[: -len(a_id) - 1]})
    cases["admin_get_user/other_tenant"] = admin_refused(lambda: tb.get_user(a_uid))
    cases["admin_get_user/project"] = admin_refused(lambda: auth.get_user(a_uid, app=app))
    cases["admin_update_user/other_tenant"] = admin_refused(lambda: tb.update_user(a_uid, display_name="Mallory"))
    cases["admin_delete_user/other_tenant"] = admin_refused(lambda: tb.delete_user(a_uid))
    found = tb.get_users([auth.UidIdentifier(a_uid)])
    cases["admin_get_users/other_tenant"] = {"found": len(found.users), "notFound": len(found.not_found)}
    cases["admin_delete_users/other_tenant"] = admin_refused(lambda: tb.delete_users([a_uid]).success_count)
    cases["admin_reset_link/other_tenant"] = admin_refused(
        lambda: tb.generate_password_reset_link("same@example.com") and "sent to B's own account")
    cases["admin_revoke/other_tenant"] = admin_refused(lambda: tb.revoke_refresh_tokens(a_uid))
    # Afterwards A's account is as it was, and A's tokens still work in A.
    user = ta.get_user(a_uid)
    cases["after/a_account"] = {"name": user.display_name, "email": user.email}
    cases["after/a_lookup"] = client("lookup", {"idToken": a_token, "tenantId": a_id})["users"][0]["localId"] == a_uid
    cases["after/a_refresh"] = refresh(a_refresh)["user_id"] == a_uid
    return cases


step("isolation", isolation)



def email_link():
    client("sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": "link@example.com",
                           "continueUrl": "http://localhost/done", "tenantId": a_id})
    _, listing = call("GET", f"/emulator/v1/projects/{project}/tenants/{a_id}/oobCodes", query="")
    code = [entry["oobCode"] for entry in listing["oobCodes"] if entry["email"] == "link@example.com"][-1]
    in_project = refused("signInWithEmailLink", {"email": "link@example.com", "oobCode": code})
    answer = client("signInWithEmailLink", {"email": "link@example.com", "oobCode": code, "tenantId": a_id})
    _, in_project_listing = call("GET", f"/emulator/v1/projects/{project}/oobCodes", query="")
    return {"listedInProject": any(entry["oobCode"] == code for entry in in_project_listing["oobCodes"]),
            "project": in_project, "tenant": claims_of(answer["idToken"])["firebase"].get("tenant"),
            "account": ta.get_user_by_email("link@example.com").tenant_id}


step("email_link_sign_in", email_link)

# -- deletion through the tenant client
step("delete_user_other_tenant", lambda: tb.delete_user("alice"))
step("delete_user", lambda: ta.delete_user("alice"))
step("get_deleted_user", lambda: record(ta.get_user("alice")))

# -- the tenant's switches, each refused with the emulator's code, and allowed when on
switches = {}


def switch_checks():
    body = {"email": "new@example.com", "password": "pass-1234", "tenantId": b_id, "returnSecureToken": True}
    switches["anonymous_off"] = refused("signUp", {"tenantId": b_id, "returnSecureToken": True})
    patch_tenant(b_id, enableAnonymousUser=True)
    switches["anonymous_on"] = "localId" in client("signUp", {"tenantId": b_id, "returnSecureToken": True})
    switches["email_link_off_send"] = refused("sendOobCode", {
        "requestType": "EMAIL_SIGNIN", "email": "new@example.com", "continueUrl": "http://localhost/done",
        "tenantId": b_id})
    switches["email_link_off_sign_in"] = refused(
        "signInWithEmailLink", {"email": "new@example.com", "oobCode": "x", "tenantId": b_id})
    switches["email_link_on_send"] = "email" in client("sendOobCode", {
        "requestType": "EMAIL_SIGNIN", "email": "new@example.com", "continueUrl": "http://localhost/done",
        "tenantId": a_id})
    patch_tenant(b_id, allowPasswordSignup=False)
    switches["password_off_sign_up"] = refused("signUp", body)
    switches["password_off_sign_in"] = refused(
        "signInWithPassword", {"email": "same@example.com", "password": "pass-of-b", "tenantId": b_id})
    patch_tenant(b_id, allowPasswordSignup=True)
    switches["password_on_sign_up"] = "localId" in client("signUp", body)
    patch_tenant(b_id, disableAuth=True)
    switches["disabled_sign_in"] = refused(
        "signInWithPassword", {"email": "same@example.com", "password": "pass-of-b", "tenantId": b_id})
    switches["disabled_refresh"] = refused(
        "/securetoken.googleapis.com/v1/token",
        {"grantType": "refresh_token", "refreshToken": same.get("b", {}).get("refreshToken")})
    switches["disabled_admin_still_served"] = tb.get_user_by_email("same@example.com").email
    patch_tenant(b_id, disableAuth=False)
    switches["enabled_again"] = client(
        "signInWithPassword", {"email": "same@example.com", "password": "pass-of-b", "tenantId": b_id})["localId"]
    switches["missing_tenant"] = refused("signUp", {"tenantId": "ghost-tenant", "returnSecureToken": True})
    switches["missing_tenant_admin"] = admin_refused(lambda: tenant_mgt.auth_for_tenant("ghost-tenant", app=app)
                                                     .get_user("alice"))
    return switches


step("switches", switch_checks)
step("ids", lambda: created)

print(json.dumps(results))
