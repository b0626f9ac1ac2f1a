/* The wire's frames (net/gp_wire.h, docs/SERVER.md): the header, a builder, a bounds-checked
 * reader, and the messages whose payloads have structure (queries, answers, errors). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp_wire.h"

#define WIRE "wire frame"

int gp_wire_header_read(const uint8_t *p, uint32_t max_payload, gp_wire_header *h, gp_error *err)
{
	if (max_payload > GP_WIRE_MAX_PAYLOAD) max_payload = GP_WIRE_MAX_PAYLOAD;
	if (gp_load_le32(p) != GP_WIRE_MAGIC) return gp_fail(err, WIRE, 0, "%s", "the magic is not GPW1");
	h->length = gp_load_le32(p + 4);
	h->id = gp_load_le32(p + 8);
	h->type = (uint16_t)(p[12] | (p[13] << 8));
	if (h->length > max_payload) return gp_fail(err, WIRE, 4, "a payload of %u bytes, more than the %u accepted", h->length, max_payload);
	if (h->type == 0 || h->type >= GP_WIRE_TYPES) return gp_fail(err, WIRE, 12, "unknown frame type %u", h->type);
	if (p[14] != 0 || p[15] != 0) return gp_fail(err, WIRE, 14, "%s", "the reserved bytes are not 0");
	return GP_OK;
}

static void buf_room(gp_wire_buf *b, size_t more)
{
	if (b->failed) return;
	if (b->len + more > (size_t)GP_WIRE_HEADER + b->max_payload) {
		b->failed = 1;
		return;
	}
	if (b->len + more <= b->cap) return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + more) cap *= 2;
	uint8_t *p = realloc(b->p, cap);
	if (!p) {
		b->failed = 1;
		return;
	}
	b->p = p;
	b->cap = cap;
}

static void put(gp_wire_buf *b, const void *bytes, size_t n)
{
	buf_room(b, n);
	if (b->failed || n == 0) return;
	memcpy(b->p + b->len, bytes, n);
	b->len += n;
}

void gp_wire_begin(gp_wire_buf *b, uint16_t type, uint32_t id)
{
	if (b->max_payload == 0 || b->max_payload > GP_WIRE_MAX_PAYLOAD) b->max_payload = GP_WIRE_MAX_PAYLOAD;
	b->len = 0;
	b->failed = 0;
	uint8_t h[GP_WIRE_HEADER] = {0};
	gp_store_le32(h, GP_WIRE_MAGIC);
	gp_store_le32(h + 8, id);
	h[12] = (uint8_t)type;
	h[13] = (uint8_t)(type >> 8);
	put(b, h, sizeof(h));
}

void gp_wire_put_u8(gp_wire_buf *b, uint8_t v)
{
	put(b, &v, 1);
}

void gp_wire_put_u32(gp_wire_buf *b, uint32_t v)
{
	uint8_t x[4];
	gp_store_le32(x, v);
	put(b, x, 4);
}

void gp_wire_put_u64(gp_wire_buf *b, uint64_t v)
{
	gp_wire_put_u32(b, (uint32_t)v);
	gp_wire_put_u32(b, (uint32_t)(v >> 32));
}

void gp_wire_put_f64(gp_wire_buf *b, double v)
{
	uint64_t u;
	memcpy(&u, &v, 8);
	gp_wire_put_u64(b, u);
}

void gp_wire_put_bytes(gp_wire_buf *b, const void *bytes, uint32_t len)
{
	gp_wire_put_u32(b, len);
	put(b, bytes, len);
}

int gp_wire_end(gp_wire_buf *b, gp_error *err)
{
	if (b->failed) {
		return gp_index_fail_nomem(err, "a wire frame (past its payload's cap, or no memory)");
	}
	gp_store_le32(b->p + 4, (uint32_t)(b->len - GP_WIRE_HEADER));
	return GP_OK;
}

void gp_wire_buf_free(gp_wire_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void gp_wire_reader_init(gp_wire_reader *r, const uint8_t *payload, size_t len)
{
	r->p = payload;
	r->len = len;
	r->at = 0;
	r->bad_at = SIZE_MAX;
	r->bad_rule = NULL;
}

void gp_wire_reader_fail(gp_wire_reader *r, const char *rule)
{
	if (r->bad_at != SIZE_MAX) return;
	r->bad_at = r->at;
	r->bad_rule = rule;
	r->at = r->len;   /* nothing more is read */
}

/* Marks the reader bad at byte `at` of its payload, unless it already is. */
static void fail_at(gp_wire_reader *r, size_t at, const char *rule)
{
	if (r->bad_at != SIZE_MAX) return;
	r->at = at;
	gp_wire_reader_fail(r, rule);
}

/* n bytes at the reader's position, or NULL (and the reader bad) when fewer are left. */
static const uint8_t *take(gp_wire_reader *r, size_t n)
{
	if (r->bad_at != SIZE_MAX) return NULL;
	if (n > r->len - r->at) {
		gp_wire_reader_fail(r, "the payload ends inside a value");
		return NULL;
	}
	const uint8_t *p = r->p + r->at;
	r->at += n;
	return p;
}

uint8_t gp_wire_get_u8(gp_wire_reader *r)
{
	const uint8_t *p = take(r, 1);
	return p ? p[0] : 0;
}

uint32_t gp_wire_get_u32(gp_wire_reader *r)
{
	const uint8_t *p = take(r, 4);
	return p ? gp_load_le32(p) : 0;
}

uint64_t gp_wire_get_u64(gp_wire_reader *r)
{
	const uint8_t *p = take(r, 8);
	return p ? gp_load_le64(p) : 0;
}

double gp_wire_get_f64(gp_wire_reader *r)
{
	uint64_t u = gp_wire_get_u64(r);
	double v;
	memcpy(&v, &u, 8);
	return v;
}

const uint8_t *gp_wire_get_bytes(gp_wire_reader *r, uint32_t max, uint32_t *len)
{
	const size_t at = r->at;
	*len = gp_wire_get_u32(r);
	if (r->bad_at != SIZE_MAX) return NULL;
	if (*len > max) {
		fail_at(r, at, "a string longer than its field allows");
		*len = 0;
		return NULL;
	}
	const uint8_t *p = take(r, *len);
	if (!p) *len = 0;
	return p;
}

uint32_t gp_wire_get_count(gp_wire_reader *r, uint32_t item_bytes)
{
	const size_t at = r->at;
	uint32_t n = gp_wire_get_u32(r);
	if (r->bad_at == SIZE_MAX && (uint64_t)n * item_bytes > r->len - r->at) {
		fail_at(r, at, "a count of items that the payload's bytes left cannot hold");
		return 0;
	}
	return r->bad_at == SIZE_MAX ? n : 0;
}

int gp_wire_reader_done(const gp_wire_reader *r, gp_error *err)
{
	if (r->bad_at != SIZE_MAX) return gp_fail(err, WIRE, GP_WIRE_HEADER + r->bad_at, "%s", r->bad_rule);
	if (r->at != r->len) return gp_fail(err, WIRE, GP_WIRE_HEADER + r->at, "%zu bytes after the payload's last field", r->len - r->at);
	return GP_OK;
}

/* QUERY: u32 handle, u8 op, u8 count_only, u32 limit, u32 queries; each query: u32 terms, each
 * term u32 length and bytes. */
int gp_wire_put_query(gp_wire_buf *b, uint32_t id, const gp_wire_query *q, gp_error *err)
{
	gp_wire_begin(b, GP_WIRE_QUERY, id);
	gp_wire_put_u32(b, q->handle);
	gp_wire_put_u8(b, (uint8_t)q->op);
	gp_wire_put_u8(b, (uint8_t)(q->count_only != 0));
	gp_wire_put_u32(b, q->limit);
	gp_wire_put_u32(b, q->n_queries);
	for (uint32_t i = 0; i < q->n_queries; i++) {
		gp_wire_put_u32(b, (uint32_t)(q->at[i + 1] - q->at[i]));
		for (uint64_t t = q->at[i]; t < q->at[i + 1]; t++) gp_wire_put_bytes(b, q->term[t], q->term_len[t]);
	}
	return gp_wire_end(b, err);
}

void gp_wire_query_free(gp_wire_query *q)
{
	free(q->at);
	free(q->term);
	free(q->term_len);
	memset(q, 0, sizeof(*q));
}

int gp_wire_get_query(const uint8_t *payload, size_t len, gp_wire_query *q, gp_error *err)
{
	memset(q, 0, sizeof(*q));
	gp_wire_reader r;
	gp_wire_reader_init(&r, payload, len);
	q->handle = gp_wire_get_u32(&r);
	q->op = gp_wire_get_u8(&r);
	const uint8_t count_only = gp_wire_get_u8(&r);
	q->limit = gp_wire_get_u32(&r);
	if (!gp_query_op_known(q->op)) fail_at(&r, 4, "the operator is not OR (1), AND (2) or PHRASE (3)");
	if (count_only > 1) fail_at(&r, 5, "counts-only is neither 0 nor 1");
	q->count_only = count_only;
	/* each query at least its term count (4 bytes), each term at least its length (4 bytes):
	 * the arrays are bounded by the payload, counted in a first pass */
	q->n_queries = gp_wire_get_count(&r, 4);
	const size_t body = r.at;
	uint64_t terms = 0;
	for (uint32_t i = 0; i < q->n_queries && r.bad_at == SIZE_MAX; i++) {
		uint32_t n = gp_wire_get_count(&r, 4), tl;
		for (uint32_t t = 0; t < n && r.bad_at == SIZE_MAX; t++) gp_wire_get_bytes(&r, UINT32_MAX, &tl);
		terms += n;
	}
	int rc = gp_wire_reader_done(&r, err);
	if (rc != GP_OK) return rc;
	q->at = malloc(((size_t)q->n_queries + 1) * sizeof(*q->at));
	q->term = malloc((size_t)(terms ? terms : 1) * sizeof(*q->term));
	q->term_len = malloc((size_t)(terms ? terms : 1) * sizeof(*q->term_len));
	if (!q->at || !q->term || !q->term_len) {
		gp_wire_query_free(q);
		return gp_index_fail_nomem(err, "a wire query's terms");
	}
	/* the second pass reads what the first checked */
	r.at = body;
	uint64_t k = 0;
	q->at[0] = 0;
	for (uint32_t i = 0; i < q->n_queries; i++) {
		uint32_t n = gp_wire_get_u32(&r);
		for (uint32_t t = 0; t < n; t++, k++) q->term[k] = gp_wire_get_bytes(&r, UINT32_MAX, &q->term_len[k]);
		q->at[i + 1] = k;
	}
	return GP_OK;
}

/* ANSWERS: u8 flags (1 ranked, 2 counts only), u32 queries; each: u64 count, then unless counts
 * only its docs (u32 each), then where ranked their scores (f64 each). */
int gp_wire_put_answers(gp_wire_buf *b, uint32_t id, const gp_answers *a, int ranked, int count_only, gp_error *err)
{
	gp_wire_begin(b, GP_WIRE_ANSWERS, id);
	gp_wire_put_u8(b, (uint8_t)((ranked ? 1 : 0) | (count_only ? 2 : 0) | (a->matched ? 4 : 0)));
	gp_wire_put_u32(b, (uint32_t)a->n_queries);
	for (size_t q = 0; q < a->n_queries; q++) {
		gp_wire_put_u64(b, a->at[q + 1] - a->at[q]);
		if (count_only) continue;
		for (uint64_t i = a->at[q]; i < a->at[q + 1]; i++) gp_wire_put_u32(b, a->docs[i]);
		for (uint64_t i = a->at[q]; ranked && i < a->at[q + 1]; i++) gp_wire_put_f64(b, a->scores[i]);
	}
	for (size_t q = 0; a->matched && q < a->n_queries; q++) gp_wire_put_u64(b, a->matched[q]);
	return gp_wire_end(b, err);
}

int gp_wire_get_answers(const uint8_t *payload, size_t len, gp_answers *out, int *ranked, int *count_only, gp_error *err)
{
	memset(out, 0, sizeof(*out));
	gp_wire_reader r;
	gp_wire_reader_init(&r, payload, len);
	const uint8_t flags = gp_wire_get_u8(&r);
	if ((flags & 3) == 3 || flags > 7) fail_at(&r, 0, "the flags are not 1 (ranked) or 2 (counts only), with 4 (matches) or not");
	*ranked = flags & 1;
	*count_only = (flags & 2) != 0;
	const int matched = (flags & 4) != 0;
	const uint32_t per_doc = *ranked ? 12 : 4;
	const uint32_t n_queries = gp_wire_get_count(&r, 8);
	/* first pass: the counts bounded by the bytes left, the docs' total */
	const size_t body = r.at;
	uint64_t total = 0;
	for (uint32_t q = 0; q < n_queries && r.bad_at == SIZE_MAX; q++) {
		const uint64_t n = gp_wire_get_u64(&r);
		if (*count_only) continue;
		if (r.bad_at == SIZE_MAX && n > (r.len - r.at) / per_doc) {
			fail_at(&r, r.at - 8, "a query's count of docs that the payload's bytes left cannot hold");
			break;
		}
		take(&r, (size_t)n * per_doc);
		total += n;
	}
	if (matched) take(&r, (size_t)n_queries * 8);
	int rc = gp_wire_reader_done(&r, err);
	if (rc != GP_OK) return rc;
	out->n_queries = n_queries;
	out->at = malloc(((size_t)n_queries + 1) * sizeof(uint64_t));
	out->docs = malloc((size_t)(total ? total : 1) * sizeof(uint32_t));
	out->scores = *ranked ? malloc((size_t)(total ? total : 1) * sizeof(double)) : NULL;
	out->matched = matched ? calloc((size_t)n_queries + 1, sizeof(uint64_t)) : NULL;
	if (!out->at || !out->docs || (*ranked && !out->scores) || (matched && !out->matched)) {
		gp_answers_free(out);
		return gp_index_fail_nomem(err, "a wire frame's answers");
	}
	r.at = body;
	out->at[0] = 0;
	uint64_t k = 0;
	for (uint32_t q = 0; q < n_queries; q++) {
		const size_t count_at = r.at;
		const uint64_t n = gp_wire_get_u64(&r);
		if (*count_only) {
			if (n > UINT64_MAX - k) {
				gp_answers_free(out);
				return gp_fail(err, WIRE, GP_WIRE_HEADER + count_at, "query %u's count passes 2^64 - 1 with the counts before it", q);
			}
			k += n;
			out->at[q + 1] = k;
			continue;
		}
		for (uint64_t i = 0; i < n; i++) {
			out->docs[k + i] = gp_wire_get_u32(&r);
			if (!*ranked && i && out->docs[k + i] <= out->docs[k + i - 1]) {
				gp_answers_free(out);
				return gp_fail(err, WIRE, GP_WIRE_HEADER + count_at, "query %u's docs do not increase", q);
			}
		}
		/* scores as the engine made them (NaN: an order's doc without the attribute; an infinity:
		 * a prior past the largest double) */
		for (uint64_t i = 0; *ranked && i < n; i++) out->scores[k + i] = gp_wire_get_f64(&r);
		k += n;
		out->at[q + 1] = k;
	}
	for (uint32_t q = 0; matched && q < n_queries; q++) out->matched[q] = gp_wire_get_u64(&r);
	out->total = k;
	return GP_OK;
}

/* A string field read as text: at most max bytes, no NUL byte in them (else the reader is bad). */
static const uint8_t *get_text_span(gp_wire_reader *r, uint32_t max, uint32_t *n)
{
	const size_t text_at = r->at + 4;
	const uint8_t *m = gp_wire_get_bytes(r, max, n);
	const uint8_t *nul = m ? memchr(m, 0, *n) : NULL;
	if (nul) fail_at(r, text_at + (size_t)(nul - m), "a text field holds a NUL byte");
	return m;
}

/* A text field copied into out (cap bytes, NUL-terminated; empty when the reader is bad); the
 * verdict is left to the caller's gp_wire_reader_done. */
static void get_text(gp_wire_reader *r, uint32_t max, char *out, size_t cap)
{
	uint32_t n = 0;
	const uint8_t *m = get_text_span(r, max, &n);
	if (!cap) return;
	out[0] = '\0';
	if (r->bad_at != SIZE_MAX || !m) return;
	if (n >= cap) n = (uint32_t)(cap - 1);
	if (n) memcpy(out, m, n);
	out[n] = '\0';
}

/* A C string put as a string field, cut at max bytes. */
static void put_text(gp_wire_buf *b, const char *s, size_t max)
{
	size_t n = strlen(s);
	gp_wire_put_bytes(b, s, (uint32_t)(n > max ? max : n));
}

/* A reader's end: its verdict, and out emptied when it refused. */
static int text_done(const gp_wire_reader *r, char *out, size_t cap, gp_error *err)
{
	int rc = gp_wire_reader_done(r, err);
	if (rc != GP_OK && cap) out[0] = '\0';
	return rc;
}

/* HELLO: u32 version, the client's name. */
int gp_wire_put_hello(gp_wire_buf *b, uint32_t id, uint32_t version, const char *name, gp_error *err)
{
	gp_wire_begin(b, GP_WIRE_HELLO, id);
	gp_wire_put_u32(b, version);
	put_text(b, name, GP_WIRE_MAX_NAME);
	return gp_wire_end(b, err);
}

int gp_wire_get_hello(const uint8_t *payload, size_t len, uint32_t *version, char *name, size_t cap, gp_error *err)
{
	gp_wire_reader r;
	gp_wire_reader_init(&r, payload, len);
	*version = gp_wire_get_u32(&r);
	get_text(&r, GP_WIRE_MAX_NAME, name, cap);
	return text_done(&r, name, cap, err);
}

/* WELCOME: u32 version, u32 the largest payload the server accepts. */
int gp_wire_put_welcome(gp_wire_buf *b, uint32_t id, uint32_t version, uint32_t max_payload, gp_error *err)
{
	gp_wire_begin(b, GP_WIRE_WELCOME, id);
	gp_wire_put_u32(b, version);
	gp_wire_put_u32(b, max_payload);
	return gp_wire_end(b, err);
}

int gp_wire_get_welcome(const uint8_t *payload, size_t len, uint32_t *version, uint32_t *max_payload, gp_error *err)
{
	gp_wire_reader r;
	gp_wire_reader_init(&r, payload, len);
	*version = gp_wire_get_u32(&r);
	*max_payload = gp_wire_get_u32(&r);
	if (r.bad_at == SIZE_MAX && (*max_payload < GP_WIRE_MIN_PAYLOAD || *max_payload > GP_WIRE_MAX_PAYLOAD)) {
		fail_at(&r, 4, "the largest payload is outside 4 KiB .. 64 MiB");
	}
	return gp_wire_reader_done(&r, err);
}

/* OPEN: u32 flags, the path. */
int gp_wire_put_open(gp_wire_buf *b, uint32_t id, uint32_t flags, const char *path, gp_error *err)
{
	gp_wire_begin(b, GP_WIRE_OPEN, id);
	gp_wire_put_u32(b, flags);
	put_text(b, path, GP_WIRE_MAX_PATH);
	return gp_wire_end(b, err);
}

int gp_wire_get_open(const uint8_t *payload, size_t len, uint32_t *flags, char *path, size_t cap, gp_error *err)
{
	gp_wire_reader r;
	gp_wire_reader_init(&r, payload, len);
	*flags = gp_wire_get_u32(&r);
	if (r.bad_at == SIZE_MAX && (*flags & ~GP_WIRE_OPEN_VERIFY)) fail_at(&r, 0, "unknown open flags");
	const size_t path_at = r.at;
	get_text(&r, GP_WIRE_MAX_PATH, path, cap);
	if (r.bad_at == SIZE_MAX && r.at == path_at + 4) fail_at(&r, path_at, "the path is empty");
	return text_done(&r, path, cap, err);
}

/* OPENED: u32 handle, u64 docs, u32 terms, u8 flags (1: ranks, 2: positional), u64 dev, u64 ino,
 * u64 size, u64 mtime_ns. */
int gp_wire_put_opened(gp_wire_buf *b, uint32_t id, const gp_wire_opened *o, gp_error *err)
{
	gp_wire_begin(b, GP_WIRE_OPENED, id);
	gp_wire_put_u32(b, o->handle);
	gp_wire_put_u64(b, o->docs);
	gp_wire_put_u32(b, o->terms);
	gp_wire_put_u8(b, (uint8_t)((o->ranks ? 1 : 0) | (o->positional ? 2 : 0)));
	gp_wire_put_u64(b, o->dev);
	gp_wire_put_u64(b, o->ino);
	gp_wire_put_u64(b, o->size);
	gp_wire_put_u64(b, (uint64_t)o->mtime_ns);
	return gp_wire_end(b, err);
}

int gp_wire_get_opened(const uint8_t *payload, size_t len, gp_wire_opened *o, gp_error *err)
{
	gp_wire_reader r;
	gp_wire_reader_init(&r, payload, len);
	o->handle = gp_wire_get_u32(&r);
	o->docs = gp_wire_get_u64(&r);
	o->terms = gp_wire_get_u32(&r);
	const uint8_t flags = gp_wire_get_u8(&r);
	if (flags > 3) fail_at(&r, 16, "unknown index flags");
	o->ranks = flags & 1;
	o->positional = (flags & 2) != 0;
	o->dev = gp_wire_get_u64(&r);
	o->ino = gp_wire_get_u64(&r);
	o->size = gp_wire_get_u64(&r);
	o->mtime_ns = (int64_t)gp_wire_get_u64(&r);
	return gp_wire_reader_done(&r, err);
}

/* STATS_TEXT: the text as one string. */
int gp_wire_put_stats_text(gp_wire_buf *b, uint32_t id, const char *text, gp_error *err)
{
	gp_wire_begin(b, GP_WIRE_STATS_TEXT, id);
	put_text(b, text, GP_WIRE_MAX_STATS);
	return gp_wire_end(b, err);
}

int gp_wire_get_stats_text(const uint8_t *payload, size_t len, const char **text, uint32_t *text_len, gp_error *err)
{
	gp_wire_reader r;
	gp_wire_reader_init(&r, payload, len);
	*text = (const char *)get_text_span(&r, GP_WIRE_MAX_STATS, text_len);
	int rc = gp_wire_reader_done(&r, err);
	if (rc != GP_OK) {
		*text = "";
		*text_len = 0;
	}
	return rc;
}

/* ERROR: i32 status (as u32), the message. */
int gp_wire_put_error(gp_wire_buf *b, uint32_t id, int status, const char *message, gp_error *err)
{
	if (status < GP_WIRE_STATUS_MIN || status > GP_EFORMAT) {
		gp_fail(err, WIRE, 0, "%s", "an error frame's status is one of the engine's errors or the server's (-1 to -6)");
		err->code = GP_EVALUE;
		return GP_EVALUE;
	}
	gp_wire_begin(b, GP_WIRE_ERROR, id);
	gp_wire_put_u32(b, (uint32_t)status);
	put_text(b, message, GP_WIRE_MAX_MESSAGE);
	return gp_wire_end(b, err);
}

int gp_wire_get_error(const uint8_t *payload, size_t len, int *status, char *msg, size_t cap, gp_error *err)
{
	gp_wire_reader r;
	gp_wire_reader_init(&r, payload, len);
	*status = (int)(int32_t)gp_wire_get_u32(&r);
	if (*status < GP_WIRE_STATUS_MIN || *status > GP_EFORMAT) fail_at(&r, 0, "the status is not one of the engine's errors or the server's (-1 to -6)");
	get_text(&r, GP_WIRE_MAX_MESSAGE, msg, cap);
	return text_done(&r, msg, cap, err);
}
