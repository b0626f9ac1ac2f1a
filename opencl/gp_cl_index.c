/* Launcher of kernels/index.cl: an index's decoded lists resident on the device, and a batch of
 * queries answered there in one upload of its tables, one sequence of launches and two reads
 * (each query's answer count, then the answers). */
#include <stdlib.h>
#include <string.h>

#include "gp_cl_internal.h"
#include "../index/gp_index.h"

typedef struct index_device {
	cl_mem docs, list_at, pos_at, positions;
} index_device;

static void index_device_free(void *p)
{
	index_device *d = p;
	gp_cl_resident_release(d->docs);
	gp_cl_resident_release(d->list_at);
	gp_cl_resident_release(d->pos_at);
	gp_cl_resident_release(d->positions);
	free(d);
}

int gp_cl_index_upload(gp_index *ix, gp_error *err)
{
	index_device *d = calloc(1, sizeof(*d));
	size_t docs = (size_t)ix->n_postings * 4, lists = ((size_t)ix->n_terms + 1) * 4;
	size_t pos_at = ix->positional ? ((size_t)ix->n_postings + 1) * 4 : 0;
	size_t positions = ix->positional ? (size_t)ix->n_positions * 4 : 0;
	if (!d) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the index's device state");
	if (!(d->docs = gp_cl_resident(ix->docs, docs, err)) || !(d->list_at = gp_cl_resident(ix->list_at, lists, err)) ||
	    !(d->pos_at = gp_cl_resident(ix->pos_at, pos_at, err)) ||
	    !(d->positions = gp_cl_resident(ix->positions, positions, err))) {
		index_device_free(d);
		return GP_EDEVICE;
	}
	ix->device = d;
	ix->device_free = index_device_free;
	ix->device_bytes = docs + lists + pos_at + positions;
	return GP_OK;
}

/* A batch's tables, one uint array (kernels/index.cl says the layout). */
typedef struct query_tables {
	cl_uint *t;
	size_t len, cap;
	cl_uint queries, terms, places, starts, segs, seg_query, seg_term, n_segs;
	uint64_t items;
} query_tables;

static int tables_room(query_tables *qt, size_t more)
{
	if (qt->len + more <= qt->cap) return GP_OK;
	size_t cap = qt->cap ? qt->cap : 256;
	while (cap < qt->len + more) cap *= 2;
	cl_uint *t = realloc(qt->t, cap * sizeof(cl_uint));
	if (!t) return GP_ENOMEM;
	qt->t = t;
	qt->cap = cap;
	return GP_OK;
}

/* Each query's distinct terms, shortest list first (gp_query_plan), and its candidates (AND,
 * phrase: the shortest list's docs; OR: all its lists' docs): planned once per batch, read by
 * the chunking and the tables. */
typedef struct batch_plan {
	cl_uint *ids;
	uint64_t *at;      /* n_queries + 1 into ids */
	uint64_t *items;   /* n_queries */
} batch_plan;

static void plan_free(batch_plan *p)
{
	free(p->ids);
	free(p->at);
	free(p->items);
}

static int plan_batch(const gp_index *ix, const gp_query_batch *q, batch_plan *p)
{
	size_t nq = q->n_queries, max_terms = 0;
	for (size_t i = 0; i < nq; i++) {
		if (q->at[i + 1] - q->at[i] > max_terms) max_terms = (size_t)(q->at[i + 1] - q->at[i]);
	}
	uint64_t *keys = malloc((max_terms + 1) * sizeof(uint64_t));
	p->ids = malloc(((size_t)(q->at[nq] - q->at[0]) + 1) * sizeof(cl_uint));
	p->at = malloc((nq + 1) * sizeof(uint64_t));
	p->items = malloc((nq + 1) * sizeof(uint64_t));
	if (!keys || !p->ids || !p->at || !p->items) {
		free(keys);
		plan_free(p);
		return GP_ENOMEM;
	}
	p->at[0] = 0;
	for (size_t i = 0; i < nq; i++) {
		size_t k = q->op == GP_IX_PHRASE && !ix->positional ? 0 : gp_query_plan(ix, q, i, keys);
		p->items[i] = 0;
		for (size_t j = 0; j < k; j++) {
			p->ids[p->at[i] + j] = (cl_uint)keys[j];
			if (j == 0 || q->op == GP_IX_OR) p->items[i] += keys[j] >> 32;
		}
		p->at[i + 1] = p->at[i] + k;
	}
	free(keys);
	return GP_OK;
}

/* The tables of queries [q0, q0 + sub->n_queries) of a planned batch: per query its terms,
 * places (phrases) and first candidate; OR also its (query, term) segments. */
static int build_tables(const gp_index *ix, const gp_query_batch *sub, const batch_plan *plan,
                        size_t q0, query_tables *qt)
{
	size_t nq = sub->n_queries, total_terms = (size_t)(sub->at[nq] - sub->at[0]);
	if (tables_room(qt, 4 * nq + 5 * total_terms + (nq + 1) + 8) != GP_OK) return GP_ENOMEM;
	/* queries first, filled as the terms and places are laid out after them */
	qt->queries = 0;
	qt->terms = (cl_uint)(4 * nq);
	qt->len = 4 * nq;
	for (size_t i = 0; i < nq; i++) {
		uint64_t from = plan->at[q0 + i], k = plan->at[q0 + i + 1] - from;
		qt->t[4 * i] = (cl_uint)(qt->len - qt->terms);
		qt->t[4 * i + 1] = (cl_uint)k;
		memcpy(qt->t + qt->len, plan->ids + from, (size_t)k * sizeof(cl_uint));
		qt->len += (size_t)k;
	}
	qt->places = (cl_uint)qt->len;
	for (size_t i = 0; i < nq; i++) {
		cl_uint k = qt->t[4 * i + 1];
		size_t n_places = sub->op == GP_IX_PHRASE && k ? (size_t)(sub->at[i + 1] - sub->at[i]) : 0;
		const cl_uint *ids = qt->t + qt->terms + qt->t[4 * i];
		qt->t[4 * i + 2] = (cl_uint)(qt->len - qt->places);
		qt->t[4 * i + 3] = (cl_uint)n_places;
		for (size_t p = 0; p < n_places; p++) {
			cl_uint t = sub->terms[sub->at[i] + p], j = 0;
			while (ids[j] != t) j++;
			qt->t[qt->len++] = j;
		}
	}
	qt->starts = (cl_uint)qt->len;
	qt->items = 0;
	for (size_t i = 0; i < nq; i++) {
		qt->t[qt->len++] = (cl_uint)qt->items;
		qt->items += plan->items[q0 + i];
		if (qt->items >= UINT32_MAX) break;
	}
	qt->t[qt->len++] = (cl_uint)qt->items;
	if (sub->op == GP_IX_OR) {
		/* segments: each (query, term) with its items */
		size_t segs = (size_t)(plan->at[q0 + nq] - plan->at[q0]);
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
static int launch(const gp_index *ix, const gp_query_batch *q, const query_tables *qt, cl_mem tables,
                  cl_mem cand, cl_mem kept, cl_mem answers, cl_mem bounds, gp_error *err)
{
	const index_device *d = ix->device;
	cl_uint n_items = (cl_uint)qt->items, nq = (cl_uint)q->n_queries;
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
			.starts_off = qt->starts, .n_queries = nq, .n_items = n_items, .cand = cand, .keep = kept,
		};
		if (gp_set_index_and(a, &aa) != CL_SUCCESS) return set_failed(err, "clSetKernelArg(index_and)");
		if (gp_cl_run(a, n_items, err) != GP_OK) return GP_EDEVICE;
	}
	if (gp_cl_scan_u32(kept, kept, n_items, 1, err) != GP_OK) return GP_EDEVICE;
	cl_kernel c = gp_cl_kernel(GP_K_INDEX_COMPACT), b = gp_cl_kernel(GP_K_INDEX_BOUNDS);
	gp_args_index_compact ac = {.cand = cand, .kept = kept, .n_items = n_items, .out = answers};
	gp_args_index_bounds ab = {.kept = kept, .qt = tables, .starts_off = qt->starts, .n_queries = nq, .bounds = bounds};
	if (gp_set_index_compact(c, &ac) != CL_SUCCESS) return set_failed(err, "clSetKernelArg(index_compact)");
	if (gp_set_index_bounds(b, &ab) != CL_SUCCESS) return set_failed(err, "clSetKernelArg(index_bounds)");
	if (gp_cl_run(c, n_items, err) != GP_OK || gp_cl_run(b, (size_t)nq + 1, err) != GP_OK) return GP_EDEVICE;
	return GP_OK;
}

/* Queries [q0, q0 + sub->n_queries) of a batch: their answers appended to out (out->at[q0] set
 * on entry). */
static int query_chunk(const gp_index *ix, const gp_query_batch *sub, const batch_plan *plan,
                       size_t q0, size_t nq_all, const gp_budget *budget, gp_answers *out,
                       size_t *cap, gp_error *err)
{
	query_tables qt = {0};
	size_t nq = sub->n_queries;
	int rc;
	cl_uint *b = NULL;
	if (build_tables(ix, sub, plan, q0, &qt) != GP_OK) {
		rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the query tables");
		goto done;
	}
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
	if ((rc = gp_budget_check(budget, 0, qt.items * 12 + qt.len * 4, "the batch's device buffers", err)) != GP_OK) goto done;
	const uint8_t *part = (const uint8_t *)qt.t;
	size_t bytes = qt.len * sizeof(cl_uint);
	cl_mem tables = gp_cl_upload(GP_B_IX_QUERY_TABLES, &part, &bytes, 1, bytes, err), cand, kept, answers, bounds;
	if (!tables || !(cand = gp_cl_buffer(GP_B_IX_CANDIDATES, (size_t)qt.items * 4, err)) ||
	    !(kept = gp_cl_buffer(GP_B_IX_KEPT, (size_t)qt.items * 4, err)) ||
	    !(answers = gp_cl_buffer(GP_B_IX_ANSWERS, (size_t)qt.items * 4, err)) ||
	    !(bounds = gp_cl_buffer(GP_B_IX_BOUNDS, (nq + 1) * 4, err))) {
		rc = GP_EDEVICE;
		goto done;
	}
	if ((rc = launch(ix, sub, &qt, tables, cand, kept, answers, bounds, err)) != GP_OK) goto done;
	if (!(b = malloc((nq + 1) * sizeof(cl_uint)))) {
		rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the answers' bounds");
		goto done;
	}
	if ((rc = gp_cl_read(bounds, (nq + 1) * 4, b, err)) != GP_OK) goto done;
	uint64_t base = out->at[q0], n = b[nq];
	for (size_t i = 1; i <= nq; i++) out->at[q0 + i] = base + b[i];
	out->total = base + n;
	if (!sub->count_only && n > 0) {
		if ((rc = gp_budget_check(budget, gp_php_lists_floor(out->total, nq_all), out->total * 4, "the answers", err)) != GP_OK) goto done;
		if (out->total > *cap) {
			size_t want = (size_t)out->total + (size_t)out->total / 2;
			uint32_t *d = realloc(out->docs, want * 4);
			if (!d) {
				rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the answers");
				goto done;
			}
			out->docs = d;
			*cap = want;
		}
		if ((rc = gp_cl_read(answers, (size_t)n * 4, out->docs + base, err)) != GP_OK) goto done;
	}
	rc = GP_OK;
done:
	free(b);
	free(qt.t);
	return rc;
}

int gp_cl_index_query(const gp_index *ix, const gp_query_batch *q, const gp_budget *budget,
                      gp_answers *out, gp_error *err)
{
	size_t nq = q->n_queries, cap = 1;
	batch_plan plan = {0};
	int rc = GP_OK;
	memset(out, 0, sizeof(*out));
	out->n_queries = nq;
	out->docs = malloc(sizeof(uint32_t));
	if (!out->docs || !(out->at = calloc(nq + 1, sizeof(uint64_t))) || plan_batch(ix, q, &plan) != GP_OK) {
		gp_answers_free(out);
		return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "the batch's plan");
	}
	/* a batch runs as chunks of consecutive queries, each of at most gp_cl_index_chunk_items()
	 * candidates (or one query), to bound the device buffers */
	uint64_t chunk = gp_cl_index_chunk_items();
	for (size_t q0 = 0, q1; q0 < nq && rc == GP_OK; q0 = q1) {
		uint64_t items = plan.items[q0];
		for (q1 = q0 + 1; q1 < nq && items + plan.items[q1] <= chunk; q1++) items += plan.items[q1];
		gp_query_batch sub = {q->op, q1 - q0, q->terms, q->at + q0, q->count_only};
		rc = query_chunk(ix, &sub, &plan, q0, nq, budget, out, &cap, err);
	}
	plan_free(&plan);
	if (rc != GP_OK) gp_answers_free(out);
	return rc;
}
