"""Drives firebase-admin's OIDC provider configurations (firebase_admin.auth and tenant_mgt.auth_for_tenant) against a
running `hearth serve --dev` in emulator mode (FIREBASE_AUTH_EMULATOR_HOST), and prints what each call returned.

Usage: python provider_configs_sdk.py '{"base": "http://127.0.0.1:PORT", "project": "demo-hearth", "issuer": "…"}'
Prints one JSON object: {"<step>": {"ok": true, "value": …} or {"ok": false, "error": "…"}}.
"""
import json
import sys

from firebase_admin import auth, tenant_mgt
from owner import admin_get, owner_app
from steps import results, step

settings = json.loads(sys.argv[1])
base, project, issuer = settings["base"], settings["project"], settings["issuer"]
app = owner_app(base, project)


def record(config):
    return {"id": config.provider_id, "name": config.display_name, "enabled": config.enabled,
            "clientId": config.client_id, "issuer": config.issuer, "secret": config.client_secret,
            "idToken": config.id_token_response_type, "code": config.code_response_type}


def ids(page):
    return [config.provider_id for config in page.provider_configs]




step("create", lambda: record(auth.create_oidc_provider_config(
    "oidc.alpha", client_id="alpha-client", issuer=issuer, display_name="Alpha", enabled=True,
    client_secret="alpha-client-secret-7Q2Z", id_token_response_type=True, code_response_type=True, app=app)))
step("create_defaults", lambda: record(auth.create_oidc_provider_config(
    "oidc.beta", client_id="beta-client", issuer="https://beta.example.com", app=app)))
step("create_third", lambda: record(auth.create_oidc_provider_config(
    "oidc.gamma", client_id="gamma-client", issuer="https://gamma.example.com", enabled=True, app=app)))
step("create_duplicate", lambda: record(auth.create_oidc_provider_config(
    "oidc.alpha", client_id="x", issuer="https://x.example.com", app=app)))
step("create_http_issuer", lambda: record(auth.create_oidc_provider_config(
    "oidc.delta", client_id="x", issuer="http://idp.example.com", app=app)))
step("get", lambda: record(auth.get_oidc_provider_config("oidc.alpha", app=app)))
step("update", lambda: record(auth.update_oidc_provider_config(
    "oidc.alpha", display_name="Alpha Renamed", enabled=False, app=app)))
step("get_updated", lambda: record(auth.get_oidc_provider_config("oidc.alpha", app=app)))
step("update_enable", lambda: record(auth.update_oidc_provider_config(
    "oidc.alpha", enabled=True, code_response_type=False, id_token_response_type=True, app=app)))


def paged():
    first = auth.list_oidc_provider_configs(max_results=2, app=app)
    second = first.get_next_page()
    return {"first": ids(first), "firstHasNext": first.has_next_page, "second": ids(second),
            "secondHasNext": second.has_next_page,
            "all": [c.provider_id for c in auth.list_oidc_provider_configs(app=app).iterate_all()]}


step("list_paged", paged)
step("delete", lambda: auth.delete_oidc_provider_config("oidc.beta", app=app))
step("get_deleted", lambda: record(auth.get_oidc_provider_config("oidc.beta", app=app)))
step("delete_deleted", lambda: auth.delete_oidc_provider_config("oidc.beta", app=app))
step("update_missing", lambda: record(auth.update_oidc_provider_config("oidc.ghost", enabled=True, app=app)))
step("list_after_delete", lambda: [c.provider_id for c in auth.list_oidc_provider_configs(app=app).iterate_all()])

# The same through a tenant's client: its own set, not the project's.
tenant = {}


def tenant_client():
    if "client" not in tenant:
        tenant["id"] = tenant_mgt.create_tenant("Idp-Tenant", app=app).tenant_id
        tenant["client"] = tenant_mgt.auth_for_tenant(tenant["id"], app=app)
    return tenant["client"]


step("tenant_create", lambda: record(tenant_client().create_oidc_provider_config(
    "oidc.alpha", client_id="tenant-client", issuer="https://tenant-idp.example.com", enabled=True)))
step("tenant_get", lambda: record(tenant_client().get_oidc_provider_config("oidc.alpha")))
step("tenant_update", lambda: record(tenant_client().update_oidc_provider_config(
    "oidc.alpha", display_name="Tenant Alpha")))
step("tenant_list", lambda: [c.provider_id for c in tenant_client().list_oidc_provider_configs().iterate_all()])
step("tenant_get_project_only", lambda: record(tenant_client().get_oidc_provider_config("oidc.gamma")))
step("tenant_delete", lambda: tenant_client().delete_oidc_provider_config("oidc.alpha"))
step("tenant_get_deleted", lambda: record(tenant_client().get_oidc_provider_config("oidc.alpha")))
step("project_alpha_after_tenant", lambda: record(auth.get_oidc_provider_config("oidc.alpha", app=app)))
step("missing_tenant", lambda: record(tenant_mgt.auth_for_tenant("ghost-tenant", app=app)
                                      .get_oidc_provider_config("oidc.alpha")))
step("audit_events", lambda: (lambda status, body: {"status": status, "kinds": sorted(
    event["kind"] for event in body.get("events", []) if event["kind"].startswith("provider_config_"))})(
    *admin_get(base, f"/identitytoolkit.googleapis.com/v1/projects/{project}/auditEvents?maxResults=100")))
step("tenant_id", lambda: tenant.get("id"))

print(json.dumps(results))
