"""Drives firebase-admin (emulator mode: FIREBASE_AUTH_EMULATOR_HOST) through the user-management calls a backend
makes, against a running `hearth serve --dev`, and prints what each call returned.

Usage: python admin_sdk.py '{"base": "http://127.0.0.1:PORT", "project": "demo-hearth",
                              "signedIn": {"uid": …, "idToken": …, "refreshToken": …}, "bulkUsers": 2500}'
Prints one JSON object: {"<step>": {"ok": true, "value": …} or {"ok": false, "error": "…"}}. Steps run in order and
each is recorded whatever happened to the ones before; a value is what the Swift test asserts on.
"""
import datetime
import json
import sys
import time
import urllib.error
import urllib.request

import firebase_admin
from firebase_admin import auth
from steps import results, step

settings = json.loads(sys.argv[1])
base, project, signed_in = settings["base"], settings["project"], settings["signedIn"]
app = firebase_admin.initialize_app(options={"projectId": project})


def client_post(path, body):
    """A Firebase client call (any API key works in --dev); returns (status, JSON)."""
    request = urllib.request.Request(f"{base}{path}?key=dev-key", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def refresh(token):
    return client_post("/securetoken.googleapis.com/v1/token", {"grantType": "refresh_token", "refreshToken": token})


def record(user):
    return {"uid": user.uid, "email": user.email, "phone": user.phone_number, "name": user.display_name,
            "photo": user.photo_url, "verified": user.email_verified, "disabled": user.disabled,
            "claims": user.custom_claims, "providers": sorted(p.provider_id for p in user.provider_data),
            "created": user.user_metadata.creation_timestamp, "lastSignIn": user.user_metadata.last_sign_in_timestamp,
            "validAfter": user.tokens_valid_after_timestamp}


def claims_of(id_token):
    import base64
    payload = id_token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


uid = signed_in["uid"]
step("verify_id_token", lambda: auth.verify_id_token(signed_in["idToken"], app=app)["uid"])
step("verify_id_token_check_revoked", lambda: auth.verify_id_token(signed_in["idToken"], app=app, check_revoked=True)["uid"])
step("get_user", lambda: record(auth.get_user(uid, app=app)))
step("create_user", lambda: record(auth.create_user(
    uid="grace", email="grace@example.com", phone_number="+15555550100", display_name="Grace Hopper",
    photo_url="https://example.com/grace.png", email_verified=True, app=app)))
step("create_user_duplicate_email", lambda: record(auth.create_user(email="grace@example.com", app=app)))
step("get_user_by_email", lambda: record(auth.get_user_by_email("grace@example.com", app=app)))
step("get_user_by_phone_number", lambda: record(auth.get_user_by_phone_number("+15555550100", app=app)))
step("get_users", lambda: (lambda result: {
    "found": sorted(user.uid for user in result.users),
    "notFound": len(result.not_found)})(auth.get_users([
        auth.UidIdentifier(uid), auth.EmailIdentifier("grace@example.com"), auth.PhoneIdentifier("+15555550100"),
        auth.UidIdentifier("nobody")], app=app)))
step("update_user", lambda: record(auth.update_user(
    "grace", display_name="Rear Admiral Hopper", disabled=True, photo_url=auth.DELETE_ATTRIBUTE, app=app)))
step("get_user_missing", lambda: record(auth.get_user("nobody", app=app)))
step("set_custom_user_claims", lambda: (auth.set_custom_user_claims(uid, {"admin": True, "level": 3}, app=app),
                                        auth.get_user(uid, app=app).custom_claims)[1])


def refreshed_claims():
    status, body = refresh(signed_in["refreshToken"])
    if status != 200:
        raise RuntimeError(f"refresh answered {status}: {body}")
    signed_in["refreshToken"] = body["refresh_token"]
    signed_in["idToken"] = body["id_token"]
    token_claims = claims_of(body["id_token"])
    return {"admin": token_claims.get("admin"), "level": token_claims.get("level")}


step("claims_in_refreshed_token", refreshed_claims)


def revoke_then_refresh():
    old_token = signed_in["idToken"]
    time.sleep(1.1)  # validSince has whole seconds: a token of the same second as the revocation is not revoked
    auth.revoke_refresh_tokens(uid, app=app)
    status, body = refresh(signed_in["refreshToken"])
    try:
        auth.verify_id_token(old_token, app=app, check_revoked=True)
        revoked_check = "accepted"
    except auth.RevokedIdTokenError:
        revoked_check = "RevokedIdTokenError"
    return {"refreshStatus": status, "refreshError": body.get("error", {}).get("message"),
            "checkRevoked": revoked_check, "withoutCheck": auth.verify_id_token(old_token, app=app)["uid"] == uid}


step("revoke_refresh_tokens", revoke_then_refresh)


def disabled_user_check():
    fresh = auth.create_custom_token("disabled-check", app=app).decode()
    status, body = client_post("/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken",
                               {"token": fresh, "returnSecureToken": True})
    if status != 200:
        raise RuntimeError(f"signInWithCustomToken answered {status}: {body}")
    auth.update_user("disabled-check", disabled=True, app=app)
    try:
        auth.verify_id_token(body["idToken"], app=app, check_revoked=True)
        return "accepted"
    except auth.UserDisabledError:
        return "UserDisabledError"


step("check_revoked_disabled_user", disabled_user_check)


def bulk_import_and_list():
    total = settings["bulkUsers"]
    imported = 0
    for start in range(0, total, 1000):
        users = [auth.ImportUserRecord(
            uid=f"bulk-{n:05d}", email=f"bulk-{n}@example.com", display_name=f"Bulk {n}",
            custom_claims={"cohort": n % 7},
            provider_data=[auth.UserProvider(uid=f"google-{n}", provider_id="google.com", email=f"bulk-{n}@example.com")])
            for n in range(start, min(start + 1000, total))]
        result = auth.import_users(users, app=app)
        if result.failure_count:
            raise RuntimeError(f"{result.failure_count} rows failed: {[e.reason for e in result.errors[:3]]}")
        imported += result.success_count
    pages, uids = 0, []
    page = auth.list_users(max_results=1000, app=app)
    while page:
        pages += 1
        uids.extend(user.uid for user in page.users)
        page = page.get_next_page()
    bulk = [u for u in uids if u.startswith("bulk-")]
    return {"imported": imported, "pages": pages, "listed": len(uids), "bulkListed": len(bulk),
            "distinct": len(set(uids)) == len(uids), "sample": record(auth.get_user("bulk-00042", app=app))}


step("import_and_list_users", bulk_import_and_list)
step("delete_user", lambda: (auth.delete_user("grace", app=app), record(auth.get_user("grace", app=app)))[1])
step("delete_users", lambda: (lambda result: {"success": result.success_count, "failure": result.failure_count})(
    auth.delete_users(["bulk-00000", "bulk-00001", "nobody"], app=app)))


def custom_token_sign_in():
    token = auth.create_custom_token("custom-user", {"premium": True}, app=app).decode()
    status, body = client_post("/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken",
                               {"token": token, "returnSecureToken": True})
    if status != 200:
        raise RuntimeError(f"signInWithCustomToken answered {status}: {body}")
    token_claims = claims_of(body["idToken"])
    return {"uid": token_claims.get("sub"), "premium": token_claims.get("premium"),
            "provider": token_claims.get("firebase", {}).get("sign_in_provider"), "isNewUser": body.get("isNewUser")}


step("custom_token_sign_in", custom_token_sign_in)


def session_cookie():
    status, body = client_post("/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken",
                               {"token": auth.create_custom_token("cookie-user", app=app).decode(), "returnSecureToken": True})
    if status != 200:
        raise RuntimeError(f"signInWithCustomToken answered {status}: {body}")
    cookie = auth.create_session_cookie(body["idToken"], expires_in=datetime.timedelta(days=1), app=app)
    verified = auth.verify_session_cookie(cookie, check_revoked=True, app=app)
    return {"uid": verified["uid"], "iss": verified["iss"]}


step("session_cookie", session_cookie)

def admin_post(path, body):
    """An admin REST call as the dev owner (what firebase-admin sends in emulator mode); returns (status, JSON)."""
    request = urllib.request.Request(f"{base}/identitytoolkit.googleapis.com/v1/projects/{project}{path}",
                                     json.dumps(body).encode(),
                                     {"Content-Type": "application/json", "Authorization": "Bearer owner"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def create_user_with_factors():
    """The Node and Go SDKs' createUser with multiFactor sends mfaInfo; firebase-admin reads the factors back."""
    status, body = admin_post("/accounts", {"localId": "factors", "email": "factors@example.com", "emailVerified": True,
                                            "mfaInfo": [{"phoneInfo": "+15555550111", "displayName": "work"}]})
    if status != 200:
        raise RuntimeError(f"accounts answered {status}: {body}")
    refused, refusal = admin_post("/accounts", {"localId": "factors-2", "mfaInfo": [{"phoneInfo": "555"}]})
    # This firebase-admin's UserRecord has no multi_factor property: read the record get_user fetched as it came.
    factors = auth.get_user("factors", app=app)._data.get("mfaInfo", [])
    return {"factors": [{"phone": f.get("phoneInfo"), "name": f.get("displayName"), "id": bool(f.get("mfaEnrollmentId")),
                         "enrolled": bool(f.get("enrolledAt"))} for f in factors],
            "refused": refused, "refusal": refusal["error"]["message"]}


def exported_password_hash():
    import base64
    auth.create_user(uid="hashed", email="hashed@example.com", password="secret-123", app=app)
    for user in auth.list_users(app=app).iterate_all():
        if user.uid == "hashed":
            text = user.password_hash
            return {"phc": base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode().split("$")[1],
                    "salt": user.password_salt}
    raise RuntimeError("hashed not listed")


step("create_user_with_factors", create_user_with_factors)
step("exported_password_hash", exported_password_hash)
print(json.dumps(results, default=str))
