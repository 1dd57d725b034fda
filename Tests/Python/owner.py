"""What the admin-API scripts share: the development owner's credential (`Bearer owner`, what firebase-admin's emulator
credential sends), the firebase-admin app with tenant_mgt's v2 base URL pointed at the server (firebase-admin's tenant
management always calls https://identitytoolkit.googleapis.com/v2: it has no emulator mode), and a GET with it."""
import json
import urllib.error
import urllib.request

import firebase_admin
from firebase_admin import _utils, credentials, tenant_mgt


class OwnerCredential(credentials.Base):
    """The development admin credential (`Bearer owner`)."""

    def get_credential(self):
        return _utils.EmulatorAdminCredentials()


def owner_app(base, project):
    """The default app for `project`, managing tenants on the server at `base`."""
    tenant_mgt._TenantManagementService.TENANT_MGT_URL = f"{base}/identitytoolkit.googleapis.com/v2"
    return firebase_admin.initialize_app(OwnerCredential(), options={"projectId": project})


def admin_get(base, path):
    """A GET of `base + path` with the owner credential; returns (status, JSON)."""
    request = urllib.request.Request(f"{base}{path}", headers={"Authorization": "Bearer owner"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
