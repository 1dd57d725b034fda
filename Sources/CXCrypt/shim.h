#ifndef HEARTH_CXCRYPT_SHIM_H
#define HEARTH_CXCRYPT_SHIM_H

/* libxcrypt (Debian libcrypt-dev): crypt_rn checks bcrypt hashes with a caller-owned struct crypt_data. */
#include <crypt.h>

#endif /* HEARTH_CXCRYPT_SHIM_H */
