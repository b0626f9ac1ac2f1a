/* Launcher of kernels/tree.cl: a batch of query trees over an index's resident decoded lists, in
 * one upload of its tables (query/gp_tree_program.h's programs and covers; ranked, each tree's
 * IDFs and the column weights), one sequence of launches (the covers merged by doc, the programs
 * run at each candidate; the matches compacted, or ranked scored and each tree's best selected
 * by tiles) and one or two reads (the counts, then the matches; ranked, the tiles' rows with
 * their counts), a chunk of consecutive trees at a time within gp_cl_index_chunk_items()
 * candidates. */
#include <stdlib.h>
#include <string.h>

#include "gp_cl_internal.h"
#include "gp_cl_index_device.h"
#include "../index/gp_index.h"
#include "../query/gp_query.h"
#include "../query/gp_tree_program.h"
#include "../query/gp_tree_query.h"

_Static_assert(GP_IX_COLUMN_SHIFT == 20, "kernels/tree.cl reads columns as position >> 20");

/* The tables of trees [q0, q1): index.cl's OR layout over each tree's cover terms (queries,
 * terms, starts, segments), then each tree's program and where it starts. */
typedef struct tree_tables {
	cl_uint *t;
	size_t len, cap;
	cl_uint queries, terms, starts, segs, seg_query, seg_term, n_segs, prog_at;
	cl_uint idf_at, weights;  /* ranked: each tree's IDFs' first word; the column weights */
	cl_uint sel;              /* the selection's first word (kernels/tree.cl says its layout) */
	gp_topk_tiles tiles;      /* ranked: the top k's tiles */
	uint64_t items;
} tree_tables;

static void put_double(cl_uint *w, double v)
{
	const uint64_t bits = gp_cl_double_bits(v);
	w[0] = (cl_uint)bits;
	w[1] = (cl_uint)(bits >> 32);
}

static double word_double(const cl_uint *w)
{
	const uint64_t bits = (uint64_t)w[1] << 32 | w[0];
	double v;
	memcpy(&v, &bits, 8);
	return v;
}

/* Two words a double (the tables are 4-byte aligned): by value. */
static int cmp_double_words(const void *a, const void *b)
{
	const double x = word_double(a), y = word_double(b);
	return x < y ? -1 : x > y;
}

/* The selection's words at t[at ..): its head, its filters, their sets (sorted, NaN left out:
 * it equals no value); the words it takes. */
static size_t put_selection(cl_uint *t, size_t at, const gp_tree_batch *sel)
{
	const uint32_t nf = sel ? sel->n_filters : 0;
	cl_uint *h = t + at;
	size_t set_at = at + GP_TP_SEL_WORDS + (size_t)GP_TP_FILTER_WORDS * nf;
	h[0] = nf;
	/* (a prior and an order rank: an unranked batch's are not read) */
	const int ranked = sel && sel->limit > 0;
	h[1] = ranked && sel->prior_attr >= 0 ? (cl_uint)sel->prior_attr : GP_TP_NO_ATTR;
	put_double(h + 2, ranked && sel->prior_attr >= 0 ? sel->prior_weight : 0.0);
	h[4] = ranked && sel->order_attr >= 0 ? (cl_uint)sel->order_attr : GP_TP_NO_ATTR;
	h[5] = sel && sel->order_desc;
	for (uint32_t f = 0; f < nf; f++) {
		const gp_tree_filter *x = &sel->filters[f];
		cl_uint *e = h + GP_TP_SEL_WORDS + GP_TP_FILTER_WORDS * f;
		uint32_t n = 0;
		for (uint32_t i = 0; x->set && i < x->n_set; i++) {
			if (x->set[i] == x->set[i]) put_double(t + set_at + 2 * n++, x->set[i] == 0.0 ? 0.0 : x->set[i]);
		}
		qsort(t + set_at, n, 2 * sizeof(cl_uint), cmp_double_words);
		e[0] = x->attr;
		e[1] = x->set ? n : 0;
		e[2] = (cl_uint)set_at;
		e[3] = 0;
		/* a set of no value but NaN: a range no value is in */
		put_double(e + 4, x->set ? 1.0 : x->lo);
		put_double(e + 6, x->set ? 0.0 : x->hi);
		set_at += 2 * (size_t)n;
	}
	return set_at - at;
}

/* Words the selection takes at most. */
static uint64_t selection_words(const gp_tree_batch *sel)
{
	uint64_t w = GP_TP_SEL_WORDS;
	for (uint32_t f = 0; sel && f < sel->n_filters; f++) w += GP_TP_FILTER_WORDS + 2 * (uint64_t)(sel->filters[f].set ? sel->filters[f].n_set : 0);
	return w;
}

static int tree_tables_build(const gp_index *ix, const gp_tree_programs *p, const gp_tree_ranking *rk, const gp_tree_batch *sel,
                             size_t q0, size_t q1, tree_tables *tt)
{
	const size_t nq = q1 - q0;
	const uint64_t n_cover = p->cover_at[q1] - p->cover_at[q0], words = p->prog_at[q1] - p->prog_at[q0];
	const uint64_t idfs = rk ? rk->idf_at[q1] - rk->idf_at[q0] : 0, n_weights = rk ? rk->n_weights : 0;
	const uint64_t len = 4 * (uint64_t)nq + n_cover + (nq + 1) + 3 * n_cover + 1 + nq + words + (rk ? nq + 2 * idfs + 2 * n_weights : 0) +
	                     selection_words(sel);
	if (len >= UINT32_MAX || !(tt->t = malloc((size_t)len * sizeof(cl_uint)))) return GP_ENOMEM;
	tt->cap = (size_t)len;
	cl_uint *t = tt->t;
	tt->queries = 0;
	tt->terms = (cl_uint)(4 * nq);
	tt->starts = tt->terms + (cl_uint)n_cover;
	tt->segs = tt->starts + (cl_uint)nq + 1;
	tt->seg_query = tt->segs + (cl_uint)n_cover + 1;
	tt->seg_term = tt->seg_query + (cl_uint)n_cover;
	tt->prog_at = tt->seg_term + (cl_uint)n_cover;
	tt->n_segs = (cl_uint)n_cover;
	const cl_uint programs = tt->prog_at + (cl_uint)nq;
	uint64_t items = 0;
	cl_uint s = 0;
	for (size_t i = 0; i < nq; i++) {
		const uint64_t from = p->cover_at[q0 + i], k = p->cover_at[q0 + i + 1] - from;
		t[4 * i] = (cl_uint)(from - p->cover_at[q0]);
		t[4 * i + 1] = (cl_uint)k;
		t[4 * i + 2] = t[4 * i + 3] = 0;
		t[tt->starts + i] = (cl_uint)items;
		for (uint64_t j = 0; j < k; j++, s++) {
			const uint32_t term = p->cover[from + j];
			t[tt->terms + t[4 * i] + j] = term;
			t[tt->segs + s] = (cl_uint)items;
			t[tt->seg_query + s] = (cl_uint)i;
			t[tt->seg_term + s] = (cl_uint)j;
			items += gp_index_df(ix, term);
		}
		if (items >= UINT32_MAX) return GP_EVALUE;
		t[tt->prog_at + i] = programs + (cl_uint)(p->prog_at[q0 + i] - p->prog_at[q0]);
	}
	t[tt->starts + nq] = (cl_uint)items;
	t[tt->segs + n_cover] = (cl_uint)items;
	memcpy(t + programs, p->words + p->prog_at[q0], (size_t)words * sizeof(cl_uint));
	tt->len = programs + (size_t)words;
	tt->items = items;
	tt->sel = (cl_uint)tt->len;
	tt->len += put_selection(t, tt->len, sel);
	if (rk) {   /* each tree's IDFs (two words a phrase), then the weights */
		tt->idf_at = (cl_uint)tt->len;
		cl_uint at = tt->idf_at + (cl_uint)nq;
		for (size_t i = 0; i < nq; i++) {
			t[tt->idf_at + i] = at;
			for (uint64_t j = rk->idf_at[q0 + i]; j < rk->idf_at[q0 + i + 1]; j++, at += 2) put_double(t + at, rk->idf[j]);
		}
		tt->weights = at;
		for (uint32_t c = 0; c < rk->n_weights; c++) put_double(t + tt->weights + 2 * c, rk->weights[c]);
		tt->len = (size_t)tt->weights + 2 * (size_t)rk->n_weights;
		if (gp_cl_topk_tables(&tt->t, &tt->len, &tt->cap, tt->starts, nq, rk->limit, &tt->tiles) != GP_OK) return GP_ENOMEM;
	}
	return GP_OK;
}

static int args_failed(gp_error *err, const char *kernel)
{
	return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, kernel);
}

/* Trees [q0, q1) answered into out (out->at[q0] set on entry; docs, and ranked their scores,
 * grown as they come). */
static int tree_chunk(const gp_index *ix, const gp_tree_programs *p, const gp_tree_ranking *rk, const gp_tree_batch *sel,
                      size_t q0, size_t q1, int count_only, const gp_budget *budget, gp_answers *out, size_t *cap,
                      gp_error *err)
{
	tree_tables tt = {0};
	const size_t nq = q1 - q0;
	cl_uint *b = NULL;
	uint32_t *row_docs = NULL;
	uint64_t *row_keys = NULL;
	int rc = tree_tables_build(ix, p, rk, sel, q0, q1, &tt);
	if (rc != GP_OK) {
		free(tt.t);
		return rc == GP_EVALUE ? GP_EVALUE : gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the trees' tables");
	}
	if (tt.items == 0) {
		for (size_t i = 1; i <= nq; i++) out->at[q0 + i] = out->at[q0];
		free(tt.t);
		return GP_OK;
	}
	const size_t bounds = rk ? (size_t)tt.tiles.n_tiles : nq, rows = rk ? (size_t)tt.tiles.n_rows : 0;
	if ((rc = gp_budget_check(budget, 0, tt.items * (rk ? 16 : 12) + rows * 28 + tt.len * 4, "the trees' device buffers", err)) != GP_OK) {
		free(tt.t);
		return rc;
	}
	const index_device *d = ix->device;
	cl_mem attrs = d->attrs ? d->attrs : d->docs;   /* read only with a selection, which needs them */
	const uint8_t *part = (const uint8_t *)tt.t;
	size_t bytes = tt.len * sizeof(cl_uint);
	cl_mem tables, cand, kept = NULL, keys = NULL, answers, bounds_buf, row_keys_buf = NULL;
	const cl_uint n_items = (cl_uint)tt.items, n = (cl_uint)nq;
	if (!(tables = gp_cl_upload(GP_B_IX_QUERY_TABLES, &part, &bytes, 1, bytes, err)) ||
	    !(cand = gp_cl_buffer(GP_B_IX_CANDIDATES, (size_t)tt.items * 4, err)) ||
	    (!rk && !(kept = gp_cl_buffer(GP_B_IX_KEPT, (size_t)tt.items * 4, err))) ||
	    (rk && !(keys = gp_cl_buffer(GP_B_IX_KEYS, (size_t)tt.items * 8, err))) ||
	    !(answers = gp_cl_buffer(GP_B_IX_ANSWERS, rk ? rows * 4 + 4 : (size_t)tt.items * 4, err)) ||
	    (rk && !(row_keys_buf = gp_cl_buffer(GP_B_IX_ROW_KEYS, rows * 8 + 8, err))) ||
	    !(bounds_buf = gp_cl_buffer(GP_B_IX_BOUNDS, (bounds + 1) * 4, err))) {
		free(tt.t);
		return GP_EDEVICE;
	}
	cl_kernel m = gp_cl_kernel(GP_K_INDEX_OR_MERGE);
	gp_args_index_or_merge am = {
		.docs = d->docs, .list_at = d->list_at, .qt = tables, .queries_off = tt.queries, .terms_off = tt.terms,
		.starts_off = tt.starts, .segs_off = tt.segs, .seg_query_off = tt.seg_query, .seg_term_off = tt.seg_term,
		.n_segs = tt.n_segs, .n_items = n_items, .merged = cand,
	};
	if (gp_set_index_or_merge(m, &am) != CL_SUCCESS) rc = args_failed(err, "clSetKernelArg(index_or_merge)");
	else if (gp_cl_run(m, n_items, err) != GP_OK) rc = GP_EDEVICE;
	else if (rk) {
		cl_kernel e = gp_cl_kernel(GP_K_INDEX_TREE_RANK);
		gp_args_index_tree_rank ae = {
			.docs = d->docs, .list_at = d->list_at, .pos_at = d->pos_at, .positions = d->positions, .doc_len = d->doc_len,
			.qt = tables, .starts_off = tt.starts, .prog_at_off = tt.prog_at, .idf_at_off = tt.idf_at,
			.weights_off = tt.weights, .n_weights = rk->n_weights, .n_queries = n, .n_items = n_items,
			.columns = ix->n_columns > 0, .positional = ix->positional != 0, .k1_bits = gp_cl_double_bits(ix->k1),
			.b_bits = gp_cl_double_bits(ix->b), .avgdl_bits = gp_cl_double_bits(ix->avgdl), .attrs = attrs,
			.attr_docs = ix->attr_docs, .sel_off = tt.sel, .cand = cand, .keys = keys,
		};
		if (gp_set_index_tree_rank(e, &ae) != CL_SUCCESS) rc = args_failed(err, "clSetKernelArg(index_tree_rank)");
		else if (gp_cl_run(e, n_items, err) != GP_OK) rc = GP_EDEVICE;
		else rc = gp_cl_topk_launch(tables, &tt.tiles, keys, cand, answers, row_keys_buf, bounds_buf, err);
	} else {
		cl_kernel e = gp_cl_kernel(GP_K_INDEX_TREE);
		gp_args_index_tree ae = {
			.docs = d->docs, .list_at = d->list_at, .pos_at = d->pos_at, .positions = d->positions, .qt = tables,
			.starts_off = tt.starts, .prog_at_off = tt.prog_at, .n_queries = n, .n_items = n_items,
			.columns = ix->n_columns > 0, .attrs = attrs, .attr_docs = ix->attr_docs, .sel_off = tt.sel, .cand = cand,
			.keep = kept,
		};
		if (gp_set_index_tree(e, &ae) != CL_SUCCESS) rc = args_failed(err, "clSetKernelArg(index_tree)");
		else if (gp_cl_run(e, n_items, err) != GP_OK) rc = GP_EDEVICE;
		else rc = gp_cl_index_compact(tables, tt.starts, n, n_items, cand, kept, answers, bounds_buf, err);
	}
	if (rc != GP_OK) goto done;
	b = malloc((bounds + 1) * sizeof(cl_uint));
	row_docs = malloc(rows * 4 + 4);
	row_keys = malloc(rows * 8 + 8);
	if (!b || !row_docs || !row_keys) {
		rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the trees' bounds and rows");
		goto done;
	}
	const gp_cl_read_part parts[3] = {{bounds_buf, 0, (bounds + 1) * 4, b},
	                                  {answers, 0, rows * 4, row_docs},
	                                  {row_keys_buf, 0, rows * 8, row_keys}};
	if ((rc = gp_cl_read_parts(parts, rk ? 3 : 1, err)) != GP_OK) goto done;
	if (rk) {
		rc = gp_cl_topk_rows(tt.t, &tt.tiles, row_docs, row_keys, 1, b, q0, nq, rk->limit, count_only, budget, out, cap, err);
		goto done;
	}
	const uint64_t base = out->at[q0], total = b[nq];
	for (size_t i = 1; i <= nq; i++) out->at[q0 + i] = base + b[i];
	out->total = base + total;
	if (count_only || total == 0) goto done;
	if (base + total > *cap) {
		size_t c = *cap;
		while (c < base + total) c *= 2;
		uint32_t *docs = NULL;
		if ((rc = gp_budget_check(budget, 0, (uint64_t)c * 4, "the trees' answers", err)) != GP_OK) goto done;
		if (!(docs = realloc(out->docs, c * sizeof(uint32_t)))) {
			rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the trees' answers");
			goto done;
		}
		out->docs = docs;
		*cap = c;
	}
	rc = gp_cl_read(answers, (size_t)total * 4, out->docs + base, err);
done:
	free(tt.t);
	free(b);
	free(row_docs);
	free(row_keys);
	return rc;
}

int gp_cl_tree_query(const gp_index *ix, const gp_tree_programs *p, const gp_tree_ranking *rk, const gp_tree_batch *sel,
                     int count_only, const gp_budget *budget, gp_answers *out, gp_error *err)
{
	const size_t nq = p->n_trees;
	size_t cap = 1;
	int rc = GP_OK;
	memset(out, 0, sizeof(*out));
	if (sel && (sel->n_filters || (rk && (sel->prior_attr >= 0 || sel->order_attr >= 0))) && !((const index_device *)ix->device)->attrs) {
		return GP_EVALUE;   /* the attributes are not resident: the host answers */
	}
	out->n_queries = nq;
	out->docs = malloc(sizeof(uint32_t));
	out->at = calloc(nq + 1, sizeof(uint64_t));
	if (rk) out->scores = malloc(sizeof(double));
	if (!out->docs || !out->at || (rk && !out->scores)) {
		gp_answers_free(out);
		return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the trees' answers");
	}
	/* chunks of at most gp_cl_index_chunk_items() candidates, and of what a quarter of the cap
	 * holds at a candidate's device bytes (its doc, mark or key, answer; ranked rows besides) */
	uint64_t chunk = gp_cl_index_chunk_items();
	if (budget && budget->max_result / 4 / 24 < chunk) chunk = budget->max_result / 4 / 24;
	if (chunk == 0) chunk = 1;
	for (size_t q0 = 0, q1; q0 < nq && rc == GP_OK; q0 = q1) {
		uint64_t items = 0;
		for (q1 = q0; q1 < nq; q1++) {
			uint64_t more = 0;
			for (uint64_t j = p->cover_at[q1]; j < p->cover_at[q1 + 1]; j++) more += gp_index_df(ix, p->cover[j]);
			if (q1 > q0 && items + more > chunk) break;
			items += more;
		}
		rc = tree_chunk(ix, p, rk, sel, q0, q1, count_only, budget, out, &cap, err);
	}
	if (rc != GP_OK) gp_answers_free(out);
	return rc;
}
