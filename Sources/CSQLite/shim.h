#ifndef HEARTH_CSQLITE_SHIM_H
#define HEARTH_CSQLITE_SHIM_H

#include <sqlite3.h>

// Swift cannot call C variadic functions, so the few sqlite3_db_config options we set go
// through fixed-arity wrappers. Each returns the sqlite3_db_config result code.

#if SQLITE_VERSION_NUMBER >= 3026000
// Why: sqlite3_db_config is variadic; this sets an on/off option (DEFENSIVE, DQS_DML, DQS_DDL, …).
static inline int hearth_sqlite_db_config_flag(sqlite3 *_Nonnull db, int option, int enabled) {
    return sqlite3_db_config(db, option, enabled, (int *)0);
}
#endif

// SQLITE_TRANSIENT is a function-like cast macro ((sqlite3_destructor_type)-1) that Swift cannot
// import, so binding text and blobs with "SQLite makes its own copy" semantics goes through these.

// Why: passes SQLITE_TRANSIENT, which Swift cannot spell.
static inline int hearth_sqlite_bind_text_copy(sqlite3_stmt *_Nonnull stmt, int index, const char *_Nonnull text,
                                               int byteCount) {
    return sqlite3_bind_text(stmt, index, text, byteCount, SQLITE_TRANSIENT);
}

// Why: passes SQLITE_TRANSIENT, which Swift cannot spell.
static inline int hearth_sqlite_bind_blob_copy(sqlite3_stmt *_Nonnull stmt, int index, const void *_Nonnull bytes,
                                               int byteCount) {
    return sqlite3_bind_blob(stmt, index, bytes, byteCount, SQLITE_TRANSIENT);
}

// Why: passes SQLITE_TRANSIENT, which Swift cannot spell; the result of a function defined by the wrapper.
static inline void hearth_sqlite_result_text_copy(sqlite3_context *_Nonnull context, const char *_Nonnull text) {
    sqlite3_result_text(context, text, -1, SQLITE_TRANSIENT);
}

#endif
