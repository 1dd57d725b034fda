"""Signs custom tokens as firebase-admin does in production (RS256 with the service account's key, `kid`, iss/sub the
account's email, the Identity Toolkit audience, one hour), one per uid, and prints them as a Lua table for wrk.

Usage: custom_tokens.py KEY_FILE COUNT
"""
import json
import sys
import time

import jwt

key = json.load(open(sys.argv[1]))
now = int(time.time())
tokens = [jwt.encode({"iss": key["client_email"], "sub": key["client_email"],
                      "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
                      "uid": f"custom-bench-{n}", "iat": now, "exp": now + 3600},
                     key["private_key"], algorithm="RS256", headers={"kid": key["private_key_id"]})
          for n in range(int(sys.argv[2]))]
print("local tokens = {" + ", ".join(json.dumps(token) for token in tokens) + "}")
