"""Drives firebase-admin's SAML provider configurations (firebase_admin.auth and tenant_mgt.auth_for_tenant) against a
running `hearth serve --dev` in emulator mode (FIREBASE_AUTH_EMULATOR_HOST), and prints what each call returned.

Usage: python saml_configs_sdk.py '{"base": "http://127.0.0.1:PORT", "project": "demo-hearth", "certificate": "PEM",
"other_certificate": "PEM"}'
Prints one JSON object: {"<step>": {"ok": true, "value": …} or {"ok": false, "error": "…"}}.
"""
import json
import sys

from firebase_admin import auth, tenant_mgt
from owner import admin_get, owner_app
from steps import results, step

settings = json.loads(sys.argv[1])
base, project = settings["base"], settings["project"]
certificate, other = settings["certificate"], settings["other_certificate"]
app = owner_app(base, project)


def record(config):
    return {"id": config.provider_id, "name": config.display_name, "enabled": config.enabled,
            "idpEntityId": config.idp_entity_id, "ssoUrl": config.sso_url, "certificates": config.x509_certificates,
            "rpEntityId": config.rp_entity_id, "callbackUrl": config.callback_url}


def create(client, provider_id, **overrides):
    arguments = {"idp_entity_id": "https://idp.example.test/saml", "sso_url": "https://idp.example.test/saml/sso",
                 "x509_certificates": [certificate], "rp_entity_id": "https://hearth.example.test/saml",
                 "callback_url": "https://demo-hearth.firebaseapp.com/__/auth/handler"}
    arguments.update(overrides)
    return record(client.create_saml_provider_config(provider_id, **arguments))


class Project:
    """The module's functions bound to the owner's app, shaped like a tenant's client."""

    def __getattr__(self, name):
        function = getattr(auth, name)
        return lambda *args, **kwargs: function(*args, app=app, **kwargs)


project_client = Project()
step("create", lambda: create(project_client, "saml.alpha", display_name="Alpha", enabled=True))
step("create_second", lambda: create(project_client, "saml.beta"))
step("create_third", lambda: create(project_client, "saml.gamma", enabled=True))
step("create_duplicate", lambda: create(project_client, "saml.alpha"))
step("create_bad_certificate", lambda: create(project_client, "saml.delta", x509_certificates=["not a certificate"]))
step("create_http_sso", lambda: create(project_client, "saml.delta", sso_url="http://idp.example.test/sso"))
step("get", lambda: record(auth.get_saml_provider_config("saml.alpha", app=app)))
step("update", lambda: record(auth.update_saml_provider_config(
    "saml.alpha", display_name="Alpha Renamed", enabled=False, x509_certificates=[certificate, other],
    callback_url="https://app.example.test/__/auth/handler", app=app)))
step("get_updated", lambda: record(auth.get_saml_provider_config("saml.alpha", app=app)))
step("update_bad_certificate", lambda: record(auth.update_saml_provider_config(
    "saml.alpha", x509_certificates=["-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"], app=app)))


def paged():
    first = auth.list_saml_provider_configs(max_results=2, app=app)
    second = first.get_next_page()
    return {"first": [c.provider_id for c in first.provider_configs], "firstHasNext": first.has_next_page,
            "second": [c.provider_id for c in second.provider_configs], "secondHasNext": second.has_next_page,
            "all": [c.provider_id for c in auth.list_saml_provider_configs(app=app).iterate_all()]}


step("list_paged", paged)
step("delete", lambda: auth.delete_saml_provider_config("saml.beta", app=app))
step("get_deleted", lambda: record(auth.get_saml_provider_config("saml.beta", app=app)))
step("delete_deleted", lambda: auth.delete_saml_provider_config("saml.beta", app=app))
step("list_after_delete", lambda: [c.provider_id for c in auth.list_saml_provider_configs(app=app).iterate_all()])
step("oidc_list_untouched", lambda: [c.provider_id for c in auth.list_oidc_provider_configs(app=app).iterate_all()])

tenant = {}


def tenant_client():
    if "client" not in tenant:
        tenant["id"] = tenant_mgt.create_tenant("Saml-Tenant", app=app).tenant_id
        tenant["client"] = tenant_mgt.auth_for_tenant(tenant["id"], app=app)
    return tenant["client"]


step("tenant_create", lambda: create(tenant_client(), "saml.alpha", display_name="Tenant Alpha", enabled=True,
                                     idp_entity_id="https://tenant-idp.example.test"))
step("tenant_get", lambda: record(tenant_client().get_saml_provider_config("saml.alpha")))
step("tenant_update", lambda: record(tenant_client().update_saml_provider_config("saml.alpha", enabled=False)))
step("tenant_list", lambda: [c.provider_id for c in tenant_client().list_saml_provider_configs().iterate_all()])
step("tenant_get_project_only", lambda: record(tenant_client().get_saml_provider_config("saml.gamma")))
step("tenant_delete", lambda: tenant_client().delete_saml_provider_config("saml.alpha"))
step("tenant_get_deleted", lambda: record(tenant_client().get_saml_provider_config("saml.alpha")))
step("project_alpha_after_tenant", lambda: record(auth.get_saml_provider_config("saml.alpha", app=app)))
step("audit_events", lambda: (lambda status, body: {"status": status, "details": sorted(
    event["kind"] + " " + event.get("detail", "") for event in body.get("events", [])
    if event["kind"].startswith("provider_config_"))})(
    *admin_get(base, f"/identitytoolkit.googleapis.com/v1/projects/{project}/auditEvents?maxResults=100")))

print(json.dumps(results))
