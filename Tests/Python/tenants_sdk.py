"""Drives firebase-admin's tenant management (firebase_admin.tenant_mgt) against a running `hearth serve --dev`, and
prints what each call returned.

firebase-admin's tenant client always calls https://identitytoolkit.googleapis.com/v2 (it has no emulator mode), so
this script points that one base URL at the server and authorizes as the development owner (`Bearer owner`, what
firebase-admin's emulator credential sends); every request and answer is otherwise the library's own.

Usage: python tenants_sdk.py '{"base": "http://127.0.0.1:PORT", "project": "demo-hearth"}'
Prints one JSON object: {"<step>": {"ok": true, "value": …} or {"ok": false, "error": "…"}}.
"""
import json
import sys

from firebase_admin import tenant_mgt
from owner import admin_get, owner_app
from steps import results, step

settings = json.loads(sys.argv[1])
base, project = settings["base"], settings["project"]
app = owner_app(base, project)


def record(tenant):
    return {"id": tenant.tenant_id, "name": tenant.display_name, "password": tenant.allow_password_sign_up,
            "emailLink": tenant.enable_email_link_sign_in}




created = {}


def create(key, name, **options):
    tenant = tenant_mgt.create_tenant(name, app=app, **options)
    created[key] = tenant.tenant_id
    return record(tenant)


step("create_tenant", lambda: create("a", "Alpha-Tenant", allow_password_sign_up=True))
step("create_tenant_defaults", lambda: create("b", "Beta-Tenant"))
step("create_tenant_email_link", lambda: create("c", "Gamma-Tenant", enable_email_link_sign_in=True))
step("get_tenant", lambda: record(tenant_mgt.get_tenant(created["a"], app=app)))
step("update_tenant", lambda: record(tenant_mgt.update_tenant(
    created["a"], display_name="Alpha-Renamed", enable_email_link_sign_in=True, app=app)))
step("get_updated_tenant", lambda: record(tenant_mgt.get_tenant(created["a"], app=app)))


def paged():
    first = tenant_mgt.list_tenants(max_results=2, app=app)
    second = first.get_next_page()
    return {"first": [t.tenant_id for t in first.tenants], "firstHasNext": first.has_next_page,
            "second": [t.tenant_id for t in second.tenants], "secondHasNext": second.has_next_page,
            "all": [t.tenant_id for t in tenant_mgt.list_tenants(app=app).iterate_all()]}


step("list_tenants_paged", paged)
step("tenant_scoped_missing_user", lambda: tenant_mgt.auth_for_tenant(created["b"], app=app).get_user("nobody"))
step("delete_tenant", lambda: tenant_mgt.delete_tenant(created["b"], app=app))
step("get_deleted_tenant", lambda: record(tenant_mgt.get_tenant(created["b"], app=app)))
step("delete_deleted_tenant", lambda: tenant_mgt.delete_tenant(created["b"], app=app))
step("update_missing_tenant", lambda: record(tenant_mgt.update_tenant("ghost-tenant", display_name="Ghost-Tenant",
                                                                      app=app)))
step("list_after_delete", lambda: sorted(t.tenant_id for t in tenant_mgt.list_tenants(app=app).iterate_all()))
step("audit_events", lambda: (lambda status, body: {"status": status, "kinds": sorted(
    event["kind"] for event in body.get("events", []) if event["kind"].startswith("tenant_"))})(
    *admin_get(base, f"/identitytoolkit.googleapis.com/v1/projects/{project}/auditEvents?maxResults=100")))
step("ids", lambda: created)

print(json.dumps(results))
