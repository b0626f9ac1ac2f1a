/* Launcher of kernels/index.cl: an index's lists resident on the device (decoded, or compressed
 * and decoded batch by batch), and a batch of queries answered there in one upload of its tables,
 * one sequence of launches and two reads (each query's answer count, then the answers; ranked:
 * one, each tile's row count and its k best rows together). */
#include <stdlib.h>
#include <string.h>

#include "gp_cl_internal.h"
#include "gp_cl_index_device.h"
#include "gp_cl_resident.h"
#include "../query/gp_query.h"


static void index_device_free(void *p)
{
	index_device *d = p;
	gp_cl_resident_release(d->docs);
	gp_cl_resident_release(d->list_at);
	gp_cl_resident_release(d->pos_at);
	gp_cl_resident_release(d->positions);
	gp_cl_resident_release(d->doc_len);
	gp_cl_resident_release(d->attrs);
	gp_cl_resident_release(d->blobs);
	free(d->word_at);
	free(d->mark);
	free(d->local);
	free(d);
}

/* The blobs each from a word boundary (MOD9 and S9 blobs are whole words; a QS blob may not
 * be): copied with padding only when one is not. */
static int upload_compressed(gp_index *ix, const uint8_t *image, index_device *d, gp_error *err)
{
	size_t n = ix->n_terms, words = 0;
	int aligned = 1;
	if (!(d->word_at = malloc((n + 1) * sizeof(cl_uint))) || !(d->mark = calloc(n + 1, sizeof(uint32_t))) ||
	    !(d->local = malloc((n + 1) * sizeof(uint32_t)))) {
		return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the index's device state");
	}
	for (size_t t = 0; t < n; t++) {
		uint64_t len = ix->blob_at[t + 1] - ix->blob_at[t];
		d->word_at[t] = (cl_uint)words;
		words += (size_t)((len + 3) / 4);
		if (len % 4) aligned = 0;
		if (words >= UINT32_MAX) return gp_cl_fail(err, CL_INVALID_BUFFER_SIZE, "compressed lists of 16 GiB or more");
	}
	d->word_at[n] = (cl_uint)words;
	uint8_t *padded = NULL;
	if (!aligned) {
		if (!(padded = calloc(words + 1, 4))) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the padded lists");
		for (size_t t = 0; t < n; t++) {
			memcpy(padded + (size_t)d->word_at[t] * 4, ix->blobs + ix->blob_at[t], ix->blob_at[t + 1] - ix->blob_at[t]);
		}
	}
	d->blobs = gp_cl_resident(padded ? padded : image ? image + ix->image_blobs_at : ix->blobs, words * 4, err);
	free(padded);
	if (!d->blobs) return GP_EDEVICE;
	ix->device_bytes = words * 4;
	return GP_OK;
}

int gp_cl_index_fits(uint64_t postings, uint64_t positions)
{
	uint64_t most = UINT32_MAX - 1;   /* an offset table's last entry is the count */
#ifdef GP_TEST_HOOKS
	const char *cap = getenv("GPUPOST_TEST_DEVICE_OFFSETS");
	if (cap && *cap) most = strtoull(cap, NULL, 10);
#endif
	return postings <= most && positions <= most;
}

/* A host offset table (64-bit) as the device's (32-bit; gp_cl_index_fits said they fit). */
static cl_mem resident_offsets(const uint64_t *at, size_t n, gp_error *err)
{
	cl_uint *narrow = malloc((n ? n : 1) * sizeof(cl_uint));
	if (!narrow) {
		gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the index's offset table");
		return NULL;
	}
	for (size_t i = 0; i < n; i++) narrow[i] = (cl_uint)at[i];
	cl_mem m = gp_cl_resident(narrow, n * sizeof(cl_uint), err);
	free(narrow);
	return m;
}

int gp_cl_index_upload(gp_index *ix, const uint8_t *image, gp_error *err)
{
	if (!gp_cl_index_fits(ix->n_postings, ix->n_positions)) return GP_EVALUE;
	index_device *d = calloc(1, sizeof(*d));
	size_t docs = (size_t)ix->n_postings * 4, lists = ((size_t)ix->n_terms + 1) * 4;
	size_t pos_at = ix->positional ? ((size_t)ix->n_postings + 1) * 4 : 0;
	size_t positions = ix->positional ? (size_t)ix->n_positions * 4 : 0;
	if (!d) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the index's device state");
	ix->device_compressed = ix->device_lists == GP_IX_LISTS_COMPRESSED;
	const gp_device_info *info = gp_cl_info();
	if (ix->device_lists == GP_IX_LISTS_AUTO && info) {
		size_t largest = docs > positions ? docs : positions;
		ix->device_compressed = (info->global_mem && docs + lists + pos_at + positions > info->global_mem / 2) ||
		                        (info->max_alloc && largest > info->max_alloc);
	}
	if (ix->device_compressed) {
		if (upload_compressed(ix, image, d, err) != GP_OK) {
			index_device_free(d);
			return GP_EDEVICE;
		}
	} else {
		if (!(d->docs = gp_cl_resident(ix->docs, docs, err)) ||
		    !(d->list_at = resident_offsets(ix->list_at, (size_t)ix->n_terms + 1, err)) ||
		    !(d->pos_at = ix->positional ? resident_offsets(ix->pos_at, (size_t)ix->n_postings + 1, err)
		                                 : gp_cl_resident(NULL, 0, err)) ||
		    !(d->positions = gp_cl_resident(ix->positions, positions, err))) {
			index_device_free(d);
			return GP_EDEVICE;
		}
		ix->device_bytes = docs + lists + pos_at + positions;
	}
	if (ix->doc_len) {
		if (!(d->doc_len = gp_cl_resident(ix->doc_len, (size_t)ix->len_docs * 4, err))) {
			index_device_free(d);
			return GP_EDEVICE;
		}
		ix->device_bytes += (uint64_t)ix->len_docs * 4;
	}
	if (ix->n_attrs && ix->attr_docs) {   /* what filters, priors and orders read */
		const size_t bytes = (size_t)ix->n_attrs * ix->attr_docs * 8;
		/* without them (too large for one buffer, or no room) the host answers selections */
		gp_error ignored = {0};
		if ((d->attrs = gp_cl_resident(ix->attr_values, bytes, &ignored))) ix->device_bytes += bytes;
	}
	ix->device = d;
	ix->device_free = index_device_free;
	return GP_OK;
}

/* A batch's tables, one uint array (kernels/index.cl says the layout). */
typedef struct query_tables {
	cl_uint *t;
	size_t len, cap;
	cl_uint queries, terms, places, starts, segs, seg_query, seg_term, n_segs, idf;
	gp_topk_tiles tiles;      /* ranked: the top k's tiles (topk_tiles) */
	uint64_t items;
} query_tables;

/* A ranked query's top k is selected a tile of its candidates at a time, each tile's best k by
 * a work-group of its own, the host merging a query's tiles' rows: one work-group took a large
 * query's candidates alone, and a batch of a few queries left the device idle. A tile's rows are
 * its best k in the order of the whole (score, then the smaller doc), so the query's best k are
 * among them. Queries of at most a tile's candidates (gp_cl_index_topk_tile), or of a k past a
 * 64th of it, are one tile (the host reads and sorts every tile's rows: at most a 64th of the
 * candidates). */
static uint64_t topk_tiles(uint64_t items, uint64_t k)
{
	const uint64_t tile = gp_cl_index_topk_tile();
	return items > tile && k <= tile / 64 ? (items + tile - 1) / tile : 1;
}

static int words_room(cl_uint **t, size_t len, size_t *cap, size_t more)
{
	if (len + more <= *cap) return GP_OK;
	size_t c = *cap ? *cap : 256;
	while (c < len + more) c *= 2;
	cl_uint *n = realloc(*t, c * sizeof(cl_uint));
	if (!n) return GP_ENOMEM;
	*t = n;
	*cap = c;
	return GP_OK;
}

static int tables_room(query_tables *qt, size_t more)
{
	return words_room(&qt->t, qt->len, &qt->cap, more);
}

int gp_cl_topk_tables(cl_uint **t, size_t *len, size_t *cap, cl_uint starts, size_t nq, uint32_t k, gp_topk_tiles *tt)
{
	/* each query's first tile; each tile's first candidate and first row (at most k a tile, and
	 * its candidates) */
	uint64_t tiles = 0;
	for (size_t i = 0; i < nq; i++) tiles += topk_tiles((*t)[starts + i + 1] - (*t)[starts + i], k);
	if (tiles >= UINT32_MAX || words_room(t, *len, cap, nq + 1 + 2 * ((size_t)tiles + 1)) != GP_OK) return GP_ENOMEM;
	cl_uint *w = *t;
	tt->n_tiles = (cl_uint)tiles;
	tt->tile_at = (cl_uint)*len;
	tt->tile_starts = tt->tile_at + (cl_uint)nq + 1;
	tt->rows = tt->tile_starts + tt->n_tiles + 1;
	tt->n_rows = 0;
	cl_uint tile = 0;
	for (size_t i = 0; i < nq; i++) {
		const uint64_t from = w[starts + i], items = w[starts + i + 1] - from;
		const uint64_t n = topk_tiles(items, k);
		w[tt->tile_at + i] = tile;
		for (uint64_t j = 0; j < n; j++, tile++) {
			const uint64_t size = gp_cl_index_topk_tile(), lo = from + j * size;
			const uint64_t in_tile = n == 1 ? items : (j + 1 < n ? size : items - j * size);
			w[tt->tile_starts + tile] = (cl_uint)lo;
			w[tt->rows + tile] = (cl_uint)tt->n_rows;
			tt->n_rows += in_tile < k ? in_tile : k;
		}
	}
	w[tt->tile_at + nq] = tile;
	w[tt->tile_starts + tile] = w[starts + nq];
	w[tt->rows + tile] = (cl_uint)tt->n_rows;   /* at most the candidates: under 2^32 */
	*len = tt->rows + (size_t)tile + 1;
	return GP_OK;
}

/* Each query's distinct terms, shortest list first (gp_query_plan), and its candidates (AND,
 * phrase: the shortest list's docs; OR: all its lists' docs): planned once per batch, read by
 * the chunking and the tables. */
typedef struct batch_plan {
	cl_uint *ids;
	uint64_t *at;      /* n_queries + 1 into ids */
	uint64_t *items;   /* n_queries */
	cl_uint *merged;   /* pruned OR: the first merged[i] of query i's ids make its candidates */
} batch_plan;

static void plan_free(batch_plan *p)
{
	free(p->ids);
	free(p->at);
	free(p->items);
	free(p->merged);
}

/* A ranked OR query's lists whose docs cannot reach the score `theta` (a score its top k is
 * known to reach) however they combine: MaxScore's bounds (each term's IDF times its places times
 * its largest part), the smallest ones whose sum stays below theta. ids[0..k) (keys: their
 * (df << 32 | id)) are put in decreasing order of bound; returns how many come first whose docs
 * are the query's candidates (the scores still read every list). */
static size_t prune_or(const gp_index *ix, const gp_query_batch *q, size_t i, uint64_t *keys, size_t k,
                       double theta, double *ub)
{
	if (k < 2 || !(theta > 0.0)) return k;
	for (size_t j = 0; j < k; j++) {
		uint32_t t = (uint32_t)keys[j], m = 0;
		for (uint64_t p = q->at[i]; p < q->at[i + 1]; p++) m += q->terms[p] == t;
		ub[j] = m * gp_bm25_idf(ix->n_len, gp_index_rank_df(ix, t)) * gp_index_max_frac(ix, t);
	}
	for (size_t a = 1; a < k; a++) {   /* by bound, decreasing, the keys alongside (k is small) */
		double u = ub[a];
		uint64_t key = keys[a];
		size_t m = a;
		for (; m > 0 && ub[m - 1] < u; m--) {
			ub[m] = ub[m - 1];
			keys[m] = keys[m - 1];
		}
		ub[m] = u;
		keys[m] = key;
	}
	double sum = 0.0;
	size_t merged = k;   /* the slack covers the rounding of bounds summed apart */
	while (merged > 1 && (sum + ub[merged - 1]) * (1.0 + 1e-9) < theta * (1.0 - 1e-9)) sum += ub[--merged];
	return merged;
}

/* theta (ranked OR, or NULL): each query's score its top k reaches at least (prune_or);
 * shortest: each query's candidates only its shortest list's docs (scored on all its lists). */
static int plan_batch(const gp_index *ix, const gp_query_batch *q, const double *theta, int shortest,
                      batch_plan *p)
{
	size_t nq = q->n_queries, max_terms = 0;
	for (size_t i = 0; i < nq; i++) {
		if (q->at[i + 1] - q->at[i] > max_terms) max_terms = (size_t)(q->at[i + 1] - q->at[i]);
	}
	uint64_t *keys = malloc((max_terms + 1) * sizeof(uint64_t));
	double *ub = malloc((max_terms + 1) * sizeof(double));
	p->ids = malloc(((size_t)(q->at[nq] - q->at[0]) + 1) * sizeof(cl_uint));
	p->at = malloc((nq + 1) * sizeof(uint64_t));
	p->items = malloc((nq + 1) * sizeof(uint64_t));
	if (theta || shortest) p->merged = malloc((nq + 1) * sizeof(cl_uint));
	if (!keys || !ub || !p->ids || !p->at || !p->items || ((theta || shortest) && !p->merged)) {
		free(keys);
		free(ub);
		plan_free(p);
		return GP_ENOMEM;
	}
	p->at[0] = 0;
	for (size_t i = 0; i < nq; i++) {
		size_t k = q->op == GP_IX_PHRASE && !ix->positional ? 0 : gp_query_plan(ix, q, i, keys);
		size_t merged = shortest ? (k > 0) : theta ? prune_or(ix, q, i, keys, k, theta[i], ub) : k;
		p->items[i] = 0;
		for (size_t j = 0; j < k; j++) {
			p->ids[p->at[i] + j] = (cl_uint)keys[j];
			if (j == 0 || (q->op == GP_IX_OR && j < merged)) p->items[i] += keys[j] >> 32;
		}
		if (p->merged) p->merged[i] = (cl_uint)merged;
		p->at[i + 1] = p->at[i] + k;
	}
	free(keys);
	free(ub);
	return GP_OK;
}

/* The tables of queries [q0, q0 + sub->n_queries) of a planned batch: per query its terms,
 * places (phrases) and first candidate; OR also its (query, term) segments. */
static int build_tables(const gp_index *ix, const gp_query_batch *sub, const batch_plan *plan,
                        size_t q0, query_tables *qt)
{
	size_t nq = sub->n_queries, total_terms = (size_t)(sub->at[nq] - sub->at[0]);
	const int ranked = gp_query_ranked(sub);
	/* each table's room is made before it is written (a query's distinct terms and places are
	 * at most its terms) */
	if (tables_room(qt, 4 * nq + 2 * total_terms) != GP_OK) return GP_ENOMEM;
	/* queries first, filled as the terms and places are laid out after them */
	qt->queries = 0;
	qt->terms = (cl_uint)(4 * nq);
	qt->len = 4 * nq;
	for (size_t i = 0; i < nq; i++) {
		uint64_t from = plan->at[q0 + i], k = plan->at[q0 + i + 1] - from;
		qt->t[4 * i] = (cl_uint)(qt->len - qt->terms);
		qt->t[4 * i + 1] = plan->merged ? plan->merged[q0 + i] : (cl_uint)k;   /* the merged lists */
		memcpy(qt->t + qt->len, plan->ids + from, (size_t)k * sizeof(cl_uint));
		qt->len += (size_t)k;
	}
	qt->places = (cl_uint)qt->len;
	for (size_t i = 0; i < nq; i++) {
		/* a phrase's places, or a ranked query's (its terms in order, those the index lacks
		 * left out: they add nothing to a score) */
		cl_uint k = (cl_uint)(plan->at[q0 + i + 1] - plan->at[q0 + i]), n_places = 0;
		size_t n_terms = (sub->op == GP_IX_PHRASE || ranked) && k ? (size_t)(sub->at[i + 1] - sub->at[i]) : 0;
		const cl_uint *ids = qt->t + qt->terms + qt->t[4 * i];
		qt->t[4 * i + 2] = (cl_uint)(qt->len - qt->places);
		for (size_t p = 0; p < n_terms; p++) {
			cl_uint t = sub->terms[sub->at[i] + p], j = 0;
			while (j < k && ids[j] != t) j++;
			if (j == k) continue;
			qt->t[qt->len++] = j;
			n_places++;
		}
		qt->t[4 * i + 3] = n_places;
	}
	if (ranked) {   /* each place's IDF, two uints (low first) */
		if (tables_room(qt, 2 * total_terms) != GP_OK) return GP_ENOMEM;
		qt->idf = (cl_uint)qt->len;
		for (size_t i = 0; i < nq; i++) {
			const cl_uint *ids = qt->t + qt->terms + qt->t[4 * i];
			for (cl_uint p = 0; p < qt->t[4 * i + 3]; p++) {
				double idf = gp_bm25_idf(ix->n_len, gp_index_rank_df(ix, ids[qt->t[qt->places + qt->t[4 * i + 2] + p]]));
				uint64_t bits;
				memcpy(&bits, &idf, 8);
				qt->t[qt->len++] = (cl_uint)bits;
				qt->t[qt->len++] = (cl_uint)(bits >> 32);
			}
		}
	}
	if (tables_room(qt, nq + 1) != GP_OK) return GP_ENOMEM;
	qt->starts = (cl_uint)qt->len;
	qt->items = 0;
	for (size_t i = 0; i < nq; i++) {
		qt->t[qt->len++] = (cl_uint)qt->items;
		qt->items += plan->items[q0 + i];
		if (qt->items >= UINT32_MAX) break;
	}
	qt->t[qt->len++] = (cl_uint)qt->items;
	if (ranked && qt->items < UINT32_MAX && gp_cl_topk_tables(&qt->t, &qt->len, &qt->cap, qt->starts, nq, sub->limit, &qt->tiles) != GP_OK) return GP_ENOMEM;
	if (sub->op == GP_IX_OR) {
		/* segments: each (query, merged term) with its items */
		size_t segs = 0;
		for (size_t i = 0; i < nq; i++) segs += qt->t[4 * i + 1];
		if (tables_room(qt, 3 * segs + 1) != GP_OK) return GP_ENOMEM;
		qt->segs = (cl_uint)qt->len;
		qt->seg_query = qt->segs + (cl_uint)segs + 1;
		qt->seg_term = qt->seg_query + (cl_uint)segs;
		qt->n_segs = (cl_uint)segs;
		cl_uint at = 0, s = 0;
		for (size_t i = 0; i < nq; i++) {
			const cl_uint *ids = qt->t + qt->terms + qt->t[4 * i];
			for (cl_uint j = 0; j < qt->t[4 * i + 1]; j++, s++) {
				qt->t[qt->segs + s] = at;
				qt->t[qt->seg_query + s] = (cl_uint)i;
				qt->t[qt->seg_term + s] = j;
				at += gp_index_df(ix, ids[j]);
			}
		}
		qt->t[qt->segs + segs] = at;
		qt->len = qt->seg_term + segs;
	}
	return GP_OK;
}

static int set_failed(gp_error *err, const char *kernel)
{
	return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, kernel);
}

/* The launches: candidates and their marks, the marks' running count, the answers compacted and
 * each query's bounds. */
/* A chunk's device buffers: the candidates and their marks; unranked, the answers and each
 * query's bounds; ranked, each candidate's key and the rows (docs, keys) with their counts. */
typedef struct chunk_buffers {
	cl_mem tables, cand, kept, answers, bounds, keys, row_keys;
} chunk_buffers;

/* The launches: candidates and their marks; then either the marks' running count, the answers
 * compacted and each query's bounds, or (ranked) the candidates scored and each query's best
 * selected. */
static int launch(const gp_index *ix, const index_device *d, const gp_query_batch *q, const query_tables *qt,
                  const chunk_buffers *cb, gp_error *err)
{
	cl_uint n_items = (cl_uint)qt->items, nq = (cl_uint)q->n_queries;
	cl_mem tables = cb->tables, cand = cb->cand, kept = cb->kept;
	if (q->op == GP_IX_OR) {
		cl_kernel m = gp_cl_kernel(GP_K_INDEX_OR_MERGE), u = gp_cl_kernel(GP_K_INDEX_OR_UNIQUE);
		gp_args_index_or_merge am = {
			.docs = d->docs, .list_at = d->list_at, .qt = tables, .queries_off = qt->queries,
			.terms_off = qt->terms, .starts_off = qt->starts, .segs_off = qt->segs,
			.seg_query_off = qt->seg_query, .seg_term_off = qt->seg_term, .n_segs = qt->n_segs,
			.n_items = n_items, .merged = cand,
		};
		gp_args_index_or_unique au = {
			.merged = cand, .qt = tables, .starts_off = qt->starts, .n_queries = nq, .n_items = n_items,
			.keep = kept,
		};
		if (gp_set_index_or_merge(m, &am) != CL_SUCCESS) return set_failed(err, "clSetKernelArg(index_or_merge)");
		if (gp_set_index_or_unique(u, &au) != CL_SUCCESS) return set_failed(err, "clSetKernelArg(index_or_unique)");
		if (gp_cl_run(m, n_items, err) != GP_OK || gp_cl_run(u, n_items, err) != GP_OK) return GP_EDEVICE;
	} else {
		cl_kernel a = gp_cl_kernel(GP_K_INDEX_AND);
		gp_args_index_and aa = {
			.docs = d->docs, .list_at = d->list_at, .pos_at = d->pos_at, .positions = d->positions,
			.qt = tables, .queries_off = qt->queries, .terms_off = qt->terms, .places_off = qt->places,
			.starts_off = qt->starts, .n_queries = nq, .n_items = n_items, .phrase = q->op == GP_IX_PHRASE,
			.cand = cand, .keep = kept,
		};
		if (gp_set_index_and(a, &aa) != CL_SUCCESS) return set_failed(err, "clSetKernelArg(index_and)");
		if (gp_cl_run(a, n_items, err) != GP_OK) return GP_EDEVICE;
	}
	if (cb->keys) {
		cl_kernel sc = gp_cl_kernel(GP_K_INDEX_SCORE);
		gp_args_index_score as = {
			.cand = cand, .keep = kept, .docs = d->docs, .list_at = d->list_at, .pos_at = d->pos_at,
			.doc_len = d->doc_len, .qt = tables, .queries_off = qt->queries, .terms_off = qt->terms,
			.places_off = qt->places, .idf_off = qt->idf, .starts_off = qt->starts, .n_queries = nq,
			.n_items = n_items, .positional = ix->positional != 0, .k1_bits = gp_cl_double_bits(ix->k1),
			.b_bits = gp_cl_double_bits(ix->b), .avgdl_bits = gp_cl_double_bits(ix->avgdl), .keys = cb->keys,
		};
		if (gp_set_index_score(sc, &as) != CL_SUCCESS) return set_failed(err, "clSetKernelArg(index_score)");
		if (gp_cl_run(sc, n_items, err) != GP_OK) return GP_EDEVICE;
		return gp_cl_topk_launch(tables, &qt->tiles, cb->keys, cand, cb->answers, cb->row_keys, cb->bounds, err);
	}
	return gp_cl_index_compact(tables, qt->starts, nq, n_items, cand, kept, cb->answers, cb->bounds, err);
}

int gp_cl_topk_launch(cl_mem tables, const gp_topk_tiles *tt, cl_mem keys, cl_mem cand, cl_mem row_docs, cl_mem row_keys,
                      cl_mem counts, gp_error *err)
{
	cl_kernel tk = gp_cl_kernel(GP_K_INDEX_TOP_K);
	gp_args_index_top_k at = {
		.keys = keys, .cand = cand, .qt = tables, .starts_off = tt->tile_starts, .rows_off = tt->rows,
		.n_queries = tt->n_tiles, .out_doc = row_docs, .out_key = row_keys, .out_n = counts,
		.hist_bytes = ((size_t)1 << 11) * 4 + 32, .scan_bytes = gp_cl_wg() * 4,
	};
	if (gp_set_index_top_k(tk, &at) != CL_SUCCESS) return set_failed(err, "clSetKernelArg(index_top_k)");
	if (gp_cl_run(tk, (size_t)tt->n_tiles * gp_cl_wg(), err) != GP_OK) return GP_EDEVICE;
	return GP_OK;
}

int gp_cl_index_compact(cl_mem tables, cl_uint starts_off, cl_uint n_queries, cl_uint n_items, cl_mem cand,
                        cl_mem kept, cl_mem answers, cl_mem bounds, gp_error *err)
{
	if (gp_cl_scan_u32(kept, kept, n_items, 1, err) != GP_OK) return GP_EDEVICE;
	cl_kernel c = gp_cl_kernel(GP_K_INDEX_COMPACT), b = gp_cl_kernel(GP_K_INDEX_BOUNDS);
	gp_args_index_compact ac = {.cand = cand, .kept = kept, .n_items = n_items, .out = answers};
	gp_args_index_bounds ab = {.kept = kept, .qt = tables, .starts_off = starts_off, .n_queries = n_queries, .bounds = bounds};
	if (gp_set_index_compact(c, &ac) != CL_SUCCESS) return set_failed(err, "clSetKernelArg(index_compact)");
	if (gp_set_index_bounds(b, &ab) != CL_SUCCESS) return set_failed(err, "clSetKernelArg(index_bounds)");
	if (gp_cl_run(c, n_items, err) != GP_OK || gp_cl_run(b, (size_t)n_queries + 1, err) != GP_OK) return GP_EDEVICE;
	return GP_OK;
}

/* Compressed lists: a list's decoded entries (its docs, and its positions for a phrase). */
static uint64_t list_entries(const gp_index *ix, uint32_t t, int positions)
{
	uint64_t e = gp_index_df(ix, t);
	if (positions && e) e += ix->pos_at[ix->list_at[t + 1]] - ix->pos_at[ix->list_at[t]];
	return e;
}

/* A fresh mark for a chunk's distinct lists. */
static uint32_t next_epoch(index_device *d, uint32_t n_terms)
{
	if (++d->epoch == 0) {
		memset(d->mark, 0, (size_t)n_terms * sizeof(uint32_t));
		d->epoch = 1;
	}
	return d->epoch;
}

/* The entries query i adds to the chunk of epoch e (its lists not yet marked), marked with
 * `take`. */
static uint64_t query_entries(const gp_index *ix, index_device *d, const batch_plan *plan, size_t i,
                              int positions, uint32_t e, int take)
{
	uint64_t n = 0;
	for (uint64_t k = plan->at[i]; k < plan->at[i + 1]; k++) {
		uint32_t t = plan->ids[k];
		if (d->mark[t] == e) continue;
		n += list_entries(ix, t, positions);
		if (take) d->mark[t] = e;
	}
	return n;
}

/* The lists of a chunk's queries, kept compressed on the device, decoded by the formats' own
 * passes into view's docs (and pos_at and positions for a phrase); view->list_at is the
 * chunk's list table, whose lists the query tables' term ids are remapped to. Lists whose
 * decode differs from the blob's (ix->merged) come from the host, decoded, in the table. */
static int decode_lists(const gp_index *ix, const gp_query_batch *sub, const batch_plan *plan, size_t q0,
                        query_tables *qt, index_device *view, const gp_budget *budget, gp_error *err)
{
	index_device *d = ix->device;
	/* positions for a phrase; only their counts (tf, pos_at) for a ranked query */
	const int with_pos = (sub->op == GP_IX_PHRASE || sub->limit > 0) && ix->positional;
	const int phrase = sub->op == GP_IX_PHRASE && ix->positional;
	const uint32_t e = next_epoch(d, ix->n_terms);
	uint64_t from = plan->at[q0], to = plan->at[q0 + sub->n_queries];
	size_t n = 0, n_dec = 0, n_sent = 0;
	uint64_t np_dec = 0, np_sent = 0, pos_sent = 0, words = 0, values = 0;
	cl_uint *ids = malloc((size_t)(to - from + 1) * sizeof(cl_uint));
	cl_uint *lt = NULL;
	const uint8_t **blobs = NULL;
	size_t *lens = NULL;
	int rc = GP_OK;
	if (!ids) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the batch's lists");
	/* the distinct lists: those decoded here first, then those sent, then the empty */
	for (int cls = 0; cls < 3; cls++) {
		for (uint64_t k = from; k < to; k++) {
			uint32_t t = plan->ids[k], df = gp_index_df(ix, t);
			int c = df == 0 ? 2 : ix->merged[t] ? 1 : 0;
			if (c != cls || d->mark[t] == e) continue;
			d->mark[t] = e;
			d->local[t] = (uint32_t)n;
			ids[n++] = t;
			if (c == 0) {
				n_dec++;
				np_dec += df;
				words += d->word_at[t + 1] - d->word_at[t];
				values += list_entries(ix, t, ix->positional);
			} else if (c == 1) {
				n_sent++;
				np_sent += df;
				if (phrase) pos_sent += list_entries(ix, t, 1) - df;
			}
		}
	}
	const uint64_t np = np_dec + np_sent;
	/* the list table: list_at (n + 1); MOD9's gather: each decoded blob's first word in the
	 * resident blobs and in the gathered words (n_dec + 1); the sent lists' docs, and for a
	 * phrase their postings' first positions (np_sent + 1) and positions */
	const uint64_t src_off = n + 1, dst_off = src_off + n_dec, sent_docs_off = dst_off + n_dec + 1;
	const uint64_t sent_pos_at_off = sent_docs_off + np_sent, sent_positions_off = sent_pos_at_off + (with_pos ? np_sent + 1 : 0);
	const uint64_t lt_len = sent_positions_off + pos_sent;
	uint64_t scratch = lt_len * 4 + words * 4 + np * 8 + (with_pos ? values * 8 + (np + 1) * 8 + words * 13 : words * 8);
	if (np >= UINT32_MAX || lt_len >= UINT32_MAX || values >= UINT32_MAX) {
		rc = gp_cl_fail(err, CL_INVALID_VALUE, "a query's lists of 2^32 or more entries");
		goto done;
	}
	if ((rc = gp_budget_check(budget, 0, scratch, "the batch's decoded lists", err)) != GP_OK) goto done;
	if (!(lt = malloc((size_t)(lt_len + 1) * sizeof(cl_uint))) || !(blobs = malloc((n_dec + 1) * sizeof(*blobs))) ||
	    !(lens = malloc((n_dec + 1) * sizeof(*lens)))) {
		rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the batch's list table");
		goto done;
	}
	lt[0] = 0;
	lt[dst_off] = 0;
	if (with_pos) lt[sent_pos_at_off] = 0;
	for (size_t j = 0, sd = 0, sp = 0; j < n; j++) {
		uint32_t t = ids[j], df = gp_index_df(ix, t);
		lt[j + 1] = lt[j] + df;
		if (j < n_dec) {
			lt[src_off + j] = d->word_at[t];
			lt[dst_off + j + 1] = lt[dst_off + j] + (d->word_at[t + 1] - d->word_at[t]);
			blobs[j] = ix->blobs + ix->blob_at[t];
			lens[j] = (size_t)(ix->blob_at[t + 1] - ix->blob_at[t]);
		} else if (df) {
			uint64_t a = ix->list_at[t];
			memcpy(lt + sent_docs_off + sd, ix->docs + a, (size_t)df * 4);
			for (uint32_t p = 0; with_pos && p < df; p++, sd++) {
				uint64_t pa = ix->pos_at[a + p], m = ix->pos_at[a + p + 1] - pa;
				if (phrase) memcpy(lt + sent_positions_off + sp, ix->positions + pa, (size_t)m * 4);
				sp += m;
				lt[sent_pos_at_off + sd + 1] = (cl_uint)sp;
			}
			if (!with_pos) sd += df;
		}
	}
	/* the query tables name the chunk's lists */
	for (cl_uint k = qt->terms; k < qt->places; k++) qt->t[k] = d->local[qt->t[k]];

	const uint8_t *part = (const uint8_t *)lt;
	size_t bytes = (size_t)lt_len * 4;
	cl_mem ltm = gp_cl_upload(GP_B_IX_LISTS, &part, &bytes, 1, bytes, err), d32 = NULL, d64 = NULL;
	gp_cl_mod9_out o = {0};
	if (!ltm) {
		rc = GP_EDEVICE;
		goto done;
	}
	if (n_dec && ix->format == GP_IX_MOD9) {
		cl_mem w = gp_cl_buffer(GP_B_INPUT, (size_t)words * 4, err);
		cl_kernel g = gp_cl_kernel(GP_K_INDEX_GATHER_WORDS);
		if (!w) {
			rc = GP_EDEVICE;
			goto done;
		}
		cl_int st = gp_set_index_gather_words(g, &(gp_args_index_gather_words){
			.resident = d->blobs, .lt = ltm, .src_off = (cl_uint)src_off, .dst_off = (cl_uint)dst_off,
			.n_blobs = (cl_uint)n_dec, .n_words = (cl_uint)words, .words = w});
		if (st != CL_SUCCESS || gp_cl_run(g, (size_t)words, err) != GP_OK ||
		    gp_cl_mod9_resident(w, lt + dst_off, n_dec, with_pos, (size_t)values, &o, err) != GP_OK) {
			rc = st != CL_SUCCESS ? gp_cl_fail(err, st, "clSetKernelArg(index_gather_words)") : GP_EDEVICE;
			goto done;
		}
		d32 = o.docs32;
		d64 = o.docs;
	} else if (n_dec) {
		gp_cl_resident_lists in = {.input = d->blobs, .blobs = blobs, .lens = lens, .word_at = lt + src_off, .n = n_dec};
		if ((ix->format == GP_IX_S9 ? gp_cl_s9_resident(&in, &d64, err) : gp_cl_qs_resident(&in, &d32, err)) != GP_OK) {
			rc = GP_EDEVICE;
			goto done;
		}
	}
	view->list_at = ltm;
	if (!with_pos && d32 && n_sent == 0) {   /* already the layout */
		view->docs = view->pos_at = view->positions = d32;
		goto done;
	}
	cl_mem docs = gp_cl_buffer(GP_B_IX_DOCS, (size_t)np * 4 + 4, err), pos_at = NULL, positions = NULL;
	if (!docs || (with_pos && !(pos_at = gp_cl_buffer(GP_B_IX_POS_AT, ((size_t)np + 1) * 4, err))) ||
	    (phrase && !(positions = gp_cl_buffer(GP_B_IX_POSITIONS, (size_t)(values + pos_sent) * 4 + 4, err)))) {
		rc = GP_EDEVICE;
		goto done;
	}
	cl_kernel k = gp_cl_kernel(GP_K_INDEX_LIST_DOCS);
	cl_int st = gp_set_index_list_docs(k, &(gp_args_index_list_docs){
		.d32 = d32, .d64 = d64, .wide = d64 != NULL, .vstart = o.vstart, .combined = o.combined, .lt = ltm,
		.sent_docs_off = (cl_uint)sent_docs_off, .sent_pos_at_off = (cl_uint)sent_pos_at_off,
		.n_decoded = (cl_uint)np_dec, .n = (cl_uint)np, .docs = docs, .counts = pos_at});
	if (st != CL_SUCCESS) {
		rc = gp_cl_fail(err, st, "clSetKernelArg(index_list_docs)");
		goto done;
	}
	if (gp_cl_run(k, (size_t)np + 1, err) != GP_OK) {
		rc = GP_EDEVICE;
		goto done;
	}
	view->docs = view->pos_at = view->positions = docs;
	if (!with_pos) goto done;
	if (gp_cl_scan_u32(pos_at, pos_at, (size_t)np + 1, 0, err) != GP_OK) {
		rc = GP_EDEVICE;
		goto done;
	}
	view->pos_at = pos_at;
	if (!phrase) goto done;   /* ranked: the counts are what a score reads */
	k = gp_cl_kernel(GP_K_INDEX_LIST_POSITIONS);
	st = gp_set_index_list_positions(k, &(gp_args_index_list_positions){
		.pos32 = o.pos32, .vstart = o.vstart, .combined = o.combined, .lt = ltm,
		.sent_pos_at_off = (cl_uint)sent_pos_at_off, .sent_positions_off = (cl_uint)sent_positions_off,
		.n_decoded = (cl_uint)np_dec, .n = (cl_uint)np, .pos_at = pos_at, .positions = positions});
	if (st != CL_SUCCESS) {
		rc = gp_cl_fail(err, st, "clSetKernelArg(index_list_positions)");
		goto done;
	}
	if (gp_cl_run(k, (size_t)np, err) != GP_OK) {
		rc = GP_EDEVICE;
		goto done;
	}
	view->positions = positions;
done:
	free(ids);
	free(lt);
	free(blobs);
	free(lens);
	return rc;
}

/* Room for out->total answers (with scores when ranked), checked against the budget. */
static int answers_room(gp_answers *out, size_t *cap, int ranked, const gp_budget *budget, size_t upto,
                        gp_error *err)
{
	if (gp_answers_admit(out, upto, ranked, budget, err) != GP_OK) return GP_ENOMEM;
	if (out->total <= *cap) return GP_OK;
	size_t want = (size_t)out->total + (size_t)out->total / 2;
	uint32_t *d = realloc(out->docs, want * 4);
	if (d) out->docs = d;
	double *sc = ranked ? realloc(out->scores, want * sizeof(double)) : NULL;
	if (sc) out->scores = sc;
	if (!d || (ranked && !sc)) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the answers");
	*cap = want;
	return GP_OK;
}

typedef struct ranked_row {
	uint64_t key;
	uint32_t doc;
} ranked_row;

/* Best first: the larger score (its key orders as it does), then the smaller doc. */
static int row_order(const void *a, const void *b)
{
	const ranked_row *x = a, *y = b;
	if (x->key != y->key) return x->key > y->key ? -1 : 1;
	return x->doc < y->doc ? -1 : x->doc > y->doc;
}

int gp_cl_topk_rows(const cl_uint *t, const gp_topk_tiles *tt, const uint32_t *docs, const uint64_t *keys, int sortable,
                    const cl_uint *n, size_t q0, size_t nq, uint32_t k, int count_only, const gp_budget *budget, gp_answers *out,
                    size_t *cap, gp_error *err)
{
	ranked_row *r = malloc(((size_t)tt->n_rows + 1) * sizeof(*r));
	int rc = GP_OK;
	if (!r) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the ranked rows");
	for (size_t i = 0; i < nq; i++) {
		size_t m = 0;
		for (cl_uint j = t[tt->tile_at + i]; j < t[tt->tile_at + i + 1] && !count_only; j++) {
			const size_t from = t[tt->rows + j];
			for (size_t x = 0; x < n[j]; x++) r[m++] = (ranked_row){keys[from + x], docs[from + x]};
		}
		qsort(r, m, sizeof(*r), row_order);
		if (m > k) m = k;
		uint64_t base = out->total;
		out->total += m;
		out->at[q0 + i + 1] = out->total;
		if (m == 0) continue;
		if ((rc = answers_room(out, cap, 1, budget, q0 + i + 1, err)) != GP_OK) break;
		for (size_t j = 0; j < m; j++) {
			const uint64_t k = r[j].key, bits = !sortable ? k : (k >> 63) ? k & ~((uint64_t)1 << 63) : ~k;
			out->docs[base + j] = r[j].doc;
			memcpy(&out->scores[base + j], &bits, 8);
		}
	}
	free(r);
	return rc;
}

/* Queries [q0, q0 + sub->n_queries) of a batch: their answers appended to out (out->at[q0] set
 * on entry). */
static int query_chunk(const gp_index *ix, const gp_query_batch *sub, const batch_plan *plan,
                       size_t q0, const gp_budget *budget, gp_answers *out,
                       size_t *cap, gp_error *err)
{
	query_tables qt = {0};
	size_t nq = sub->n_queries;
	int rc;
	cl_uint *b = NULL;
	uint32_t *row_docs = NULL;
	uint64_t *row_keys = NULL;
	if (build_tables(ix, sub, plan, q0, &qt) != GP_OK) {
		rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the query tables");
		goto done;
	}
	GP_TRACE("index: query tables");
	if (qt.items >= UINT32_MAX || qt.len >= UINT32_MAX) {
		rc = gp_cl_fail(err, CL_INVALID_VALUE, "a query of 2^32 or more candidates");
		goto done;
	}
	if (qt.items == 0) {   /* nothing can match: every answer empty */
		for (size_t i = 1; i <= nq; i++) out->at[q0 + i] = out->at[q0];
		rc = GP_OK;
		goto done;
	}
	/* the device's own buffers beside the answers (checked again once their count is known) */
	/* ranked: each candidate's key, the rows' keys and the host's copy of the rows */
	if ((rc = gp_budget_check(budget, 0, qt.items * (sub->limit ? 20 : 12) + qt.tiles.n_rows * 28 + qt.len * 4,
	                          "the batch's device buffers", err)) != GP_OK) goto done;
	index_device lists = *(const index_device *)ix->device;
	if (ix->device_compressed && (rc = decode_lists(ix, sub, plan, q0, &qt, &lists, budget, err)) != GP_OK) goto done;
	GP_TRACE("index: lists decoded");
	const uint8_t *part = (const uint8_t *)qt.t;
	size_t bytes = qt.len * sizeof(cl_uint);
	const int ranked = gp_query_ranked(sub);
	const size_t bounds = ranked ? (size_t)qt.tiles.n_tiles : nq;   /* a count a tile, or a bound a query */
	chunk_buffers cb = {0};
	if (!(cb.tables = gp_cl_upload(GP_B_IX_QUERY_TABLES, &part, &bytes, 1, bytes, err)) ||
	    !(cb.cand = gp_cl_buffer(GP_B_IX_CANDIDATES, (size_t)qt.items * 4, err)) ||
	    !(cb.kept = gp_cl_buffer(GP_B_IX_KEPT, (size_t)qt.items * 4, err)) ||
	    !(cb.answers = gp_cl_buffer(GP_B_IX_ANSWERS, (size_t)qt.items * 4, err)) ||
	    !(cb.bounds = gp_cl_buffer(GP_B_IX_BOUNDS, (bounds + 1) * 4, err)) ||
	    (ranked && (!(cb.keys = gp_cl_buffer(GP_B_IX_KEYS, (size_t)qt.items * 8, err)) ||
	                !(cb.row_keys = gp_cl_buffer(GP_B_IX_ROW_KEYS, (size_t)qt.tiles.n_rows * 8 + 8, err))))) {
		rc = GP_EDEVICE;
		goto done;
	}
	if ((rc = launch(ix, &lists, sub, &qt, &cb, err)) != GP_OK) goto done;
	const size_t rows = ranked ? (size_t)qt.tiles.n_rows : 0;
	b = malloc((bounds + 1) * sizeof(cl_uint));
	row_docs = malloc(rows * 4 + 4);
	row_keys = malloc(rows * 8 + 8);
	if (!b || !row_docs || !row_keys) {
		rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the answers' bounds and rows");
		goto done;
	}
	/* a ranked chunk's rows are at most k a tile (a tile of more than 64 k candidates): read
	 * with their bounds in one round trip */
	const gp_cl_read_part parts[3] = {{cb.bounds, 0, (bounds + 1) * 4, b},
	                                  {cb.answers, 0, rows * 4, row_docs},
	                                  {cb.row_keys, 0, rows * 8, row_keys}};
	if ((rc = gp_cl_read_parts(parts, ranked ? 3 : 1, err)) != GP_OK) goto done;
	if (ranked) {
		rc = gp_cl_topk_rows(qt.t, &qt.tiles, row_docs, row_keys, 0, b, q0, nq, sub->limit, sub->count_only, budget, out, cap, err);
		goto done;
	}
	uint64_t base = out->at[q0], n = b[nq];
	for (size_t i = 1; i <= nq; i++) out->at[q0 + i] = base + b[i];
	out->total = base + n;
	if (!sub->count_only && n > 0) {
		if ((rc = answers_room(out, cap, 0, budget, q0 + nq, err)) != GP_OK) goto done;
		if ((rc = gp_cl_read(cb.answers, (size_t)n * 4, out->docs + base, err)) != GP_OK) goto done;
	}
	rc = GP_OK;
done:
	free(b);
	free(row_docs);
	free(row_keys);
	free(qt.t);
	return rc;
}

static int index_query(const gp_index *ix, const gp_query_batch *q, const gp_budget *budget, const double *theta,
                       int shortest, gp_answers *out, gp_error *err);

/* A ranked OR batch's pruning thresholds: each query's top k among the docs of its shortest list
 * (its rarest term: few candidates, high scores), scored exactly on all its lists, so that the
 * k-th of them (0 when fewer) is a score the query's top k reaches; under it, the lists that
 * cannot lift a doc are left out of its candidates (prune_or). */
static int or_thresholds(const gp_index *ix, const gp_query_batch *q, const gp_budget *budget, double **theta,
                         gp_error *err)
{
	gp_query_batch probe = *q;
	gp_answers a;
	probe.count_only = 0;
	int rc = index_query(ix, &probe, budget, NULL, 1, &a, err);
	if (rc != GP_OK) return rc;
	*theta = malloc((q->n_queries + 1) * sizeof(double));
	if (!*theta) {
		gp_answers_free(&a);
		return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the batch's thresholds");
	}
	for (size_t i = 0; i < q->n_queries; i++) {
		(*theta)[i] = a.at[i + 1] - a.at[i] == q->limit ? a.scores[a.at[i + 1] - 1] : 0.0;
	}
	gp_answers_free(&a);
	return GP_OK;
}

int gp_cl_index_query(const gp_index *ix, const gp_query_batch *q, const gp_budget *budget,
                      gp_answers *out, gp_error *err)
{
	double *theta = NULL;
	if (q->op == GP_IX_OR && q->limit > 0 && gp_cl_index_prune(gp_query_work(ix, q))) {
		int rc = or_thresholds(ix, q, budget, &theta, err);
		if (rc != GP_OK) return rc;
		GP_TRACE("index: thresholds");
	}
	int rc = index_query(ix, q, budget, theta, 0, out, err);
	free(theta);
	return rc;
}

static int index_query(const gp_index *ix, const gp_query_batch *q, const gp_budget *budget, const double *theta,
                       int shortest, gp_answers *out, gp_error *err)
{
	size_t nq = q->n_queries, cap = 1;
	batch_plan plan = {0};
	int rc = GP_OK;
	memset(out, 0, sizeof(*out));
	out->n_queries = nq;
	out->docs = malloc(sizeof(uint32_t));
	if (gp_query_ranked(q)) out->scores = malloc(sizeof(double));
	if (!out->docs || !(out->at = calloc(nq + 1, sizeof(uint64_t))) || plan_batch(ix, q, theta, shortest, &plan) != GP_OK ||
	    (gp_query_ranked(q) && !out->scores)) {
		gp_answers_free(out);
		return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the batch's plan");
	}
	/* a batch runs as chunks of consecutive queries, each of at most gp_cl_index_chunk_items()
	 * candidates (or one query), to bound the device buffers */
	uint64_t chunk = gp_cl_index_chunk_items();
	index_device *d = ix->device;
	const int with_pos = (q->op == GP_IX_PHRASE || q->limit > 0) && ix->positional, compressed = ix->device_compressed;
	for (size_t q0 = 0, q1; q0 < nq && rc == GP_OK; q0 = q1) {
		/* compressed lists: also at most `chunk` entries of distinct lists decoded a chunk */
		uint32_t e = compressed ? next_epoch(d, ix->n_terms) : 0;
		uint64_t items = plan.items[q0], entries = compressed ? query_entries(ix, d, &plan, q0, with_pos, e, 1) : 0;
		for (q1 = q0 + 1; q1 < nq && items + plan.items[q1] <= chunk; q1++) {
			if (compressed) {
				uint64_t more = query_entries(ix, d, &plan, q1, with_pos, e, 0);
				if (entries + more > chunk) break;
				entries += query_entries(ix, d, &plan, q1, with_pos, e, 1);
			}
			items += plan.items[q1];
		}
		gp_query_batch sub = {q->op, q1 - q0, q->terms, q->at + q0, q->count_only, q->limit};
		rc = query_chunk(ix, &sub, &plan, q0, budget, out, &cap, err);
	}
	plan_free(&plan);
	if (rc != GP_OK) gp_answers_free(out);
	return rc;
}
