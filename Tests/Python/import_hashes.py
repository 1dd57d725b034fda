"""Imports users with password hashes through firebase-admin's `auth.import_users(users, hash_alg=…)` (emulator
mode: FIREBASE_AUTH_EMULATOR_HOST) against a running `hearth serve --dev`, one algorithm per call, and reports
what each import and the admin reads that follow returned. Every hash is computed here with Python's hashlib/hmac
(or is a published vector), independently of Hearth.

Usage: python import_hashes.py '{"base": "http://127.0.0.1:PORT", "project": "demo-hearth", "phase": "import"}'
The "import" phase imports and reads back; the "signIn" phase signs each imported user in (a wrong password, the
right one, the right one again: the first success rehashes to Argon2id, the second checks that hash).
Prints one JSON object: {"<step>": {"ok": true, "value": …} or {"ok": false, "error": "…"}}.
"""
import base64
import hashlib
import hmac
import json
import sys
import urllib.error
import urllib.request

import firebase_admin
from firebase_admin import auth
from steps import results, step

settings = json.loads(sys.argv[1])
base, project = settings["base"], settings["project"]
app = firebase_admin.initialize_app(options={"projectId": project})


def post(path, body, headers):
    request = urllib.request.Request(f"{base}{path}", json.dumps(body).encode(),
                                     {"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


# The firebase/scrypt README's project parameters and user.
FIREBASE_KEY = base64.b64decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")
SALT = b"hearth-salt"
SIGNER = b"hearth-hmac-signer-key"

# uid -> (password, hash, salt, hash_alg)
USERS = {
    "scrypt-user": ("user1password",
                    base64.b64decode("lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="),
                    base64.b64decode("42xEC+ixf3L2lw=="),
                    auth.UserImportHash.scrypt(key=FIREBASE_KEY, rounds=8, memory_cost=14,
                                               salt_separator=base64.b64decode("Bw=="))),
    "standard-scrypt-user": ("scrypt-password", hashlib.scrypt(b"scrypt-password", salt=SALT, n=1024, r=8, p=1, dklen=64),
                             SALT, auth.UserImportHash.standard_scrypt(memory_cost=1024, parallelization=1, block_size=8,
                                                                        derived_key_length=64)),
    # Openwall's crypt_blowfish vector.
    "bcrypt-user": ("U*U", b"$2b$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", None,
                    auth.UserImportHash.bcrypt()),
    "hmac-user": ("hmac-password", hmac.new(SIGNER, b"hmac-password" + SALT, "sha256").digest(), SALT,
                  auth.UserImportHash.hmac_sha256(key=SIGNER)),
    "pbkdf2-user": ("pbkdf2-password", hashlib.pbkdf2_hmac("sha256", b"pbkdf2-password", SALT, 10000, 32), SALT,
                    auth.UserImportHash.pbkdf2_sha256(rounds=10000)),
    "sha512-user": ("sha-password", None, SALT, auth.UserImportHash.sha512(rounds=5)),
    "md5-user": ("md5-password", hashlib.md5(SALT + b"md5-password").hexdigest().encode(), SALT,
                 auth.UserImportHash.md5(rounds=0)),
    "pbkdf-sha1-user": ("pbkdf1-password", hashlib.pbkdf2_hmac("sha1", b"pbkdf1-password", SALT, 5000, 20), SALT,
                        auth.UserImportHash.pbkdf_sha1(rounds=5000)),
    "hmac-sha512-user": ("hmac512-password", hmac.new(SIGNER, b"hmac512-password" + SALT, "sha512").digest(), SALT,
                         auth.UserImportHash.hmac_sha512(key=SIGNER)),
    "hmac-sha1-user": ("hmac1-password", hmac.new(SIGNER, b"hmac1-password" + SALT, "sha1").digest(), SALT,
                       auth.UserImportHash.hmac_sha1(key=SIGNER)),
    "hmac-md5-user": ("hmacmd5-password", hmac.new(SIGNER, b"hmacmd5-password" + SALT, "md5").digest(), SALT,
                      auth.UserImportHash.hmac_md5(key=SIGNER)),
    # One round each: H(salt + password).
    "sha256-user": ("sha256-password", hashlib.sha256(SALT + b"sha256-password").digest(), SALT,
                    auth.UserImportHash.sha256(rounds=1)),
    "sha1-user": ("sha1-password", hashlib.sha1(SALT + b"sha1-password").digest(), SALT,
                  auth.UserImportHash.sha1(rounds=1)),
}
# SHA512 with 5 rounds: H(salt + password), then H(x) until there were 5 hashes.
sha = hashlib.sha512(SALT + b"sha-password").digest()
for _ in range(4):
    sha = hashlib.sha512(sha).digest()
USERS["sha512-user"] = (USERS["sha512-user"][0], sha) + USERS["sha512-user"][2:]


def import_each():
    outcome = {}
    for uid, (password, password_hash, salt, hash_alg) in USERS.items():
        record = auth.ImportUserRecord(uid=uid, email=f"{uid}@example.com", password_hash=password_hash,
                                       password_salt=salt)
        result = auth.import_users([record], hash_alg=hash_alg, app=app)
        outcome[uid] = {"success": result.success_count, "failure": result.failure_count,
                        "errors": [error.reason for error in result.errors]}
    return outcome


def providers_of_each():
    return {uid: sorted(p.provider_id for p in auth.get_user(uid, app=app).provider_data) for uid in USERS}


def listed_hashes():
    # Over HTTP the admin download shows each hash and salt as imported (base64url), as Firebase shows administrators.
    def decoded(text):
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)) if text else b""

    return {user.uid: decoded(user.password_hash) == USERS[user.uid][1]
            and decoded(user.password_salt) == (USERS[user.uid][2] or b"")
            for user in auth.list_users(app=app).iterate_all() if user.uid in USERS}


def row_errors():
    good = auth.ImportUserRecord(uid="bcrypt-ok", email="bcrypt-ok@example.com",
                                 password_hash=b"$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK")
    bad = auth.ImportUserRecord(uid="bcrypt-bad", email="bcrypt-bad@example.com", password_hash=b"not a bcrypt hash")
    result = auth.import_users([good, bad], hash_alg=auth.UserImportHash.bcrypt(), app=app)
    return {"success": result.success_count, "errors": [[error.index, error.reason] for error in result.errors]}


def request_error():
    # firebase-admin checks rounds itself, so this request is sent as a backend without it would send it.
    status, body = post(f"/identitytoolkit.googleapis.com/v1/projects/{project}/accounts:batchCreate",
                        {"hashAlgorithm": "SHA256", "rounds": 100000,
                         "users": [{"localId": "too-many-rounds", "passwordHash": "AAAA"}]},
                        {"Authorization": "Bearer owner"})
    return {"status": status, "message": body.get("error", {}).get("message")}


def sign_in_each():
    outcome = {}
    for uid, (password, *_rest) in USERS.items():
        email = f"{uid}@example.com"
        wrong, _ = post("/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=dev-key",
                        {"email": email, "password": password + "!", "returnSecureToken": True}, {})
        right, body = post("/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=dev-key",
                           {"email": email, "password": password, "returnSecureToken": True}, {})
        again, _ = post("/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=dev-key",
                        {"email": email, "password": password, "returnSecureToken": True}, {})
        outcome[uid] = {"wrong": wrong, "right": right, "localId": body.get("localId"), "again": again}
    return outcome


if settings["phase"] == "import":
    step("import_each", import_each)
    step("providers_of_each", providers_of_each)
    step("listed_hashes", listed_hashes)
    step("row_errors", row_errors)
    step("request_error", request_error)
else:
    step("sign_in_each", sign_in_each)
print(json.dumps(results))
