/* The wire's frames (net/gp_wire.c, docs/SERVER.md) without a socket: random queries and answers
 * built and read back equal; every truncation and every extension of a valid payload refused
 * with the byte named; headers and payloads that lie refused before anything is allocated from
 * them; a builder past its cap fails. Built and run by tests/c/run.sh under ASan and UBSan. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../net/gp_wire.h"
#include "../../net/gp_wire_trees.h"
#include "../../query/gp_match.h"
#include "check.h"
#include "s9_index.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
	return xorshift64(&rng);
}

/* A random batch: up to 6 queries of up to 5 terms of up to 12 bytes (any bytes, NUL included). */
typedef struct batch {
	gp_wire_query q;
	uint8_t bytes[6 * 5][12];
	uint64_t at[7];
	const uint8_t *term[30];
	uint32_t term_len[30];
} batch;

static void random_batch(batch *b)
{
	memset(b, 0, sizeof(*b));
	b->q.handle = (uint32_t)next();
	b->q.op = 1 + (int)(next() % 3);
	b->q.count_only = (int)(next() % 2);
	b->q.limit = (uint32_t)(next() % 3 == 0 ? next() : next() % 20);
	b->q.n_queries = (uint32_t)(next() % 7);
	size_t k = 0;
	for (uint32_t i = 0; i < b->q.n_queries; i++) {
		uint32_t n = (uint32_t)(next() % 6);
		for (uint32_t t = 0; t < n; t++, k++) {
			b->term_len[k] = (uint32_t)(next() % 13);
			for (uint32_t j = 0; j < b->term_len[k]; j++) b->bytes[k][j] = (uint8_t)next();
			b->term[k] = b->bytes[k];
		}
		b->at[i + 1] = k;
	}
	b->q.at = b->at;
	b->q.term = b->term;
	b->q.term_len = b->term_len;
}

static int same_query(const gp_wire_query *a, const gp_wire_query *b)
{
	if (a->handle != b->handle || a->op != b->op || a->count_only != b->count_only || a->limit != b->limit ||
	    a->n_queries != b->n_queries)
		return 0;
	for (uint32_t i = 0; i <= a->n_queries; i++) {
		if (a->at[i] != b->at[i]) return 0;
	}
	for (uint64_t t = 0; t < a->at[a->n_queries]; t++) {
		if (a->term_len[t] != b->term_len[t] || (a->term_len[t] && memcmp(a->term[t], b->term[t], a->term_len[t]))) return 0;
	}
	return 1;
}

static int test_query_round_trip(void)
{
	gp_wire_buf buf = {0};
	for (int round = 0; round < 3000; round++) {
		batch b;
		random_batch(&b);
		gp_error err = {0};
		const uint32_t id = (uint32_t)next();
		CHECKF(gp_wire_put_query(&buf, id, &b.q, &err) == GP_OK, "round %d: %s", round, err.rule);
		gp_wire_header h;
		CHECKF(gp_wire_header_read(buf.p, GP_WIRE_MAX_PAYLOAD, &h, &err) == GP_OK, "round %d: %s", round, err.rule);
		CHECKF(h.type == GP_WIRE_QUERY && h.id == id && h.length == buf.len - GP_WIRE_HEADER, "round %d: header", round);
		gp_wire_query got;
		CHECKF(gp_wire_get_query(buf.p + GP_WIRE_HEADER, h.length, &got, &err) == GP_OK, "round %d: %s", round, err.rule);
		int same = same_query(&b.q, &got);
		gp_wire_query_free(&got);
		CHECKF(same, "round %d: the query read back differs", round);
		/* every truncation, and a byte more, refused with a byte inside the frame named */
		for (uint32_t cut = 0; cut <= h.length; cut++) {
			uint8_t *copy = malloc(cut + 1);   /* exact: ASan sees a read past it */
			memcpy(copy, buf.p + GP_WIRE_HEADER, cut);
			copy[cut] = (uint8_t)next();
			const size_t n = cut < h.length ? cut : (size_t)h.length + 1;
			gp_error e = {0};
			int rc = gp_wire_get_query(copy, n, &got, &e);
			free(copy);
			CHECKF(rc == GP_EFORMAT, "round %d: %zu of %u bytes read as a query", round, n, h.length);
			CHECKF(e.offset <= GP_WIRE_HEADER + n, "round %d: byte %zu named past the payload", round, e.offset);
		}
	}
	gp_wire_buf_free(&buf);
	return 1;
}

static int test_query_lies(void)
{
	uint8_t p[64];
	gp_wire_query q;
	gp_error err = {0};
	/* 2^32 - 1 queries in 4 bytes left: refused before the arrays are allocated */
	memset(p, 0, sizeof(p));
	p[4] = GP_IX_AND;
	memset(p + 10, 0xFF, 4);
	CHECK(gp_wire_get_query(p, 14, &q, &err) == GP_EFORMAT && err.offset == GP_WIRE_HEADER + 10);
	/* one query claiming 2^30 terms */
	memset(p + 10, 0, 4);
	p[10] = 1;
	gp_store_le32(p + 14, 1u << 30);
	CHECK(gp_wire_get_query(p, 18, &q, &err) == GP_EFORMAT && err.offset == GP_WIRE_HEADER + 14);
	/* a term longer than the payload */
	gp_store_le32(p + 14, 1);
	gp_store_le32(p + 18, 1000);
	CHECK(gp_wire_get_query(p, 30, &q, &err) == GP_EFORMAT);
	/* an operator, a counts-only flag out of range */
	gp_store_le32(p + 10, 0);
	p[4] = 7;
	CHECK(gp_wire_get_query(p, 14, &q, &err) == GP_EFORMAT && err.offset == GP_WIRE_HEADER + 4);
	p[4] = GP_IX_OR;
	p[5] = 2;
	CHECK(gp_wire_get_query(p, 14, &q, &err) == GP_EFORMAT && err.offset == GP_WIRE_HEADER + 5);
	p[5] = 1;
	CHECK(gp_wire_get_query(p, 14, &q, &err) == GP_OK && q.n_queries == 0 && q.count_only == 1);
	gp_wire_query_free(&q);
	return 1;
}

static int test_header(void)
{
	gp_wire_buf b = {0};
	gp_error err = {0};
	gp_wire_begin(&b, GP_WIRE_HELLO, 7);
	gp_wire_put_u32(&b, GP_WIRE_VERSION);
	gp_wire_put_bytes(&b, "php-fpm", 7);
	CHECK(gp_wire_end(&b, &err) == GP_OK);
	gp_wire_header h;
	CHECK(gp_wire_header_read(b.p, 1024, &h, &err) == GP_OK && h.type == GP_WIRE_HELLO && h.id == 7 && h.length == 15);
	CHECK(gp_wire_header_read(b.p, 14, &h, &err) == GP_EFORMAT && err.offset == 4);   /* past the reader's cap */
	uint8_t bad[GP_WIRE_HEADER];
	for (int which = 0; which < 4; which++) {
		memcpy(bad, b.p, sizeof(bad));
		if (which == 0) bad[1] ^= 1;                 /* magic */
		if (which == 1) bad[12] = GP_WIRE_TYPES;    /* type */
		if (which == 2) bad[12] = 0;
		if (which == 3) bad[15] = 1;                 /* reserved */
		CHECKF(gp_wire_header_read(bad, 1024, &h, &err) == GP_EFORMAT, "case %d accepted", which);
	}
	memcpy(bad, b.p, sizeof(bad));
	gp_store_le32(bad + 4, GP_WIRE_MAX_PAYLOAD + 1);   /* past the wire's own cap, whatever the reader's */
	CHECK(gp_wire_header_read(bad, UINT32_MAX, &h, &err) == GP_EFORMAT);
	/* the payload read back */
	gp_wire_reader r;
	gp_wire_reader_init(&r, b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER);
	uint32_t n;
	CHECK(gp_wire_get_u32(&r) == GP_WIRE_VERSION);
	const uint8_t *name = gp_wire_get_bytes(&r, 64, &n);
	CHECK(name && n == 7 && memcmp(name, "php-fpm", 7) == 0 && gp_wire_reader_done(&r, &err) == GP_OK);
	/* a builder past its cap */
	b.max_payload = 16;
	gp_wire_begin(&b, GP_WIRE_HELLO, 8);
	gp_wire_put_bytes(&b, "a name longer than twelve bytes", 31);
	CHECK(gp_wire_end(&b, &err) == GP_ENOMEM && err.code == GP_ENOMEM);
	gp_wire_buf_free(&b);
	return 1;
}

static int test_answers_round_trip(void)
{
	gp_wire_buf buf = {0};
	for (int round = 0; round < 2000; round++) {
		const int ranked = round % 3 == 1, count_only = round % 3 == 2;
		gp_answers a = {0};
		a.n_queries = next() % 5;
		a.at = malloc((a.n_queries + 1) * sizeof(uint64_t));
		a.docs = malloc(400 * sizeof(uint32_t));
		a.scores = malloc(400 * sizeof(double));
		a.at[0] = 0;
		uint64_t k = 0;
		for (size_t q = 0; q < a.n_queries; q++) {
			uint64_t n = next() % 60;
			uint32_t d = (uint32_t)(next() % 1000);
			for (uint64_t i = 0; i < n; i++, k++) {
				d += 1 + (uint32_t)(next() % 50);
				a.docs[k] = d;
				a.scores[k] = (double)(next() % 100000) / 7.0 - 3.0;
			}
			/* counts only: at[] running sums of the counts, as the engine gives them */
			a.at[q + 1] = count_only ? a.at[q] + next() % 100000 : k;
		}
		gp_error err = {0};
		CHECKF(gp_wire_put_answers(&buf, 5, &a, ranked, count_only, &err) == GP_OK, "round %d: %s", round, err.rule);
		gp_answers got;
		int r2, c2;
		CHECKF(gp_wire_get_answers(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &got, &r2, &c2, &err) == GP_OK, "round %d: %s", round, err.rule);
		int same = got.n_queries == a.n_queries && r2 == ranked && c2 == count_only && got.total == a.at[a.n_queries];
		for (size_t q = 0; same && q <= a.n_queries; q++) same = got.at[q] == a.at[q];
		for (uint64_t i = 0; same && !count_only && i < k; i++) same = got.docs[i] == a.docs[i] && (!ranked || got.scores[i] == a.scores[i]);
		gp_answers_free(&got);
		/* truncations refused */
		for (size_t cut = 0; same && cut < buf.len - GP_WIRE_HEADER; cut += 1 + cut / 8) {
			uint8_t *copy = malloc(cut ? cut : 1);
			memcpy(copy, buf.p + GP_WIRE_HEADER, cut);
			int rc = gp_wire_get_answers(copy, cut, &got, &r2, &c2, &err);
			free(copy);
			CHECKF(rc == GP_EFORMAT, "round %d: %zu bytes read as answers", round, cut);
		}
		gp_answers_free(&a);
		CHECKF(same, "round %d: the answers read back differ", round);
	}
	gp_wire_buf_free(&buf);
	return 1;
}

/* The engine's own answers (an S9 index's OR, every match and counts only) through the wire: the
 * same at[] on the other side, so a query's count is at[q + 1] - at[q] in every mode. */
static int test_engine_answers(void)
{
	int64_t d0[] = {1, 2, 3}, d1[] = {2, 9};
	const int64_t *lists[] = {d0, d1};
	size_t lens[] = {3, 2};
	gp_error err = {0};
	gp_index *ix = s9_index(2, lists, lens, NULL, &err);
	CHECKF(ix != NULL, "%s", err.rule);
	uint32_t terms[] = {0, 1, 0, 1};
	uint64_t at[] = {0, 1, 2, 4};
	gp_wire_buf buf = {0};
	for (int count_only = 0; count_only < 2; count_only++) {
		gp_query_batch q = {GP_IX_OR, 3, terms, at, count_only, 0};
		gp_answers x, y;
		int ranked, counts;
		CHECK(gp_index_query_host(ix, &q, NULL, &x, &err) == GP_OK);
		CHECK(x.at[1] - x.at[0] == 3 && x.at[2] - x.at[1] == 2 && x.at[3] - x.at[2] == 4);
		CHECK(gp_wire_put_answers(&buf, 1, &x, 0, count_only, &err) == GP_OK);
		CHECK(gp_wire_get_answers(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &y, &ranked, &counts, &err) == GP_OK);
		int same = counts == count_only && y.n_queries == 3 && y.total == 9;
		for (int i = 0; same && i <= 3; i++) same = y.at[i] == x.at[i];
		for (uint64_t i = 0; same && !count_only && i < 9; i++) same = y.docs[i] == x.docs[i];
		gp_answers_free(&x);
		gp_answers_free(&y);
		CHECKF(same, "counts only %d: the engine's answers differ through the wire", count_only);
	}
	gp_wire_buf_free(&buf);
	gp_index_unref(ix);
	return 1;
}

static int test_answers_lies(void)
{
	gp_wire_buf buf = {0};
	gp_error err = {0};
	uint32_t docs[3] = {5, 5, 9};
	uint64_t at[2] = {0, 3};
	double scores[3] = {1.0, INFINITY, 0.5};
	gp_answers a = {.n_queries = 1, .docs = docs, .at = at, .scores = scores};
	gp_answers got;
	int r, c, c2;
	CHECK(gp_wire_put_answers(&buf, 1, &a, 0, 0, &err) == GP_OK);
	CHECK(gp_wire_get_answers(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &got, &r, &c, &err) == GP_EFORMAT);   /* 5, 5 */
	/* ranked, docs need not increase; scores are read as they are: an infinity (a prior past the
	 * largest double), NaN (an order's doc without the attribute) */
	CHECK(gp_wire_put_answers(&buf, 1, &a, 1, 0, &err) == GP_OK);
	CHECK(gp_wire_get_answers(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &got, &r, &c, &err) == GP_OK && isinf(got.scores[1]));
	gp_answers_free(&got);
	scores[1] = NAN;
	CHECK(gp_wire_put_answers(&buf, 1, &a, 1, 0, &err) == GP_OK);
	CHECK(gp_wire_get_answers(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &got, &r, &c, &err) == GP_OK && isnan(got.scores[1]));
	gp_answers_free(&got);
	/* a count of docs past the payload, and 2^32 - 1 queries: refused before allocating */
	uint8_t p[32] = {0};
	p[1] = 1;
	gp_store_le32(p + 5, 0xFFFFFFFFu);
	CHECK(gp_wire_get_answers(p, 13, &got, &r, &c, &err) == GP_EFORMAT);
	memset(p + 5, 0xFF, 8);
	CHECK(gp_wire_get_answers(p, 13, &got, &r, &c, &err) == GP_EFORMAT);
	/* counts only: two counts that pass 2^64 - 1 together */
	uint8_t counts[21] = {2, 2, 0, 0, 0};
	memset(counts + 5, 0xFF, 16);
	CHECK(gp_wire_get_answers(counts, 21, &got, &r, &c2, &err) == GP_EFORMAT && err.offset == GP_WIRE_HEADER + 13);
	p[0] = 3;   /* ranked and counts only */
	CHECK(gp_wire_get_answers(p, 1, &got, &r, &c, &err) == GP_EFORMAT && err.offset == GP_WIRE_HEADER);
	gp_wire_buf_free(&buf);
	return 1;
}

static int test_error_frames(void)
{
	gp_wire_buf buf = {0};
	gp_error err = {0};
	char msg[2048], longer[1500];
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	CHECK(gp_wire_put_error(&buf, 3, GP_EFORMAT, "index file /x: byte 40: bad", &err) == GP_OK);
	int status;
	CHECK(gp_wire_get_error(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &status, msg, sizeof(msg), &err) == GP_OK);
	CHECK(status == GP_EFORMAT && strcmp(msg, "index file /x: byte 40: bad") == 0);
	CHECK(gp_wire_put_error(&buf, 3, GP_ENOMEM, longer, &err) == GP_OK);
	CHECK(gp_wire_get_error(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &status, msg, sizeof(msg), &err) == GP_OK);
	CHECK(strlen(msg) == GP_WIRE_MAX_MESSAGE && status == GP_ENOMEM);
	CHECK(gp_wire_get_error(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &status, msg, 10, &err) == GP_OK && strlen(msg) == 9);
	CHECK(gp_wire_put_error(&buf, 3, GP_OK, "no error", &err) == GP_EVALUE);   /* one encoding: what reads */
	CHECK(gp_wire_put_error(&buf, 3, GP_EDEVICE, "a\nb", &err) == GP_OK);
	buf.p[GP_WIRE_HEADER + 8 + 1] = 0;   /* a NUL inside the message */
	CHECK(gp_wire_get_error(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &status, msg, sizeof(msg), &err) == GP_EFORMAT);
	CHECK(err.offset == GP_WIRE_HEADER + 9 && msg[0] == '\0');
	gp_store_le32(buf.p + GP_WIRE_HEADER, 0);   /* GP_OK is no error */
	CHECK(gp_wire_get_error(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &status, msg, sizeof(msg), &err) == GP_EFORMAT);
	gp_wire_buf_free(&buf);
	return 1;
}

/* HELLO, WELCOME, OPEN, OPENED and STATS_TEXT: built and read back equal; each lie refused. */
static int test_small_messages(void)
{
	gp_wire_buf b = {0};
	gp_error err = {0};
	char text[GP_WIRE_MAX_PATH + 1], longer[GP_WIRE_MAX_PATH + 100];
	uint32_t v, most;
	CHECK(gp_wire_put_hello(&b, 1, GP_WIRE_VERSION, "php-fpm 123", &err) == GP_OK);
	CHECK(gp_wire_get_hello(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &v, text, sizeof(text), &err) == GP_OK);
	CHECK(v == GP_WIRE_VERSION && strcmp(text, "php-fpm 123") == 0);
	memset(longer, 'n', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	CHECK(gp_wire_put_hello(&b, 1, 1, longer, &err) == GP_OK);   /* cut at the name's bound */
	CHECK(gp_wire_get_hello(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &v, text, sizeof(text), &err) == GP_OK && strlen(text) == GP_WIRE_MAX_NAME);
	gp_store_le32(b.p + GP_WIRE_HEADER + 4, GP_WIRE_MAX_NAME + 1);   /* a name longer than allowed */
	CHECK(gp_wire_get_hello(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &v, text, sizeof(text), &err) == GP_EFORMAT && err.offset == GP_WIRE_HEADER + 4 && text[0] == '\0');

	CHECK(gp_wire_put_welcome(&b, 1, 1, 1u << 20, &err) == GP_OK);
	CHECK(gp_wire_get_welcome(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &v, &most, &err) == GP_OK && most == 1u << 20);
	CHECK(gp_wire_put_welcome(&b, 1, 1, 100, &err) == GP_OK);   /* a cap below 4 KiB */
	CHECK(gp_wire_get_welcome(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &v, &most, &err) == GP_EFORMAT);
	CHECK(gp_wire_put_welcome(&b, 1, 1, GP_WIRE_MAX_PAYLOAD + 1, &err) == GP_OK);
	CHECK(gp_wire_get_welcome(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &v, &most, &err) == GP_EFORMAT);

	CHECK(gp_wire_put_open(&b, 2, GP_WIRE_OPEN_VERIFY, "/srv/ix.gpix", &err) == GP_OK);
	CHECK(gp_wire_get_open(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &v, text, sizeof(text), &err) == GP_OK);
	CHECK(v == GP_WIRE_OPEN_VERIFY && strcmp(text, "/srv/ix.gpix") == 0);
	b.p[GP_WIRE_HEADER + 8 + 3] = 0;   /* a NUL inside the path */
	CHECK(gp_wire_get_open(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &v, text, sizeof(text), &err) == GP_EFORMAT && err.offset == GP_WIRE_HEADER + 11);
	CHECK(gp_wire_put_open(&b, 2, 2, "/x", &err) == GP_OK);   /* an unknown flag */
	CHECK(gp_wire_get_open(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &v, text, sizeof(text), &err) == GP_EFORMAT && err.offset == GP_WIRE_HEADER);
	CHECK(gp_wire_put_open(&b, 2, 0, "", &err) == GP_OK);     /* an empty path */
	CHECK(gp_wire_get_open(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &v, text, sizeof(text), &err) == GP_EFORMAT);

	gp_wire_opened o = {0x2001, 5000000000ull, 77, 1, 0, 2049, 1234567, 99999, -5}, back;
	CHECK(gp_wire_put_opened(&b, 3, &o, &err) == GP_OK && b.len == GP_WIRE_HEADER + 49);
	CHECK(gp_wire_get_opened(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &back, &err) == GP_OK);
	CHECK(back.handle == o.handle && back.docs == o.docs && back.terms == o.terms && back.ranks == 1 && back.positional == 0);
	CHECK(back.dev == 2049 && back.ino == 1234567 && back.size == 99999 && back.mtime_ns == -5);
	b.p[GP_WIRE_HEADER + 16] = 4;
	CHECK(gp_wire_get_opened(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &back, &err) == GP_EFORMAT);
	CHECK(gp_wire_get_opened(b.p + GP_WIRE_HEADER, 16, &back, &err) == GP_EFORMAT);   /* cut short */

	const char *t;
	uint32_t n;
	CHECK(gp_wire_put_stats_text(&b, 4, "queries 3\n", &err) == GP_OK);
	CHECK(gp_wire_get_stats_text(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &t, &n, &err) == GP_OK && n == 10 && memcmp(t, "queries 3\n", 10) == 0);
	b.p[b.len - 1] = 0;
	CHECK(gp_wire_get_stats_text(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &t, &n, &err) == GP_EFORMAT && n == 0);

	/* the server's own statuses travel; others do not */
	int status;
	CHECK(gp_wire_put_error(&b, 5, GP_WIRE_BUSY, "busy", &err) == GP_OK);
	CHECK(gp_wire_get_error(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &status, text, sizeof(text), &err) == GP_OK && status == GP_WIRE_BUSY);
	CHECK(gp_wire_put_error(&b, 5, GP_WIRE_DENIED - 1, "no", &err) == GP_EVALUE);
	gp_wire_buf_free(&b);
	return 1;
}

/* Whether two trees are the same below their roots (kinds, NEAR distances, column sets, phrases,
 * items' bytes and prefixes, children in order). */
static int same_node(const gp_qtree *a, uint32_t x, const gp_qtree *b, uint32_t y)
{
	const gp_qt_node *p = &a->nodes[x], *q = &b->nodes[y];
	if (p->kind != q->kind || p->n != q->n || p->near != q->near || !p->colset != !q->colset) return 0;
	if (p->colset && memcmp(&a->colsets[p->colset - 1], &b->colsets[q->colset - 1], sizeof(gp_qt_colset)) != 0) return 0;
	if (p->kind == GP_QT_NEAR || p->kind == GP_QT_EMPTY) {
		for (uint32_t i = 0; i < p->n; i++) {
			const gp_qt_phrase *f = &a->phrases[p->first + i], *g = &b->phrases[q->first + i];
			if (f->n != g->n || f->initial != g->initial || p->first + i != q->first + i) return 0;   /* phrases in the same order */
			for (uint32_t j = 0; j < f->n; j++) {
				const gp_qt_item *u = &a->items[f->first + j], *v = &b->items[g->first + j];
				if (u->len != v->len || u->prefix != v->prefix || memcmp(a->text + u->at, b->text + v->at, u->len) != 0) return 0;
			}
		}
		return 1;
	}
	for (uint32_t i = 0; i < p->n; i++) {
		if (!same_node(a, a->kids[p->first + i], b, b->kids[q->first + i])) return 0;
	}
	return 1;
}

/* MATCH expressions over every operator, parsed, sent with every option and read back: the same
 * trees and options; every truncation of the frame refused. */
static int test_trees_round_trip(void)
{
	static const char *exprs[] = {
		"a", "a b c", "a OR b NOT c", "\"a b\" + c*", "^a* b", "NEAR(a b* \"c d\", 3)", "title : a", "{title body} : (a OR b)",
		"- body : NEAR(a b)", "(a AND (b OR (c NOT d))) OR e*", "title : (body : a)", "\"\"", "a OR \"\"", "NEAR(\"\" a)",
		"title : (a OR body : b) NOT c", "x NOT (y NOT (z NOT w))",
	};
	const size_t n = sizeof(exprs) / sizeof(*exprs);
	const char *cols[2] = {"title", "body"};
	const size_t col_lens[2] = {5, 4};
	gp_qtree trees[sizeof(exprs) / sizeof(*exprs)];
	const gp_qtree *at[sizeof(exprs) / sizeof(*exprs)];
	gp_error err = {0};
	for (size_t i = 0; i < n; i++) {
		gp_qtree_init(&trees[i]);
		CHECKF(gp_match_parse(exprs[i], strlen(exprs[i]), cols, col_lens, 2, 0, &trees[i], &err) == GP_OK, "%s: %s", exprs[i], err.rule);
		at[i] = &trees[i];
	}
	double w[2] = {2.5, 0.0}, set[3] = {3.0, -1.0, 7.5};
	gp_tree_filter f[2] = {{1, -INFINITY, 4.0, NULL, 0}, {0, 0, 0, set, 3}};
	gp_tree_batch b = {n, at, 0, 10, w, 2, 1, f, 2, 2, 0.25, -1, 1};
	gp_wire_buf buf = {0};
	gp_wire_trees got;
	CHECK(gp_wire_put_trees(&buf, 9, 77, &b, &err) == GP_OK);
	CHECKF(gp_wire_get_trees(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &got, &err) == GP_OK, "byte %zu: %s", err.offset, err.rule);
	const gp_tree_batch *g = &got.batch;
	CHECK(got.handle == 77 && g->n_queries == n && g->limit == 10 && g->count_matches == 1 && g->count_only == 0 && g->order_desc == 1);
	CHECK(g->n_weights == 2 && g->weights[0] == 2.5 && g->weights[1] == 0.0);
	CHECK(g->n_filters == 2 && g->filters[0].attr == 1 && !g->filters[0].set && g->filters[0].lo == -INFINITY && g->filters[0].hi == 4.0);
	CHECK(g->filters[1].attr == 0 && g->filters[1].n_set == 3 && g->filters[1].set[1] == -1.0 && g->filters[1].set[2] == 7.5);
	CHECK(g->prior_attr == 2 && g->prior_weight == 0.25 && g->order_attr == -1);
	for (size_t i = 0; i < n; i++) {
		CHECKF(trees[i].n_nodes == 0 ? g->trees[i]->n_nodes == 0 : same_node(&trees[i], trees[i].root, g->trees[i], g->trees[i]->root), "%s", exprs[i]);
	}
	gp_wire_trees_free(&got);
	/* every truncation refused, naming a byte within the payload */
	for (size_t cut = 0; cut < buf.len - GP_WIRE_HEADER; cut++) {
		CHECKF(gp_wire_get_trees(buf.p + GP_WIRE_HEADER, cut, &got, &err) == GP_EFORMAT && err.offset <= GP_WIRE_HEADER + cut, "cut %zu", cut);
	}
	gp_wire_buf_free(&buf);
	for (size_t i = 0; i < n; i++) gp_qtree_free(&trees[i]);
	return 1;
}

/* Hand-made calls that break the builder's rules: refused (GP_EFORMAT), nothing built. */
static int test_trees_lies(void)
{
	/* the options' part of a payload: handle, flags, limit, weights, filters, prior, its
	 * weight, order, then one tree of `calls` */
	uint8_t head[37] = {0};
	gp_store_le32(head + 17, 0xFFFFFFFFu);   /* no prior (its weight 0 at 21) */
	gp_store_le32(head + 29, 0xFFFFFFFFu);   /* no order */
	gp_store_le32(head + 33, 1);             /* one tree */
	static const struct {
		const char *why;
		uint8_t calls[40];
		size_t len;
		uint32_t n;
	} lies[] = {
		{"a leaf of no phrase", {3, 0, 0, 0, 0}, 5, 1},
		{"items no phrase took", {1, 0, 1, 0, 0, 0, 'a', 3, 0, 0, 0, 0}, 12, 2},
		{"NOT of one child", {2, 0, 3, 0, 0, 0, 0, 6, 4, 1, 0, 0, 0}, 13, 3},
		{"more children than made", {2, 0, 3, 0, 0, 0, 0, 6, 2, 2, 0, 0, 0}, 13, 3},
		{"an unknown operator", {2, 0, 3, 0, 0, 0, 0, 6, 1, 1, 0, 0, 0}, 13, 3},
		{"columns of nothing made", {4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 33, 1},
		{"two roots", {2, 0, 3, 0, 0, 0, 0, 2, 0, 3, 0, 0, 0, 0}, 14, 4},
		{"an unknown call", {9}, 1, 1},
		{"a prefix flag of 2", {1, 2, 0, 0, 0, 0, 2, 0, 3, 0, 0, 0, 0}, 13, 3},
		{"a NEAR past 2^31 - 1", {2, 0, 3, 0, 0, 0, 0x80}, 7, 2},
	};
	uint8_t p[128];
	gp_wire_trees got;
	gp_error err = {0};
	for (size_t i = 0; i < sizeof(lies) / sizeof(*lies); i++) {
		memcpy(p, head, sizeof(head));
		gp_store_le32(p + sizeof(head), lies[i].n);
		memcpy(p + sizeof(head) + 4, lies[i].calls, lies[i].len);
		CHECKF(gp_wire_get_trees(p, sizeof(head) + 4 + lies[i].len, &got, &err) == GP_EFORMAT, "%s", lies[i].why);
		if (getenv("WIRE_DEBUG")) printf("  %s: byte %zu: %s\n", lies[i].why, err.offset, err.rule);
	}
	/* a tree deeper than 256: NOT over NOT ... */
	gp_wire_buf b = {0};
	gp_wire_begin(&b, GP_WIRE_TREES, 1);
	for (size_t i = 0; i < sizeof(head); i++) gp_wire_put_u8(&b, head[i]);
	gp_wire_put_u32(&b, 2 + 4 * 300);
	gp_wire_put_u8(&b, 2), gp_wire_put_u8(&b, 0), gp_wire_put_u8(&b, 3), gp_wire_put_u32(&b, 0);
	for (int d = 0; d < 300; d++) {
		gp_wire_put_u8(&b, 2), gp_wire_put_u8(&b, 0), gp_wire_put_u8(&b, 3), gp_wire_put_u32(&b, 0);
		gp_wire_put_u8(&b, 6), gp_wire_put_u8(&b, GP_QT_NOT), gp_wire_put_u32(&b, 2);
	}
	CHECK(gp_wire_end(&b, &err) == GP_OK);
	/* (2 + 4 x 300 calls announced, 2 + 2 x 300 made: refused at depth 256 before that) */
	CHECKF(gp_wire_get_trees(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &got, &err) == GP_EFORMAT && strstr(err.rule, "deeper"), "%s", err.rule);
	/* 250 NOTs deep is read, and its work estimated in steps as many as its nodes (the server
	 * estimates every tree it is sent on its loop thread: a walk that repeats a NOT's first
	 * child would take 2^250 steps) */
	gp_store_le32(b.p + GP_WIRE_HEADER + sizeof(head), 2 + 3 * 250);
	b.len = GP_WIRE_HEADER + sizeof(head) + 4 + 7 + 13 * 250;
	gp_store_le32(b.p + 4, (uint32_t)(b.len - GP_WIRE_HEADER));
	CHECKF(gp_wire_get_trees(b.p + GP_WIRE_HEADER, b.len - GP_WIRE_HEADER, &got, &err) == GP_OK, "%s", err.rule);
	CHECK(got.batch.n_queries == 1 && got.trees[0].n_nodes == 501 && got.trees[0].nodes[got.trees[0].root].depth == 251);
	const int64_t l0[2] = {1, 5};
	const int64_t *const tl[1] = {l0};
	const size_t tlen[1] = {2};
	gp_index *tiny = s9_index(1, tl, tlen, NULL, &err);
	CHECK(tiny && gp_tree_host_work(tiny, got.batch.trees, 1) == 1);   /* (no term of its is in the index) */
	/* what the server checks of a read batch's options against its index: a range's NaN end */
	const char *an = "year";
	const size_t an_len = 4;
	const double years[6] = {1999, 2000, 2001, 2002, 2003, 2004};
	CHECK(gp_index_set_attributes(tiny, &an, &an_len, 1, 6, years, 0, NULL, &err) == GP_OK);
	gp_tree_filter nan_end = {0, NAN, 2003.0, NULL, 0};
	gp_tree_batch check = {1, got.batch.trees, 0, 0, NULL, 0, 0, &nan_end, 1, -1, 1.0, -1, 0};
	CHECK(gp_tree_batch_check(tiny, &check, &err) == GP_EVALUE && strstr(err.rule, "not a number"));
	nan_end.lo = -INFINITY;
	CHECK(gp_tree_batch_check(tiny, &check, &err) == GP_OK);
	nan_end.attr = 1;
	CHECK(gp_tree_batch_check(tiny, &check, &err) == GP_EVALUE && strstr(err.rule, "lacks"));
	gp_index_unref(tiny);
	gp_wire_trees_free(&got);
	gp_wire_buf_free(&b);
	/* counts that lie: 2^32 - 1 trees, weights, filters past their bounds */
	memcpy(p, head, sizeof(head));
	gp_store_le32(p + 33, 0xFFFFFFFFu);
	CHECK(gp_wire_get_trees(p, sizeof(head), &got, &err) == GP_EFORMAT && err.offset == GP_WIRE_HEADER + 33);
	/* and the head alone with its one tree's calls missing; with no tree, read */
	CHECK(gp_wire_get_trees(head, sizeof(head), &got, &err) == GP_EFORMAT);
	memcpy(p, head, sizeof(head));
	gp_store_le32(p + 33, 0);
	CHECK(gp_wire_get_trees(p, sizeof(head), &got, &err) == GP_OK && got.batch.n_queries == 0 && got.batch.prior_attr == -1);
	gp_wire_trees_free(&got);
	memcpy(p, head, sizeof(head));
	p[4] = 8;   /* flags */
	CHECK(gp_wire_get_trees(p, sizeof(head), &got, &err) == GP_EFORMAT && err.offset == GP_WIRE_HEADER + 4);
	return 1;
}

/* Answers with each query's matches beside its page: read back equal. */
static int test_answers_matched(void)
{
	uint32_t docs[3] = {9, 4, 7};
	uint64_t at[3] = {0, 2, 3}, matched[3] = {120, 1, 0};
	double scores[3] = {3.5, 1.25, NAN};
	gp_answers a = {.n_queries = 2, .docs = docs, .at = at, .scores = scores, .matched = matched};
	gp_wire_buf buf = {0};
	gp_error err = {0};
	gp_answers got;
	int r, c;
	CHECK(gp_wire_put_answers(&buf, 3, &a, 1, 0, &err) == GP_OK);
	CHECK(gp_wire_get_answers(buf.p + GP_WIRE_HEADER, buf.len - GP_WIRE_HEADER, &got, &r, &c, &err) == GP_OK);
	CHECK(r == 1 && c == 0 && got.matched && got.matched[0] == 120 && got.matched[1] == 1 && got.docs[0] == 9 && isnan(got.scores[2]));
	gp_answers_free(&got);
	for (size_t cut = 0; cut < buf.len - GP_WIRE_HEADER; cut++) {
		CHECKF(gp_wire_get_answers(buf.p + GP_WIRE_HEADER, cut, &got, &r, &c, &err) == GP_EFORMAT, "cut %zu", cut);
	}
	gp_wire_buf_free(&buf);
	return 1;
}

int main(void)
{
	run("queries built and read back equal; every truncation and extension refused", test_query_round_trip);
	run("queries whose counts, lengths, operator or flags lie refused before allocating", test_query_lies);
	run("headers checked (magic, type, reserved, the cap); a builder past its cap fails", test_header);
	run("answers (docs, ranked, counts only) built and read back equal; truncations refused", test_answers_round_trip);
	run("the engine's answers (every match, counts only) through the wire: the same at[]", test_engine_answers);
	run("answers whose docs do not increase or counts lie refused (any score read)", test_answers_lies);
	run("error frames: status and message, cut at the cap", test_error_frames);
	run("hello, welcome, open, opened and statistics frames: read back equal, lies refused", test_small_messages);
	run("query trees and their options built and read back equal; every truncation refused", test_trees_round_trip);
	run("tree calls that break the builder's rules, trees too deep and counts that lie refused", test_trees_lies);
	run("answers with each query's matches read back equal; truncations refused", test_answers_matched);
	return summary();
}
