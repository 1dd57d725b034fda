// libmicrohttpd expects these system headers to be included before <microhttpd.h>.
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <microhttpd.h>

// glibc's allocator controls (malloc_trim), which Swift's Glibc module does not export. HearthHTTP
// uses them to give request-body memory back to the system after a burst (see MemoryTrimSchedule).
#include <malloc.h>

// Callback shapes that <microhttpd.h> documents only in prose (no typedef), so Swift can name them.
typedef void *_Nullable (*hearth_mhd_uri_log_callback)(void *_Nullable cls, const char *_Nonnull uri, struct MHD_Connection *_Nonnull connection);
typedef size_t (*hearth_mhd_unescape_callback)(void *_Nullable cls, struct MHD_Connection *_Nonnull connection, char *_Nonnull text);

// MHD_start_daemon is variadic, which Swift cannot call: take every option through one MHD_OPTION_ARRAY.
// The port argument is unused because HearthHTTP always hands over its own bound socket (MHD_OPTION_LISTEN_SOCKET).
static inline struct MHD_Daemon *_Nullable hearth_mhd_start_daemon(
    unsigned int flags,
    MHD_AccessHandlerCallback _Nonnull handler,
    void *_Nullable handler_cls,
    struct MHD_OptionItem *_Nonnull options)
{
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

// MHD_get_connection_info is variadic; every info type HearthHTTP asks for takes no extra argument.
static inline const union MHD_ConnectionInfo *_Nullable hearth_mhd_connection_info(
    struct MHD_Connection *_Nonnull connection,
    enum MHD_ConnectionInfoType type)
{
    return MHD_get_connection_info(connection, type);
}
