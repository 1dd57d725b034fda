#ifndef HEARTH_COPENSSL_SHIM_H
#define HEARTH_COPENSSL_SHIM_H

#include <openssl/opensslv.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <openssl/bn.h>
#include <openssl/hmac.h>

/* HearthCrypto is written against the OpenSSL 3 provider APIs (EVP_PKEY_fromdata, OSSL_DECODER, fetched digests). */
#if OPENSSL_VERSION_MAJOR < 3
#error "Hearth needs OpenSSL 3.0 or newer (libssl-dev from Debian 12 or later)"
#endif

/* OPENSSL_free is a function-like macro (it adds __FILE__/__LINE__), so Swift cannot call it directly. */
static inline void hearth_openssl_free(void *_Nullable pointer) {
    OPENSSL_free(pointer);
}

/* BIO_get_mem_data is a function-like macro over BIO_ctrl with a char ** out-parameter; this gives it a typed signature. */
static inline long hearth_openssl_bio_get_mem_data(BIO *_Nonnull bio, char *_Nullable *_Nonnull data) {
    return BIO_get_mem_data(bio, data);
}

/* EVP_PKEY_KEYPAIR is a macro built from other macros with '|', which Swift does not import. */
static inline int hearth_openssl_selection_keypair(void) {
    return EVP_PKEY_KEYPAIR;
}

/* EVP_PKEY_PUBLIC_KEY is a macro built from other macros with '|', which Swift does not import. */
static inline int hearth_openssl_selection_public_key(void) {
    return EVP_PKEY_PUBLIC_KEY;
}

#endif /* HEARTH_COPENSSL_SHIM_H */
