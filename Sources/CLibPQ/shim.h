#ifndef HEARTH_CLIBPQ_SHIM_H
#define HEARTH_CLIBPQ_SHIM_H

#include <libpq-fe.h>

// The PG_DIAG_* field codes are character-literal macros ('C', 'n', …), which Swift does not import
// as the int that PQresultErrorField takes.

// Why: PG_DIAG_SQLSTATE is a character-literal macro Swift cannot import.
static const int hearth_pq_diag_sqlstate = PG_DIAG_SQLSTATE;
// Why: PG_DIAG_MESSAGE_PRIMARY is a character-literal macro Swift cannot import.
static const int hearth_pq_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
// Why: PG_DIAG_SEVERITY_NONLOCALIZED is a character-literal macro Swift cannot import.
static const int hearth_pq_diag_severity_nonlocalized = PG_DIAG_SEVERITY_NONLOCALIZED;
// Why: PG_DIAG_CONSTRAINT_NAME is a character-literal macro Swift cannot import.
static const int hearth_pq_diag_constraint_name = PG_DIAG_CONSTRAINT_NAME;

#endif
