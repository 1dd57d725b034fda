"""The admin API in bulk: imports USERS accounts through accounts:batchCreate (1,000 per call, as `hearth users import`
and firebase-admin's import_users send them), then pages through every account with accounts:batchGet (1,000 per
page, as list_users does). The reference is Python's sqlite3 doing the same rows' inserts and paged reads on an
equivalent two-table schema (accounts + linked identities; WAL, synchronous=NORMAL, 1,000 rows per transaction), on the
same machine in the same run.

Usage: admin_bulk.py BASE_URL PROJECT USERS FOLDER     prints key=value lines
"""
import json
import os
import sqlite3
import sys
import time
import urllib.request

base, project, total, folder = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
admin = f"{base}/identitytoolkit.googleapis.com/v1/projects/{project}"
headers = {"Content-Type": "application/json", "Authorization": "Bearer owner"}


def user(n):
    return {"localId": f"imp-{n:07d}", "email": f"imported-{n}@example.com", "emailVerified": True,
            "displayName": f"Imported {n}", "createdAt": str(1_700_000_000_000 + n),
            "customAttributes": json.dumps({"tier": n % 3}),
            "providerUserInfo": [{"providerId": "google.com", "rawId": f"g-{n}", "email": f"imported-{n}@example.com"}]}


batches = [[user(n) for n in range(start, min(start + 1000, total))] for start in range(0, total, 1000)]
bodies = [json.dumps({"users": batch}).encode() for batch in batches]

start = time.perf_counter()
for body in bodies:
    with urllib.request.urlopen(urllib.request.Request(f"{admin}/accounts:batchCreate", body, headers)) as response:
        answer = json.load(response)
        if answer.get("error"):
            raise SystemExit(f"import errors: {answer['error'][:3]}")
import_seconds = time.perf_counter() - start

start, listed, token = time.perf_counter(), 0, None
while True:
    url = f"{admin}/accounts:batchGet?maxResults=1000" + (f"&nextPageToken={token}" if token else "")
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Authorization": "Bearer owner"})) as response:
        page = json.load(response)
    listed += len(page.get("users", []))
    token = page.get("nextPageToken")
    if not token:
        break
list_seconds = time.perf_counter() - start

# The reference: the same rows through Python's sqlite3, no HTTP, no JSON.
path = os.path.join(folder, "reference.sqlite")
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=NORMAL")
db.execute("CREATE TABLE accounts (local_id TEXT PRIMARY KEY, email TEXT UNIQUE, email_verified INTEGER, display_name TEXT,"
           " created_at INTEGER, custom_attributes TEXT) WITHOUT ROWID")
db.execute("CREATE TABLE identities (local_id TEXT, provider_id TEXT, raw_id TEXT, email TEXT,"
           " PRIMARY KEY (local_id, provider_id), UNIQUE (provider_id, raw_id)) WITHOUT ROWID")
start = time.perf_counter()
for batch in batches:
    db.execute("BEGIN IMMEDIATE")
    for row in batch:
        db.execute("INSERT INTO accounts VALUES (?, ?, ?, ?, ?, ?)", (row["localId"], row["email"], 1, row["displayName"],
                   int(row["createdAt"]), row["customAttributes"]))
        provider = row["providerUserInfo"][0]
        db.execute("INSERT INTO identities VALUES (?, ?, ?, ?)", (row["localId"], provider["providerId"], provider["rawId"],
                   provider["email"]))
    db.execute("COMMIT")
reference_import_seconds = time.perf_counter() - start
start, read, last = time.perf_counter(), 0, ""
while True:
    rows = db.execute("SELECT a.*, i.provider_id, i.raw_id, i.email FROM accounts a LEFT JOIN identities i USING (local_id)"
                      " WHERE a.local_id > ? ORDER BY a.local_id LIMIT 1000", (last,)).fetchall()
    if not rows:
        break
    read += len(rows)
    last = rows[-1][0]
reference_list_seconds = time.perf_counter() - start

print(f"import_rows_per_s={total / import_seconds:.0f}")
print(f"list_users_per_s={listed / list_seconds:.0f}")
print(f"listed={listed}")
print(f"reference_import_rows_per_s={total / reference_import_seconds:.0f}")
print(f"reference_list_rows_per_s={read / reference_list_seconds:.0f}")
