/* GpuPost\Index's core: a term dictionary, each term's list as it was given (MOD9 postings, S9
 * or QS docID lists: what a saved file holds), the same lists decoded once (increasing docs,
 * and the positions of MOD9 postings: what queries read on the host, and on the device from a
 * resident copy of either form) and, for ranked queries, the docs' lengths. No PHP and no
 * OpenCL, so that the builder and the file reader can be fuzzed on their own.
 *
 * Limits of one index: docs below 2^32, positions within 32-bit signed integers. Offsets into
 * the lists are 64-bit on the host; a device copy's are 32-bit (fewer than 2^32 postings and
 * 2^32 positions a device copy: a larger index is held in shards over several devices, or
 * answered on the host). */
#ifndef GP_INDEX_H
#define GP_INDEX_H

#include <string.h>

#include "../codec/gp_common.h"
#include "../codec/gp_budget.h"

/* The lists' source format: the values of GP_FORMAT_* (engine/gp_dispatch.h). */
enum { GP_IX_MOD9 = 1, GP_IX_S9 = 2, GP_IX_QS = 3 };
/* Query operators: the values of GPUPOST_OR, GPUPOST_AND, GPUPOST_PHRASE. */
enum { GP_IX_OR = 1, GP_IX_AND = 2, GP_IX_PHRASE = 3 };
/* How the device keeps the lists ('device_lists'): AUTO decoded unless that would take more than
 * half the device's memory (or a buffer past its largest allocation). */
enum { GP_IX_LISTS_AUTO = 0, GP_IX_LISTS_DECODED = 1, GP_IX_LISTS_COMPRESSED = 2 };
/* The most shards an index is cut into (a shard a device of the process). */
#define GP_IX_MAX_SHARDS 8
/* A query term that is not in the index. */
#define GP_IX_NO_TERM UINT32_MAX

typedef struct gp_index {
	int format;               /* GP_IX_MOD9, GP_IX_S9 or GP_IX_QS */
	int positional;           /* MOD9: positions kept, phrase queries possible */
	uint32_t n_terms;
	uint64_t n_docs;          /* distinct docs over all lists */
	uint32_t max_doc;         /* the largest doc (0 in an empty index) */
	uint64_t n_postings, n_positions;

	/* the dictionary: term t is terms[term_at[t] .. term_at[t + 1]) */
	char *terms;
	uint64_t *term_at;        /* n_terms + 1 */
	uint32_t *slots;          /* open addressing on the term's hash: term id + 1, 0 = empty */
	uint64_t slot_mask;

	/* the lists as given: term t's is blobs[blob_at[t] .. blob_at[t + 1]) */
	uint8_t *blobs;
	uint64_t *blob_at;        /* n_terms + 1 */
	/* an index opened from a mapped file (gp_index_load_mapped) reads its blobs where they lie
	 * in the mapping, shared with every process that maps the file, and unmaps it when freed */
	const uint8_t *mapped;
	size_t mapped_len;
	int blobs_borrowed;       /* blobs lie in memory the index does not own (the mapping) */
	/* an index opened from a version 2 file (index/gp_index_v2.h): its dictionary, term table,
	 * lists and doc lengths read where they lie; docs and the other arrays stay NULL unless a
	 * device copy is made from them (gp_index_v2_materialize) */
	struct gp_v2 *v2;
	const uint8_t *v2_table;  /* its term table: 40 bytes a term, df at byte 24 */

	/* the lists decoded: term t's docs are docs[list_at[t] .. list_at[t + 1]), increasing; with
	 * positions, posting p's are positions[pos_at[p] .. pos_at[p + 1]), increasing */
	uint64_t *list_at;        /* n_terms + 1 */
	uint32_t *docs;           /* n_postings */
	uint64_t *pos_at;         /* n_postings + 1 (positional) */
	int32_t *positions;       /* n_positions */
	/* lists whose decode differs from their blob's (equal docs merged, positions sorted): the
	 * device decodes the others itself when it keeps the lists compressed */
	uint8_t *merged;          /* n_terms */

	/* the device's resident copy: the device layer's, freed through device_free */
	void *device;
	void (*device_free)(void *device);
	uint64_t device_bytes;
	int device_lists;         /* GP_IX_LISTS_*: what was asked */
	int device_compressed;    /* once resident: the device keeps the lists as given and decodes
	                           * what a batch needs */
	uint64_t image_blobs_at;  /* open(): where its blobs (the same bytes) begin in the file image */
	int device_refused;       /* its lists pass a device copy's 32-bit offsets, whole or in the
	                           * shards the process's devices would hold: answered on the host */

	/* ranked retrieval (gp_index_lengths.c; the top k in query/gp_rank.c): BM25 as SQLite
	 * FTS5's bm25(), from doc lengths given at build (NULL doc_len: none, ranked queries refused) */
	uint32_t *doc_len;        /* by doc, len_docs of them; GP_IX_NO_LENGTH where none was given */
	uint32_t len_docs;
	uint64_t n_len, total_len;   /* N: the docs given a length; their tokens */
	double k1, b, avgdl;
	double *max_frac;         /* per term: the largest tf (k1 + 1) / (tf + k1 (1 - b + b dl /
	                           * avgdl)) of its postings, what MaxScore bounds its part of a
	                           * score by (OR, host and device) */

	/* several devices (gp_index_shard.c): a shard's `whole` is the index it is a part of, whose
	 * dictionary, doc lengths and BM25 statistics it borrows; an index whose lists are held in
	 * shards, one a device, has device_shards of them (its `device` is the dispatch's) */
	const struct gp_index *whole;
	size_t device_shards;
	uint64_t shard_postings[GP_IX_MAX_SHARDS];   /* each shard's postings */
	uint64_t shards_host_bytes;   /* what the shards keep on the host (their lists are their devices') */

	/* columns (gp_index_set_columns; a version 2 file's section 9): a doc's text in named
	 * columns, column c's token at offset o (from 1) at position c << GP_IX_COLUMN_SHIFT | o */
	uint32_t n_columns;
	int tokenizer;            /* its texts' tokenizer (GP_TOKENIZER_*: MATCH strings' too) */
	char *column_names;       /* the names back to back */
	uint32_t *column_at;      /* n_columns + 1 offsets into column_names */

	/* numeric attributes of docs (index/gp_index_attributes.c; a version 2 file's section 10):
	 * attribute a's value of doc d is attr_values[a * attr_docs + d], NaN where it has none */
	uint32_t n_attrs, attr_docs;
	char *attr_names;
	uint32_t *attr_at;        /* n_attrs + 1 offsets into attr_names */
	const double *attr_values;
	double *attr_owned;       /* the values when the index holds them (not in a mapped file) */

	/* an index of a Yioop bundle (gp_index_yioop_bundle.c): its docs as Yioop's items read them */
	struct gp_yioop_docs *yioop;

	int refs;                 /* holders (a PHP object each, the persistent registry) */
} gp_index;

/* A Yioop bundle's docs as Yioop's IndexShard::makeItem reads them: by doc (a doc index of the
 * whole numbering), its record's first three keys (the URL hash, the content hash and the host
 * key: 24 bytes, zeros where no record starts) and its second word (doc length << 8 | key count);
 * by generation, where its docs begin and its shard header's fields (DOC_RANK is computed from
 * its generation and docs per generation, RELEVANCE's statistics from its counts). */
#define GP_YIOOP_DOC_KEYS 24
typedef struct gp_yioop_docs {
	uint64_t n_docs;
	uint8_t *keys;            /* GP_YIOOP_DOC_KEYS a doc */
	uint32_t *doc_int;
	size_t n_gens;
	uint64_t *base;           /* n_gens + 1 */
	uint32_t *header;         /* GP_YIOOP_HEADER_FIELDS a generation: its shard header's fields */
	uint32_t *posting_estimate;   /* by posting (n_postings): Yioop's estimate of its word's docs
	                               * in its generation (UINT32_MAX: none); gp_yioop_search.h */
	uint64_t *aux_at;         /* by doc (n_docs + 1): its record's keys past the third (description
	                           * scores and user ranks) are aux[aux_at[d] .. aux_at[d + 1]) */
	uint8_t *aux;
} gp_yioop_docs;
/* A shard header's ten fields: the sections' lengths, then generation, docs per generation,
 * docs, link docs, and the sums of their lengths (what Yioop's BM25F statistics read). */
#define GP_YIOOP_HEADER_FIELDS 10
enum { GP_YH_GENERATION = 4, GP_YH_PER_GENERATION, GP_YH_DOCS, GP_YH_LINK_DOCS, GP_YH_LEN_DOCS, GP_YH_LEN_LINK_DOCS };
void gp_yioop_docs_free(gp_yioop_docs *d);

/* Columns: at most GP_IX_MAX_COLUMNS, each of at most GP_IX_COLUMN_TOKENS tokens a doc (positions
 * stay below 2^28, as a MOD9 gap must). */
#define GP_IX_COLUMN_SHIFT 20
#define GP_IX_MAX_COLUMNS 255
#define GP_IX_COLUMN_TOKENS ((1u << GP_IX_COLUMN_SHIFT) - 1)
#define GP_IX_COLUMN_NAME_MAX 255
#define GP_IX_MAX_ATTRIBUTES 64
/* The tokenizers a file names (query/gp_tokenize.h's GP_TOKENIZER_*: 0 unicode61, 1 porter). */
#define GP_IX_TOKENIZER_LAST 1

#define GP_IX_NO_LENGTH UINT32_MAX

/* Builds an index from n lists (terms[i] of term_lens[i] bytes, blobs[i] of lens[i] bytes) in
 * `format`, each blob validated whole and decoded. The dictionary, blobs and decoded lists are
 * checked against the budget (as C bytes) before they are allocated. Errors: GP_EFORMAT (a blob
 * breaks its format, or its docs do not increase: err->blob says which list), GP_EVALUE (a
 * duplicate term, err->blob the second), GP_ENOMEM. On success *out holds one reference. */
int gp_index_build(int format, size_t n, const char *const *terms, const size_t *term_lens,
                   const uint8_t *const *blobs, const size_t *lens, const gp_budget *budget,
                   gp_index **out, gp_error *err);
/* The same over blobs that lie back to back from `placed` (blobs[i] is placed plus the lengths
 * before it) and outlive the index: it reads them there instead of keeping a copy. */
int gp_index_build_in_place(int format, size_t n, const char *const *terms, const size_t *term_lens,
                            const uint8_t *const *blobs, const size_t *lens, const uint8_t *placed,
                            const gp_budget *budget, gp_index **out, gp_error *err);

/* The term id of a term in *id, or GP_IX_NO_TERM. GP_EFORMAT: the part of the dictionary that
 * it reads is damaged (an index opened from a version 2 file checks it at its first use). */
int gp_index_find(const gp_index *ix, const char *term, size_t len, uint32_t *id, gp_error *err);
/* A table of n names (names[i] of lens[i] bytes: at most `most` of them, each 1 to
 * GP_IX_COLUMN_NAME_MAX bytes, distinct, in ASCII case too with any_case) as their bytes back to
 * back in *buf and n + 1 offsets in *at (malloc'd): the columns' and the attributes'. GP_EVALUE
 * names the rule and the `what` ("column", "attribute"); GP_ENOMEM. */
int gp_index_name_table(const char *what, const char *const *names, const size_t *lens, uint32_t n, uint32_t most,
                        int any_case, char **buf, uint32_t **at, gp_error *err);
/* Names the index's columns (names[i] of lens[i] bytes: 1 to GP_IX_COLUMN_NAME_MAX, distinct
 * in ASCII case as FTS5's, at most GP_IX_MAX_COLUMNS): GP_EVALUE naming the rule. Its lists'
 * positions are taken to be the columns' (column << GP_IX_COLUMN_SHIFT | offset). */
int gp_index_set_columns(gp_index *ix, const char *const *names, const size_t *lens, uint32_t n, gp_error *err);
/* Column c's name and its length. */
static inline const char *gp_index_column(const gp_index *ix, uint32_t c, size_t *len)
{
	*len = ix->column_at[c + 1] - ix->column_at[c];
	return ix->column_names + ix->column_at[c];
}

/* Names the docs' numeric attributes (names as columns', distinct bytewise, at most
 * GP_IX_MAX_ATTRIBUTES) and their values: values[a * docs + d] for doc d < docs (NaN: none),
 * copied within the budget, or with `borrow` read where they lie (a mapped file's). GP_EVALUE. */
int gp_index_set_attributes(gp_index *ix, const char *const *names, const size_t *lens, uint32_t n, uint32_t docs,
                            const double *values, int borrow, const gp_budget *budget, gp_error *err);
/* Attribute a's name; the attribute of that name (-1: none); doc d's value of attribute a. */
static inline const char *gp_index_attribute_name(const gp_index *ix, uint32_t a, size_t *len)
{
	*len = ix->attr_at[a + 1] - ix->attr_at[a];
	return ix->attr_names + ix->attr_at[a];
}
int gp_index_attribute_find(const gp_index *ix, const char *name, size_t len);
static inline double gp_index_attribute(const gp_index *ix, uint32_t a, uint32_t d)
{
	return d < ix->attr_docs ? ix->attr_values[(size_t)a * ix->attr_docs + d] : __builtin_nan("");
}
/* Section 10's bytes (malloc'd, *len of them; NULL: no memory), and the section read into ix
 * (its values where they lie): GP_EFORMAT naming the byte (from file_off) and the rule. */
uint8_t *gp_index_attributes_section(const gp_index *ix, uint64_t *len);
int gp_index_attributes_read(gp_index *ix, const uint8_t *s, uint64_t len, uint64_t file_off, gp_error *err);

/* The ids of the terms that begin with prefix[0 .. len) in *ids (malloc'd, *n of them; NULL
 * when none), each an allocation within the budget: a version 2 dictionary's range (its groups
 * checked), an index built in memory's every term compared. */
int gp_index_prefix_terms(const gp_index *ix, const char *prefix, size_t len, const gp_budget *budget, uint32_t **ids,
                          size_t *n, gp_error *err);
/* The same, a damaged dictionary's term as missing (what builders and tests use). */
uint32_t gp_index_lookup(const gp_index *ix, const char *term, size_t len);
/* The first of docs[lo, hi) (increasing) that is at least d. */
static inline uint64_t gp_index_first_at_least(const uint32_t *docs, uint64_t lo, uint64_t hi, uint64_t d)
{
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (docs[mid] < d) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}
/* The first of list t's postings whose doc is at least d. */
static inline uint64_t gp_index_list_from(const gp_index *ix, uint32_t t, uint64_t d)
{
	return gp_index_first_at_least(ix->docs, ix->list_at[t], ix->list_at[t + 1], d);
}
/* A min-heap of cursors over the index's lists, by the doc each cursor is at: what a union of
 * lists walks (OR on the host, the doc count of sparse docs). Cursor c is at posting at[c] of a
 * list ending at end[c]; heap holds the cursors not yet at their ends. */
typedef struct gp_cursor_heap {
	const uint32_t *docs;
	uint64_t *at, *end;
	uint32_t *heap;
	size_t n;
} gp_cursor_heap;

static inline uint32_t gp_cursor_heap_doc(const gp_cursor_heap *h, size_t i)
{
	return h->docs[h->at[h->heap[i]]];
}

static inline void gp_cursor_heap_down(gp_cursor_heap *h, size_t c)
{
	for (;;) {
		size_t l = 2 * c + 1, r = l + 1, m = c;
		if (l < h->n && gp_cursor_heap_doc(h, l) < gp_cursor_heap_doc(h, m)) m = l;
		if (r < h->n && gp_cursor_heap_doc(h, r) < gp_cursor_heap_doc(h, m)) m = r;
		if (m == c) return;
		uint32_t t = h->heap[c]; h->heap[c] = h->heap[m]; h->heap[m] = t;
		c = m;
	}
}

/* Cursor c joins (unless its list is empty). */
static inline void gp_cursor_heap_push(gp_cursor_heap *h, uint32_t c)
{
	if (h->at[c] == h->end[c]) return;
	size_t i = h->n++;
	h->heap[i] = c;
	while (i > 0 && gp_cursor_heap_doc(h, (i - 1) / 2) > gp_cursor_heap_doc(h, i)) {
		uint32_t t = h->heap[i]; h->heap[i] = h->heap[(i - 1) / 2]; h->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/* The cursor on top moves to its next posting, leaving at its list's end. */
static inline void gp_cursor_heap_next(gp_cursor_heap *h)
{
	uint32_t c = h->heap[0];
	if (++h->at[c] == h->end[c]) h->heap[0] = h->heap[--h->n];
	gp_cursor_heap_down(h, 0);
}

/* Term t's list length (its docs). */
static inline uint32_t gp_index_df(const gp_index *ix, uint32_t t)
{
	if (t == GP_IX_NO_TERM) return 0;
	if (!ix->list_at) return gp_load_le32(ix->v2_table + (size_t)t * 40 + 24);
	return (uint32_t)(ix->list_at[t + 1] - ix->list_at[t]);   /* distinct docs */
}
/* Term t's score bound (max_frac's; an index opened from a version 2 file reads its term table). */
static inline double gp_index_max_frac(const gp_index *ix, uint32_t t)
{
	double m;
	if (ix->max_frac) return ix->max_frac[t];
	memcpy(&m, ix->v2_table + (size_t)t * 40 + 16, 8);
	return m;
}
/* Term t's list length in the whole index (what BM25's IDF counts): a shard's own list is only
 * its part. */
static inline uint32_t gp_index_rank_df(const gp_index *ix, uint32_t t)
{
	return gp_index_df(ix->whole ? ix->whole : ix, t);
}
/* Bytes of decoded lists on the host: n_terms lists of `postings` docs and, positional, their
 * posting offsets and `positions` positions (an index's, or a shard's). */
static inline uint64_t gp_index_lists_bytes(uint32_t n_terms, uint64_t postings, uint64_t positions, int positional)
{
	return ((uint64_t)n_terms + 1) * 8 + postings * 4 + (positional ? (postings + 1) * 8 + positions * 4 : 0);
}
/* Bytes the index holds on the host in its own memory (not its mapped file's pages, which the
 * page cache holds once for every process). */
uint64_t gp_index_host_bytes(const gp_index *ix);

/* GP_ENOMEM, with err saying what the host could not allocate. */
int gp_index_fail_nomem(gp_error *err, const char *what);

void gp_index_ref(gp_index *ix);
/* Drops a reference; the last frees the index and its device copy. */
void gp_index_unref(gp_index *ix);

/* --- shards (gp_index_shard.c): an index split by docs over several devices --- */

/* Doc bounds cutting ix's postings (each weighed with its positions) into n parts, part i
 * about weights[i] of the whole: part i holds docs [bounds[i], bounds[i + 1]), bounds[0] = 0 and
 * bounds[n] = max_doc + 1. */
void gp_index_shard_bounds(const gp_index *ix, size_t n, const double *weights, uint64_t *bounds);
/* The shard of ix holding, for every term, its postings of docs in [lo, hi) (their positions
 * too): its own lists, ix's dictionary, doc lengths and statistics borrowed (ix must outlive it).
 * The lists are checked against the budget (C bytes) first. GP_ENOMEM. */
int gp_index_shard(const gp_index *ix, uint64_t lo, uint64_t hi, const gp_budget *budget, gp_index **out,
                   gp_error *err);

/* The postings and positions of docs [lo, hi) over ix's lists: the size of that shard. */
void gp_index_shard_size(const gp_index *ix, uint64_t lo, uint64_t hi, uint64_t *postings, uint64_t *positions);
/* A shard whose lists its device now holds (decoded): its host copy of the docs and positions
 * is freed, its list offsets kept (the planner reads the lists' lengths). */
void gp_index_shard_uploaded(gp_index *shard);

/* --- ranked retrieval: doc lengths and BM25 (gp_index_lengths.c) --- */

/* Doc lengths in tokens (docs[i] has lens[i]; every doc of the lists needs one), and BM25's k1
 * and b. GP_EVALUE names a doc given twice, a length of 2^32 - 1 or more, or a doc of the lists
 * without a length; GP_ENOMEM when the table (4 bytes a doc up to the largest) passes the
 * budget. */
int gp_index_set_lengths(gp_index *ix, const uint32_t *docs, const uint32_t *lens, size_t n, double k1,
                         double b, const gp_budget *budget, gp_error *err);
/* The same from a table already by doc (len_docs entries, GP_IX_NO_LENGTH where none): the
 * file's form. The index takes `table` (malloc'd) on success. */
int gp_index_adopt_lengths(gp_index *ix, uint32_t *table, uint32_t len_docs, double k1, double b,
                           gp_error *err);

/* BM25 as SQLite FTS5's bm25() computes it (ext/fts5/fts5_aux.c): a term's IDF over N docs, n of
 * them holding it (non-positive IDF taken as 1e-6), and the part of a doc's score that a query
 * place with tf occurrences adds in a doc of D tokens. The device's kernels compute the same
 * expressions in the same order. */
double gp_bm25_idf(uint64_t n_docs, uint64_t df);
/* BM25's parameters an index takes, wherever they come from (the constructor, a file): k1 from 0
 * to GP_BM25_K1_MAX, b from 0 to 1. The bound keeps every score finite: a place adds at most
 * IDF x (k1 + 1), and tf x (k1 + 1) stays far below the largest double. */
#define GP_BM25_K1_MAX 1e6
static inline int gp_bm25_params_valid(double k1, double b)
{
	return k1 >= 0.0 && k1 <= GP_BM25_K1_MAX && b >= 0.0 && b <= 1.0;
}
static inline double gp_bm25_part(double idf, double tf, double k1, double b, double dl, double avgdl)
{
	return idf * ((tf * (k1 + 1.0)) / (tf + k1 * (1 - b + b * dl / avgdl)));
}
/* A posting's tf: its position count; 1 without positions (S9, QS, and a MOD9 posting that
 * has none, as Yioop's meta words do: the doc holds the term once). */
static inline uint32_t gp_index_tf(const gp_index *ix, uint64_t posting)
{
	uint64_t n = ix->positional ? ix->pos_at[posting + 1] - ix->pos_at[posting] : 1;
	if (n > UINT32_MAX) n = UINT32_MAX;
	return n ? (uint32_t)n : 1;
}

/* --- the file (gp_index_file.c, docs/FORMATS.md section 5) --- */

/* The file's bytes are written through write(ctx, bytes, len), which returns 0 on success. */
typedef int (*gp_index_writer)(void *ctx, const void *bytes, size_t len);
/* version 2 (GP_INDEX_FILE_VERSION) or 1 (the lists as given: what builds before version 2 read;
 * not for an index opened from a version 2 file, which has no such lists) */
#define GP_INDEX_FILE_VERSION 2
int gp_index_save(const gp_index *ix, int version, gp_index_writer write, void *ctx, gp_error *err);
/* Reads a whole file image: header, section table, checksums, dictionary, then the lists built
 * as gp_index_build does. GP_EFORMAT names the byte offset and the rule (format "index file",
 * or the list's format with err->blob the term's id). */
int gp_index_load(const uint8_t *file, size_t len, const gp_budget *budget, gp_index **out,
                  gp_error *err);
/* A file mapped read-only and shared (gp_index_map_file): len bytes, or NULL with err saying why
 * (GP_EVALUE: the file cannot be mapped, as a file of /proc cannot; the caller may read it
 * instead). gp_index_unmap_file undoes it. */
const uint8_t *gp_index_map_file(int fd, size_t len, gp_error *err);
void gp_index_unmap_file(const uint8_t *file, size_t len);
/* Every list of an index opened from a version 2 file checked now (each is otherwise checked
 * before its first use in the process), the doc lengths too, and the distinct docs counted
 * against the header's: GP_EFORMAT names the term and the file's byte. GP_OK at once for any
 * other index (checked whole when built or loaded). */
int gp_index_verify(const gp_index *ix, gp_error *err);
/* gp_index_load over a mapped file: the same checks and index, its lists read in place instead of
 * copied. On success the index owns the mapping (unmapped when the index is freed); on failure
 * the caller still does. The file must not shrink while mapped (save() replaces a file by a new
 * one, never in place): a page past its end faults. */
int gp_index_load_mapped(const uint8_t *file, size_t len, const gp_budget *budget, gp_index **out,
                         gp_error *err);
/* n_docs again (distinct docs over the lists), on up to `workers` of the host's threads with a
 * bitmap of the docs' range each, where the docs are dense enough and the budget (C bytes)
 * allows the bitmaps; else by merging the lists (memory a term). GP_ENOMEM when the host has
 * not the memory. */
int gp_index_count_docs(gp_index *ix, size_t workers, const gp_budget *budget);
/* A Yioop IndexShard file (FORMATS.md section 6) as a MOD9 index: terms its 20-byte word ids,
 * docs its doc indices (record offset / 16), lengths from its doc records (BM25 with k1 1.2,
 * b 0.75). GP_EFORMAT (format "Yioop shard") names the file's byte and the rule. */
int gp_index_yioop_load(const uint8_t *file, size_t len, const gp_budget *budget, gp_index **out,
                        gp_error *err);
/* A Yioop IndexArchiveBundle's generations (their IndexShard files in order; files[g] NULL for a
 * generation with no file yet) as one MOD9 index: generation g's doc index d is doc base[g] + d
 * (base: n_gens + 1 entries, base[n_gens] the docs' range), its docs' generations, doc indices
 * and summary offsets the attributes "generation", "doc_index" and "summary_offset". GP_EFORMAT names the byte of
 * generation *bad's file (format "Yioop shard"), or the bundle as a whole (*bad SIZE_MAX);
 * GP_EVALUE: more docs than MOD9 numbers; GP_ENOMEM. */
int gp_index_yioop_bundle_load(size_t n_gens, const uint8_t *const *files, const size_t *lens, size_t n_dict,
                               const uint8_t *const *dict_files, const size_t *dict_lens, const gp_budget *budget,
                               gp_index **out, uint64_t *base, size_t *bad, gp_error *err);
/* A bundle's generation.txt (PHP's serialize() of IndexArchiveBundle's generation_info): its
 * ACTIVE generation in *active. GP_EFORMAT names the byte and the rule. */
int gp_yioop_generation_info(const char *s, size_t len, int64_t *active, gp_error *err);
/* CRC-32 (IEEE 802.3, as PHP's crc32() and zlib compute it) of len bytes, continuing crc. */
uint32_t gp_crc32(uint32_t crc, const uint8_t *p, size_t len);
/* CRC-32C (Castagnoli, as PHP's hash('crc32c') computes it) of len bytes, continuing crc. */
uint32_t gp_crc32c(uint32_t crc, const uint8_t *p, size_t len);
/* The same by tables alone (what gp_crc32c does where the CPU has no CRC instruction). */
uint32_t gp_crc32c_portable(uint32_t crc, const uint8_t *p, size_t len);

#endif
