/* The wire between gpupostd and its clients (docs/SERVER.md, "The wire"): frames of a 16-byte
 * header and a payload, little-endian, built into a growing buffer and read back through a reader
 * that checks every length against what is left before it trusts it. Both faces (the server, the
 * PHP extension's client) read and write frames only through this file; it knows no socket. */
#ifndef GP_WIRE_H
#define GP_WIRE_H

#include "../include/gpupost.h"

#define GP_WIRE_MAGIC 0x31575047u          /* "GPW1" as its bytes lie */
#define GP_WIRE_VERSION 2                  /* 2: TREES, and answers with their matches */
#define GP_WIRE_HEADER 16
#define GP_WIRE_MAX_PAYLOAD (64u << 20)    /* the most either side accepts, whatever its cap */
#define GP_WIRE_MAX_PATH 4096
#define GP_WIRE_MAX_MESSAGE 1024
#define GP_WIRE_MAX_NAME 256
#define GP_WIRE_MAX_STATS (1u << 20)
#define GP_WIRE_MIN_PAYLOAD 4096           /* the least a side may announce as its cap */

/* An ERROR frame's status: the engine's (GP_EFORMAT .. GP_EVALUE), or the server's own refusals. */
enum {
	GP_WIRE_BUSY = -5,     /* a bound reached (connections, queued queries): try again later */
	GP_WIRE_DENIED = -6    /* not allowed (a path outside the configured directories, a peer) */
};
#define GP_WIRE_STATUS_MIN GP_WIRE_DENIED

enum gp_wire_type {
	GP_WIRE_HELLO = 1,     /* client: version, its name */
	GP_WIRE_WELCOME = 2,   /* server: version, the largest payload it accepts */
	GP_WIRE_OPEN = 3,      /* client: an index file's path, flags */
	GP_WIRE_OPENED = 4,    /* server: the index's handle, its docs and terms */
	GP_WIRE_QUERY = 5,     /* client: a batch of queries on a handle */
	GP_WIRE_ANSWERS = 6,   /* server: the batch's answers */
	GP_WIRE_ERROR = 7,     /* server: a status and a message, for the request of the same id */
	GP_WIRE_STATS = 8,     /* client: the server's statistics (an empty payload) */
	GP_WIRE_STATS_TEXT = 9,/* server: its statistics as text, a "name value" line each */
	GP_WIRE_TREES = 10,    /* client: a batch of query trees on a handle (gp_wire_trees.h) */
	GP_WIRE_TYPES = 11
};

typedef struct gp_wire_header {
	uint32_t length;       /* the payload's bytes */
	uint32_t id;           /* the request's, as the client chose it; an answer carries it back */
	uint16_t type;
} gp_wire_header;

/* The header at p (GP_WIRE_HEADER bytes): GP_EFORMAT naming the byte and the rule when its magic,
 * type or reserved bytes are wrong or its payload passes max_payload (at most
 * GP_WIRE_MAX_PAYLOAD): what a reader checks before it reads or allocates the payload. */
int gp_wire_header_read(const uint8_t *p, uint32_t max_payload, gp_wire_header *h, gp_error *err);

/* A frame being built: grows to at most max_payload (GP_ENOMEM past it, or when memory fails;
 * every put after a failure does nothing, gp_wire_end reports it). */
typedef struct gp_wire_buf {
	uint8_t *p;
	size_t len, cap;
	uint32_t max_payload;
	int failed;
} gp_wire_buf;

void gp_wire_begin(gp_wire_buf *b, uint16_t type, uint32_t id);
void gp_wire_put_u8(gp_wire_buf *b, uint8_t v);
void gp_wire_put_u32(gp_wire_buf *b, uint32_t v);
void gp_wire_put_u64(gp_wire_buf *b, uint64_t v);
void gp_wire_put_f64(gp_wire_buf *b, double v);
void gp_wire_put_bytes(gp_wire_buf *b, const void *bytes, uint32_t len);   /* u32 length, bytes */
/* The header's length written: b->p[0 .. b->len) is the frame. GP_ENOMEM when a put failed. */
int gp_wire_end(gp_wire_buf *b, gp_error *err);
void gp_wire_buf_free(gp_wire_buf *b);

/* A payload read front to back: a read past its end marks it bad (and reads 0) instead of reading
 * on; gp_wire_reader_done names the first bad byte, or bytes left over. */
typedef struct gp_wire_reader {
	const uint8_t *p;
	size_t len, at;
	size_t bad_at;         /* SIZE_MAX while nothing failed */
	const char *bad_rule;
} gp_wire_reader;

void gp_wire_reader_init(gp_wire_reader *r, const uint8_t *payload, size_t len);
uint8_t gp_wire_get_u8(gp_wire_reader *r);
uint32_t gp_wire_get_u32(gp_wire_reader *r);
uint64_t gp_wire_get_u64(gp_wire_reader *r);
double gp_wire_get_f64(gp_wire_reader *r);
/* A u32 length and that many bytes (at most max: longer is bad), pointed into the payload. */
const uint8_t *gp_wire_get_bytes(gp_wire_reader *r, uint32_t max, uint32_t *len);
/* A count of items of at least item_bytes each: bad when the bytes left cannot hold them (so that
 * nothing is allocated or looped over past what the payload holds). */
uint32_t gp_wire_get_count(gp_wire_reader *r, uint32_t item_bytes);
/* Marks the reader bad at its position with `rule` (a value out of its range). */
void gp_wire_reader_fail(gp_wire_reader *r, const char *rule);
int gp_wire_reader_done(const gp_wire_reader *r, gp_error *err);

/* A batch of queries as the wire carries them: terms as bytes (the server looks them up in its
 * copy of the index), query q's terms term[at[q] .. at[q + 1]). The pointers of a read batch
 * point into its payload. */
typedef struct gp_wire_query {
	uint32_t handle;
	int op;                /* GP_IX_OR, GP_IX_AND, GP_IX_PHRASE */
	int count_only;
	uint32_t limit;
	uint32_t n_queries;
	uint64_t *at;          /* n_queries + 1 */
	const uint8_t **term;
	uint32_t *term_len;
} gp_wire_query;

int gp_wire_put_query(gp_wire_buf *b, uint32_t id, const gp_wire_query *q, gp_error *err);
/* The payload of a QUERY frame into q (its arrays malloc'd, gp_wire_query_free): GP_EFORMAT
 * naming the byte and rule, GP_ENOMEM. */
int gp_wire_get_query(const uint8_t *payload, size_t len, gp_wire_query *q, gp_error *err);
void gp_wire_query_free(gp_wire_query *q);

/* Answers: a flags byte (1 ranked, 2 counts only, 4 matches), the queries' count, then for each
 * query its count n (at[q + 1] - at[q], in every mode) and, unless counts only, its n docs, then
 * (ranked) their n scores; with matches (a->matched set: each query's matches, all of them, beside
 * a page), a u64 a query after them. */
int gp_wire_put_answers(gp_wire_buf *b, uint32_t id, const gp_answers *a, int ranked, int count_only, gp_error *err);
/* Into out (gp_answers_free; at[] running sums in every mode, as the engine's: query q's count
 * is at[q + 1] - at[q]; out->matched with the flag): GP_EFORMAT when the docs do not increase where unranked, the counts pass
 * 2^64 - 1 together, or the payload lies. A read query's arrays take up
 * to about three times its payload (16 bytes a term of 4 or more). */
int gp_wire_get_answers(const uint8_t *payload, size_t len, gp_answers *out, int *ranked, int *count_only, gp_error *err);

/* HELLO: the protocol's version and the client's name (a C string, at most GP_WIRE_MAX_NAME
 * bytes). WELCOME: the server's version and the largest payload it accepts (GP_WIRE_MIN_PAYLOAD
 * .. GP_WIRE_MAX_PAYLOAD). The readers copy a string into out (cap bytes, NUL-terminated) and
 * refuse one holding a NUL byte. */
int gp_wire_put_hello(gp_wire_buf *b, uint32_t id, uint32_t version, const char *name, gp_error *err);
int gp_wire_get_hello(const uint8_t *payload, size_t len, uint32_t *version, char *name, size_t cap, gp_error *err);
int gp_wire_put_welcome(gp_wire_buf *b, uint32_t id, uint32_t version, uint32_t max_payload, gp_error *err);
int gp_wire_get_welcome(const uint8_t *payload, size_t len, uint32_t *version, uint32_t *max_payload, gp_error *err);

/* OPEN: flags (GP_WIRE_OPEN_VERIFY; no other bit) and an index file's path (not empty, at most
 * GP_WIRE_MAX_PATH bytes, no NUL). */
#define GP_WIRE_OPEN_VERIFY 1u
int gp_wire_put_open(gp_wire_buf *b, uint32_t id, uint32_t flags, const char *path, gp_error *err);
int gp_wire_get_open(const uint8_t *payload, size_t len, uint32_t *flags, char *path, size_t cap, gp_error *err);

/* OPENED: the handle later queries name, and what the client checks before it asks: the
 * index's docs and terms, whether it ranks (doc lengths) and answers phrases (positions), and
 * the file the server opened (device, inode, size, mtime in ns), so that a client answers from
 * the server only what its own copy would answer. */
typedef struct gp_wire_opened {
	uint32_t handle;
	uint64_t docs;
	uint32_t terms;
	int ranks, positional;
	uint64_t dev, ino, size;
	int64_t mtime_ns;
} gp_wire_opened;
int gp_wire_put_opened(gp_wire_buf *b, uint32_t id, const gp_wire_opened *o, gp_error *err);
int gp_wire_get_opened(const uint8_t *payload, size_t len, gp_wire_opened *o, gp_error *err);

/* STATS_TEXT: the server's statistics, text of at most GP_WIRE_MAX_STATS bytes without NUL;
 * the reader points *text into the payload (not NUL-terminated: *text_len bytes). */
int gp_wire_put_stats_text(gp_wire_buf *b, uint32_t id, const char *text, gp_error *err);
int gp_wire_get_stats_text(const uint8_t *payload, size_t len, const char **text, uint32_t *text_len, gp_error *err);

/* An error for request `id`: the engine's status (GP_EFORMAT .. GP_EVALUE) or the server's
 * (GP_WIRE_BUSY, GP_WIRE_DENIED; any other is refused with GP_EVALUE) and a message (a C string:
 * at most GP_WIRE_MAX_MESSAGE bytes, cut there). */
int gp_wire_put_error(gp_wire_buf *b, uint32_t id, int status, const char *message, gp_error *err);
/* status one of GP_EFORMAT .. GP_WIRE_DENIED; the message (no NUL byte in it) copied into msg (cap
 * bytes, NUL-terminated; empty when the frame is refused). */
int gp_wire_get_error(const uint8_t *payload, size_t len, int *status, char *msg, size_t cap, gp_error *err);

#endif
