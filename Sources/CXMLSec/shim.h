#ifndef HEARTH_CXMLSEC_SHIM_H
#define HEARTH_CXMLSEC_SHIM_H

/* What `pkg-config --cflags xmlsec1-openssl` defines on Debian 12 (SwiftPM passes only its -I flags): the ABI the
   library was built with (xmlSecSize is unsigned int under XMLSEC_NO_SIZE_T) and the OpenSSL engine. */
#ifndef XMLSEC_NO_SIZE_T
#define XMLSEC_NO_SIZE_T
#endif
#define XMLSEC_OPENSSL3_ENGINES 1
#define XMLSEC_NO_GOST 1
#define XMLSEC_NO_GOST2012 1
#define XMLSEC_NO_CRYPTO_DYNAMIC_LOADING 1
#define XMLSEC_CRYPTO_OPENSSL 1
#define __XMLSEC_FUNCTION__ __func__

#include <string.h>
/* Debian's libxml2 is built with ICU, and its encoding header then pulls ICU's headers in, which clash with the ICU
   module Foundation brings. Nothing here uses libxml2's ICU converters (they sit behind pointers, at the end of
   xmlCharEncodingHandler, which Hearth never touches), so the headers are read without them. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlmemory.h>
#include <xmlsec/xmlsec.h>
#include <xmlsec/errors.h>
#include <xmlsec/xmltree.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/transforms.h>
#include <xmlsec/templates.h>
#include <xmlsec/keys.h>
#include <xmlsec/crypto.h>
#include <xmlsec/openssl/app.h>
#include <xmlsec/openssl/crypto.h>

/* Why a signature was not accepted (hearth_xmlsec_verify). */
enum {
    HEARTH_XMLSEC_VERIFIED = 0,
    HEARTH_XMLSEC_BAD_KEY = 1,
    HEARTH_XMLSEC_MALFORMED = 2,
    HEARTH_XMLSEC_INVALID = 3,
    HEARTH_XMLSEC_WRONG_REFERENCE = 4,
};

static void hearth_xmlsec_silent(const char *file, int line, const char *func, const char *errorObject,
                                 const char *errorSubject, int reason, const char *msg) {
    (void)file; (void)line; (void)func; (void)errorObject; (void)errorSubject; (void)reason; (void)msg;
}

/* Initializes libxml2 and xmlsec with its OpenSSL engine; errors are not printed. Call once per process. */
static inline int hearth_xmlsec_initialize(void) {
    xmlInitParser();
    if (xmlSecInit() < 0) return -1;
    if (xmlSecCheckVersion() != 1) return -1;
    if (xmlSecOpenSSLAppInit(NULL) < 0) return -1;
    if (xmlSecOpenSSLInit() < 0) return -1;
    xmlSecErrorsSetCallback(hearth_xmlsec_silent);
    return 0;
}

/* xmlFree is a variable holding a function pointer, which Swift cannot call through. */
static inline void hearth_xml_free(void *_Nullable pointer) {
    if (pointer) xmlFree(pointer);
}

/* Registers `ID` attributes under `node` so that `#id` references resolve (duplicates are found by the caller first). */
static inline void hearth_xmlsec_add_ids(xmlDocPtr _Nonnull doc, xmlNodePtr _Nonnull node) {
    static const xmlChar *names[] = { BAD_CAST "ID", NULL };
    xmlSecAddIDs(doc, node, names);
}

/* Verifies the <ds:Signature> `signature` with the PEM certificate `pem` (its key only: KeyInfo is never trusted),
   allowing same-document references only, exclusive or inclusive C14N, the enveloped-signature transform, SHA-256/512
   digests and RSA-SHA256/512 or ECDSA-SHA256 signatures. It must have exactly one reference, whose URI is
   `expected_uri` ("#<ID of the signed element>"). */
static inline int hearth_xmlsec_verify(xmlNodePtr _Nonnull signature, const unsigned char *_Nonnull pem, size_t pem_length,
                                       const char *_Nonnull expected_uri) {
    xmlSecKeyPtr key = xmlSecOpenSSLAppKeyLoadMemory(pem, (xmlSecSize)pem_length, xmlSecKeyDataFormatCertPem, NULL, NULL, NULL);
    if (key == NULL) return HEARTH_XMLSEC_BAD_KEY;
    xmlSecDSigCtxPtr context = xmlSecDSigCtxCreate(NULL);
    if (context == NULL) { xmlSecKeyDestroy(key); return HEARTH_XMLSEC_MALFORMED; }
    context->signKey = key;
    context->enabledReferenceUris = xmlSecTransformUriTypeSameDocument;
    int setup = 0;
    setup |= xmlSecDSigCtxEnableReferenceTransform(context, xmlSecTransformEnvelopedId);
    setup |= xmlSecDSigCtxEnableReferenceTransform(context, xmlSecTransformExclC14NId);
    setup |= xmlSecDSigCtxEnableReferenceTransform(context, xmlSecTransformExclC14NWithCommentsId);
    setup |= xmlSecDSigCtxEnableReferenceTransform(context, xmlSecTransformInclC14NId);
    setup |= xmlSecDSigCtxEnableReferenceTransform(context, xmlSecOpenSSLTransformSha256Id);
    setup |= xmlSecDSigCtxEnableReferenceTransform(context, xmlSecOpenSSLTransformSha512Id);
    setup |= xmlSecDSigCtxEnableSignatureTransform(context, xmlSecTransformExclC14NId);
    setup |= xmlSecDSigCtxEnableSignatureTransform(context, xmlSecTransformExclC14NWithCommentsId);
    setup |= xmlSecDSigCtxEnableSignatureTransform(context, xmlSecTransformInclC14NId);
    setup |= xmlSecDSigCtxEnableSignatureTransform(context, xmlSecOpenSSLTransformRsaSha256Id);
    setup |= xmlSecDSigCtxEnableSignatureTransform(context, xmlSecOpenSSLTransformRsaSha512Id);
    setup |= xmlSecDSigCtxEnableSignatureTransform(context, xmlSecOpenSSLTransformEcdsaSha256Id);
    int result = HEARTH_XMLSEC_MALFORMED;
    if (setup == 0 && xmlSecDSigCtxVerify(context, signature) == 0) {
        if (context->status != xmlSecDSigStatusSucceeded) {
            result = HEARTH_XMLSEC_INVALID;
        } else if (xmlSecPtrListGetSize(&context->signedInfoReferences) != 1) {
            result = HEARTH_XMLSEC_WRONG_REFERENCE;
        } else {
            xmlSecDSigReferenceCtxPtr reference = (xmlSecDSigReferenceCtxPtr)xmlSecPtrListGetItem(&context->signedInfoReferences, 0);
            result = (reference != NULL && reference->uri != NULL && strcmp((const char *)reference->uri, expected_uri) == 0)
                ? HEARTH_XMLSEC_VERIFIED : HEARTH_XMLSEC_WRONG_REFERENCE;
        }
    }
    xmlSecDSigCtxDestroy(context); /* destroys signKey too */
    return result;
}

/* Signs `element` (which has the attribute ID=`id`) with an enveloped <ds:Signature> inserted after `after` (its
   <saml:Issuer>, where the SAML schema puts it), or as its first child when `after` is NULL: exclusive C14N, RSA-SHA256
   and a SHA-256 digest, the certificate in KeyInfo. `key_pem` is the PKCS#8 or RSA private key, `cert_pem` its
   certificate. Returns 0 on success. */
static inline int hearth_xmlsec_sign(xmlDocPtr _Nonnull doc, xmlNodePtr _Nonnull element, xmlNodePtr _Nullable after,
                                     const char *_Nonnull uri, const unsigned char *_Nonnull key_pem, size_t key_length,
                                     const unsigned char *_Nonnull cert_pem, size_t cert_length) {
    xmlNodePtr signature = xmlSecTmplSignatureCreate(doc, xmlSecTransformExclC14NId, xmlSecOpenSSLTransformRsaSha256Id, NULL);
    if (signature == NULL) return -1;
    if (after != NULL) {
        if (xmlAddNextSibling(after, signature) == NULL) { xmlFreeNode(signature); return -1; }
    } else if (element->children != NULL) {
        if (xmlAddPrevSibling(element->children, signature) == NULL) { xmlFreeNode(signature); return -1; }
    } else if (xmlAddChild(element, signature) == NULL) {
        xmlFreeNode(signature); return -1;
    }
    xmlNodePtr reference = xmlSecTmplSignatureAddReference(signature, xmlSecOpenSSLTransformSha256Id, NULL, BAD_CAST uri, NULL);
    if (reference == NULL
        || xmlSecTmplReferenceAddTransform(reference, xmlSecTransformEnvelopedId) == NULL
        || xmlSecTmplReferenceAddTransform(reference, xmlSecTransformExclC14NId) == NULL) return -1;
    xmlNodePtr keyInfo = xmlSecTmplSignatureEnsureKeyInfo(signature, NULL);
    if (keyInfo == NULL || xmlSecTmplKeyInfoAddX509Data(keyInfo) == NULL) return -1;
    xmlSecKeyPtr key = xmlSecOpenSSLAppKeyLoadMemory(key_pem, (xmlSecSize)key_length, xmlSecKeyDataFormatPem, NULL, NULL, NULL);
    if (key == NULL) return -1;
    if (xmlSecOpenSSLAppKeyCertLoadMemory(key, cert_pem, (xmlSecSize)cert_length, xmlSecKeyDataFormatPem) < 0) {
        xmlSecKeyDestroy(key); return -1;
    }
    xmlSecDSigCtxPtr context = xmlSecDSigCtxCreate(NULL);
    if (context == NULL) { xmlSecKeyDestroy(key); return -1; }
    context->signKey = key;
    int result = xmlSecDSigCtxSign(context, signature) < 0 ? -1 : 0;
    xmlSecDSigCtxDestroy(context);
    return result;
}

#endif
