/* Building an index: every list validated and decoded once, the dictionary hashed. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "gp_index.h"
#include "gp_index_v2.h"
#include "../codec/gp_mod9.h"
#include "../codec/gp_s9.h"
#include "../codec/gp_qs.h"
#include "../codec/gp_gate.h"
#include "../codec/gp_pool.h"

/* The dictionary's hash: SipHash-1-3 (Aumasson and Bernstein) under a key drawn once a process,
 * so that terms chosen to collide (a file's, a Yioop shard's, a constructor's: any bytes) cannot
 * make the open-addressed table's probes, and so a build or a lookup, long; an unkeyed hash let a
 * crafted dictionary take time quadratic in its terms. */
static uint64_t hash_key[2];
static pthread_once_t hash_key_once = PTHREAD_ONCE_INIT;

static void hash_key_draw(void)
{
	if (getrandom(hash_key, sizeof(hash_key), 0) != (ssize_t)sizeof(hash_key)) {
		struct timespec t;   /* no entropy source: the clock, the process and the stack */
		clock_gettime(CLOCK_REALTIME, &t);
		hash_key[0] = (uint64_t)t.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)getpid();
		hash_key[1] = (uint64_t)t.tv_sec * 0xC2B2AE3D27D4EB4Full ^ (uint64_t)(uintptr_t)&t;
	}
}

#define SIP_ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define SIP_ROUND                                                                         \
	do {                                                                                  \
		v0 += v1; v1 = SIP_ROTL(v1, 13); v1 ^= v0; v0 = SIP_ROTL(v0, 32);                 \
		v2 += v3; v3 = SIP_ROTL(v3, 16); v3 ^= v2;                                        \
		v0 += v3; v3 = SIP_ROTL(v3, 21); v3 ^= v0;                                        \
		v2 += v1; v1 = SIP_ROTL(v1, 17); v1 ^= v2; v2 = SIP_ROTL(v2, 32);                 \
	} while (0)

static uint64_t term_hash(const char *s, size_t len)
{
	pthread_once(&hash_key_once, hash_key_draw);
	const uint8_t *p = (const uint8_t *)s;
	uint64_t v0 = 0x736f6d6570736575ull ^ hash_key[0], v1 = 0x646f72616e646f6dull ^ hash_key[1];
	uint64_t v2 = 0x6c7967656e657261ull ^ hash_key[0], v3 = 0x7465646279746573ull ^ hash_key[1];
	size_t whole = len & ~(size_t)7;
	for (size_t i = 0; i < whole; i += 8) {
		uint64_t m = gp_load_le64(p + i);
		v3 ^= m;
		SIP_ROUND;
		v0 ^= m;
	}
	uint64_t last = (uint64_t)len << 56;
	for (size_t i = whole; i < len; i++) last |= (uint64_t)p[i] << (8 * (i - whole));
	v3 ^= last;
	SIP_ROUND;
	v0 ^= last;
	v2 ^= 0xff;
	SIP_ROUND;
	SIP_ROUND;
	SIP_ROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

/* Version 2's dictionary: the terms in increasing order of their bytes (a shorter term before
 * the longer that it begins), searched in place. */
/* Term t (its group checked) against term (key: its first 8 bytes): below 0, 0 or above. */
static int compare_at(const gp_index *ix, uint32_t t, const char *term, size_t len, uint64_t key)
{
	size_t n = (size_t)(ix->term_at[t + 1] - ix->term_at[t]);
	const char *s = ix->terms + ix->term_at[t];
	uint64_t p = gp_v2_prefix8(s, n);
	int c = p < key ? -1 : p > key;
	if (c == 0 && (n > 8 || len > 8)) c = memcmp(s, term, n < len ? n : len);
	if (c == 0) c = n < len ? -1 : n > len;
	return c;
}

/* The first term at least `term` in the dictionary's order (n_terms: none) in *at, *exact when
 * it is term: a binary search over the groups' first terms, then within the group. Each group
 * read is checked first (its checksum: a damaged one is an error, not a term missing). */
static int lower_bound_sorted(const gp_index *ix, const char *term, size_t len, uint32_t *at, int *exact,
                              gp_error *err)
{
	const gp_v2 *v = ix->v2;
	const uint64_t key = gp_v2_prefix8(term, len);
	uint32_t a = 0, b = v->n_groups;
	int rc;
	*at = 0;
	*exact = 0;
	while (a < b) {   /* a: the first group whose first term is past term */
		uint32_t mid = a + (b - a) / 2, first = mid << v->group_shift;
		if ((rc = gp_index_v2_group_ready(ix, first, err)) != GP_OK) return rc;
		/* the keys lie together: a term's bytes are read only when they tie */
		int c = v->group_key[mid] < key ? -1 : v->group_key[mid] > key;
		if (c == 0) c = compare_at(ix, first, term, len, key);
		if (c == 0) {
			*at = first;
			*exact = 1;
			return GP_OK;
		}
		if (c < 0) a = mid + 1; else b = mid;
	}
	if (a == 0) return GP_OK;
	/* within group a - 1 (checked: the search above compared its first term) */
	uint32_t lo = ((a - 1) << v->group_shift) + 1, hi = (uint64_t)a << v->group_shift < ix->n_terms ? a << v->group_shift : ix->n_terms;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = v->term_key[mid] < key ? -1 : v->term_key[mid] > key;
		if (c == 0) c = compare_at(ix, mid, term, len, key);
		if (c == 0) {
			*at = mid;
			*exact = 1;
			return GP_OK;
		}
		if (c < 0) lo = mid + 1; else hi = mid;
	}
	*at = lo;
	return GP_OK;
}

int gp_index_find(const gp_index *ix, const char *term, size_t len, uint32_t *id, gp_error *err)
{
	*id = GP_IX_NO_TERM;
	if (ix->v2) {
		uint32_t at;
		int exact, rc = lower_bound_sorted(ix, term, len, &at, &exact, err);
		if (rc == GP_OK && exact) *id = at;
		return rc;
	}
	if (!ix->slots) return GP_OK;
	for (uint64_t s = term_hash(term, len) & ix->slot_mask;; s = (s + 1) & ix->slot_mask) {
		uint32_t t = ix->slots[s];
		if (t == 0) return GP_OK;
		t--;
		if (ix->term_at[t + 1] - ix->term_at[t] == len && memcmp(ix->terms + ix->term_at[t], term, len) == 0) {
			*id = t;
			return GP_OK;
		}
	}
}

int gp_index_name_table(const char *what, const char *const *names, const size_t *lens, uint32_t n, uint32_t most,
                        int any_case, char **buf, uint32_t **at, gp_error *err)
{
	size_t total = 0;
	*buf = NULL;
	*at = NULL;
	if (n > most) {
		gp_fail(err, what, 0, "more than %u %ss", most, what);
		return err->code = GP_EVALUE;
	}
	for (uint32_t c = 0; c < n; c++) {
		if (lens[c] < 1 || lens[c] > GP_IX_COLUMN_NAME_MAX) {
			gp_fail(err, what, c, "%s %u's name is not 1 to %d bytes", what, c, GP_IX_COLUMN_NAME_MAX);
			return err->code = GP_EVALUE;
		}
		for (uint32_t d = 0; d < c; d++) {
			if (lens[d] == lens[c] && (any_case ? strncasecmp(names[d], names[c], lens[c]) : memcmp(names[d], names[c], lens[c])) == 0) {
				gp_fail(err, what, c, "%ss %u and %u have the same name", what, d, c);
				return err->code = GP_EVALUE;
			}
		}
		total += lens[c];
	}
	*buf = malloc(total + 1);
	*at = malloc(((size_t)n + 1) * sizeof(uint32_t));
	if (!*buf || !*at) {
		free(*buf);
		free(*at);
		*buf = NULL;
		*at = NULL;
		return gp_index_fail_nomem(err, "the names");
	}
	(*at)[0] = 0;
	for (uint32_t c = 0; c < n; c++) {
		memcpy(*buf + (*at)[c], names[c], lens[c]);
		(*at)[c + 1] = (*at)[c] + (uint32_t)lens[c];
	}
	return GP_OK;
}

int gp_index_set_columns(gp_index *ix, const char *const *names, const size_t *lens, uint32_t n, gp_error *err)
{
	char *buf;
	uint32_t *at;
	int rc = gp_index_name_table("column", names, lens, n, GP_IX_MAX_COLUMNS, 1, &buf, &at, err);
	if (rc != GP_OK) return rc;
	free(ix->column_names);
	free(ix->column_at);
	ix->column_names = buf;
	ix->column_at = at;
	ix->n_columns = n;
	return GP_OK;
}

static int begins_with(const gp_index *ix, uint32_t t, const char *prefix, size_t len)
{
	return ix->term_at[t + 1] - ix->term_at[t] >= len && memcmp(ix->terms + ix->term_at[t], prefix, len) == 0;
}

int gp_index_prefix_terms(const gp_index *ix, const char *prefix, size_t len, const gp_budget *budget, uint32_t **ids,
                          size_t *n, gp_error *err)
{
	size_t cap = 0;
	uint32_t first = 0, end = ix->n_terms;
	int rc = GP_OK;
	*ids = NULL;
	*n = 0;
	if (ix->v2) {   /* the dictionary's order: the terms that begin with prefix lie together */
		int exact;
		if ((rc = lower_bound_sorted(ix, prefix, len, &first, &exact, err)) != GP_OK) return rc;
	}
	for (uint32_t t = first; t < end; t++) {
		if (ix->v2 && (t & ((1u << ix->v2->group_shift) - 1)) == 0 && (rc = gp_index_v2_group_ready(ix, t, err)) != GP_OK) break;
		if (!begins_with(ix, t, prefix, len)) {
			if (ix->v2) break;
			continue;
		}
		if (*n == cap) {
			size_t c = cap ? cap * 2 : 16;
			uint32_t *x = NULL;
			if ((rc = gp_budget_check(budget, 0, (uint64_t)c * 4, "a prefix's terms", err)) != GP_OK ||
			    !(x = realloc(*ids, c * sizeof(uint32_t)))) {
				rc = GP_ENOMEM;
				break;
			}
			*ids = x;
			cap = c;
		}
		(*ids)[(*n)++] = t;
	}
	if (rc != GP_OK) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	}
	return rc;
}

uint32_t gp_index_lookup(const gp_index *ix, const char *term, size_t len)
{
	uint32_t id;
	gp_error err;
	return gp_index_find(ix, term, len, &id, &err) == GP_OK ? id : GP_IX_NO_TERM;
}

uint64_t gp_index_host_bytes(const gp_index *ix)
{
	uint64_t n = ix->n_terms;
	if (ix->v2) {   /* its file's sections are the mapping's (or one copy of the image) */
		return gp_index_v2_own_bytes(ix) +
		       (ix->docs ? gp_index_lists_bytes(ix->n_terms, ix->n_postings, ix->n_positions, ix->positional) + n : 0) +
		       ix->shards_host_bytes;
	}
	return ix->term_at[n] + (n + 1) * 8 + (ix->slot_mask + 1) * 4 + (ix->blobs_borrowed ? 0 : ix->blob_at[n]) + (n + 1) * 8 +
	       gp_index_lists_bytes(ix->n_terms, ix->n_postings, ix->n_positions, ix->positional) + n +
	       (ix->doc_len ? (uint64_t)ix->len_docs * 4 + (n + 1) * 8 : 0) + ix->shards_host_bytes;
}

void gp_index_ref(gp_index *ix)
{
	ix->refs++;
}

static void index_free(gp_index *ix)
{
	if (ix->device && ix->device_free) ix->device_free(ix->device);
	if (ix->whole) {   /* a shard: only its lists are its own */
		free(ix->list_at);
		free(ix->docs);
		free(ix->pos_at);
		free(ix->positions);
		free(ix);
		return;
	}
	if (ix->v2) {   /* the dictionary and the doc lengths are the file's */
		gp_index_v2_free(ix->v2);
		ix->terms = NULL;
		ix->term_at = NULL;
		ix->doc_len = NULL;
	}
	free(ix->terms);
	free(ix->term_at);
	free(ix->slots);
	if (!ix->blobs_borrowed) free(ix->blobs);
	if (ix->mapped) gp_index_unmap_file(ix->mapped, ix->mapped_len);
	free(ix->blob_at);
	free(ix->list_at);
	free(ix->docs);
	free(ix->pos_at);
	free(ix->positions);
	free(ix->merged);
	free(ix->doc_len);
	free(ix->max_frac);
	free(ix->column_names);
	free(ix->column_at);
	free(ix->attr_names);
	free(ix->attr_at);
	free(ix->attr_owned);
	gp_yioop_docs_free(ix->yioop);
	free(ix);
}

void gp_yioop_docs_free(gp_yioop_docs *d)
{
	if (!d) return;
	free(d->keys);
	free(d->doc_int);
	free(d->base);
	free(d->header);
	free(d->posting_estimate);
	free(d->aux_at);
	free(d->aux);
	free(d);
}

void gp_index_unref(gp_index *ix)
{
	if (ix && --ix->refs == 0) index_free(ix);
}

/* What one list holds, measured before anything is sized from it. */
typedef struct list_counts {
	uint64_t postings, positions;
	gp_mod9_counts mod9;
} list_counts;

static int measure_list(int format, const uint8_t *blob, size_t len, list_counts *c, gp_error *err)
{
	memset(c, 0, sizeof(*c));
	if (format == GP_IX_MOD9) {
		if (gp_mod9_measure(blob, len, 1, &c->mod9, err) != GP_OK) return GP_EFORMAT;
		c->postings = c->mod9.postings;
		c->positions = c->mod9.values;   /* at most: a combined posting's doc carries its first gap */
	} else if (format == GP_IX_S9) {
		size_t n;
		uint32_t delta;
		if (gp_s9_measure(blob, len, &n, &delta, err) != GP_OK) return GP_EFORMAT;
		c->postings = n;
	} else {
		gp_qs_header h;
		if (gp_qs_measure(blob, len, &h, err) != GP_OK) return GP_EFORMAT;
		c->postings = h.n;
	}
	return GP_OK;
}

/* A large array of the build asks for huge pages where the kernel gives them only when asked
 * (Linux's transparent huge pages in "madvise" mode, Debian's default): its first touch then takes
 * one fault for 2 MiB instead of one for 4 KiB, which the copies into a large index wait on. */
static void *huge_advised(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	const uintptr_t huge = (uintptr_t)2 << 20;
	if (p && bytes >= 2 * huge) {
		uintptr_t from = ((uintptr_t)p + huge - 1) & ~(huge - 1), to = ((uintptr_t)p + bytes) & ~(huge - 1);
		if (to > from) madvise((void *)from, to - from, MADV_HUGEPAGE);
	}
#endif
	return p;
}

static void *index_alloc(size_t bytes)
{
	return huge_advised(malloc(bytes), bytes);
}

/* Scratch for one list's decode, grown to the largest list a worker meets: the codec's output,
 * then the list as the index keeps it (docs, each posting's positions end, the positions), copied
 * into the index once its place is known. */
typedef struct decode_scratch {
	int64_t *v64;       /* S9 values; MOD9 docs */
	uint32_t *v32;      /* QS values; MOD9 value starts */
	uint8_t *combined;
	int64_t *pos;
	uint32_t *docs;     /* the docs kept */
	uint64_t *ends;     /* where each kept posting's positions end, from the list's first */
	int32_t *positions;
	size_t cap_postings, cap_values;
	/* a run of small lists decoded before it is placed (RUN_*: allocated at the first run) */
	uint32_t *run_docs;
	uint64_t *run_ends, *run_kept, *run_positions_of;
	int32_t *run_positions;
} decode_scratch;

/* Small lists are decoded in runs: a worker takes a run of consecutive lists and places them
 * together, so that it waits for the lists before once a run instead of once a list (a wait per
 * list cost more than the decode of a vocabulary's tail of short lists). A run holds lists of
 * at most RUN_POSTINGS postings and RUN_POSITIONS positions in all, at most RUN_LISTS of them;
 * a larger list is a run of its own, decoded and placed as before. */
#define RUN_POSTINGS 4096
#define RUN_POSITIONS 32768
#define RUN_LISTS 1024
#define RUN_BYTES ((uint64_t)RUN_POSTINGS * (4 + 8) + (uint64_t)RUN_LISTS * 16 + (uint64_t)RUN_POSITIONS * 4)

/* What one decoded list holds: the docs kept (equal docs in a row are one), its positions, and
 * whether the decode differs from the blob's (merged). */
typedef struct decoded_list {
	uint64_t kept, n_positions;
	int merged;
} decoded_list;

#define SCRATCH_GROW(field, n)                                      \
	do {                                                            \
		void *grown_ = realloc(s->field, (n) * sizeof(*s->field));  \
		if (!grown_) return GP_ENOMEM;                              \
		huge_advised(grown_, (n) * sizeof(*s->field));              \
		s->field = grown_;                                          \
	} while (0)

/* values: a MOD9 list's (0 for S9 and QS); positional: each posting's positions end kept too */
static int scratch_fit(decode_scratch *s, size_t postings, size_t values, int positional)
{
	if (postings + 1 > s->cap_postings) {
		size_t n = postings + 1;
		SCRATCH_GROW(v64, n);
		SCRATCH_GROW(v32, n);
		SCRATCH_GROW(combined, n);
		SCRATCH_GROW(docs, n);
		if (positional) SCRATCH_GROW(ends, n);
		s->cap_postings = n;
	}
	if (values + 1 > s->cap_values) {
		SCRATCH_GROW(pos, values + 1);
		SCRATCH_GROW(positions, values + 1);
		s->cap_values = values + 1;
	}
	return GP_OK;
}

/* A worker's scratch at most: what scratch_fit takes for a list of that many postings and values. */
static uint64_t scratch_bytes(uint64_t postings, uint64_t values, int positional)
{
	return (postings + 1) * (sizeof(int64_t) + sizeof(uint32_t) * 2 + 1 + (positional ? sizeof(uint64_t) : 0)) +
	       (values + 1) * (sizeof(int64_t) + sizeof(int32_t));
}

static void scratch_free(decode_scratch *s)
{
	free(s->v64);
	free(s->v32);
	free(s->combined);
	free(s->pos);
	free(s->docs);
	free(s->ends);
	free(s->positions);
	free(s->run_docs);
	free(s->run_ends);
	free(s->run_kept);
	free(s->run_positions_of);
	free(s->run_positions);
	memset(s, 0, sizeof(*s));
}

static int run_stage_fit(decode_scratch *s)
{
	if (s->run_docs) return GP_OK;
	s->run_docs = malloc(RUN_POSTINGS * sizeof(*s->run_docs));
	s->run_ends = malloc(RUN_POSTINGS * sizeof(*s->run_ends));
	s->run_kept = malloc(RUN_LISTS * sizeof(*s->run_kept));
	s->run_positions_of = malloc(RUN_LISTS * sizeof(*s->run_positions_of));
	s->run_positions = malloc(RUN_POSITIONS * sizeof(*s->run_positions));
	return s->run_docs && s->run_ends && s->run_kept && s->run_positions_of && s->run_positions ? GP_OK : GP_ENOMEM;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return x < y ? -1 : x > y;
}

/* The n docs into out, and whether they strictly increase within 0 .. 2^32 - 1 (the ends then
 * say the range): one loop without branches; where it says no, the loop that names what is wrong
 * writes out again. */
static int docs_kept_increasing(const int64_t *v, size_t n, uint32_t *out)
{
	size_t falls = 0;
	if (n) out[0] = (uint32_t)v[0];
	for (size_t i = 1; i < n; i++) {
		out[i] = (uint32_t)v[i];
		falls += v[i] <= v[i - 1];
	}
	return falls == 0 && (n == 0 || (v[0] >= 0 && v[n - 1] <= (int64_t)UINT32_MAX));
}

/* Decodes one list into the scratch as the index keeps it (d says what it holds). What the index
 * requires beyond the format: docs below 2^32 and increasing, positions within 32-bit signed
 * integers. A doc equal to the one before is taken as the same document (the postings merged,
 * positions sorted): Yioop's combined form reads a first position of 512 to 1023 as the next
 * doc, which may be the following posting's. */
static int decode_list(int format, int positional, const uint8_t *blob, size_t len, const list_counts *c,
                       decode_scratch *s, decoded_list *d, gp_error *err)
{
	const char *fmt = format == GP_IX_MOD9 ? GP_MOD9_NAME : format == GP_IX_S9 ? GP_S9_NAME : GP_QS_NAME;
	size_t n = c->postings;
	uint64_t kept = 0, pb = 0;
	memset(d, 0, sizeof(*d));
	if (scratch_fit(s, n, format == GP_IX_MOD9 ? c->mod9.values : 0, positional) != GP_OK) return GP_ENOMEM;
	if (format == GP_IX_MOD9) {
		gp_mod9_decode_postings(blob, len, s->v64, s->v32, s->combined, s->pos, 0);
	} else if (format == GP_IX_S9) {
		gp_s9_decode(blob, len, s->v64);
	} else {
		gp_qs_header h;
		gp_qs_check_header(blob, len, &h, NULL);
		if (gp_qs_decode(blob, &h, s->v32, err) != GP_OK) return GP_EFORMAT;
		for (size_t i = 0; i < n; i++) s->v64[i] = s->v32[i];
	}
	if (!positional && docs_kept_increasing(s->v64, n, s->docs)) {   /* the usual list */
		d->kept = n;
		return GP_OK;
	}
	for (size_t i = 0; i < n; i++) {
		int64_t doc = s->v64[i];
		if (doc < 0 || doc > (int64_t)UINT32_MAX) {
			return gp_fail(err, fmt, 0, "posting %zu: doc %lld is outside 0 .. 2^32 - 1, which an index holds", i, (long long)doc);
		}
		int same = kept > 0 && doc == s->docs[kept - 1];
		if (kept > 0 && doc < s->docs[kept - 1]) {
			return gp_fail(err, fmt, 0, "posting %zu: doc %lld after doc %lld: an index list's docs must increase",
			               i, (long long)doc, (long long)s->docs[kept - 1]);
		}
		if (same) d->merged = 1;
		else s->docs[kept++] = (uint32_t)doc;
		if (!positional) continue;
		/* a combined posting's first value is its doc and its first gap */
		size_t from = s->v32[i] + (s->combined[i] ? 0 : 1), to = s->v32[i + 1];
		int sorted = 1;
		for (size_t j = from; j < to; j++) {
			int64_t p = s->pos[j];
			if (p < INT32_MIN || p > INT32_MAX) {
				return gp_fail(err, fmt, 0, "posting %zu: position %lld is outside the 32-bit integers an index holds",
				               i, (long long)p);
			}
			if (j > from && p <= s->pos[j - 1]) sorted = 0;
			s->positions[pb++] = (int32_t)p;
		}
		if (same || !sorted) {   /* phrases search positions: sorted, each once */
			d->merged = 1;
			uint64_t first = kept > 1 ? s->ends[kept - 2] : 0, m = first;
			qsort(s->positions + first, pb - first, sizeof(int32_t), cmp_i32);
			for (uint64_t j = first; j < pb; j++) {
				if (j == first || s->positions[j] != s->positions[m - 1]) s->positions[m++] = s->positions[j];
			}
			pb = m;
		}
		s->ends[kept - 1] = pb;
	}
	d->kept = kept;
	d->n_positions = pb;
	return GP_OK;
}

/* --- the build's workers ---
 * Lists are measured, then decoded and placed, by up to GP_POOL_MAX threads of the host's pool
 * (gp_pool.h), each taking the next list from a counter. A list's place in the index depends on
 * the lists before it (merged docs make a list shorter than its blob): a worker decodes its list
 * into its own scratch, waits until the list before has taken its place (a counter of the lists
 * placed, moved on the moment a list knows its length), then copies its list there while the
 * others go on. The error kept is the first list's that fails, as one thread would find it. */
typedef struct build_job {
	gp_index *ix;
	const uint8_t *const *blobs;
	const size_t *lens;
	const uint8_t *placed_blobs;   /* the blobs lie back to back here: not copied */
	list_counts *counts;
	size_t n;
	size_t *run_at, n_runs;     /* decode: run r is lists run_at[r] .. run_at[r + 1] */
	uint64_t *pos_end;          /* decode: where list t's positions begin (n + 1) */
	size_t workers;             /* at most this many take part (each a scratch) */
	atomic_size_t joined, next, placed, first_bad;
	pthread_mutex_t lock;       /* the error */
	gp_gate placing;            /* opened when a list is placed or one fails */
	int rc;
	gp_error err;
	decode_scratch scratch[GP_POOL_MAX];
} build_job;

/* Keeps list i's error unless an earlier list's is kept. */
static void job_fail(build_job *j, size_t i, int rc, const gp_error *err)
{
	pthread_mutex_lock(&j->lock);
	if (i < atomic_load(&j->first_bad)) {
		j->rc = rc;
		j->err = *err;
		j->err.code = rc;
		j->err.blob = i;
		atomic_store(&j->first_bad, i);
	}
	pthread_mutex_unlock(&j->lock);
	gp_gate_open(&j->placing);
}

static void measure_worker(void *arg)
{
	build_job *j = arg;
	gp_error err;
	for (size_t i; (i = atomic_fetch_add(&j->next, 1)) < j->n && i < atomic_load(&j->first_bad);) {
		memset(&err, 0, sizeof(err));
		if (measure_list(j->ix->format, j->blobs[i], j->lens[i], &j->counts[i], &err) != GP_OK) {
			job_fail(j, i, GP_EFORMAT, &err);
		} else if (j->counts[i].postings >= UINT32_MAX) {   /* a list's length is a 32-bit df */
			gp_fail(&err, "index", 0, "a list holds fewer than 2^32 - 1 postings (%llu given)",
			        (unsigned long long)j->counts[i].postings);
			job_fail(j, i, GP_EVALUE, &err);
		}
	}
}

typedef struct placing_turn {
	build_job *j;
	size_t i;
} placing_turn;

/* List i may take its place: the list before has (or an earlier list failed). */
static int placing_ready(void *arg)
{
	const placing_turn *t = arg;
	return atomic_load(&t->j->placed) == t->i || atomic_load(&t->j->first_bad) < t->i;
}

/* Waits until lists [0, i) are placed: false when a list before failed (nothing after it is
 * kept). */
static int wait_turn(build_job *j, size_t i)
{
	placing_turn turn = {j, i};
	gp_gate_wait(&j->placing, placing_ready, &turn);
	return atomic_load(&j->placed) == i;
}

/* List i decoded; its blob copied to its place and its merged flag kept. */
static int decode_one(build_job *j, size_t i, decode_scratch *s, decoded_list *d)
{
	gp_index *ix = j->ix;
	gp_error err;
	memset(&err, 0, sizeof(err));
	int rc = decode_list(ix->format, ix->positional, j->blobs[i], j->lens[i], &j->counts[i], s, d, &err);
	if (rc != GP_OK) {
		if (rc == GP_ENOMEM) gp_index_fail_nomem(&err, "a list's decode");
		job_fail(j, i, rc, &err);
		return rc;
	}
	if (j->lens[i] && !j->placed_blobs) memcpy(ix->blobs + ix->blob_at[i], j->blobs[i], j->lens[i]);   /* its place is known */
	ix->merged[i] = (uint8_t)d->merged;
	return GP_OK;
}

/* A run of one list: decoded into the scratch, then copied to its place once the list before
 * has taken its own. False when the worker is done (a failure, or a list before failed). */
static int place_list(build_job *j, size_t i, decode_scratch *s)
{
	gp_index *ix = j->ix;
	decoded_list d;
	if (decode_one(j, i, s, &d) != GP_OK || !wait_turn(j, i)) return 0;
	const uint64_t base = ix->list_at[i], pbase = j->pos_end[i];
	ix->list_at[i + 1] = base + d.kept;
	j->pos_end[i + 1] = pbase + d.n_positions;
	atomic_store(&j->placed, i + 1);
	gp_gate_open(&j->placing);
	memcpy(ix->docs + base, s->docs, d.kept * sizeof(uint32_t));
	if (ix->positional) {
		for (uint64_t k = 0; k < d.kept; k++) ix->pos_at[base + k + 1] = pbase + s->ends[k];
		memcpy(ix->positions + pbase, s->positions, d.n_positions * sizeof(int32_t));
	}
	return 1;
}

/* A run of small lists [i0, i1): each decoded and staged, then all placed in one turn. */
static int place_run(build_job *j, size_t i0, size_t i1, decode_scratch *s)
{
	gp_index *ix = j->ix;
	if (run_stage_fit(s) != GP_OK) {
		gp_error err;
		memset(&err, 0, sizeof(err));
		job_fail(j, i0, GP_ENOMEM, (gp_index_fail_nomem(&err, "a run of lists' decode"), &err));
		return 0;
	}
	uint64_t nd = 0, np = 0;
	for (size_t i = i0; i < i1; i++) {
		decoded_list d;
		if (decode_one(j, i, s, &d) != GP_OK) return 0;
		memcpy(s->run_docs + nd, s->docs, d.kept * sizeof(uint32_t));
		if (ix->positional) {
			for (uint64_t k = 0; k < d.kept; k++) s->run_ends[nd + k] = np + s->ends[k];
			memcpy(s->run_positions + np, s->positions, d.n_positions * sizeof(int32_t));
		}
		s->run_kept[i - i0] = d.kept;
		s->run_positions_of[i - i0] = d.n_positions;
		nd += d.kept;
		np += d.n_positions;
	}
	if (!wait_turn(j, i0)) return 0;
	const uint64_t base = ix->list_at[i0], pbase = j->pos_end[i0];
	for (size_t i = i0; i < i1; i++) {
		ix->list_at[i + 1] = ix->list_at[i] + s->run_kept[i - i0];
		j->pos_end[i + 1] = j->pos_end[i] + s->run_positions_of[i - i0];
	}
	atomic_store(&j->placed, i1);
	gp_gate_open(&j->placing);
	memcpy(ix->docs + base, s->run_docs, nd * sizeof(uint32_t));
	if (ix->positional) {
		for (uint64_t k = 0; k < nd; k++) ix->pos_at[base + k + 1] = pbase + s->run_ends[k];
		memcpy(ix->positions + pbase, s->run_positions, np * sizeof(int32_t));
	}
	return 1;
}

static void decode_worker(void *arg)
{
	build_job *j = arg;
	const size_t me = atomic_fetch_add(&j->joined, 1);
	if (me >= j->workers) return;   /* the others finish the job */
	decode_scratch *s = &j->scratch[me];
	for (size_t r; (r = atomic_fetch_add(&j->next, 1)) < j->n_runs;) {
		const size_t i0 = j->run_at[r], i1 = j->run_at[r + 1];
		if (i0 > atomic_load(&j->first_bad)) break;
		/* one worker waits for nobody: its lists go straight to their places */
		if (i1 - i0 > 1 && j->workers > 1) {
			if (!place_run(j, i0, i1, s)) return;
			continue;
		}
		for (size_t i = i0; i < i1; i++) {
			if (!place_list(j, i, s)) return;
		}
	}
}

/* The runs of lists (decode_worker): consecutive small lists together, a larger one alone.
 * Returns the number of runs, 0 with no memory. */
static size_t plan_runs(build_job *j)
{
	size_t *at = malloc((j->n + 1) * sizeof(*at)), r = 0;
	if (!at) return 0;
	uint64_t postings = 0, positions = 0;
	for (size_t i = 0; i < j->n; i++) {
		const list_counts *c = &j->counts[i];
		const int small = c->postings <= RUN_POSTINGS && c->positions <= RUN_POSITIONS;
		const size_t in_run = r ? i - at[r - 1] : 0;
		/* a new run unless this small list joins a run of small ones with room */
		if (!r || !small || in_run >= RUN_LISTS || postings + c->postings > RUN_POSTINGS ||
		    positions + c->positions > RUN_POSITIONS || (r && (j->counts[at[r - 1]].postings > RUN_POSTINGS ||
		                                                      j->counts[at[r - 1]].positions > RUN_POSITIONS))) {
			at[r++] = i;
			postings = positions = 0;
		}
		postings += c->postings;
		positions += c->positions;
	}
	at[r] = j->n;
	j->run_at = at;
	return r;
}

/* The workers a build takes: GPUPOST_BUILD_THREADS if set (1 to GP_POOL_MAX), else the host's
 * cores up to GP_POOL_MAX once the lists hold GP_BUILD_THREADED_POSTINGS or more (a small build
 * is done before a thread would wake); fewer while their scratch would pass the budget. */
#define GP_BUILD_THREADED_POSTINGS ((uint64_t)1 << 20)

static size_t build_workers(size_t n, uint64_t postings, uint64_t scratch, uint64_t c_bytes, const gp_budget *budget)
{
	const char *env = getenv("GPUPOST_BUILD_THREADS");
	long want = env && *env ? strtol(env, NULL, 10) : 0;
	size_t w;
	if (want > 0) {
		w = (size_t)want;
	} else {
		long cpus = postings >= GP_BUILD_THREADED_POSTINGS ? sysconf(_SC_NPROCESSORS_ONLN) : 1;
		w = cpus > 1 ? (size_t)cpus : 1;
	}
	if (w > GP_POOL_MAX) w = GP_POOL_MAX;
	if (w > n) w = n ? n : 1;
	/* one worker's scratch is what a build has always taken beside the index; more only within budget */
	while (w > 1 && budget && gp_add_sat(c_bytes, gp_mul_sat(scratch, w - 1)) > budget->max_result) w--;
	return w;
}

static int build_dictionary(gp_index *ix, const char *const *terms, const size_t *term_lens,
                            gp_error *err)
{
	uint64_t slots = 16;
	while (slots < (uint64_t)ix->n_terms * 2) slots *= 2;
	ix->slots = calloc(slots, sizeof(uint32_t));
	if (!ix->slots) return GP_ENOMEM;
	ix->slot_mask = slots - 1;
	for (uint32_t t = 0; t < ix->n_terms; t++) {
		memcpy(ix->terms + ix->term_at[t], terms[t], term_lens[t]);
		if (gp_index_lookup(ix, terms[t], term_lens[t]) != GP_IX_NO_TERM) {
			err->code = GP_EVALUE;
			err->blob = t;
			err->format = "index";
			snprintf(err->rule, sizeof(err->rule), "term %u repeats an earlier term", t);
			return GP_EVALUE;
		}
		uint64_t s = term_hash(terms[t], term_lens[t]) & ix->slot_mask;
		while (ix->slots[s]) s = (s + 1) & ix->slot_mask;
		ix->slots[s] = t + 1;
	}
	return GP_OK;
}

/* Distinct docs over all lists, from a bitmap of their docs. Walked a list at a time, a bitmap of
 * every doc leaves the cache with each list once it is larger than the cache: where there are few
 * lists for their postings, the lists are walked a block of docs at a time instead (a cursor a
 * list), the block's bits counted and cleared before the next; the blocks are then shared out
 * among the workers, a run of them each (a binary search a list finds where its run begins). */
#define COUNT_BLOCK_DOCS ((uint64_t)1 << 21)   /* 256 KiB of bits */

typedef struct count_job {
	const gp_index *ix;
	uint64_t span, words, blocks;
	size_t workers;
	atomic_size_t joined;
	atomic_uint_fast64_t docs;
	atomic_int failed;
} count_job;

static void count_worker(void *arg)
{
	count_job *j = arg;
	const gp_index *ix = j->ix;
	const size_t me = atomic_fetch_add(&j->joined, 1);
	if (me >= j->workers) return;
	const uint64_t b0 = j->blocks * me / j->workers, b1 = j->blocks * (me + 1) / j->workers;
	uint64_t n = 0, *bits = calloc(j->words, sizeof(uint64_t));
	uint64_t *cur = j->blocks > 1 ? malloc(((size_t)ix->n_terms + 1) * sizeof(uint64_t)) : NULL;
	if (!bits || (j->blocks > 1 && !cur)) {
		atomic_store(&j->failed, 1);
		free(bits);
		free(cur);
		return;
	}
	for (uint32_t t = 0; cur && t < ix->n_terms; t++) cur[t] = gp_index_list_from(ix, t, b0 * j->span);
	for (uint64_t lo = b0 * j->span; lo < b1 * j->span; lo += j->span) {
		const uint64_t hi = lo + j->span;
		for (uint32_t t = 0; t < ix->n_terms; t++) {
			uint64_t p = cur ? cur[t] : ix->list_at[t];
			const uint64_t stop = ix->list_at[t + 1];
			for (; p < stop && ix->docs[p] < hi; p++) {
				const uint64_t d = ix->docs[p] - lo;
				bits[d >> 6] |= (uint64_t)1 << (d & 63);
			}
			if (cur) cur[t] = p;
		}
		for (uint64_t w = 0; w < j->words; w++) {
			n += (uint64_t)__builtin_popcountll(bits[w]);
			bits[w] = 0;
		}
	}
	free(bits);
	free(cur);
	atomic_fetch_add(&j->docs, n);
}

/* Distinct docs by a union of every list's cursor (memory a term, time a posting times the
 * heap's depth), whatever the docs' range; for sparse docs, where a bitmap would be sized by the
 * largest doc rather than by the lists. */
static int count_docs_merged(gp_index *ix)
{
	uint64_t *at = malloc(((size_t)ix->n_terms + 1) * 2 * sizeof(uint64_t)), n = 0;
	uint32_t *heap = malloc(((size_t)ix->n_terms + 1) * sizeof(uint32_t));
	if (!at || !heap) {
		free(at);
		free(heap);
		return GP_ENOMEM;
	}
	gp_cursor_heap h = {ix->docs, at, at + ix->n_terms + 1, heap, 0};
	for (uint32_t t = 0; t < ix->n_terms; t++) {
		h.at[t] = ix->list_at[t];
		h.end[t] = ix->list_at[t + 1];
		gp_cursor_heap_push(&h, t);
	}
	while (h.n > 0) {
		uint32_t d = gp_cursor_heap_doc(&h, 0);
		n++;
		while (h.n > 0 && gp_cursor_heap_doc(&h, 0) == d) gp_cursor_heap_next(&h);
	}
	free(at);
	free(heap);
	ix->n_docs = n;
	return GP_OK;
}

int gp_index_count_docs(gp_index *ix, size_t workers, const gp_budget *budget)
{
	if (ix->n_postings == 0) return GP_OK;
	const uint64_t end = (uint64_t)ix->max_doc + 1, blocks = (end + COUNT_BLOCK_DOCS - 1) / COUNT_BLOCK_DOCS;
	const int blocked = blocks > 1 && blocks * ix->n_terms < ix->n_postings / 8;
	count_job j = {.ix = ix, .span = blocked ? COUNT_BLOCK_DOCS : end, .blocks = blocked ? blocks : 1};
	j.words = ((j.span - 1) >> 6) + 1;
	j.workers = workers < j.blocks ? workers : (size_t)j.blocks;
	if (j.workers < 1) j.workers = 1;
	/* a bitmap a worker, counted in the budget; docs sparser than a bit for every 8 bytes of the
	 * lists (one posting of doc 2^32 - 1 would take 512 MiB), or a bitmap the budget refuses even
	 * for one worker, are counted by the merge instead */
	const uint64_t held = gp_index_host_bytes(ix);   /* beside the index just built */
	while (j.workers > 1 && gp_budget_check(budget, 0, gp_add_sat(held, gp_mul_sat(j.words * 8, j.workers)), "the doc count", NULL) != GP_OK) {
		j.workers--;
	}
	if ((!blocked && j.words * 8 > ix->n_postings * 8 + ((uint64_t)1 << 20)) ||
	    gp_budget_check(budget, 0, held + j.words * 8, "the doc count", NULL) != GP_OK) {
		return count_docs_merged(ix);
	}
	atomic_init(&j.joined, 0);
	atomic_init(&j.docs, 0);
	atomic_init(&j.failed, 0);
	/* every run must be counted: runs whose worker never came are counted here */
	gp_pool_run(j.workers, count_worker, &j);
	while (!atomic_load(&j.failed) && atomic_load(&j.joined) < j.workers) count_worker(&j);
	if (atomic_load(&j.failed)) return GP_ENOMEM;
	ix->n_docs = atomic_load(&j.docs);
	return GP_OK;
}

int gp_index_fail_nomem(gp_error *err, const char *what)
{
	err->code = GP_ENOMEM;
	err->format = "memory";
	snprintf(err->rule, sizeof(err->rule), "the host could not allocate %s", what);
	return GP_ENOMEM;
}

int gp_index_build(int format, size_t n, const char *const *terms, const size_t *term_lens,
                   const uint8_t *const *blobs, const size_t *lens, const gp_budget *budget,
                   gp_index **out, gp_error *err)
{
	return gp_index_build_in_place(format, n, terms, term_lens, blobs, lens, NULL, budget, out, err);
}

int gp_index_build_in_place(int format, size_t n, const char *const *terms, const size_t *term_lens,
                            const uint8_t *const *blobs, const size_t *lens, const uint8_t *placed,
                            const gp_budget *budget, gp_index **out, gp_error *err)
{
	uint64_t term_bytes = 0, blob_bytes = 0, postings = 0, positions = 0, most_postings = 0, most_values = 0;
	int rc;
	memset(err, 0, sizeof(*err));
	*out = NULL;
	if (n >= UINT32_MAX) {
		err->code = GP_EVALUE;
		err->format = "index";
		snprintf(err->rule, sizeof(err->rule), "an index holds fewer than 2^32 - 1 terms");
		return GP_EVALUE;
	}
	build_job *job = calloc(1, sizeof(*job));
	list_counts *counts = malloc((n + 1) * sizeof(*counts));
	gp_index *ix = calloc(1, sizeof(*ix));
	if (!job || !counts || !ix) {
		free(job);
		free(counts);
		free(ix);
		return gp_index_fail_nomem(err, "the index");
	}
	ix->refs = 1;
	ix->format = format;
	ix->positional = format == GP_IX_MOD9;
	ix->n_terms = (uint32_t)n;
	job->ix = ix;
	job->blobs = blobs;
	job->lens = lens;
	job->placed_blobs = placed;
	job->counts = counts;
	job->n = n;
	job->first_bad = n;
	pthread_mutex_init(&job->lock, NULL);
	gp_gate_init(&job->placing);
	/* every list measured (and validated) before anything is sized from it; a pass over the
	 * blobs, as many threads as the decode will take from their bytes */
	for (size_t i = 0; i < n; i++) blob_bytes += lens[i];
	job->workers = build_workers(n, blob_bytes / 2, 0, 0, NULL);
	gp_pool_run(job->workers, measure_worker, job);
	if (atomic_load(&job->first_bad) < n) {
		rc = job->rc;
		*err = job->err;
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		term_bytes += term_lens[i];
		postings += counts[i].postings;
		positions += counts[i].positions;
		if (counts[i].postings > most_postings) most_postings = counts[i].postings;
		if (counts[i].mod9.values > most_values) most_values = counts[i].mod9.values;
	}
	const int positional = ix->positional;
	uint64_t c_bytes = term_bytes + (placed ? 0 : blob_bytes) + (uint64_t)(n + 1) * 37 + (uint64_t)n * 8 + postings * 4 +
	                   (positional ? (postings + 1) * 8 + positions * 4 : 0);
	if (n && !(job->n_runs = plan_runs(job))) {
		rc = gp_index_fail_nomem(err, "the index's runs of lists");
		goto fail;
	}
	/* a worker's scratch: its largest list's, and a run's staging where small lists make runs */
	const uint64_t scratch = scratch_bytes(most_postings, most_values, positional) + (job->n_runs < n ? RUN_BYTES : 0);
	if ((rc = gp_budget_check(budget, 0, gp_add_sat(c_bytes, scratch), "the index", err)) != GP_OK) goto fail;
	ix->terms = malloc(term_bytes + 1);
	ix->term_at = malloc((n + 1) * sizeof(uint64_t));
	ix->blobs = placed ? (uint8_t *)placed : index_alloc(blob_bytes + 1);
	ix->blobs_borrowed = placed != NULL;
	ix->blob_at = malloc((n + 1) * sizeof(uint64_t));
	ix->list_at = malloc((n + 1) * sizeof(uint64_t));
	ix->docs = index_alloc((postings + 1) * sizeof(uint32_t));
	ix->merged = calloc(n + 1, 1);
	job->pos_end = malloc((n + 1) * sizeof(uint64_t));
	if (positional) {
		ix->pos_at = index_alloc((postings + 1) * sizeof(uint64_t));
		ix->positions = index_alloc((positions + 1) * sizeof(int32_t));
	}
	if (!ix->terms || !ix->term_at || !ix->blobs || !ix->blob_at || !ix->list_at || !ix->docs || !ix->merged ||
	    !job->pos_end || (positional && (!ix->pos_at || !ix->positions))) {
		rc = gp_index_fail_nomem(err, "the index");
		goto fail;
	}
	ix->term_at[0] = ix->blob_at[0] = 0;
	ix->list_at[0] = job->pos_end[0] = 0;
	if (positional) ix->pos_at[0] = 0;
	for (size_t i = 0; i < n; i++) {
		ix->term_at[i + 1] = ix->term_at[i] + term_lens[i];
		ix->blob_at[i + 1] = ix->blob_at[i] + lens[i];
	}
	if ((rc = build_dictionary(ix, terms, term_lens, err)) != GP_OK) {
		if (rc == GP_ENOMEM) gp_index_fail_nomem(err, "the dictionary");
		goto fail;
	}
	job->workers = build_workers(n, postings, scratch, c_bytes, budget);
	atomic_store(&job->next, 0);
	gp_pool_run(job->workers, decode_worker, job);
	if (atomic_load(&job->first_bad) < n) {
		rc = job->rc;
		*err = job->err;
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		if (ix->list_at[i + 1] > ix->list_at[i] && ix->docs[ix->list_at[i + 1] - 1] > ix->max_doc) {
			ix->max_doc = ix->docs[ix->list_at[i + 1] - 1];
		}
	}
	ix->n_postings = ix->list_at[n];
	ix->n_positions = positional ? job->pos_end[n] : 0;
	if (gp_index_count_docs(ix, job->workers, budget) != GP_OK) {
		rc = gp_index_fail_nomem(err, "the doc count's bitmap");
		goto fail;
	}
	rc = GP_OK;
	*out = ix;
	ix = NULL;
fail:
	for (size_t w = 0; w < GP_POOL_MAX; w++) scratch_free(&job->scratch[w]);
	free(job->run_at);
	pthread_mutex_destroy(&job->lock);
	gp_gate_destroy(&job->placing);
	free(job->pos_end);
	free(job);
	free(counts);
	if (ix) {
		ix->refs = 0;
		index_free(ix);
	}
	return rc;
}
