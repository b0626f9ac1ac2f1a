/* A Yioop IndexArchiveBundle (Yioop 2019-2021) read into one index: its generations' IndexShard
 * files, in order, with one doc numbering across them. Generation g's doc index d (a doc
 * record's offset / 16 in its shard) is doc base[g] + d, so that docs keep Yioop's order
 * (generation, then offset) and each generation's postings follow the one before's. A word's
 * lists of several generations become one list written in MOD9's long form with the docs
 * moved up; a word of one generation at base 0 keeps its bytes. The docs' generations, doc
 * indices and summary offsets are the index's attributes "generation", "doc_index" and
 * "summary_offset" (what Yioop's items carry as GENERATION and SUMMARY_OFFSET). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_index.h"
#include "gp_yioop_shard.h"
#include "../codec/gp_mod9.h"

#define YB_NAME "Yioop bundle"

/* A dictionary record of some generation: its word id, its generation and its place there. */
typedef struct yb_record {
	const char *key;
	uint32_t generation;
	uint32_t at;
} yb_record;

static int record_order(const void *a, const void *b)
{
	const yb_record *x = a, *y = b;
	int c = memcmp(x->key, y->key, GP_YIOOP_KEY);
	if (c) return c;
	return x->generation < y->generation ? -1 : x->generation > y->generation;
}

/* A growing buffer of lists written again, within the budget. */
typedef struct yb_arena {
	uint8_t *p;
	size_t len, cap;
	const gp_budget *budget;
} yb_arena;

static int arena_room(yb_arena *a, size_t more, gp_error *err)
{
	if (a->len + more <= a->cap) return GP_OK;
	size_t cap = a->cap ? a->cap : 1 << 16;
	while (cap < a->len + more) cap *= 2;
	if (gp_budget_check(a->budget, 0, cap, "the bundle's lists written again", err) != GP_OK) return GP_ENOMEM;
	uint8_t *p = realloc(a->p, cap);
	if (!p) return gp_index_fail_nomem(err, "the bundle's lists written again");
	a->p = p;
	a->cap = cap;
	return GP_OK;
}

/* One generation's list checked as its shard alone would be (its docs that generation's doc
 * records' starts, in order) and, with an arena, appended to it with its docs moved up by `base`,
 * each posting in the long form. GP_EFORMAT (err->offset 0: the list's first byte) or
 * GP_ENOMEM. */
static int take_list(yb_arena *a, const gp_yioop_shard *s, uint32_t at, uint64_t base, gp_error *err)
{
	gp_yioop_postings p;
	int rc = gp_yioop_postings_decode(s->blobs[at], s->lens[at], &p, err);
	for (size_t i = 0; rc == GP_OK && i < p.c.postings; i++) {
		const int64_t d = p.docs[i];
		if (d < 0 || (uint64_t)d >= s->n_docs || s->table[d] == GP_IX_NO_LENGTH) {
			rc = gp_fail(err, GP_YIOOP_SHARD_NAME, 0, "posting %zu: doc %lld is not the start of one of the shard's "
			             "doc records", i, (long long)d);
			break;
		}
		if (i && d < p.docs[i - 1]) {
			rc = gp_fail(err, GP_YIOOP_SHARD_NAME, 0, "posting %zu: doc %lld after doc %lld: a list's docs must "
			             "increase", i, (long long)d, (long long)p.docs[i - 1]);
			break;
		}
		if (!a) continue;
		const char *why;
		size_t first = p.vstart[i] + (p.combined[i] ? 0 : 1);
		if ((rc = arena_room(a, gp_mod9_encode_bound(p.vstart[i + 1] - first + 1), err)) != GP_OK) break;
		size_t n = gp_yioop_posting_long(&p, i, (int64_t)base, a->p + a->len, &why);
		if (n == 0) {
			rc = gp_fail(err, GP_MOD9_NAME, 0, "posting %zu (doc %lld of its generation) cannot be written again: %s",
			             i, (long long)d, why);
		}
		a->len += n;
	}
	gp_yioop_postings_free(&p);   /* zeroed when the decode failed */
	return rc;
}

/* The docs' attributes: generation, doc index and summary offset by doc, NaN where no record
 * starts. */
static int set_doc_attributes(gp_index *ix, const gp_yioop_shard *shards, size_t n_gens, const uint64_t *base,
                              const gp_budget *budget, gp_error *err)
{
	const uint64_t docs = base[n_gens];
	if (gp_budget_check(budget, 0, docs * 24, "the bundle's doc attributes", err) != GP_OK) return GP_ENOMEM;
	double *v = malloc((size_t)docs * 24 + 24);
	if (!v) return gp_index_fail_nomem(err, "the bundle's doc attributes");
	for (size_t g = 0; g < n_gens; g++) {
		for (size_t d = 0; d < shards[g].n_docs; d++) {
			int record = shards[g].table[d] != GP_IX_NO_LENGTH;
			v[base[g] + d] = record ? (double)g : NAN;
			v[docs + base[g] + d] = record ? (double)d : NAN;
			v[2 * docs + base[g] + d] = record ? (double)shards[g].summary[d] : NAN;
		}
	}
	const char *names[3] = {"generation", "doc_index", "summary_offset"};
	const size_t lens[3] = {10, 9, 14};
	int rc = gp_index_set_attributes(ix, names, lens, 3, (uint32_t)docs, v, 0, budget, err);
	free(v);
	return rc;
}

/* The docs as Yioop's items read them: each record's first three keys and second word, and
 * each generation's header fields. */
static int set_yioop_docs(gp_index *ix, const gp_yioop_shard *shards, size_t n_gens, const uint64_t *base,
                          const gp_budget *budget, gp_error *err)
{
	const uint64_t docs = base[n_gens];
	uint64_t aux_bytes = 0;
	for (size_t g = 0; g < n_gens; g++) {
		for (size_t x = 0; x < shards[g].n_docs; x++) {
			if (shards[g].table[x] == GP_IX_NO_LENGTH) continue;
			const uint32_t keys = gp_load_be32(shards[g].docs + 16 * x + 4) & 255u;
			if (keys > 3) aux_bytes += 8 * (uint64_t)(keys - 3);
		}
	}
	if (gp_budget_check(budget, 0, docs * (GP_YIOOP_DOC_KEYS + 4 + 8) + aux_bytes +
	                    (uint64_t)n_gens * (8 + 4 * GP_YIOOP_HEADER_FIELDS), "the bundle's doc keys", err) != GP_OK) {
		return GP_ENOMEM;
	}
	gp_yioop_docs *d = calloc(1, sizeof(*d));
	if (d) {
		d->keys = calloc((size_t)docs + 1, GP_YIOOP_DOC_KEYS);
		d->doc_int = calloc((size_t)docs + 1, sizeof(*d->doc_int));
		d->base = malloc((n_gens + 1) * sizeof(*d->base));
		d->header = calloc((n_gens + 1) * GP_YIOOP_HEADER_FIELDS, sizeof(*d->header));
		d->aux_at = calloc((size_t)docs + 2, sizeof(*d->aux_at));
		d->aux = malloc((size_t)aux_bytes + 1);
	}
	if (!d || !d->keys || !d->doc_int || !d->base || !d->header || !d->aux_at || !d->aux) {
		gp_yioop_docs_free(d);
		return gp_index_fail_nomem(err, "the bundle's doc keys");
	}
	d->n_docs = docs;
	d->n_gens = n_gens;
	memcpy(d->base, base, (n_gens + 1) * sizeof(*base));
	uint64_t at = 0;
	for (size_t g = 0; g < n_gens; g++) {
		const gp_yioop_shard *s = &shards[g];
		memcpy(d->header + GP_YIOOP_HEADER_FIELDS * g, s->header, sizeof(s->header));
		for (size_t x = 0; x < s->n_docs; x++) {
			d->aux_at[base[g] + x] = at;
			if (s->table[x] == GP_IX_NO_LENGTH) continue;
			/* a record holds 8 bytes, then at least its keys: three of them where it has three or
			 * more (a record of fewer keys leaves the rest zero), then the aux keys */
			const uint8_t *r = s->docs + 16 * x;
			const uint32_t doc_int = gp_load_be32(r + 4), keys = doc_int & 255u;
			d->doc_int[base[g] + x] = doc_int;
			memcpy(d->keys + GP_YIOOP_DOC_KEYS * (base[g] + x), r + 8, 8 * (keys < 3 ? keys : 3));
			if (keys > 3) {
				memcpy(d->aux + at, r + 8 + GP_YIOOP_DOC_KEYS, 8 * (size_t)(keys - 3));
				at += 8 * (uint64_t)(keys - 3);
			}
		}
	}
	d->aux_at[docs] = at;
	ix->yioop = d;
	return GP_OK;
}

/* The 4-byte words of the MOD9 posting that starts at w[0] (of n): it ends at the first word whose
 * two high bits are 00 or 01, as Yioop's getPostingAtOffset reads one. */
static size_t posting_words(const uint8_t *w, size_t n)
{
	size_t k = 0;
	while (k + 1 < n && (w[4 * k] >> 6) >= 2) k++;
	return k + 1;
}

/* Each posting's estimate of its word's docs in its generation, as Yioop's WordIterator makes it
 * while it reads a conjunction one posting at a time (IndexShard::postingsSliceAscending): the
 * bytes of the generation's list less one word, over the posting's own bytes, rounded up. Read
 * from the lists as the shards hold them (a repaired posting's bytes are Yioop's). A list whose
 * postings are not one to one with its decode (docs merged) has none (UINT32_MAX). */
static int set_posting_estimates(gp_index *ix, const gp_yioop_shard *shards, const uint8_t *const *files,
                                 const yb_record *records, const size_t *rec_from, size_t n_terms,
                                 const gp_budget *budget, gp_error *err)
{
	if (gp_budget_check(budget, 0, ix->n_postings * 4, "the bundle's posting estimates", err) != GP_OK) return GP_ENOMEM;
	uint32_t *est = malloc((size_t)ix->n_postings * sizeof(*est) + 4);
	if (!est) return gp_index_fail_nomem(err, "the bundle's posting estimates");
	for (size_t i = 0; i < n_terms; i++) {
		const uint32_t t = gp_index_lookup(ix, records[rec_from[i]].key, GP_YIOOP_KEY);
		if (t == GP_IX_NO_TERM) continue;
		uint64_t p = ix->list_at[t];
		const uint64_t end = ix->list_at[t + 1];
		int whole = 1;
		for (size_t k = rec_from[i]; k < rec_from[i + 1] && whole; k++) {
			const gp_yioop_shard *s = &shards[records[k].generation];
			const size_t len = s->orig_lens[records[k].at], n_words = len / 4;
			const uint8_t *w = files[records[k].generation] + s->list_at[records[k].at];
			for (size_t at = 0; at < n_words;) {
				const size_t words = posting_words(w + 4 * at, n_words - at);
				if (p == end) {
					whole = 0;
					break;
				}
				est[p++] = (uint32_t)((len - 4 + 4 * words - 1) / (4 * words));
				at += words;
			}
		}
		if (!whole || p != end) {
			for (p = ix->list_at[t]; p < end; p++) est[p] = UINT32_MAX;
		}
	}
	ix->yioop->posting_estimate = est;
	return GP_OK;
}

/* --- the bundle's IndexDictionary: what a shard saved without its dictionary is read with --- */

#define YD_HEADER 2048   /* IndexDictionary::PREFIX_HEADER_SIZE: 256 prefixes of (offset, count) */
#define YD_ROW 32        /* a main row (word id, aux rows u16, generation u16, offset, length) or an
                          * aux row (a u16 mark, then three entries of generation u16, offset, length) */
#define YD_SLOT 10

static int record_key_order(const void *a, const void *b)
{
	return memcmp(a, b, GP_YIOOP_KEY);
}

/* One entry: a word id's list in generation g, appended to g's dictionary (shard records:
 * word id, generation, offset, length) when g lacks one. */
static void dict_add(uint8_t **dict, size_t *n_of, const uint8_t *id, uint32_t g, uint32_t off, uint32_t len,
                     size_t n_gens)
{
	if (g >= n_gens || !dict[g]) return;
	uint8_t *r = dict[g] + GP_YIOOP_RECORD * n_of[g]++;
	memcpy(r, id, GP_YIOOP_KEY);
	gp_store_be32(r + GP_YIOOP_KEY, g);
	gp_store_be32(r + GP_YIOOP_KEY + 4, off);
	gp_store_be32(r + GP_YIOOP_KEY + 8, len);
}

/* Walks every tier file's rows (counting: dict NULL; filling: each wanted generation's dictionary
 * given room for what the count found). GP_EFORMAT names the file (*bad_file) and byte. */
static int dict_walk(size_t n_files, const uint8_t *const *files, const size_t *lens, size_t n_gens,
                     uint8_t **dict, size_t *n_of, size_t *bad_file, gp_error *err)
{
	for (size_t f = 0; f < n_files; f++) {
		const uint8_t *b = files[f];
		const size_t len = lens[f];
		*bad_file = f;
		if (len < YD_HEADER) return gp_fail(err, "Yioop dictionary", 0, "shorter than its 2048-byte prefix table");
		if ((len - YD_HEADER) % YD_ROW) {
			return gp_fail(err, "Yioop dictionary", 0, "its %zu bytes after the prefix table are not rows of 32", len - YD_HEADER);
		}
		const size_t rows = (len - YD_HEADER) / YD_ROW;
		for (size_t r = 0; r < rows;) {
			const uint8_t *row = b + YD_HEADER + YD_ROW * r;
			const size_t aux = (size_t)row[GP_YIOOP_KEY] << 8 | row[GP_YIOOP_KEY + 1];
			if (aux > rows - r - 1) {
				return gp_fail(err, "Yioop dictionary", YD_HEADER + YD_ROW * r + GP_YIOOP_KEY, "a row names %zu aux rows "
				               "where %zu rows are left", aux, rows - r - 1);
			}
			const uint32_t g = (uint32_t)row[GP_YIOOP_KEY + 2] << 8 | row[GP_YIOOP_KEY + 3];
			if (dict) dict_add(dict, n_of, row, g, gp_load_be32(row + 24), gp_load_be32(row + 28), n_gens);
			else if (g < n_gens) n_of[g]++;
			for (size_t k = 1; k <= aux; k++) {
				const uint8_t *a = row + YD_ROW * k;
				for (int slot = 0; slot < 3; slot++) {
					const uint8_t *e = a + 2 + YD_SLOT * slot;
					static const uint8_t blank[YD_SLOT] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
					if (memcmp(e, blank, YD_SLOT) == 0) continue;
					const uint32_t eg = (uint32_t)e[0] << 8 | e[1];
					if (dict) dict_add(dict, n_of, row, eg, gp_load_be32(e + 2), gp_load_be32(e + 6), n_gens);
					else if (eg < n_gens) n_of[eg]++;
				}
			}
			r += 1 + aux;
		}
	}
	*bad_file = SIZE_MAX;
	return GP_OK;
}

/* The dictionaries of the generations whose shards lack one (need[g]), from the tier files:
 * dict[g] (malloc'd, sorted by word id) of n_of[g] records. A word id twice in a generation is
 * GP_EFORMAT. */
static int read_dictionary(size_t n_files, const uint8_t *const *files, const size_t *lens, size_t n_gens,
                           const int *need, const gp_budget *budget, uint8_t **dict, size_t *n_of, size_t *bad_file,
                           gp_error *err)
{
	int rc = dict_walk(n_files, files, lens, n_gens, NULL, n_of, bad_file, err);
	uint64_t bytes = 0;
	for (size_t g = 0; rc == GP_OK && g < n_gens; g++) if (need[g]) bytes += (uint64_t)n_of[g] * GP_YIOOP_RECORD;
	if (rc == GP_OK && gp_budget_check(budget, 0, bytes, "the bundle's dictionary", err) != GP_OK) rc = GP_ENOMEM;
	for (size_t g = 0; rc == GP_OK && g < n_gens; g++) {
		if (need[g] && !(dict[g] = malloc(n_of[g] * GP_YIOOP_RECORD + 1))) rc = gp_index_fail_nomem(err, "the bundle's dictionary");
		n_of[g] = 0;
	}
	if (rc == GP_OK) rc = dict_walk(n_files, files, lens, n_gens, dict, n_of, bad_file, err);
	for (size_t g = 0; rc == GP_OK && g < n_gens; g++) {
		if (!dict[g]) continue;
		qsort(dict[g], n_of[g], GP_YIOOP_RECORD, record_key_order);
		for (size_t i = 1; i < n_of[g]; i++) {
			if (memcmp(dict[g] + GP_YIOOP_RECORD * (i - 1), dict[g] + GP_YIOOP_RECORD * i, GP_YIOOP_KEY) == 0) {
				char word[2 * GP_YIOOP_KEY + 1];
				for (size_t k = 0; k < GP_YIOOP_KEY; k++) snprintf(word + 2 * k, 3, "%02x", dict[g][GP_YIOOP_RECORD * i + k]);
				*bad_file = SIZE_MAX;
				return gp_fail(err, YB_NAME, 0, "the bundle's dictionary gives word id %s twice for generation %zu", word, g);
			}
		}
	}
	return rc;
}

int gp_index_yioop_bundle_load(size_t n_gens, const uint8_t *const *files, const size_t *lens, size_t n_dict,
                               const uint8_t *const *dict_files, const size_t *dict_lens, const gp_budget *budget,
                               gp_index **out, uint64_t *base, size_t *bad, gp_error *err)
{
	memset(err, 0, sizeof(*err));
	*out = NULL;
	*bad = SIZE_MAX;
	int rc = GP_OK;
	yb_arena arena = {NULL, 0, 0, budget};
	yb_record *records = NULL;
	const char **terms = NULL;
	size_t *term_lens = NULL, *list_lens = NULL, *arena_at = NULL, *rec_from = NULL;
	const uint8_t **blobs = NULL;
	uint32_t *table = NULL;
	gp_yioop_shard *shards = calloc(n_gens + 1, sizeof(*shards));
	if (!shards) return gp_index_fail_nomem(err, "the bundle's generations");

	/* the shards saved without their dictionaries read with the bundle's */
	uint8_t **dict = calloc(n_gens + 1, sizeof(*dict));
	size_t *n_of = calloc(n_gens + 1, sizeof(*n_of));
	int *need = calloc(n_gens + 1, sizeof(*need));
	if (!dict || !n_of || !need) {
		rc = gp_index_fail_nomem(err, "the bundle's generations");
		goto done;
	}
	int any = 0;
	for (size_t g = 0; g < n_gens; g++) any |= need[g] = files[g] && lens[g] >= 40 && gp_load_be32(files[g] + 4) == 0;
	if (any && n_dict) {
		size_t bad_file;
		rc = read_dictionary(n_dict, dict_files, dict_lens, n_gens, need, budget, dict, n_of, &bad_file, err);
		if (rc != GP_OK) {
			if (bad_file != SIZE_MAX) *bad = n_gens + bad_file;
			goto done;
		}
	}
	for (size_t g = 0; g < n_gens; g++) {
		/* a shard without a dictionary, with postings the bundle's dictionary says nothing of
		 * (its generation not merged there yet): its words would be lost */
		if (need[g] && dict[g] && n_of[g] == 0 && gp_load_be32(files[g] + 8) != 0) {
			*bad = g;
			rc = gp_fail(err, GP_YIOOP_SHARD_NAME, 4, "no dictionary, and the bundle's dictionary has no entry for "
			             "generation %zu", g);
			goto done;
		}
	}
	/* each generation's shard checked on its own (a generation with no file yet is empty) */
	uint64_t n_records = 0, files_len = 0;
	base[0] = 0;
	for (size_t g = 0; g < n_gens; g++) {
		if (files[g]) {
			rc = gp_yioop_shard_read(files[g], lens[g], dict[g], n_of[g], budget, 1, &shards[g], err);
			if (rc != GP_OK) {
				*bad = g;
				goto done;
			}
			files_len += lens[g];
		}

		base[g + 1] = base[g] + shards[g].n_docs;
		n_records += shards[g].n;
		/* a doc's value in the long form is doc + 1, at most 2^28 - 1 */
		if (base[g + 1] > GP_MOD9_MAX_VALUE) {
			gp_fail(err, YB_NAME, 0, "generations 0 to %zu hold %llu doc units of 16 bytes, past the %u that MOD9 "
			        "postings number", g, (unsigned long long)base[g + 1], GP_MOD9_MAX_VALUE);
			rc = err->code = GP_EVALUE;
			goto done;
		}
	}
	if (gp_budget_check(budget, 0, n_records * (sizeof(yb_record) + 2 * sizeof(void *) + 3 * sizeof(size_t)) +
	                    base[n_gens] * 4, "the bundle's dictionary and doc lengths", err) != GP_OK) {
		rc = GP_ENOMEM;
		goto done;
	}
	records = malloc((size_t)n_records * sizeof(*records) + 1);
	terms = malloc((size_t)n_records * sizeof(*terms) + 1);
	term_lens = malloc((size_t)n_records * sizeof(*term_lens) + 1);
	list_lens = malloc((size_t)n_records * sizeof(*list_lens) + 1);
	arena_at = malloc((size_t)n_records * sizeof(*arena_at) + 1);
	rec_from = malloc(((size_t)n_records + 1) * sizeof(*rec_from));
	blobs = malloc((size_t)n_records * sizeof(*blobs) + 1);
	table = malloc((size_t)base[n_gens] * sizeof(*table) + 4);
	if (!records || !terms || !term_lens || !list_lens || !arena_at || !rec_from || !blobs || !table) {
		rc = gp_index_fail_nomem(err, "the bundle's dictionary");
		goto done;
	}
	size_t r = 0;
	for (size_t g = 0; g < n_gens; g++) {
		for (size_t i = 0; i < shards[g].n; i++) records[r++] = (yb_record){shards[g].terms[i], (uint32_t)g, (uint32_t)i};
		if (shards[g].n_docs) memcpy(table + base[g], shards[g].table, shards[g].n_docs * sizeof(*table));
	}
	qsort(records, (size_t)n_records, sizeof(*records), record_order);

	/* a word's lists, generation by generation, as one */
	size_t n_terms = 0;
	for (size_t i = 0; i < n_records;) {
		size_t j = i + 1;
		while (j < n_records && memcmp(records[j].key, records[i].key, GP_YIOOP_KEY) == 0) {
			if (records[j].generation == records[j - 1].generation) {
				const gp_yioop_shard *s = &shards[records[j].generation];
				*bad = records[j].generation;
				rc = gp_fail(err, GP_YIOOP_SHARD_NAME, s->dict_at + GP_YIOOP_RECORD * records[j].at,
				             "dictionary record %u names the word id of record %u again", records[j].at, records[j - 1].at);
				goto done;
			}
			j++;
		}
		const yb_record *first = &records[i];
		rec_from[n_terms] = i;
		terms[n_terms] = first->key;
		term_lens[n_terms] = GP_YIOOP_KEY;
		/* a word of one generation at base 0 keeps its bytes (checked all the same) */
		const int keep = j == i + 1 && base[first->generation] == 0;
		arena_at[n_terms] = keep ? SIZE_MAX : arena.len;
		for (size_t k = i; k < j; k++) {
			const gp_yioop_shard *s = &shards[records[k].generation];
			const uint8_t *blob = s->blobs[records[k].at];
			rc = take_list(keep ? NULL : &arena, s, records[k].at, base[records[k].generation], err);
			if (rc == GP_EFORMAT) {
				/* a repaired list is the shard's own; its place in the file is its record's */
				const uint8_t *file = files[records[k].generation];
				char rule[sizeof(err->rule)];
				memcpy(rule, err->rule, sizeof(rule));
				size_t where = s->owned[records[k].at] ? s->list_at[records[k].at] : (size_t)(blob - file) + err->offset;
				*bad = records[k].generation;
				rc = gp_fail(err, GP_YIOOP_SHARD_NAME, where, "%.140s (the list of dictionary record %u)", rule, records[k].at);
			}
			if (rc != GP_OK) goto done;
		}
		if (keep) {
			blobs[n_terms] = shards[first->generation].blobs[first->at];
			list_lens[n_terms] = shards[first->generation].lens[first->at];
		} else {
			list_lens[n_terms] = arena.len - arena_at[n_terms];
		}
		n_terms++;
		i = j;
	}
	rec_from[n_terms] = n_records;
	for (size_t t = 0; t < n_terms; t++) {
		if (arena_at[t] != SIZE_MAX) blobs[t] = arena.p + arena_at[t];
	}
	for (size_t f = 0; f < n_dict; f++) files_len += dict_lens[f];
	gp_budget room;   /* the index is built beside the files' images and the lists written again */
	rc = gp_index_build(GP_IX_MOD9, n_terms, terms, term_lens, blobs, list_lens,
	                    gp_budget_beside(budget, files_len + arena.cap, &room), out, err);
	free(arena.p);
	arena.p = NULL;
	if (rc != GP_OK) {
		/* every list was measured above: what is left is a list whose docs do not increase, or
		 * more postings than an index holds */
		char rule[sizeof(err->rule)];
		memcpy(rule, err->rule, sizeof(rule));
		char word[2 * GP_YIOOP_KEY + 1];
		size_t t = err->blob < n_terms ? err->blob : 0;
		for (size_t k = 0; k < GP_YIOOP_KEY; k++) snprintf(word + 2 * k, 3, "%02x", (uint8_t)terms[t][k]);
		if (rc == GP_EFORMAT) rc = gp_fail(err, YB_NAME, 0, "the list of word id %s: %.140s", word, rule);
		goto done;
	}
	if ((rc = gp_index_adopt_lengths(*out, table, (uint32_t)base[n_gens], 1.2, 0.75, err)) != GP_OK) {
		if (rc == GP_EVALUE) {
			char rule[sizeof(err->rule)];
			memcpy(rule, err->rule, sizeof(rule));
			rc = gp_fail(err, YB_NAME, 0, "a posting's doc is not the start of a doc record: %.140s", rule);
		}
		goto done;
	}
	table = NULL;   /* the index's now */
	rc = set_doc_attributes(*out, shards, n_gens, base, budget, err);
	if (rc == GP_OK) rc = set_yioop_docs(*out, shards, n_gens, base, budget, err);
	if (rc == GP_OK) rc = set_posting_estimates(*out, shards, files, records, rec_from, n_terms, budget, err);
done:
	if (rc != GP_OK && *out) {
		gp_index_unref(*out);
		*out = NULL;
	}
	for (size_t g = 0; g < n_gens; g++) gp_yioop_shard_free(&shards[g]);
	free(shards);
	for (size_t g = 0; dict && g < n_gens; g++) free(dict[g]);
	free(dict);
	free(n_of);
	free(need);
	free(arena.p);
	free(records);
	free(terms);
	free(term_lens);
	free(list_lens);
	free(arena_at);
	free(rec_from);
	free(blobs);
	free(table);
	return rc;
}

/* generation.txt: PHP's serialize() of an array of string keys, as IndexArchiveBundle writes it
 * (a:3:{s:6:"ACTIVE";i:4;s:21:"LAST_DICTIONARY_SHARD";i:3;s:7:"CURRENT";i:4;}). Values other
 * than integers (b:, N:, d:, s:) are stepped over; nested arrays and objects are refused. */
static int read_count(const char *s, size_t len, size_t *at, char end, uint64_t *v)
{
	size_t i = *at, digits = 0;
	*v = 0;
	while (i < len && s[i] >= '0' && s[i] <= '9' && digits < 18) {
		*v = *v * 10 + (uint64_t)(s[i++] - '0');
		digits++;
	}
	if (!digits || i >= len || s[i] != end) return 0;
	*at = i + 1;
	return 1;
}

int gp_yioop_generation_info(const char *s, size_t len, int64_t *active, gp_error *err)
{
	memset(err, 0, sizeof(*err));
	size_t at = 0;
	uint64_t n;
	*active = -1;
	if (len < 2 || s[0] != 'a' || s[1] != ':' || (at = 2, !read_count(s, len, &at, ':', &n)) || at >= len || s[at] != '{') {
		return gp_fail(err, "generation.txt", 0, "not a serialized array");
	}
	at++;
	for (uint64_t e = 0; e < n; e++) {
		uint64_t key_len;
		size_t key_at = at;
		if (at + 2 > len || s[at] != 's' || s[at + 1] != ':') return gp_fail(err, "generation.txt", at, "a key that is not a string");
		at += 2;
		if (!read_count(s, len, &at, ':', &key_len) || at + key_len + 3 > len || s[at] != '"' ||
		    s[at + 1 + key_len] != '"' || s[at + 2 + key_len] != ';') {
			return gp_fail(err, "generation.txt", key_at, "a broken string key");
		}
		const char *key = s + at + 1;
		at += (size_t)key_len + 3;
		size_t value_at = at;
		if (at + 2 > len) return gp_fail(err, "generation.txt", at, "cut short");
		char type = s[at];
		if (type == 'N' && s[at + 1] == ';') {
			at += 2;
			continue;
		}
		if (s[at + 1] != ':') return gp_fail(err, "generation.txt", at, "a value of a type it cannot hold");
		at += 2;
		if (type == 'i' || type == 'b' || type == 'd') {
			/* unserialize()'s: a sign for numbers, 0 or 1 for booleans */
			int negative = type != 'b' && at < len && s[at] == '-';
			int sign = type != 'b' && at < len && (s[at] == '-' || s[at] == '+');
			size_t from = at + (size_t)sign;
			size_t i = from;
			while (i < len && s[i] != ';') i++;
			if (i >= len || i == from) return gp_fail(err, "generation.txt", value_at, "a value cut short");
			if (type == 'b' && (i != from + 1 || (s[from] != '0' && s[from] != '1'))) {
				return gp_fail(err, "generation.txt", value_at, "a boolean that is neither 0 nor 1");
			}
			if (type == 'i' && key_len == 6 && memcmp(key, "ACTIVE", 6) == 0) {
				uint64_t v;
				size_t p = from;
				if (negative || !read_count(s, len, &p, ';', &v) || p != i + 1) {
					return gp_fail(err, "generation.txt", value_at, "ACTIVE is not a generation number");
				}
				*active = (int64_t)v;
			}
			at = i + 1;
		} else if (type == 's') {
			uint64_t vl;
			if (!read_count(s, len, &at, ':', &vl) || at + vl + 3 > len || s[at] != '"' || s[at + 1 + vl] != '"' ||
			    s[at + 2 + vl] != ';') {
				return gp_fail(err, "generation.txt", value_at, "a broken string value");
			}
			at += (size_t)vl + 3;
		} else {
			return gp_fail(err, "generation.txt", value_at, "a value of a type it cannot hold");
		}
	}
	if (at >= len || s[at] != '}') return gp_fail(err, "generation.txt", at, "the array does not end where its count says");
	at++;
	while (at < len && (s[at] == '\n' || s[at] == '\r' || s[at] == ' ')) at++;
	if (at != len) return gp_fail(err, "generation.txt", at, "bytes after the array");
	if (*active < 0) return gp_fail(err, "generation.txt", 0, "no ACTIVE generation");
	return GP_OK;
}
