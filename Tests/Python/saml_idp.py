"""A real SAML 2.0 identity provider, pysaml2's `Server`, answering one authentication request the way it answers a
service provider: `python saml_idp.py CONFIG.json` reads the IdP's key and certificate paths, the service provider's
entity id and ACS URL (and optionally `lifetime_minutes`, how long assertions last: negative for expired ones), and
each response to make (`in_response_to`, `name_id`, `sign_response`, `sign_assertion`,
attributes, and `sha1` for pysaml2's old default algorithms instead of
RSA-SHA256; or `saml_request`, the service provider's HTTP-Redirect `SAMLRequest`, which pysaml2 parses and the
response answers), and prints {"responses": [base64 SAMLResponse, ...], "requests": [what pysaml2 read of each
SAMLRequest], "metadata": the IdP's metadata XML}."""

import base64
import json
import os
import sys
import tempfile

from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.saml import NAMEID_FORMAT_EMAILADDRESS, NameID
from saml2.server import Server
from saml2.metadata import entity_descriptor
from saml2.xmldsig import DIGEST_SHA1, DIGEST_SHA256, SIG_RSA_SHA1, SIG_RSA_SHA256


def sp_metadata(entity_id, acs_url):
    return f"""<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="{entity_id}">
  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" AuthnRequestsSigned="false"
      WantAssertionsSigned="false">
    <md:NameIDFormat>{NAMEID_FORMAT_EMAILADDRESS}</md:NameIDFormat>
    <md:AssertionConsumerService Binding="{BINDING_HTTP_POST}" Location="{acs_url}" index="0"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>"""


def main():
    with open(sys.argv[1]) as file:
        settings = json.load(file)
    work = tempfile.mkdtemp()
    metadata_path = os.path.join(work, "sp.xml")
    with open(metadata_path, "w") as file:
        file.write(sp_metadata(settings["sp_entity_id"], settings["acs_url"]))
    config = IdPConfig()
    config.load({
        "entityid": settings["idp_entity_id"],
        "key_file": settings["key_file"],
        "cert_file": settings["cert_file"],
        "xmlsec_binary": "/usr/bin/xmlsec1",
        "metadata": {"local": [metadata_path]},
        "service": {"idp": {
            "endpoints": {"single_sign_on_service": [(settings["idp_entity_id"] + "/sso", BINDING_HTTP_REDIRECT)]},
            "policy": {"default": {"lifetime": {"minutes": settings.get("lifetime_minutes", 5)},
                                   "attribute_restrictions": None,
                                   "name_form": "urn:oasis:names:tc:SAML:2.0:attrname-format:uri"}},
            "name_id_format": [NAMEID_FORMAT_EMAILADDRESS],
        }},
    })
    server = Server(config=config)
    responses = []
    requests = []
    for wanted in settings["responses"]:
        if "saml_request" in wanted:
            # The service provider's AuthnRequest as the HTTP-Redirect binding carries it: pysaml2 inflates, parses and
            # checks it, and the response answers it.
            request = server.parse_authn_request(wanted["saml_request"], BINDING_HTTP_REDIRECT).message
            requests.append({"id": request.id, "acs": request.assertion_consumer_service_url,
                             "issuer": request.issuer.text, "destination": request.destination})
            wanted["in_response_to"] = request.id
        name_id = NameID(format=NAMEID_FORMAT_EMAILADDRESS, text=wanted["name_id"])
        response = server.create_authn_response(
            identity=wanted.get("attributes", {}), in_response_to=wanted["in_response_to"],
            destination=settings["acs_url"], sp_entity_id=settings["sp_entity_id"], name_id=name_id,
            sign_response=wanted["sign_response"], sign_assertion=wanted["sign_assertion"],
            sign_alg=SIG_RSA_SHA1 if wanted.get("sha1") else SIG_RSA_SHA256,
            digest_alg=DIGEST_SHA1 if wanted.get("sha1") else DIGEST_SHA256,
            authn={"class_ref": "urn:oasis:names:tc:SAML:2.0:ac:classes:Password"})
        responses.append(base64.b64encode(str(response).encode()).decode())
    metadata = str(entity_descriptor(config))
    print(json.dumps({"responses": responses, "requests": requests, "metadata": metadata}))


if __name__ == "__main__":
    main()
