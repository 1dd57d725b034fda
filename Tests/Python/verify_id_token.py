"""Verifies one Hearth ID token with the outside libraries a backend would use, and prints what each concluded.

Usage: python verify_id_token.py BASE_URL PROJECT_ID ID_TOKEN [firebase-admin]
Prints one JSON object: {"<verifier>": {"ok": true, "claims": {...}} or {"ok": false, "error": "..."}}.

- pyjwt: PyJWT with the keys from Hearth's JWKS (`/.well-known/jwks.json`), issuer `BASE_URL/PROJECT_ID`.
- pyjwt-discovery: PyJWT with the `jwks_uri` and `issuer` of Hearth's OpenID discovery document.
- google-auth: google.oauth2.id_token.verify_token with Hearth's X.509 map (`/robot/v1/metadata/x509/...`).
- firebase-admin (when asked): firebase_admin.auth.verify_id_token in emulator mode (FIREBASE_AUTH_EMULATOR_HOST).
"""
import json
import sys
import urllib.request


def outcome(verify):
    try:
        return {"ok": True, "claims": verify()}
    except Exception as error:  # every refusal is reported, whatever its type
        return {"ok": False, "error": f"{type(error).__name__}: {error}"}


def main():
    base, project, token = sys.argv[1:4]
    wants_firebase_admin = "firebase-admin" in sys.argv[4:]
    import jwt

    results = {}

    def with_pyjwt(jwks_url, issuer):
        key = jwt.PyJWKClient(jwks_url).get_signing_key_from_jwt(token).key
        return jwt.decode(token, key, algorithms=["RS256"], audience=project, issuer=issuer,
                          options={"require": ["exp", "iat", "sub", "iss", "aud"]})

    results["pyjwt"] = outcome(lambda: with_pyjwt(f"{base}/.well-known/jwks.json", f"{base}/{project}"))

    def with_discovery():
        document = json.load(urllib.request.urlopen(f"{base}/{project}/.well-known/openid-configuration"))
        return with_pyjwt(document["jwks_uri"], document["issuer"])

    results["pyjwt-discovery"] = outcome(with_discovery)

    def with_google_auth():
        import google.auth.transport.requests
        from google.oauth2 import id_token
        certs = f"{base}/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
        return id_token.verify_token(token, google.auth.transport.requests.Request(), audience=project, certs_url=certs)

    results["google-auth"] = outcome(with_google_auth)

    if wants_firebase_admin:
        import firebase_admin
        from firebase_admin import auth
        app = firebase_admin.initialize_app(options={"projectId": project})
        results["firebase-admin"] = outcome(lambda: auth.verify_id_token(token, app=app))

    print(json.dumps(results))


main()
