/* Building an index: every list validated and decoded once, the dictionary hashed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_index.h"
#include "../codec/gp_mod9.h"
#include "../codec/gp_s9.h"
#include "../codec/gp_qs.h"

static uint64_t term_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;   /* FNV-1a */
	for (size_t i = 0; i < len; i++) {
		h ^= (uint8_t)s[i];
		h *= 1099511628211ull;
	}
	return h;
}

uint32_t gp_index_lookup(const gp_index *ix, const char *term, size_t len)
{
	if (!ix->slots) return GP_IX_NO_TERM;
	for (uint64_t s = term_hash(term, len) & ix->slot_mask;; s = (s + 1) & ix->slot_mask) {
		uint32_t t = ix->slots[s];
		if (t == 0) return GP_IX_NO_TERM;
		t--;
		if (ix->term_at[t + 1] - ix->term_at[t] == len && memcmp(ix->terms + ix->term_at[t], term, len) == 0) {
			return t;
		}
	}
}

uint64_t gp_index_host_bytes(const gp_index *ix)
{
	uint64_t n = ix->n_terms;
	return ix->term_at[n] + (n + 1) * 8 + (ix->slot_mask + 1) * 4 + ix->blob_at[n] + (n + 1) * 8 +
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
	free(ix->terms);
	free(ix->term_at);
	free(ix->slots);
	free(ix->blobs);
	free(ix->blob_at);
	free(ix->list_at);
	free(ix->docs);
	free(ix->pos_at);
	free(ix->positions);
	free(ix->merged);
	free(ix->doc_len);
	free(ix->max_frac);
	free(ix);
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

/* Scratch for one list's decode, grown to the largest list. */
typedef struct decode_scratch {
	int64_t *v64;       /* S9 values; MOD9 docs */
	uint32_t *v32;      /* QS values; MOD9 value starts */
	uint8_t *combined;
	int64_t *pos;
	size_t cap_postings, cap_values;
} decode_scratch;

static int scratch_fit(decode_scratch *s, size_t postings, size_t values)
{
	if (postings + 1 > s->cap_postings) {
		size_t n = postings + 1;
		int64_t *a = realloc(s->v64, n * sizeof(int64_t));
		if (a) s->v64 = a;
		uint32_t *b = realloc(s->v32, n * sizeof(uint32_t));
		if (b) s->v32 = b;
		uint8_t *c = realloc(s->combined, n);
		if (c) s->combined = c;
		if (!a || !b || !c) return GP_ENOMEM;
		s->cap_postings = n;
	}
	if (values + 1 > s->cap_values) {
		int64_t *p = realloc(s->pos, (values + 1) * sizeof(int64_t));
		if (!p) return GP_ENOMEM;
		s->pos = p;
		s->cap_values = values + 1;
	}
	return GP_OK;
}

static void scratch_free(decode_scratch *s)
{
	free(s->v64);
	free(s->v32);
	free(s->combined);
	free(s->pos);
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

/* Decodes list t into the index after list t - 1 (list_at[t] set), and sets list_at[t + 1].
 * What the index requires beyond the format: docs below 2^32 and increasing, positions within
 * 32-bit signed integers. A doc equal to the one before is taken as the same document (the
 * postings merged, positions sorted): Yioop's combined form reads a first position of 512 to
 * 1023 as the next doc, which may be the following posting's. */
static int decode_list(gp_index *ix, uint32_t t, const uint8_t *blob, size_t len,
                       const list_counts *c, decode_scratch *s, gp_error *err)
{
	const char *fmt = ix->format == GP_IX_MOD9 ? GP_MOD9_NAME : ix->format == GP_IX_S9 ? GP_S9_NAME : GP_QS_NAME;
	uint64_t base = ix->list_at[t], kept = 0;
	size_t n = c->postings;
	if (scratch_fit(s, n, ix->format == GP_IX_MOD9 ? c->mod9.values : 0) != GP_OK) return GP_ENOMEM;
	if (ix->format == GP_IX_MOD9) {
		gp_mod9_decode_postings(blob, len, s->v64, s->v32, s->combined, s->pos, 0);
	} else if (ix->format == GP_IX_S9) {
		gp_s9_decode(blob, len, s->v64);
	} else {
		gp_qs_header h;
		gp_qs_check_header(blob, len, &h, NULL);
		if (gp_qs_decode(blob, &h, s->v32, err) != GP_OK) return GP_EFORMAT;
		for (size_t i = 0; i < n; i++) s->v64[i] = s->v32[i];
	}
	if (!ix->positional && docs_kept_increasing(s->v64, n, ix->docs + base)) {   /* the usual list */
		ix->list_at[t + 1] = base + n;
		return GP_OK;
	}
	uint64_t pbase = ix->positional ? ix->pos_at[base] : 0;
	for (size_t i = 0; i < n; i++) {
		int64_t d = s->v64[i];
		if (d < 0 || d > (int64_t)UINT32_MAX) {
			return gp_fail(err, fmt, 0, "posting %zu: doc %lld is outside 0 .. 2^32 - 1, which an index holds", i, (long long)d);
		}
		int same = kept > 0 && d == ix->docs[base + kept - 1];
		if (kept > 0 && d < ix->docs[base + kept - 1]) {
			return gp_fail(err, fmt, 0, "posting %zu: doc %lld after doc %lld: an index list's docs must increase",
			               i, (long long)d, (long long)ix->docs[base + kept - 1]);
		}
		if (same) ix->merged[t] = 1;
		else ix->docs[base + kept++] = (uint32_t)d;
		if (!ix->positional) continue;
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
			ix->positions[pbase++] = (int32_t)p;
		}
		if (same || !sorted) {   /* phrases search positions: sorted, each once */
			ix->merged[t] = 1;
			uint64_t first = ix->pos_at[base + kept - 1], m = first;
			qsort(ix->positions + first, pbase - first, sizeof(int32_t), cmp_i32);
			for (uint64_t j = first; j < pbase; j++) {
				if (j == first || ix->positions[j] != ix->positions[m - 1]) ix->positions[m++] = ix->positions[j];
			}
			pbase = m;
		}
		ix->pos_at[base + kept] = pbase;
	}
	ix->list_at[t + 1] = base + kept;
	return GP_OK;
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
 * list), the block's bits counted and cleared before the next. */
#define COUNT_BLOCK_DOCS ((uint64_t)1 << 21)   /* 256 KiB of bits */

int gp_index_count_docs(gp_index *ix)
{
	if (ix->n_postings == 0) return GP_OK;
	const uint64_t end = (uint64_t)ix->max_doc + 1, blocks = (end + COUNT_BLOCK_DOCS - 1) / COUNT_BLOCK_DOCS;
	const int blocked = blocks > 1 && blocks * ix->n_terms < ix->n_postings / 8;
	const uint64_t span = blocked ? COUNT_BLOCK_DOCS : end, words = ((span - 1) >> 6) + 1;
	uint64_t n = 0, *bits = calloc(words, sizeof(uint64_t));
	uint64_t *cur = blocked ? malloc(((size_t)ix->n_terms + 1) * sizeof(uint64_t)) : NULL;
	if (!bits || (blocked && !cur)) {
		free(bits);
		free(cur);
		return GP_ENOMEM;
	}
	if (cur) memcpy(cur, ix->list_at, ((size_t)ix->n_terms + 1) * sizeof(uint64_t));
	for (uint64_t lo = 0; lo < end; lo += span) {
		const uint64_t hi = lo + span;
		for (uint32_t t = 0; t < ix->n_terms; t++) {
			uint64_t p = cur ? cur[t] : ix->list_at[t];
			const uint64_t stop = ix->list_at[t + 1];
			for (; p < stop && ix->docs[p] < hi; p++) {
				const uint64_t d = ix->docs[p] - lo;
				bits[d >> 6] |= (uint64_t)1 << (d & 63);
			}
			if (cur) cur[t] = p;
		}
		for (uint64_t w = 0; w < words; w++) {
			n += (uint64_t)__builtin_popcountll(bits[w]);
			bits[w] = 0;
		}
	}
	free(bits);
	free(cur);
	ix->n_docs = n;
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
	uint64_t term_bytes = 0, blob_bytes = 0, postings = 0, positions = 0, mod9_values = 0;
	int rc;
	memset(err, 0, sizeof(*err));
	*out = NULL;
	if (n >= UINT32_MAX) {
		err->code = GP_EVALUE;
		err->format = "index";
		snprintf(err->rule, sizeof(err->rule), "an index holds fewer than 2^32 - 1 terms");
		return GP_EVALUE;
	}
	list_counts *counts = malloc((n + 1) * sizeof(*counts));
	if (!counts) return gp_index_fail_nomem(err, "the lists' counts");
	for (size_t i = 0; i < n; i++) {
		if (measure_list(format, blobs[i], lens[i], &counts[i], err) != GP_OK) {
			err->blob = i;
			free(counts);
			return GP_EFORMAT;
		}
		if (counts[i].postings >= UINT32_MAX) {   /* a list's length is a 32-bit df */
			free(counts);
			err->code = GP_EVALUE;
			err->blob = i;
			err->format = "index";
			snprintf(err->rule, sizeof(err->rule), "a list holds fewer than 2^32 - 1 postings (%llu given)",
			         (unsigned long long)counts[i].postings);
			return GP_EVALUE;
		}
		term_bytes += term_lens[i];
		blob_bytes += lens[i];
		postings += counts[i].postings;
		positions += counts[i].positions;
		mod9_values = counts[i].mod9.values > mod9_values ? counts[i].mod9.values : mod9_values;
	}
	int positional = format == GP_IX_MOD9;
	uint64_t c_bytes = term_bytes + blob_bytes + (uint64_t)(n + 1) * 29 + (uint64_t)n * 8 + postings * 4 +
	                   (positional ? (postings + 1) * 8 + positions * 4 + (mod9_values + 1) * 8 : 0);
	if (gp_budget_check(budget, 0, c_bytes, "the index", err) != GP_OK) {
		free(counts);
		return GP_ENOMEM;
	}
	gp_index *ix = calloc(1, sizeof(*ix));
	if (!ix) {
		free(counts);
		return gp_index_fail_nomem(err, "the index");
	}
	ix->refs = 1;
	ix->format = format;
	ix->positional = positional;
	ix->n_terms = (uint32_t)n;
	ix->terms = malloc(term_bytes + 1);
	ix->term_at = malloc((n + 1) * sizeof(uint64_t));
	ix->blobs = malloc(blob_bytes + 1);
	ix->blob_at = malloc((n + 1) * sizeof(uint64_t));
	ix->list_at = malloc((n + 1) * sizeof(uint64_t));
	ix->docs = malloc((postings + 1) * sizeof(uint32_t));
	ix->merged = calloc(n + 1, 1);
	if (positional) {
		ix->pos_at = malloc((postings + 1) * sizeof(uint64_t));
		ix->positions = malloc((positions + 1) * sizeof(int32_t));
	}
	if (!ix->terms || !ix->term_at || !ix->blobs || !ix->blob_at || !ix->list_at || !ix->docs || !ix->merged ||
	    (positional && (!ix->pos_at || !ix->positions))) {
		rc = gp_index_fail_nomem(err, "the index");
		goto fail;
	}
	ix->term_at[0] = ix->blob_at[0] = 0;
	ix->list_at[0] = 0;
	if (positional) ix->pos_at[0] = 0;
	for (size_t i = 0; i < n; i++) {
		ix->term_at[i + 1] = ix->term_at[i] + term_lens[i];
		ix->blob_at[i + 1] = ix->blob_at[i] + lens[i];
		if (lens[i]) memcpy(ix->blobs + ix->blob_at[i], blobs[i], lens[i]);
	}
	if ((rc = build_dictionary(ix, terms, term_lens, err)) != GP_OK) {
		if (rc == GP_ENOMEM) gp_index_fail_nomem(err, "the dictionary");
		goto fail;
	}
	decode_scratch s = {0};
	for (size_t i = 0; i < n; i++) {
		if ((rc = decode_list(ix, (uint32_t)i, blobs[i], lens[i], &counts[i], &s, err)) != GP_OK) {
			if (rc == GP_ENOMEM) gp_index_fail_nomem(err, "a list's decode");
			err->blob = i;
			scratch_free(&s);
			goto fail;
		}
		uint64_t len_i = ix->list_at[i + 1] - ix->list_at[i];
		if (len_i && ix->docs[ix->list_at[i + 1] - 1] > ix->max_doc) ix->max_doc = ix->docs[ix->list_at[i + 1] - 1];
	}
	scratch_free(&s);
	ix->n_postings = ix->list_at[n];
	ix->n_positions = positional ? ix->pos_at[ix->n_postings] : 0;
	if (gp_index_count_docs(ix) != GP_OK) {
		rc = gp_index_fail_nomem(err, "the doc count's bitmap");
		goto fail;
	}
	free(counts);
	*out = ix;
	return GP_OK;
fail:
	free(counts);
	ix->refs = 0;
	index_free(ix);
	return rc;
}
