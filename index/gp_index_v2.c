/* Index files, version 2 (docs/FORMATS.md "Index files, version 2"): the writer, and the reader
 * that opens a file in place. Opening checks the header, the section table and section 8 (the
 * checksums by part), in proportion to the sections and a word for 64 terms; every other part is
 * checked the first time the process reads it: a group of terms and their table entries before a
 * lookup or a list reads them, a list whole (its checksum, its blocks' structure, its docs against
 * the doc lengths and its score bounds against its postings) before a query reads it, a chunk of
 * doc lengths before a list's check reads it. Until then nothing of them is trusted: no answer
 * comes from bytes that were not checked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gp_index_file.h"
#include "gp_list_cursor.h"

enum { V2_TERM_AT = 1, V2_TERMS = 2, V2_LENGTHS = 5, V2_TABLE = 6, V2_LISTS = 7, V2_CHECKS = 8, V2_COLUMNS = 9, V2_ATTRS = 10, V2_KNOWN = 10 };

#define BAD(off, ...) gp_fail(err, "index file", (off), __VA_ARGS__)

static float load_f32(const uint8_t *p)
{
	uint32_t u = gp_load_le32(p);
	float x;
	memcpy(&x, &u, 4);
	return x;
}

static void store_f32(uint8_t *p, float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	gp_store_le32(p, u);
}

uint32_t gp_index_v2_group_crc(const uint8_t *term_at, const uint8_t *terms, const uint8_t *table, uint32_t first,
                               uint32_t end, uint32_t cover)
{
	const uint64_t o0 = gp_load_le64(term_at + 8 * (size_t)first), o1 = gp_load_le64(term_at + 8 * (size_t)cover);
	uint32_t crc = gp_crc32c(0, term_at + 8 * (size_t)first, 8 * ((size_t)(cover - first) + 1));
	crc = gp_crc32c(crc, terms + o0, (size_t)(o1 - o0));
	return gp_crc32c(crc, table + (size_t)first * GP_V2_TERM, (size_t)(end - first) * GP_V2_TERM);
}

/* --- opening --- */

/* log2 of x when x is a power of 2 from 1 to `most`, else -1. */
static int log2_exact(uint32_t x, uint32_t most)
{
	if (x == 0 || x > most || (x & (x - 1))) return -1;
	return __builtin_ctz(x);
}

int gp_index_v2_open(const uint8_t *file, size_t len, int in_place, const gp_budget *budget, gp_index **out,
                     gp_error *err)
{
	const uint8_t *sec[V2_KNOWN + 1] = {0};
	uint64_t sec_len[V2_KNOWN + 1] = {0}, sec_off[V2_KNOWN + 1] = {0}, sec_at[V2_KNOWN + 1] = {0};
	uint32_t sec_crc[V2_KNOWN + 1] = {0};
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return BAD(8, "version 2 files are read in place on little-endian hosts only");
#endif
	uint32_t format = gp_load_le32(file + 12), n_terms = gp_load_le32(file + 20), n_sections = gp_load_le32(file + 44);
	for (uint32_t i = 0; i < n_sections; i++) {
		const uint8_t *e = file + GP_IXF_HEADER + (size_t)GP_IXF_SECTION * i;
		uint32_t id = gp_load_le32(e);
		if (id < 1 || id > V2_KNOWN || id == 3 || id == 4) continue;   /* not this version's: never read */
		if (sec[id]) return BAD(GP_IXF_HEADER + (uint64_t)GP_IXF_SECTION * i, "section %u appears twice", id);
		sec_off[id] = gp_load_le64(e + 8);
		sec_len[id] = gp_load_le64(e + 16);
		sec[id] = file + sec_off[id];
		sec_crc[id] = gp_load_le32(e + 4);
		sec_at[id] = GP_IXF_HEADER + (uint64_t)GP_IXF_SECTION * i;
		/* the sections read as arrays start at multiples of 8, as the writer puts them */
		if (sec_off[id] % 8) return BAD(sec_at[id] + 8, "section %u does not start at a multiple of 8", id);
		if (id == V2_LISTS && sec_crc[id] != 0) {
			return BAD(sec_at[id] + 4, "section 7's checksum field is not 0 (each list has its own)");
		}
	}
	/* the header's counts are taken as they are (the lists hold them to them only with 'verify'),
	 * within what a file holds */
	if (gp_load_le32(file + 32) == UINT32_MAX || gp_load_le32(file + 36) == UINT32_MAX) {
		return BAD(32, "the header's postings or positions are 2^32 - 1, past what a file holds");
	}
	const int ids[] = {V2_TERM_AT, V2_TERMS, V2_TABLE, V2_LISTS, V2_CHECKS};
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		if (!sec[ids[i]]) return BAD(GP_IXF_HEADER, "section %d is missing", ids[i]);
	}
	/* section 8, whole: what says how the others are checked at their first use */
	const uint8_t *ck = sec[V2_CHECKS];
	if (gp_crc32(0, ck, (size_t)sec_len[V2_CHECKS]) != sec_crc[V2_CHECKS]) return BAD(sec_at[V2_CHECKS] + 4, "section 8's checksum does not match");
	if (sec_len[V2_TERM_AT] != ((uint64_t)n_terms + 1) * 8) {
		return BAD(sec_at[V2_TERM_AT], "the term offsets section holds %llu bytes, not 8 x (terms + 1)", (unsigned long long)sec_len[V2_TERM_AT]);
	}
	if (sec_len[V2_TABLE] != (uint64_t)n_terms * GP_V2_TERM) {
		return BAD(sec_at[V2_TABLE], "the term table holds %llu bytes, not %d x terms", (unsigned long long)sec_len[V2_TABLE], GP_V2_TERM);
	}
	uint32_t len_docs = 0;
	if (sec[V2_LENGTHS]) {
		if (sec_len[V2_LENGTHS] < GP_IXF_LENGTHS_HEAD) {
			return BAD(sec_at[V2_LENGTHS] + 16, "the doc lengths section holds fewer than %d bytes", GP_IXF_LENGTHS_HEAD);
		}
		len_docs = gp_load_le32(sec[V2_LENGTHS] + 16);
		if (sec_len[V2_LENGTHS] != GP_IXF_LENGTHS_HEAD + (uint64_t)len_docs * 4) {
			return BAD(sec_at[V2_LENGTHS] + 16, "the doc lengths section holds %llu bytes, not %d + 4 x its docs", (unsigned long long)sec_len[V2_LENGTHS], GP_IXF_LENGTHS_HEAD);
		}
	}
	if (sec_len[V2_CHECKS] < GP_V2_CHECKS_HEAD) return BAD(sec_at[V2_CHECKS] + 16, "section 8 holds fewer than %d bytes", GP_V2_CHECKS_HEAD);
	const int gs = log2_exact(gp_load_le32(ck), 1u << 16), cs = log2_exact(gp_load_le32(ck + 4), 1u << 24);
	if (gs < 0) return BAD(sec_off[V2_CHECKS], "section 8's terms a group (%u) is not a power of 2 up to 65536", gp_load_le32(ck));
	if (cs < 0) return BAD(sec_off[V2_CHECKS] + 4, "section 8's docs a chunk (%u) is not a power of 2 up to 2^24", gp_load_le32(ck + 4));
	const uint32_t n_groups = (uint32_t)(((uint64_t)n_terms + (1u << gs) - 1) >> gs);
	const uint32_t n_chunks = (uint32_t)(((uint64_t)len_docs + (1u << cs) - 1) >> cs);
	if (sec_len[V2_CHECKS] != GP_V2_CHECKS_HEAD + 4 * ((uint64_t)n_groups + n_chunks)) {
		return BAD(sec_at[V2_CHECKS] + 16, "section 8 holds %llu bytes, not %d + 4 x (%u groups + %u chunks)", (unsigned long long)sec_len[V2_CHECKS], GP_V2_CHECKS_HEAD, n_groups, n_chunks);
	}
	const uint64_t n_len = gp_load_le64(ck + 8), total_len = gp_load_le64(ck + 16);
	if (gp_load_le32(ck + 28) != 0) return BAD(sec_off[V2_CHECKS] + 28, "section 8's bytes 28..31 are not 0");
	if (!sec[V2_LENGTHS] && (n_len || total_len || gp_load_le32(ck + 24))) {
		return BAD(sec_off[V2_CHECKS] + 8, "section 8 gives doc lengths to an index without them");
	}
	if (n_len > len_docs || total_len > n_len * (uint64_t)UINT32_MAX || total_len < n_len) {
		return BAD(sec_off[V2_CHECKS] + 8, "section 8's docs with a length (%llu) or their sum (%llu) cannot be the doc lengths' (each at least 1)", (unsigned long long)n_len, (unsigned long long)total_len);
	}
	double k1 = 0.0, b = 0.0;
	if (sec[V2_LENGTHS]) {   /* the section's head (BM25's parameters), by its own checksum */
		const uint8_t *h = sec[V2_LENGTHS];
		if (gp_crc32c(0, h, GP_IXF_LENGTHS_HEAD) != gp_load_le32(ck + 24)) return BAD(sec_off[V2_CHECKS] + 24, "the doc lengths' head does not match its checksum");
		memcpy(&k1, h, 8);
		memcpy(&b, h + 8, 8);
		if (!gp_bm25_params_valid(k1, b)) {
			return BAD(sec_off[V2_LENGTHS], "BM25's k1 %g or b %g is out of range (k1 0 to %g, b 0 to 1)", k1, b, GP_BM25_K1_MAX);
		}
		if (gp_load_le32(h + 20) != 0) return BAD(sec_off[V2_LENGTHS] + 20, "the doc lengths section's bytes 20..23 are not 0");
	}
	/* section 9 (optional): the columns' names, small, checked whole by its checksum */
	const char *col_name[GP_IX_MAX_COLUMNS];
	size_t col_len[GP_IX_MAX_COLUMNS];
	uint32_t n_cols = 0, tokenizer = 0;
	if (sec[V2_COLUMNS]) {
		const uint8_t *c = sec[V2_COLUMNS];
		const uint64_t clen = sec_len[V2_COLUMNS];
		if (gp_crc32(0, c, (size_t)clen) != sec_crc[V2_COLUMNS]) return BAD(sec_at[V2_COLUMNS] + 4, "section 9's checksum does not match");
		if (clen < 16) return BAD(sec_off[V2_COLUMNS], "section 9 holds fewer than 16 bytes");
		n_cols = gp_load_le32(c);
		if (n_cols < 1 || n_cols > GP_IX_MAX_COLUMNS) return BAD(sec_off[V2_COLUMNS], "section 9's columns (%u) are not 1 to %d", n_cols, GP_IX_MAX_COLUMNS);
		if (gp_load_le32(c + 4) != GP_IX_COLUMN_SHIFT) return BAD(sec_off[V2_COLUMNS] + 4, "section 9's column shift is not %d", GP_IX_COLUMN_SHIFT);
		tokenizer = gp_load_le32(c + 8);
		if (tokenizer > GP_IX_TOKENIZER_LAST) return BAD(sec_off[V2_COLUMNS] + 8, "section 9's tokenizer (%u) is not 0 (unicode61) or 1 (porter)", tokenizer);
		if (gp_load_le32(c + 12) != 0) return BAD(sec_off[V2_COLUMNS] + 12, "section 9's bytes 12..15 are not 0");
		uint64_t at = 16;
		for (uint32_t i = 0; i < n_cols; i++) {
			if (clen - at < 4) return BAD(sec_off[V2_COLUMNS] + at, "section 9 ends within column %u", i);
			col_len[i] = gp_load_le32(c + at);
			if (col_len[i] < 1 || col_len[i] > GP_IX_COLUMN_NAME_MAX || clen - at - 4 < col_len[i]) {
				return BAD(sec_off[V2_COLUMNS] + at, "column %u's name is not 1 to %d bytes within section 9", i, GP_IX_COLUMN_NAME_MAX);
			}
			col_name[i] = (const char *)c + at + 4;
			at += 4 + col_len[i];
		}
		if (at != clen) return BAD(sec_off[V2_COLUMNS] + at, "section 9 holds bytes past its columns");
	}
	/* what the process keeps of its own: a flag a term, a group and a chunk, and for an image
	 * that is not mapped, a copy of it */
	uint64_t own = (uint64_t)n_terms * 9 + (uint64_t)n_groups * 9 + n_chunks + 3 + (in_place ? 0 : len);
	if (gp_budget_check(budget, 0, own, "the index", err) != GP_OK) return GP_ENOMEM;
	gp_index *ix = calloc(1, sizeof(*ix));
	gp_v2 *v = calloc(1, sizeof(*v));
	/* the flags and keys in one anonymous mapping: zero pages, made as the parts are checked
	 * (nothing written, nothing cleared, at open) */
	const size_t flags = ((size_t)n_terms + n_groups + n_chunks + 3 + 7) & ~(size_t)7;
	const size_t state_len = flags + ((size_t)n_groups + 1 + (size_t)n_terms + 1) * 8;
	void *state = mmap(NULL, state_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!ix || !v || state == MAP_FAILED || (!in_place && !(v->owned = malloc(len + 1)))) {
		if (state != MAP_FAILED) munmap(state, state_len);
		free(v);
		free(ix);
		return gp_index_fail_nomem(err, "the index");
	}
	v->state = state;
	v->state_len = state_len;
	v->checked = (atomic_uchar *)state;
	v->group_checked = v->checked + n_terms + 1;
	v->chunk_checked = v->group_checked + n_groups + 1;
	v->group_key = (uint64_t *)(void *)((uint8_t *)state + flags);
	v->term_key = v->group_key + n_groups + 1;
	if (!in_place) {   /* the copy is what the index reads */
		memcpy(v->owned, file, len);
		v->owned_len = len;
		ptrdiff_t moved = v->owned - file;
		for (int id = 1; id <= V2_KNOWN; id++) if (sec[id]) sec[id] += moved;
	}
	pthread_mutex_init(&v->lock, NULL);
	v->table = sec[V2_TABLE];
	v->lists = sec[V2_LISTS];
	v->lists_len = sec_len[V2_LISTS];
	v->term_at = sec[V2_TERM_AT];
	v->terms_len = sec_len[V2_TERMS];
	v->term_at_off = sec_off[V2_TERM_AT];
	v->terms_off = sec_off[V2_TERMS];
	v->table_off = sec_off[V2_TABLE];
	v->lists_off = sec_off[V2_LISTS];
	v->lengths = sec[V2_LENGTHS];
	v->lengths_off = sec_off[V2_LENGTHS];
	v->checks_off = sec_off[V2_CHECKS];
	v->group_crc = sec[V2_CHECKS] + GP_V2_CHECKS_HEAD;
	v->chunk_crc = v->group_crc + 4 * (size_t)n_groups;
	v->group_shift = (uint32_t)gs;
	v->chunk_shift = (uint32_t)cs;
	v->n_groups = n_groups;
	v->n_chunks = n_chunks;
	for (int id = 1; id <= V2_KNOWN; id++) {   /* what 'verify' checks whole */
		v->whole[id].p = sec[id];
		v->whole[id].len = sec_len[id];
		v->whole[id].at = sec_at[id];
		v->whole[id].crc = sec_crc[id];
	}
	ix->refs = 1;
	ix->v2 = v;
	ix->v2_table = v->table;
	ix->format = (int)format;
	ix->positional = format == GP_IX_MOD9;
	ix->n_terms = n_terms;
	ix->n_docs = gp_load_le64(file + 24);
	ix->n_postings = gp_load_le32(file + 32);
	ix->n_positions = gp_load_le32(file + 36);
	ix->max_doc = gp_load_le32(file + 40);
	ix->terms = (char *)sec[V2_TERMS];
	ix->term_at = (uint64_t *)(void *)sec[V2_TERM_AT];
	ix->device_lists = GP_IX_LISTS_DECODED;
	if (v->lengths) {   /* BM25's N and average from section 8; the table in place */
		ix->k1 = k1;
		ix->b = b;
		ix->len_docs = len_docs;
		ix->doc_len = (uint32_t *)(void *)(v->lengths + GP_IXF_LENGTHS_HEAD);
		ix->n_len = n_len;
		ix->total_len = total_len;
		ix->avgdl = n_len ? (double)total_len / (double)n_len : 0.0;
	}
	if (sec[V2_ATTRS]) {   /* section 10: the docs' attributes, read where they lie */
		int rc = GP_EFORMAT;
		if (gp_crc32(0, sec[V2_ATTRS], (size_t)sec_len[V2_ATTRS]) != sec_crc[V2_ATTRS]) {
			BAD(sec_at[V2_ATTRS] + 4, "section 10's checksum does not match");
		} else {
			rc = gp_index_attributes_read(ix, sec[V2_ATTRS], sec_len[V2_ATTRS], sec_off[V2_ATTRS], err);
		}
		if (rc != GP_OK) {
			gp_index_unref(ix);
			return rc;
		}
	}
	ix->tokenizer = (int)tokenizer;
	if (n_cols) {
		int rc = gp_index_set_columns(ix, col_name, col_len, n_cols, err);
		if (rc != GP_OK) {
			size_t at = err->offset;
			gp_index_unref(ix);
			return rc == GP_EVALUE ? BAD(sec_off[V2_COLUMNS], "section 9's column %zu: %s", at, err->rule) : rc;
		}
	}
	*out = ix;
	return GP_OK;
}

void gp_index_v2_free(gp_v2 *v)
{
	if (!v) return;
	pthread_mutex_destroy(&v->lock);
	if (v->state) munmap(v->state, v->state_len);
	free(v->owned);
	free(v);
}

uint64_t gp_index_v2_own_bytes(const gp_index *ix)
{
	const gp_v2 *v = ix->v2;
	if (!v) return 0;
	return (v->owned ? v->owned_len : 0) + (uint64_t)ix->n_terms * 9 + (uint64_t)v->n_groups * 9 + v->n_chunks;
}

/* --- the checks at first use --- */

/* Group g of the dictionary and the term table: its checksum over its term offsets and terms'
 * bytes (through the next group's first term) and its term table entries, then its rules (the
 * lock held): its terms in increasing order, the next group's first after them, so that every
 * group a lookup reads agrees with its neighbours. */
static int check_group(const gp_index *ix, uint32_t g, gp_error *err)
{
	const gp_v2 *v = ix->v2;
	const uint32_t n = ix->n_terms;
	uint32_t first, end, cover;
	gp_v2_group_span(n, v->group_shift, g, &first, &end, &cover);
	const uint64_t o0 = gp_load_le64(v->term_at + 8 * (size_t)first), o1 = gp_load_le64(v->term_at + 8 * (size_t)cover);
	if (o0 > o1 || o1 > v->terms_len || (first == 0 && o0 != 0) || (cover == n && o1 != v->terms_len)) {
		return BAD(v->term_at_off + 8 * (uint64_t)first, "the term offsets of terms %u to %u (%llu to %llu) are out of order or past the terms' %llu bytes", first, cover,
		           (unsigned long long)o0, (unsigned long long)o1, (unsigned long long)v->terms_len);
	}
	const uint32_t crc = gp_index_v2_group_crc(v->term_at, (const uint8_t *)ix->terms, v->table, first, end, cover);
	if (crc != gp_load_le32(v->group_crc + 4 * (size_t)g)) {
		return BAD(v->checks_off + GP_V2_CHECKS_HEAD + 4 * (uint64_t)g, "the checksum of terms %u to %u (group %u) does not match", first, end - 1, g);
	}
	for (uint32_t t = first; t + 1 < cover; t++) {
		uint64_t a = gp_load_le64(v->term_at + 8 * (size_t)t), m = gp_load_le64(v->term_at + 8 * ((size_t)t + 1)), z = gp_load_le64(v->term_at + 8 * ((size_t)t + 2));
		size_t na = (size_t)(m - a), nb = (size_t)(z - m);
		if (m < a || z < m || z > o1) {
			return BAD(v->term_at_off + 8 * ((uint64_t)t + 1), "the term offsets section's entry %u (%llu) is out of order or past its data", t + 1, (unsigned long long)m);
		}
		int c = memcmp(ix->terms + a, ix->terms + m, na < nb ? na : nb);
		if (c > 0 || (c == 0 && na >= nb)) {
			return BAD(v->terms_off + m, "term %u is not after term %u (the terms are in increasing order, each once)", t + 1, t);
		}
	}
	uint64_t data_prev = 0;
	for (uint32_t t = first; t < end; t++) {
		const uint8_t *e = v->table + (size_t)t * GP_V2_TERM;
		uint64_t off = gp_load_le64(e), entry = v->table_off + (uint64_t)t * GP_V2_TERM;
		double m;
		memcpy(&m, e + 16, 8);
		if ((t == 0 && off != 0) || (t > first && off < data_prev) || off > v->lists_len) {
			return BAD(entry, "term %u's list begins at %llu: out of order or past section 7", t, (unsigned long long)off);
		}
		if (!(m >= 0.0 && m <= GP_BM25_K1_MAX + 1.0) || (!ix->doc_len && m != 0.0)) {
			return BAD(entry + 16, "term %u's score bound is not a number from 0 to k1 + 1 (0 without doc lengths)", t);
		}
		if (gp_load_le64(e + 32) != 0) return BAD(entry + 32, "term %u's reserved bytes are not 0", t);
		if (!ix->positional && gp_load_le64(e + 8) != 0) return BAD(entry + 8, "term %u has positions in an index without them", t);
		data_prev = off;
	}
	return GP_OK;
}

static int group_ready_locked(const gp_index *ix, uint32_t g, gp_error *err)
{
	gp_v2 *v = ix->v2;
	if (atomic_load(&v->group_checked[g])) return GP_OK;
	int rc = check_group(ix, g, err);
	if (rc != GP_OK) return rc;
	uint32_t first, end, cover;
	gp_v2_group_span(ix->n_terms, v->group_shift, g, &first, &end, &cover);
	for (uint32_t t = first; t < end; t++) v->term_key[t] = gp_v2_prefix8(ix->terms + ix->term_at[t], (size_t)(ix->term_at[t + 1] - ix->term_at[t]));
	v->group_key[g] = v->term_key[first];
	atomic_store_explicit(&v->group_checked[g], 1, memory_order_release);
	return GP_OK;
}

int gp_index_v2_group_ready(const gp_index *ix, uint32_t t, gp_error *err)
{
	gp_v2 *v = ix->v2;
	const uint32_t g = t >> v->group_shift;
	if (atomic_load_explicit(&v->group_checked[g], memory_order_acquire)) return GP_OK;
	pthread_mutex_lock(&v->lock);
	int rc = group_ready_locked(ix, g, err);
	pthread_mutex_unlock(&v->lock);
	return rc;
}

/* Chunk c of the doc lengths, by its checksum (the lock held). */
static int chunk_ready_locked(const gp_index *ix, uint32_t c, gp_error *err)
{
	gp_v2 *v = ix->v2;
	if (atomic_load(&v->chunk_checked[c])) return GP_OK;
	const uint64_t first = (uint64_t)c << v->chunk_shift, end = first + (1ull << v->chunk_shift) < ix->len_docs ? first + (1ull << v->chunk_shift) : ix->len_docs;
	if (gp_crc32c(0, (const uint8_t *)(ix->doc_len + first), (size_t)(end - first) * 4) != gp_load_le32(v->chunk_crc + 4 * (size_t)c)) {
		return BAD(v->lengths_off + GP_IXF_LENGTHS_HEAD + first * 4, "the checksum of the lengths of docs %llu to %llu does not match", (unsigned long long)first, (unsigned long long)end - 1);
	}
	atomic_store_explicit(&v->chunk_checked[c], 1, memory_order_release);
	return GP_OK;
}

/* Term t's list (the lock held): with GP_V2_STRUCTURE, whole but for the doc lengths (its
 * checksum, every block's rules, positions); with GP_V2_LENGTHS, what a ranked query reads
 * besides (every doc's length, the score bounds against the postings; a structure checked). */
static int check_list(const gp_index *ix, uint32_t t, int what, gp_error *err)
{
	const gp_v2 *v = ix->v2;
	const int structure = what & GP_V2_STRUCTURE, lengths = (what & GP_V2_LENGTHS) && ix->doc_len;
	int rc;
	/* its entry and the next (where its bytes end) */
	if ((rc = group_ready_locked(ix, t >> v->group_shift, err)) != GP_OK) return rc;
	if (t + 1 < ix->n_terms && (rc = group_ready_locked(ix, (t + 1) >> v->group_shift, err)) != GP_OK) return rc;
	const uint8_t *e = v->table + (size_t)t * GP_V2_TERM;
	const uint64_t off = gp_v2_data_off(v, t), npos = gp_load_le64(e + 8);
	const uint64_t file_at = v->lists_off + off, entry = v->table_off + (uint64_t)t * GP_V2_TERM;
	const uint32_t df = gp_v2_df(v, t), blocks = (uint32_t)(((uint64_t)df + GP_BLOCK - 1) / GP_BLOCK);
	const uint8_t *data = v->lists + off;
	double bound;
	memcpy(&bound, e + 16, 8);
	char name[200];
	gp_printable(ix->terms + ix->term_at[t], (size_t)(ix->term_at[t + 1] - ix->term_at[t]), 40, name, sizeof(name));
#define LBAD(at, fmt, ...) BAD((at), "term '%s' (list %u): " fmt, name, t, __VA_ARGS__)
	if (t + 1 < ix->n_terms && gp_v2_data_off(v, t + 1) < off) {
		return LBAD(entry + GP_V2_TERM, "the next term's list begins at %llu, before this one's %llu", (unsigned long long)gp_v2_data_off(v, t + 1), (unsigned long long)off);
	}
	const uint64_t len = gp_v2_data_len(v, t, ix->n_terms);
	if ((uint64_t)blocks * GP_V2_SKIP > len) return LBAD(entry + 24, "%u postings need %u skip entries, more than its %llu bytes", df, blocks, (unsigned long long)len);
	if (lengths && df > ix->n_len) return LBAD(entry + 24, "%u docs, more than the %llu with a length (section 8)", df, (unsigned long long)ix->n_len);
	if (structure && gp_crc32c(0, data, (size_t)len) != gp_load_le32(e + 28)) return LBAD(entry + 28, "%s", "its checksum does not match");
	uint64_t prev_end = (uint64_t)blocks * GP_V2_SKIP, counted = 0, base = 0;
	uint32_t docs[GP_BLOCK_DOCS_ROOM], counts[GP_BLOCK], gap[GP_BLOCK];
	uint64_t gaps_before[GP_BLOCK];
	for (uint32_t b = 0; b < blocks; b++) {
		const uint8_t *s = data + (size_t)b * GP_V2_SKIP;
		const uint64_t s_at = file_at + (uint64_t)b * GP_V2_SKIP;
		uint64_t last = gp_load_le32(s), boff = gp_load_le32(s + 4);
		uint64_t bend = b + 1 < blocks ? gp_load_le32(s + GP_V2_SKIP + 4) : len;
		uint32_t n = b + 1 < blocks ? GP_BLOCK : df - b * GP_BLOCK;
		double bmax = load_f32(s + 8);
		if (gp_load_le32(s + 12) != 0) { return LBAD(s_at + 12, "block %u's reserved bytes are not 0", b); }
		if (boff != prev_end || bend < boff || bend > len) {
			return LBAD(s_at + 4, "block %u's bytes (%llu to %llu) do not follow the block before within the list", b, (unsigned long long)boff, (unsigned long long)bend);
		}
		if (last < base || last > ix->max_doc) {
			return LBAD(s_at, "block %u's last doc %llu is not after the block before or is past the largest doc %u", b, (unsigned long long)last, ix->max_doc);
		}
		gp_block k;
		if (!gp_block_open(&k, data + boff, (size_t)(bend - boff), base, last - base, n, ix->positional)) {
			return LBAD(file_at + boff, "block %u's header or upper bits do not fit its %llu bytes", b, (unsigned long long)(bend - boff));
		}
		/* the upper bits: n set, none past (span >> l) + n (what decoding the docs relies on) */
		uint64_t ones = 0, inside = 0, limit = (k.span >> k.l) + n;
		for (uint64_t w = 0; structure && w < k.upper_words; w++) {
			uint64_t x = gp_block_word(&k, w), in = w * 64 + 64 <= limit ? x : x & ((1ull << (limit - w * 64)) - 1);
			ones += (uint64_t)__builtin_popcountll(x);
			inside += (uint64_t)__builtin_popcountll(in);
		}
		if (structure && (inside != n || ones != n)) {
			return LBAD(file_at + boff + GP_BLOCK_HEADER, "block %u's upper bits hold %llu docs (%llu within their %llu bits), not %u", b, (unsigned long long)ones, (unsigned long long)inside, (unsigned long long)limit, n);
		}
		if (!gp_block_docs(&k, docs) && structure) {
			return LBAD(file_at + boff, "block %u holds a doc past 2^32 - 1", b);
		}
		const uint64_t gaps = gp_block_counts(&k, counts, gaps_before);
		/* docs strictly increasing, the last the skip entry's; counts, positions; the doc
		 * lengths and the score bounds */
		double top = 0.0;
		for (uint32_t i = 0; i < n; i++) {
			const uint64_t d = docs[i];
			if (structure && ((i && d <= docs[i - 1]) || d < base || d > last)) {
				return LBAD(file_at + boff, "block %u's posting %u (doc %llu) does not increase or passes the block's last doc", b, i, (unsigned long long)d);
			}
			counted += counts[i];
			if (lengths) {
				if (d < ix->len_docs && (rc = chunk_ready_locked(ix, (uint32_t)(d >> v->chunk_shift), err)) != GP_OK) return rc;
				if (d >= ix->len_docs || ix->doc_len[d] == GP_IX_NO_LENGTH || ix->doc_len[d] == 0) {
					return LBAD(file_at + boff, "doc %llu has no length (or length 0) in the doc lengths", (unsigned long long)d);
				}
				double f = gp_bm25_part(1.0, (double)(counts[i] ? counts[i] : 1), ix->k1, ix->b, (double)ix->doc_len[d], ix->avgdl);
				if (f > top) top = f;
			}
		}
		if (structure && docs[n - 1] != last) {
			return LBAD(s_at, "block %u ends at doc %llu, its skip entry says %llu", b, (unsigned long long)docs[n - 1], (unsigned long long)last);
		}
		if (structure && ix->positional) {
			if (k.gaps_at + gaps * k.bg > (uint64_t)k.bits_len * 8) {
				return LBAD(file_at + boff, "block %u's position gaps run past its bytes", b);
			}
			/* a posting's positions increase (each gap at least 1: so the block's bits bound its
			 * positions), all within 32-bit signed integers */
			if (gaps && k.bg == 0) return LBAD(file_at + boff, "block %u's position gaps have 0 bits (a gap is at least 1)", b);
			for (uint32_t i = 0; i < n; i++) {
				if (!counts[i]) continue;
				uint64_t p = gp_bits_get(k.bits, k.bits_len, k.first_at + (uint64_t)i * k.bf, k.bf), g = gaps_before[i];
				for (uint64_t left = counts[i] - 1; left > 0;) {
					uint32_t m = left < GP_BLOCK ? (uint32_t)left : GP_BLOCK;
					gp_bits_unpack(k.bits, k.bits_len, k.gaps_at + g * k.bg, k.bg, m, gap);
					for (uint32_t j = 0; j < m; j++) {
						if (gap[j] == 0) return LBAD(file_at + boff, "block %u's posting %u has a position gap of 0 (its positions increase)", b, i);
						p += gap[j];
					}
					g += m;
					left -= m;
				}
				if (p > INT32_MAX) {
					return LBAD(file_at + boff, "block %u's posting %u has a position past 2^31 - 1", b, i);
				}
			}
		}
		if (lengths && (top > bmax || top > bound)) {
			return LBAD(s_at + 8, "block %u's score bound (%.17g, the list's %.17g) is below its postings' %.17g", b, bmax, bound, top);
		}
		prev_end = bend;
		base = last + 1;
	}
	if (structure && prev_end != len) return LBAD(file_at + prev_end, "%llu bytes follow its last block", (unsigned long long)(len - prev_end));
	if (structure && counted != npos) return LBAD(entry + 8, "its postings hold %llu positions, the term table says %llu", (unsigned long long)counted, (unsigned long long)npos);
#undef LBAD
	return GP_OK;
}

int gp_index_v2_ready(const gp_index *ix, const uint32_t *terms, size_t n, int ranked, gp_error *err)
{
	gp_v2 *v = ix->v2;
	int rc = GP_OK, need = 0;
	if (!v) return GP_OK;
	const int want = GP_V2_STRUCTURE | (ranked && ix->doc_len ? GP_V2_LENGTHS : 0);
	for (size_t i = 0; i < n && !need; i++) {
		need = terms[i] < ix->n_terms && (atomic_load_explicit(&v->checked[terms[i]], memory_order_acquire) & want) != want;
	}
	if (!need) return GP_OK;
	pthread_mutex_lock(&v->lock);
	for (size_t i = 0; i < n && rc == GP_OK; i++) {
		uint32_t t = terms[i];
		if (t >= ix->n_terms) continue;
		const int done = atomic_load(&v->checked[t]);
		if ((done & want) == want) continue;
		if ((rc = check_list(ix, t, want & ~done, err)) == GP_OK) atomic_store_explicit(&v->checked[t], (unsigned char)(done | want), memory_order_release);
	}
	pthread_mutex_unlock(&v->lock);
	return rc;
}

static int cmp_doc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

int gp_index_v2_verify(const gp_index *ix, gp_error *err)
{
	const gp_v2 *v = ix->v2;
	int rc = GP_OK;
	/* every part by its own checksum and rules, then every section's checksum as the table gives it */
	pthread_mutex_lock(&((gp_v2 *)v)->lock);
	for (uint32_t g = 0; g < v->n_groups && rc == GP_OK; g++) rc = group_ready_locked(ix, g, err);
	for (uint32_t c = 0; c < v->n_chunks && rc == GP_OK; c++) rc = chunk_ready_locked(ix, c, err);
	pthread_mutex_unlock(&((gp_v2 *)v)->lock);
	for (uint32_t t = 0; t < ix->n_terms && rc == GP_OK; t++) rc = gp_index_v2_ready(ix, &t, 1, 1, err);
	if (rc != GP_OK) return rc;
	for (int id = 1; id <= V2_KNOWN; id++) {
		if (id == V2_LISTS || !v->whole[id].p) continue;
		if (gp_crc32(0, v->whole[id].p, (size_t)v->whole[id].len) != v->whole[id].crc) return BAD(v->whole[id].at + 4, "section %d's checksum does not match", id);
	}
	/* what the lists' checks take on trust: the header's counts and section 8's doc length totals */
	uint64_t postings = 0, positions = 0;
	for (uint32_t t = 0; t < ix->n_terms; t++) {
		postings += gp_v2_df(v, t);
		positions += gp_load_le64(v->table + (size_t)t * GP_V2_TERM + 8);
	}
	if (postings != ix->n_postings || positions != ix->n_positions) {
		return BAD(32, "the header's postings or positions are not the term table's (%llu, %llu)", (unsigned long long)postings, (unsigned long long)positions);
	}
	if (ix->doc_len) {
		uint64_t n = 0, total = 0;
		for (uint32_t d = 0; d < ix->len_docs; d++) {
			if (ix->doc_len[d] == GP_IX_NO_LENGTH) continue;
			n++;
			total += ix->doc_len[d];
		}
		if (n != ix->n_len || total != ix->total_len) {
			return BAD(v->checks_off + 8, "section 8 says %llu docs with a length, %llu tokens; the doc lengths hold %llu, %llu", (unsigned long long)ix->n_len,
			           (unsigned long long)ix->total_len, (unsigned long long)n, (unsigned long long)total);
		}
	}
	/* the distinct docs: a bitmap of the docs' range, or (docs sparse in it) all of them sorted */
	uint64_t docs = 0;
	const uint64_t bitmap = (uint64_t)ix->max_doc / 8 + 1;
	if (bitmap <= ix->n_postings * 4 + ((uint64_t)1 << 20)) {
		uint8_t *seen = calloc((size_t)bitmap, 1);
		if (!seen) return gp_index_fail_nomem(err, "the doc count's bitmap");
		for (uint32_t t = 0; t < ix->n_terms; t++) {
			gp_list_cursor c;
			for (gp_cursor_open(&c, ix, t); c.i < c.n; gp_cursor_next(&c)) {
				if (!(seen[c.doc >> 3] & (1u << (c.doc & 7)))) {
					seen[c.doc >> 3] |= (uint8_t)(1u << (c.doc & 7));
					docs++;
				}
			}
		}
		free(seen);
	} else {
		uint32_t *all = malloc((size_t)ix->n_postings * 4 + 4);
		if (!all) return gp_index_fail_nomem(err, "the doc count's docs");
		uint64_t n = 0;
		for (uint32_t t = 0; t < ix->n_terms; t++) {
			gp_list_cursor c;
			for (gp_cursor_open(&c, ix, t); c.i < c.n; gp_cursor_next(&c)) all[n++] = c.doc;
		}
		qsort(all, (size_t)n, 4, cmp_doc);
		for (uint64_t i = 0; i < n; i++) docs += i == 0 || all[i] != all[i - 1];
		free(all);
	}
	if (docs != ix->n_docs) return BAD(24, "the header says %llu distinct docs, the lists hold %llu", (unsigned long long)ix->n_docs, (unsigned long long)docs);
	return GP_OK;
}

int gp_index_verify(const gp_index *ix, gp_error *err)
{
	memset(err, 0, sizeof(*err));
	return ix->v2 ? gp_index_v2_verify(ix, err) : GP_OK;
}

int gp_index_v2_materialize(gp_index *ix, const gp_budget *budget, gp_error *err)
{
	if (!ix->v2) return GP_OK;
	ix->device_lists = GP_IX_LISTS_DECODED;   /* it has no lists in a format the device decodes */
	if (ix->docs) return GP_OK;
	int rc = gp_index_v2_verify(ix, err);
	if (rc != GP_OK) return rc;
	const uint64_t n = ix->n_terms;
	uint64_t bytes = gp_index_lists_bytes(ix->n_terms, ix->n_postings, ix->n_positions, ix->positional) + n;
	if (gp_budget_check(budget, 0, bytes, "the index's decoded lists", err) != GP_OK) return GP_ENOMEM;
	uint64_t *list_at = malloc((n + 1) * 8), *pos_at = ix->positional ? malloc((ix->n_postings + 1) * 8) : NULL;
	uint32_t *docs = malloc((ix->n_postings + 1) * 4);
	int32_t *positions = ix->positional ? malloc((ix->n_positions + 1) * 4) : NULL;
	uint8_t *merged = calloc(n + 1, 1);
	if (!list_at || !docs || !merged || (ix->positional && (!pos_at || !positions))) {
		free(list_at);
		free(pos_at);
		free(docs);
		free(positions);
		free(merged);
		return gp_index_fail_nomem(err, "the index's decoded lists");
	}
	uint64_t p = 0, q = 0;
	list_at[0] = 0;
	if (pos_at) pos_at[0] = 0;
	for (uint32_t t = 0; t < ix->n_terms; t++) {
		gp_list_cursor c;
		for (gp_cursor_open(&c, ix, t); c.i < c.n; gp_cursor_next(&c)) {
			docs[p] = c.doc;
			if (ix->positional) {
				uint32_t count;
				gp_cursor_positions(&c, positions + q, INT32_MAX, &count);
				q += count;
				pos_at[p + 1] = q;
			}
			p++;
		}
		list_at[t + 1] = p;
	}
	ix->list_at = list_at;
	ix->docs = docs;
	ix->pos_at = pos_at;
	ix->positions = positions;
	ix->merged = merged;
	return GP_OK;
}

/* --- writing --- */

typedef struct bit_writer {
	uint8_t *p;
	size_t cap;
	uint64_t bits;   /* written */
	size_t used;     /* bytes the last list wrote (zeroed before the next) */
} bit_writer;

static int bw_room(bit_writer *w, uint64_t more_bits)
{
	size_t need = (size_t)((w->bits + more_bits + 7) / 8) + 8;
	if (need <= w->cap) return GP_OK;
	size_t cap = w->cap ? w->cap : 256;
	while (cap < need) cap *= 2;
	uint8_t *p = realloc(w->p, cap);
	if (!p) return GP_ENOMEM;
	memset(p + w->cap, 0, cap - w->cap);
	w->p = p;
	w->cap = cap;
	return GP_OK;
}

/* width bits of v (its others 0) at the end; room made by bw_room (8 bytes of slack) */
static void bw_put(bit_writer *w, uint32_t v, uint32_t width)
{
	if (!width) return;
	uint8_t *at = w->p + (w->bits >> 3);
	uint64_t x = gp_load_le64(at) | ((uint64_t)v << (w->bits & 7));
	gp_store_le64(at, x);
	w->bits += width;
}

static uint32_t width_of(uint64_t x)
{
	uint32_t w = 0;
	while (x >> w) w++;
	return w;
}

/* A float at least x (a bound stays a bound). */
static float round_up_f32(double x)
{
	float f = (float)x;
	if ((double)f < x) f = nextafterf(f, INFINITY);
	return f;
}

/* Term t's data (skip entries, then blocks) into w (bytes, from 0), its position count. */
static int encode_list(const gp_index *ix, uint32_t t, bit_writer *w, uint64_t *n_positions)
{
	const uint64_t first = ix->list_at[t], df = ix->list_at[t + 1] - first;
	const uint32_t blocks = (uint32_t)((df + GP_BLOCK - 1) / GP_BLOCK);
	w->bits = 0;
	if (w->p) memset(w->p, 0, w->used);
	if (bw_room(w, (uint64_t)blocks * GP_V2_SKIP * 8) != GP_OK) return GP_ENOMEM;
	w->used = w->cap;   /* zeroed again whatever happens below */
	w->bits = (uint64_t)blocks * GP_V2_SKIP * 8;
	uint64_t base = 0, npos = 0;
	for (uint32_t b = 0; b < blocks; b++) {
		const uint64_t p0 = first + (uint64_t)b * GP_BLOCK;
		const uint32_t n = (uint32_t)(df - (uint64_t)b * GP_BLOCK < GP_BLOCK ? df - (uint64_t)b * GP_BLOCK : GP_BLOCK);
		const uint64_t last = ix->docs[p0 + n - 1], span = last - base;
		const uint32_t l = gp_block_pick_l(span, n);
		uint64_t max_count = 0, max_first = 0, max_gap = 0, gaps = 0;
		double top = 0.0;
		for (uint32_t i = 0; i < n; i++) {
			uint64_t p = p0 + i, c = ix->positional ? ix->pos_at[p + 1] - ix->pos_at[p] : 0;
			if (c > max_count) max_count = c;
			if (c) {
				const int32_t *x = ix->positions + ix->pos_at[p];
				if ((uint64_t)(uint32_t)x[0] > max_first) max_first = (uint32_t)x[0];
				for (uint64_t j = 1; j < c; j++) {
					uint64_t g = (uint64_t)((int64_t)x[j] - (int64_t)x[j - 1]);
					if (g > max_gap) max_gap = g;
				}
				gaps += c - 1;
			}
			if (ix->doc_len) {
				double f = gp_bm25_part(1.0, (double)gp_index_tf(ix, p), ix->k1, ix->b, (double)ix->doc_len[ix->docs[p]], ix->avgdl);
				if (f > top) top = f;
			}
		}
		if (max_count > UINT32_MAX) return GP_EVALUE;
		const uint32_t bc = ix->positional ? width_of(max_count) : 0, bf = ix->positional ? width_of(max_first) : 0;
		const uint32_t bg = ix->positional ? width_of(max_gap) : 0;
		const uint64_t words = gp_block_upper_words(span, n, l);
		/* the block starts at a whole byte */
		w->bits = (w->bits + 7) & ~(uint64_t)7;
		const uint64_t boff = w->bits / 8;
		if (boff > UINT32_MAX) return GP_EVALUE;
		uint8_t *skip = NULL;
		uint64_t bits = (GP_BLOCK_HEADER + words * 8) * 8 + (uint64_t)n * (l + bc + bf) + gaps * bg;
		if (bw_room(w, bits) != GP_OK) return GP_ENOMEM;
		skip = w->p + (size_t)b * GP_V2_SKIP;
		gp_store_le32(skip, (uint32_t)last);
		gp_store_le32(skip + 4, (uint32_t)boff);
		store_f32(skip + 8, round_up_f32(top));
		uint8_t *h = w->p + boff;
		h[0] = (uint8_t)l;
		h[1] = (uint8_t)bc;
		h[2] = (uint8_t)bf;
		h[3] = (uint8_t)bg;
		uint8_t *upper = h + GP_BLOCK_HEADER;
		for (uint32_t i = 0; i < n; i++) {
			uint64_t v = ix->docs[p0 + i] - base, bit = (v >> l) + i;
			upper[bit >> 3] |= (uint8_t)(1u << (bit & 7));
		}
		w->bits = (boff + GP_BLOCK_HEADER + words * 8) * 8;
		for (uint32_t i = 0; i < n; i++) bw_put(w, (uint32_t)((ix->docs[p0 + i] - base) & ((1ull << l) - 1)), l);
		for (uint32_t i = 0; i < n; i++) {
			uint64_t p = p0 + i;
			bw_put(w, ix->positional ? (uint32_t)(ix->pos_at[p + 1] - ix->pos_at[p]) : 0, bc);
		}
		for (uint32_t i = 0; i < n; i++) {
			uint64_t p = p0 + i;
			bw_put(w, ix->positional && ix->pos_at[p + 1] > ix->pos_at[p] ? (uint32_t)ix->positions[ix->pos_at[p]] : 0, bf);
		}
		for (uint32_t i = 0; i < n && ix->positional; i++) {
			uint64_t p = p0 + i;
			const int32_t *x = ix->positions + ix->pos_at[p];
			for (uint64_t j = 1; j < ix->pos_at[p + 1] - ix->pos_at[p]; j++) bw_put(w, (uint32_t)(x[j] - x[j - 1]), bg);
			npos += ix->pos_at[p + 1] - ix->pos_at[p];
		}
		base = last + 1;
	}
	w->bits = (w->bits + 7) & ~(uint64_t)7;
	w->used = (size_t)(w->bits / 8) + 8;
	*n_positions = npos;
	return GP_OK;
}

typedef struct term_order {
	const gp_index *ix;
	uint32_t *ids;
} term_order;

static const gp_index *sort_ix;   /* qsort's comparison reads the index (one save at a time per
                                   * thread: set under save_lock) */
static pthread_mutex_t save_lock = PTHREAD_MUTEX_INITIALIZER;

static int term_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const gp_index *ix = sort_ix;
	size_t nx = (size_t)(ix->term_at[x + 1] - ix->term_at[x]), ny = (size_t)(ix->term_at[y + 1] - ix->term_at[y]);
	int c = memcmp(ix->terms + ix->term_at[x], ix->terms + ix->term_at[y], nx < ny ? nx : ny);
	return c ? c : (nx > ny) - (nx < ny);
}

int gp_index_v2_save(const gp_index *ix, gp_index_writer write, void *ctx, gp_error *err)
{
	const uint32_t n = ix->n_terms;
	uint32_t *order = malloc(((size_t)n + 1) * sizeof(uint32_t));
	uint8_t *term_at = malloc(((size_t)n + 1) * 8), *table = calloc((size_t)n + 1, GP_V2_TERM);
	uint8_t *terms = malloc((size_t)ix->term_at[n] + 1);
	uint64_t lengths_len = 0;
	uint8_t *lengths = ix->doc_len ? gp_ixf_lengths_bytes(ix, &lengths_len) : NULL, *checks = NULL, *columns = NULL, *attrs = NULL;
	bit_writer w = {0};
	int rc = GP_OK;
	if (!order || !term_at || !table || !terms || (ix->doc_len && !lengths)) {
		rc = GP_ENOMEM;
		goto done;
	}
	for (uint32_t t = 0; t < n; t++) order[t] = t;
	pthread_mutex_lock(&save_lock);
	sort_ix = ix;
	qsort(order, n, sizeof(uint32_t), term_cmp);
	pthread_mutex_unlock(&save_lock);
	/* pass 1: each list encoded for its length, checksum and bounds; the dictionary in order */
	uint64_t data = 0, tb = 0;
	gp_store_le64(term_at, 0);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t t = order[i];
		uint64_t npos, tl = ix->term_at[t + 1] - ix->term_at[t];
		memcpy(terms + tb, ix->terms + ix->term_at[t], (size_t)tl);
		tb += tl;
		gp_store_le64(term_at + 8 * ((size_t)i + 1), tb);
		if ((rc = encode_list(ix, t, &w, &npos)) != GP_OK) goto done;
		uint8_t *e = table + (size_t)i * GP_V2_TERM;
		gp_store_le64(e, data);
		gp_store_le64(e + 8, npos);
		double m = ix->max_frac && ix->doc_len ? ix->max_frac[t] : 0.0;
		memcpy(e + 16, &m, 8);
		gp_store_le32(e + 24, (uint32_t)(ix->list_at[t + 1] - ix->list_at[t]));
		gp_store_le32(e + 28, gp_crc32c(0, w.p, (size_t)(w.bits / 8)));
		data += w.bits / 8;
	}
	/* section 8: a checksum a group of terms (its offsets and bytes through the next group's
	 * first term, and its term table entries) and a chunk of doc lengths */
	const uint32_t n_groups = (uint32_t)(((uint64_t)n + GP_V2_GROUP - 1) / GP_V2_GROUP);
	const uint32_t len_docs = ix->doc_len ? ix->len_docs : 0, n_chunks = (uint32_t)(((uint64_t)len_docs + GP_V2_CHUNK - 1) / GP_V2_CHUNK);
	const uint64_t checks_len = GP_V2_CHECKS_HEAD + 4 * ((uint64_t)n_groups + n_chunks);
	if (!(checks = calloc((size_t)checks_len, 1))) {
		rc = GP_ENOMEM;
		goto done;
	}
	gp_store_le32(checks, GP_V2_GROUP);
	gp_store_le32(checks + 4, GP_V2_CHUNK);
	for (uint32_t g = 0; g < n_groups; g++) {
		uint32_t first, end, cover;
		gp_v2_group_span(n, __builtin_ctz(GP_V2_GROUP), g, &first, &end, &cover);
		gp_store_le32(checks + GP_V2_CHECKS_HEAD + 4 * (size_t)g, gp_index_v2_group_crc(term_at, terms, table, first, end, cover));
	}
	if (lengths) {
		uint64_t with = 0, total = 0;
		for (uint32_t d = 0; d < len_docs; d++) {
			if (ix->doc_len[d] == GP_IX_NO_LENGTH) continue;
			with++;
			total += ix->doc_len[d];
		}
		gp_store_le64(checks + 8, with);
		gp_store_le64(checks + 16, total);
		gp_store_le32(checks + 24, gp_crc32c(0, lengths, GP_IXF_LENGTHS_HEAD));
		for (uint32_t c = 0; c < n_chunks; c++) {
			const uint64_t first = (uint64_t)c * GP_V2_CHUNK, end = len_docs - first > GP_V2_CHUNK ? first + GP_V2_CHUNK : len_docs;
			gp_store_le32(checks + GP_V2_CHECKS_HEAD + 4 * ((size_t)n_groups + c), gp_crc32c(0, lengths + GP_IXF_LENGTHS_HEAD + 4 * first, (size_t)(end - first) * 4));
		}
	}
	/* section 9: the columns' count, the shift, the tokenizer, 0, then each name's length (u32)
	 * and bytes */
	uint64_t columns_len = ix->n_columns ? 16 + 4 * (uint64_t)ix->n_columns + ix->column_at[ix->n_columns] : 0;
	if (ix->n_columns) {
		if (!(columns = malloc((size_t)columns_len))) {
			rc = GP_ENOMEM;
			goto done;
		}
		gp_store_le32(columns, ix->n_columns);
		gp_store_le32(columns + 4, GP_IX_COLUMN_SHIFT);
		gp_store_le32(columns + 8, (uint32_t)ix->tokenizer);
		gp_store_le32(columns + 12, 0);
		for (uint32_t c = 0, at = 16; c < ix->n_columns; c++) {
			size_t nl;
			const char *name = gp_index_column(ix, c, &nl);
			gp_store_le32(columns + at, (uint32_t)nl);
			memcpy(columns + at + 4, name, nl);
			at += 4 + (uint32_t)nl;
		}
	}
	uint64_t attrs_len = 0;
	if (ix->n_attrs && !(attrs = gp_index_attributes_section(ix, &attrs_len))) {
		rc = GP_ENOMEM;
		goto done;
	}
	gp_ixf_section s[8];
	int n_sec = 0;
	s[n_sec++] = (gp_ixf_section){V2_TERM_AT, term_at, ((uint64_t)n + 1) * 8, 1};
	s[n_sec++] = (gp_ixf_section){V2_TERMS, terms, tb, 1};
	s[n_sec++] = (gp_ixf_section){V2_TABLE, table, (uint64_t)n * GP_V2_TERM, 1};
	s[n_sec++] = (gp_ixf_section){V2_CHECKS, checks, checks_len, 1};
	if (lengths) s[n_sec++] = (gp_ixf_section){V2_LENGTHS, lengths, lengths_len, 1};
	if (columns) s[n_sec++] = (gp_ixf_section){V2_COLUMNS, columns, columns_len, 1};
	if (attrs) s[n_sec++] = (gp_ixf_section){V2_ATTRS, attrs, attrs_len, 1};
	s[n_sec++] = (gp_ixf_section){V2_LISTS, NULL, data, 0};   /* written list by list below; each its own checksum */
	if ((rc = gp_ixf_write_head(ix, 2, s, n_sec, write, ctx)) != GP_OK) goto done;
	for (int i = 0; i < n_sec - 1; i++) {
		if ((rc = gp_ixf_write_section(&s[i], write, ctx)) != GP_OK) goto done;
	}
	/* pass 2: the lists */
	for (uint32_t i = 0; i < n; i++) {
		uint64_t npos;
		if ((rc = encode_list(ix, order[i], &w, &npos)) != GP_OK) goto done;
		if (w.bits && write(ctx, w.p, (size_t)(w.bits / 8))) {
			rc = GP_EVALUE;
			goto done;
		}
	}
	rc = gp_ixf_write_pad(data, write, ctx);
done:
	free(order);
	free(term_at);
	free(table);
	free(terms);
	free(lengths);
	free(checks);
	free(columns);
	free(attrs);
	free(w.p);
	if (rc == GP_ENOMEM) return gp_index_fail_nomem(err, "the file's tables");
	if (rc != GP_OK) {
		err->code = GP_EVALUE;
		err->format = "index file";
		snprintf(err->rule, sizeof(err->rule), "the file could not be written");
	}
	return rc;
}
