"""google-auth's service-account credentials against Hearth, as firebase-admin uses them in production.

Usage: google_auth_token.py KEY_FILE

Loads the key file `hearth service-accounts create` wrote, refreshes the credentials (the JWT-bearer
grant to the file's token_uri) and prints one JSON line: the token, its expiry and the account's email,
or {"error": ...} with exit status 2 when google-auth raises RefreshError.
"""
import json
import sys

import google.auth.exceptions
import google.auth.transport.requests
from google.oauth2 import service_account

credentials = service_account.Credentials.from_service_account_file(
    sys.argv[1], scopes=["https://www.googleapis.com/auth/cloud-platform"]
)
try:
    credentials.refresh(google.auth.transport.requests.Request())
except google.auth.exceptions.RefreshError as error:
    print(json.dumps({"error": str(error)}))
    sys.exit(2)
print(json.dumps({
    "token": credentials.token,
    "expiry": credentials.expiry.isoformat(),
    "valid": credentials.valid,
    "email": credentials.service_account_email,
}))
