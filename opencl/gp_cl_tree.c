/* Launcher of kernels/tree.cl: a batch of unranked query trees over an index's resident decoded
 * lists, in one upload of its tables (query/gp_tree_program.h's programs and covers), one
 * sequence of launches (the covers merged by doc, the programs run at each candidate, the matches
 * compacted) and two reads (each tree's match count, then the matches), a chunk of consecutive
 * trees at a time within gp_cl_index_chunk_items() candidates. */
#include <stdlib.h>
#include <string.h>

#include "gp_cl_internal.h"
#include "gp_cl_index_device.h"
#include "../index/gp_index.h"
#include "../query/gp_query.h"
#include "../query/gp_tree_program.h"

_Static_assert(GP_IX_COLUMN_SHIFT == 20, "kernels/tree.cl reads columns as position >> 20");

/* The tables of trees [q0, q1): index.cl's OR layout over each tree's cover terms (queries,
 * terms, starts, segments), then each tree's program and where it starts. */
typedef struct tree_tables {
	cl_uint *t;
	size_t len;
	cl_uint queries, terms, starts, segs, seg_query, seg_term, n_segs, prog_at;
	uint64_t items;
} tree_tables;

static int tree_tables_build(const gp_index *ix, const gp_tree_programs *p, size_t q0, size_t q1, tree_tables *tt)
{
	const size_t nq = q1 - q0;
	const uint64_t n_cover = p->cover_at[q1] - p->cover_at[q0], words = p->prog_at[q1] - p->prog_at[q0];
	const uint64_t len = 4 * (uint64_t)nq + n_cover + (nq + 1) + 3 * n_cover + 1 + nq + words;
	if (len >= UINT32_MAX || !(tt->t = malloc((size_t)len * sizeof(cl_uint)))) return GP_ENOMEM;
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
	tt->len = (size_t)len;
	tt->items = items;
	return GP_OK;
}

static int args_failed(gp_error *err, const char *kernel)
{
	return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, kernel);
}

/* Trees [q0, q1) answered into out (out->at[q0] set on entry; docs grown as they come). */
static int tree_chunk(const gp_index *ix, const gp_tree_programs *p, size_t q0, size_t q1, int count_only,
                      const gp_budget *budget, gp_answers *out, size_t *cap, gp_error *err)
{
	tree_tables tt = {0};
	const size_t nq = q1 - q0;
	cl_uint *b = NULL;
	int rc = tree_tables_build(ix, p, q0, q1, &tt);
	if (rc != GP_OK) {
		free(tt.t);
		return rc == GP_EVALUE ? GP_EVALUE : gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the trees' tables");
	}
	if (tt.items == 0) {
		for (size_t i = 1; i <= nq; i++) out->at[q0 + i] = out->at[q0];
		free(tt.t);
		return GP_OK;
	}
	if ((rc = gp_budget_check(budget, 0, tt.items * 12 + tt.len * 4, "the trees' device buffers", err)) != GP_OK) {
		free(tt.t);
		return rc;
	}
	const index_device *d = ix->device;
	const uint8_t *part = (const uint8_t *)tt.t;
	size_t bytes = tt.len * sizeof(cl_uint);
	cl_mem tables, cand, kept, answers, bounds;
	const cl_uint n_items = (cl_uint)tt.items, n = (cl_uint)nq;
	if (!(tables = gp_cl_upload(GP_B_IX_QUERY_TABLES, &part, &bytes, 1, bytes, err)) ||
	    !(cand = gp_cl_buffer(GP_B_IX_CANDIDATES, (size_t)tt.items * 4, err)) ||
	    !(kept = gp_cl_buffer(GP_B_IX_KEPT, (size_t)tt.items * 4, err)) ||
	    !(answers = gp_cl_buffer(GP_B_IX_ANSWERS, (size_t)tt.items * 4, err)) ||
	    !(bounds = gp_cl_buffer(GP_B_IX_BOUNDS, (nq + 1) * 4, err))) {
		free(tt.t);
		return GP_EDEVICE;
	}
	cl_kernel m = gp_cl_kernel(GP_K_INDEX_OR_MERGE), e = gp_cl_kernel(GP_K_INDEX_TREE);
	gp_args_index_or_merge am = {
		.docs = d->docs, .list_at = d->list_at, .qt = tables, .queries_off = tt.queries, .terms_off = tt.terms,
		.starts_off = tt.starts, .segs_off = tt.segs, .seg_query_off = tt.seg_query, .seg_term_off = tt.seg_term,
		.n_segs = tt.n_segs, .n_items = n_items, .merged = cand,
	};
	gp_args_index_tree ae = {
		.docs = d->docs, .list_at = d->list_at, .pos_at = d->pos_at, .positions = d->positions, .qt = tables,
		.starts_off = tt.starts, .prog_at_off = tt.prog_at, .n_queries = n, .n_items = n_items,
		.columns = ix->n_columns > 0, .cand = cand, .keep = kept,
	};
	if (gp_set_index_or_merge(m, &am) != CL_SUCCESS) rc = args_failed(err, "clSetKernelArg(index_or_merge)");
	else if (gp_set_index_tree(e, &ae) != CL_SUCCESS) rc = args_failed(err, "clSetKernelArg(index_tree)");
	else if (gp_cl_run(m, n_items, err) != GP_OK || gp_cl_run(e, n_items, err) != GP_OK) rc = GP_EDEVICE;
	else rc = gp_cl_index_compact(tables, tt.starts, n, n_items, cand, kept, answers, bounds, err);
	free(tt.t);
	if (rc != GP_OK) return rc;
	if (!(b = malloc((nq + 1) * sizeof(cl_uint)))) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the trees' bounds");
	if ((rc = gp_cl_read(bounds, (nq + 1) * 4, b, err)) != GP_OK) {
		free(b);
		return rc;
	}
	const uint64_t base = out->at[q0], total = b[nq];
	for (size_t i = 1; i <= nq; i++) out->at[q0 + i] = base + b[i];
	free(b);
	out->total = base + total;
	if (count_only || total == 0) return GP_OK;
	if (base + total > *cap) {
		size_t c = *cap;
		while (c < base + total) c *= 2;
		if ((rc = gp_budget_check(budget, 0, (uint64_t)c * 4, "the trees' answers", err)) != GP_OK) return rc;
		uint32_t *docs = realloc(out->docs, c * sizeof(uint32_t));
		if (!docs) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the trees' answers");
		out->docs = docs;
		*cap = c;
	}
	return gp_cl_read(answers, (size_t)total * 4, out->docs + base, err);
}

int gp_cl_tree_query(const gp_index *ix, const gp_tree_programs *p, int count_only, const gp_budget *budget,
                     gp_answers *out, gp_error *err)
{
	const size_t nq = p->n_trees;
	size_t cap = 1;
	int rc = GP_OK;
	memset(out, 0, sizeof(*out));
	out->n_queries = nq;
	out->docs = malloc(sizeof(uint32_t));
	out->at = calloc(nq + 1, sizeof(uint64_t));
	if (!out->docs || !out->at) {
		gp_answers_free(out);
		return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the trees' answers");
	}
	const uint64_t chunk = gp_cl_index_chunk_items();
	for (size_t q0 = 0, q1; q0 < nq && rc == GP_OK; q0 = q1) {
		uint64_t items = 0;
		for (q1 = q0; q1 < nq; q1++) {
			uint64_t more = 0;
			for (uint64_t j = p->cover_at[q1]; j < p->cover_at[q1 + 1]; j++) more += gp_index_df(ix, p->cover[j]);
			if (q1 > q0 && items + more > chunk) break;
			items += more;
		}
		rc = tree_chunk(ix, p, q0, q1, count_only, budget, out, &cap, err);
	}
	if (rc != GP_OK) gp_answers_free(out);
	return rc;
}
