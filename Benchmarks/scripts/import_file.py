"""Writes COUNT users in `firebase auth:export`'s shape (what `hearth users import` reads) to FILE.

Usage: import_file.py FILE COUNT [FIRST]: users FIRST … FIRST+COUNT-1 (default 0), each with an email, a name, custom
claims and a Google identity, so that several files make distinct users.
"""
import json
import sys

path, count = sys.argv[1], int(sys.argv[2])
first = int(sys.argv[3]) if len(sys.argv) > 3 else 0
with open(path, "w") as out:
    out.write('{"users": [')
    for n in range(first, first + count):
        out.write(("," if n > first else "") + json.dumps({
            "localId": f"cli-{n:07d}", "email": f"cli-{n}@example.com", "emailVerified": True, "displayName": f"Cli {n}",
            "createdAt": str(1_700_000_000_000 + n), "customAttributes": json.dumps({"tier": n % 3}),
            "providerUserInfo": [{"providerId": "google.com", "rawId": f"cli-g-{n}", "email": f"cli-{n}@example.com"}]}))
    out.write("]}")
