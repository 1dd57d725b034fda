"""The firebase-admin app the tenant scripts share: the development owner's credential (`Bearer owner`, what
firebase-admin's emulator credential sends), and tenant_mgt's v2 base URL pointed at the server (firebase-admin's tenant
management always calls https://identitytoolkit.googleapis.com/v2: it has no emulator mode)."""
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
