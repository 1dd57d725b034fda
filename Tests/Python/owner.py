"""What the admin-API scripts share: the development owner credential (`Bearer owner`, what firebase-admin's emulator
credential sends) and a GET with it."""
import json
import urllib.error
import urllib.request

from firebase_admin import _utils, credentials


class OwnerCredential(credentials.Base):
    """The development admin credential (`Bearer owner`)."""

    def get_credential(self):
        return _utils.EmulatorAdminCredentials()


def admin_get(base, path):
    """A GET of `base + path` with the owner credential; returns (status, JSON)."""
    request = urllib.request.Request(f"{base}{path}", headers={"Authorization": "Bearer owner"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
