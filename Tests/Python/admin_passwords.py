"""firebase-admin (emulator mode: FIREBASE_AUTH_EMULATOR_HOST) setting passwords on a running `hearth serve --dev`,
and the REST sign-in a client then makes with them.

Usage: python admin_passwords.py '{"base": "http://127.0.0.1:PORT", "project": "demo-hearth"}'
Prints one JSON object: {"<step>": {"ok": true, "value": …} or {"ok": false, "error": "…"}}.
"""
import json
import sys
import urllib.error
import urllib.request

import firebase_admin
from firebase_admin import auth

settings = json.loads(sys.argv[1])
base = settings["base"]
firebase_admin.initialize_app(options={"projectId": settings["project"]})
results = {}


def step(name, call):
    try:
        results[name] = {"ok": True, "value": call()}
    except Exception as error:  # every failure is reported, whatever its type
        results[name] = {"ok": False, "error": f"{type(error).__name__}: {error}"}


def sign_in(email, password):
    """signInWithPassword as the REST documentation shows it; returns (status, uid or error message)."""
    body = {"email": email, "password": password, "returnSecureToken": True}
    request = urllib.request.Request(
        f"{base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=dev-key", json.dumps(body).encode(),
        {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return [response.status, json.load(response)["localId"]]
    except urllib.error.HTTPError as error:
        return [error.code, json.load(error)["error"]["message"]]


step("create_user", lambda: auth.create_user(email="Py@Example.com", password="first password").uid)
step("sign_in", lambda: sign_in("py@example.com", "first password"))
step("providers", lambda: [p.provider_id for p in auth.get_user_by_email("py@example.com").provider_data])
step("update_user", lambda: auth.update_user(results["create_user"]["value"], password="second password").uid)
step("old_password", lambda: sign_in("py@example.com", "first password"))
step("new_password", lambda: sign_in("py@example.com", "second password"))
step("weak_password", lambda: auth.create_user(email="weak@example.com", password="abc").uid)
print(json.dumps(results))
