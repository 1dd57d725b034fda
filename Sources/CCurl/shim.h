#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed entry point per
// kind of argument the SMTP wrapper passes.
static inline CURLcode hearth_curl_setopt_long(CURL *_Nonnull handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode hearth_curl_setopt_string(CURL *_Nonnull handle, CURLoption option, const char *_Nullable value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode hearth_curl_setopt_pointer(CURL *_Nonnull handle, CURLoption option, void *_Nullable value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode hearth_curl_setopt_list(CURL *_Nonnull handle, CURLoption option, struct curl_slist *_Nullable list) {
    return curl_easy_setopt(handle, option, list);
}

static inline CURLcode hearth_curl_setopt_read_function(CURL *_Nonnull handle, curl_read_callback _Nonnull callback) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}

static inline CURLcode hearth_curl_response_code(CURL *_Nonnull handle, long *_Nonnull code) {
    return curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, code);
}

// CURL_GLOBAL_DEFAULT is a macro expression Swift does not import.
static inline CURLcode hearth_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}
