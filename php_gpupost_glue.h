/* What the glue's files share (php_gpupost.c: module, INI, errors, the call's context;
 * php_gpupost_decode.c: decoders and the arrays they return; php_gpupost_encode.c: encoders). */
#ifndef PHP_GPUPOST_GLUE_H
#define PHP_GPUPOST_GLUE_H

#include "php.h"
#include "include/gpupost.h"

extern zend_class_entry *gpupost_exception_ce;

/* Thread-safe PHP (ZTS): one call of the extension at a time in a process. The device runtime
 * with its buffers and the result memory it lends, the host scratch, the upload pool, the trace
 * and the persistent indexes are the process's, so a thread's call holds the extension's lock
 * from its arguments to its PHP result (GP_FUNCTION, GP_METHOD: the body runs under it), and an
 * index object's free and phpinfo take it too. The lock is recursive (an object freed inside a
 * call), and a bailout (a fatal error) inside gives it back. Without ZTS: no lock at all.
 * GP_ZTS_UNLOCKED (CFLAGS, tests only) builds a ZTS extension without it, to show that the
 * threaded test fails then. */
#if defined(ZTS) && !defined(GP_ZTS_UNLOCKED)
void gpupost_lock(void);
void gpupost_unlock(void);
#define GP_LOCKED(call)                   \
	do {                                  \
		gpupost_lock();                   \
		zend_try {                        \
			call;                         \
		} zend_catch {                    \
			gpupost_unlock();             \
			zend_bailout();               \
		} zend_end_try();                 \
		gpupost_unlock();                 \
	} while (0)
#define GP_FUNCTION(name)                                                           \
	static void gp_locked_##name(INTERNAL_FUNCTION_PARAMETERS);                     \
	PHP_FUNCTION(name) { GP_LOCKED(gp_locked_##name(INTERNAL_FUNCTION_PARAM_PASSTHRU)); } \
	static void gp_locked_##name(INTERNAL_FUNCTION_PARAMETERS)
#define GP_METHOD(cls, name)                                                        \
	static void gp_locked_##cls##_##name(INTERNAL_FUNCTION_PARAMETERS);             \
	PHP_METHOD(cls, name) { GP_LOCKED(gp_locked_##cls##_##name(INTERNAL_FUNCTION_PARAM_PASSTHRU)); } \
	static void gp_locked_##cls##_##name(INTERNAL_FUNCTION_PARAMETERS)
#else
#define GP_LOCKED(call) call
#define GP_FUNCTION(name) PHP_FUNCTION(name)
#define GP_METHOD(cls, name) PHP_METHOD(cls, name)
#endif

/* gpupostd (php_gpupost_server.c): the socket gpupost.server names (NULL: none); the process's
 * connection, made if it is not (NULL while the server cannot be reached; *epoch says which
 * connection, as a handle opened on it belongs to it); a request's failure noted; gpu_info()'s
 * part; the connection closed at shutdown. */
struct gp_client;
const char *gpupost_server_socket(void);
struct gp_client *gpupost_server_client(uint64_t *epoch);
void gpupost_server_failed(const gp_error *err);
const char *gpupost_server_why(void);
void gpupost_server_info(zval *rv);
void gpupost_server_shutdown(void);

/* A GpuPost\Exception for err (its code says which kind), naming the blob's key where given. */
void gpupost_throw(const gp_error *err, const zval *key);
/* The same, naming the key of the batch's blob err->blob. */
void throw_for_blob(const gp_error *err, HashTable *keys);
/* ValueError for an unknown option, named by its string or int key. */
void unknown_option(uint32_t arg, const zend_string *key, zend_ulong ikey);
/* ValueError unless format and mode are GPUPOST_* constants that go together. */
bool check_format_mode(zend_long format, zend_long mode, uint32_t format_arg, uint32_t mode_arg);
/* The call's context (INI threshold, what memory_limit leaves, the cap) for `lists` lists; after
 * the call, the caches trimmed to gpupost.max_cached_bytes. */
uint64_t memory_left(void);
void call_ctx(gp_ctx *ctx, size_t lists);
void call_end(void);
/* A GpuPost\Exception naming the size and the limit, unless `what` fits the budget. */
bool fits_budget(const gp_ctx *ctx, uint64_t php_bytes, uint64_t c_bytes, const char *what);
/* The ints of a PHP list as a C array (emalloc'd), or NULL with a TypeError or an exception. */
int64_t *ints_from_array(HashTable *ht, uint32_t arg, size_t *n);

/* What PHP's arrays cost (php_gpupost_sizes.c, Zend's layout in PHP 8.2), and the face the
 * engine's budgets carry them in (call_ctx sets it): bytes Zend's allocator takes for a request
 * of `size` (its small bins, then whole pages); a PHP list of n ints built as a packed array of
 * its final size; a PHP array of n entries under keys that may make it a hash (its buckets and
 * hash slots, and the packed array it may start as); lower bounds, before the exact sizes are
 * known, of `values` ints over `lists` lists and of `postings` postings holding `positions`
 * positions, one array each, under one map per blob. */
uint64_t gp_zend_alloc_bytes(uint64_t size);
uint64_t gp_php_list_bytes(uint64_t n);
uint64_t gp_php_map_bytes(uint64_t n);
uint64_t gp_php_lists_floor(uint64_t values, uint64_t lists);
uint64_t gp_php_postings_floor(uint64_t postings, uint64_t positions, uint64_t blobs);
extern const gp_face gpupost_php_face;

/* A packed PHP list of n ints from a C array (php_gpupost_decode.c). */
void packed_from_u32(zval *rv, const uint32_t *v, size_t n);
void packed_from_i64(zval *rv, const int64_t *v, size_t n);
/* Arrays laid out before they are filled (php_gpupost_decode.c), so that PHP never converts or
 * grows one past what the budget counted (gp_php_map_bytes): a hash for n keys; an array for the
 * keys of `keys`, taking no memory until its first add (after the budget's check), which lays it
 * out packed when they are 0 .. n - 1, else as a hash. */
void array_init_map(zval *rv, uint32_t n);
void array_init_like(zval *rv, HashTable *keys);
void array_add_like(zval *rv, HashTable *keys, zend_string *skey, zend_ulong ikey, zval *item);
/* [doc => [positions]] as MOD9 postings (php_gpupost_encode.c): with `combine`, byte for byte
 * Yioop's packPosting; errors name argument `arg`, after `where`. */
zend_string *mod9_encode_postings(HashTable *data, bool combine, uint32_t arg, const char *where);
/* A query as a tree (php_gpupost_query.c) over index ix's columns: a string is an FTS5 MATCH
 * expression; an array is an array tree with `tree`, else a list of terms under op (GP_OP_*). Errors (ValueError, TypeError)
 * name argument `arg` and, in a batch, the query (`name`: "query [key]: ", or ""); false thrown.
 * t is initialized by the caller and freed by it whatever this returns. */
struct gp_qtree;
/* A term's bytes: a string as it is, an int as its decimal string (written into buf); false for
 * anything else. */
bool gpupost_term_bytes(zval *v, char buf[24], const char **s, size_t *n);
bool gpupost_query_tree(const gp_index *ix, zval *q, bool tree, int op, const char *name, struct gp_qtree *t, uint32_t arg);
/* The index class (php_gpupost_index.c): registered at start-up; its phpinfo rows. */
void gpupost_index_minit(zend_class_entry *ce);
void gpupost_index_minfo(void);
/* The persistent indexes (php_gpupost_resident.c): the one for path while the file (its stat)
 * is unchanged, with a reference taken (NULL otherwise, a stale copy dropped); ix kept (a
 * reference taken) unless it would pass gpupost.max_resident_bytes (then false, thrown); back
 * under the cap after a kept index grew; what they hold (host and device bytes); shutdown. */

gp_index *gpupost_resident_find(const char *kind, const char *path, const php_stream_statbuf *sb);
bool gpupost_resident_add(const char *kind, const char *path, const php_stream_statbuf *sb, gp_index *ix);
void gpupost_resident_trim(void);
/* An index's files (php_gpupost_index_file.c): save() (true, or false thrown); a file read whole
 * within the call's budget (*pinned: gp_index_image's handle when the image is pinned memory;
 * *sb the state of the file read; `opened` (MAXPATHLEN) the path resolved), or NULL thrown; with
 * `mapped` not NULL, a local regular file is mapped instead where it can be (*mapped then true:
 * gp_index_unmap_file undoes it); its image freed; a file's path resolved and its state
 * (persistent indexes), or false thrown. */
bool gpupost_index_file_save(const gp_index *ix, int version, const char *path);
uint8_t *gpupost_index_file_read(const char *path, const char *what, bool want_pinned, gp_placement place,
                                 const gp_ctx *ctx, size_t *len, void **pinned, php_stream_statbuf *sb,
                                 char *opened, bool *mapped);
void gpupost_index_image_free(uint8_t *p, void *pinned);
bool gpupost_index_file_stat(const char *path, const char *what, char *resolved, php_stream_statbuf *sb);
/* A Yioop IndexArchiveBundle (php_gpupost_yioop_bundle.c): its directory resolved into `real`
 * (MAXPATHLEN) and its state (the directory's identity, its files' sizes and latest change: what
 * a persistent copy is known by), or false thrown; the bundle opened as one index within the
 * call's budget, or NULL thrown. */
bool gpupost_yioop_bundle_stat(const char *dir, char *real, php_stream_statbuf *sb);
gp_index *gpupost_yioop_bundle_open(const char *dir, const gp_ctx *ctx, char *real, php_stream_statbuf *sb);
/* [doc => page] into rv: each doc's record in the bundle's summaries (generation and summary
 * offset from ix's attributes) read, inflated and unserialized (no objects); a doc without a
 * record is a ValueError, a damaged record a GpuPost\Exception naming file and byte (rv then
 * undefined, the exception thrown). */
void gpupost_yioop_summaries(const gp_index *ix, const char *dir, HashTable *docs, const gp_ctx *ctx, zval *rv);
/* [doc => Yioop's item fields] into rv (an index from openYioopBundle: ix->yioop set); a doc
 * without a record is a ValueError (rv then undefined, the error thrown). */
void gpupost_yioop_docs(const gp_index *ix, HashTable *docs, zval *rv);
/* number_format($v, $places) read back as PHP reads a numeric string in arithmetic: the rounding
 * Yioop's scores pass through (php_gpupost_yioop_search.c). */
double gpupost_round_decimal(double v, int places);
/* Yioop's pages for one word struct (KEYS, DISALLOW_KEYS, QUOTE_POSITIONS, WEIGHT as
 * PhraseModel builds them; options: to_retrieve) into rv, or a TypeError/ValueError or
 * GpuPost\Exception thrown (php_gpupost_yioop_search.c). */
void gpupost_yioop_search(const gp_index *ix, HashTable *ws, HashTable *options, const gp_ctx *ctx, zval *rv);
/* [generation => its first doc, its doc indices and its shard header's counts] into rv. */
void gpupost_yioop_generations(const gp_index *ix, zval *rv);
uint64_t gpupost_resident_bytes(void);
size_t gpupost_resident_count(void);
void gpupost_resident_shutdown(void);

#endif
