/* Queries on the host: the reference the device equals, and the path for small batches and for
 * processes without a device. AND is the shortest list's docs galloped through the others
 * (each cursor only moves forward); OR a heap merge; a phrase is an AND whose candidates'
 * positions are checked place by place. */
#include <stdlib.h>
#include <string.h>

#include "gp_query.h"
#include "gp_rank.h"
#include "gp_sink.h"
#include "../index/gp_list_cursor.h"

void gp_answers_free(gp_answers *a)
{
	free(a->docs);
	free(a->at);
	free(a->scores);
	free(a->matched);
	memset(a, 0, sizeof(*a));
}

int gp_answers_admit(gp_answers *a, size_t upto, int ranked, const gp_budget *budget, gp_error *err)
{
	for (; a->admitted < upto; a->admitted++) {
		uint64_t n = a->at[a->admitted + 1] - a->at[a->admitted];
		a->face_bytes = gp_add_sat(a->face_bytes, ranked ? gp_face_map_bytes(budget, n) : gp_face_list_bytes(budget, n));
	}
	uint64_t face = gp_add_sat(a->face_bytes, a->n_queries > 1 ? gp_face_map_bytes(budget, a->n_queries) : 0);
	return gp_budget_check(budget, face, gp_mul_sat(a->total, ranked ? 12 : 4), "the answers", err);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

size_t gp_query_plan(const gp_index *ix, const gp_query_batch *q, size_t query, uint64_t *keys)
{
	size_t n = 0;
	for (uint64_t i = q->at[query]; i < q->at[query + 1]; i++) {
		uint32_t t = q->terms[i];
		/* a term the index lacks and a term whose list is empty are alike: no docs (an empty
		 * list never reaches the operators, whose cursors assume a first doc) */
		if (t == GP_IX_NO_TERM || t >= ix->n_terms || gp_index_df(ix, t) == 0) {
			if (q->op != GP_IX_OR) return 0;
			continue;
		}
		keys[n++] = ((uint64_t)gp_index_df(ix, t) << 32) | t;
	}
	if (n > 1) qsort(keys, n, sizeof(*keys), cmp_u64);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m == 0 || keys[i] != keys[m - 1]) keys[m++] = keys[i];
	}
	return m;
}

uint64_t gp_query_work(const gp_index *ix, const gp_query_batch *q)
{
	uint64_t work = 0;
	for (uint64_t i = 0; i < q->at[q->n_queries]; i++) {
		if (q->terms[i] < ix->n_terms) work += gp_index_df(ix, q->terms[i]);
	}
	return work;
}

uint64_t gp_query_host_work(const gp_index *ix, const gp_query_batch *q)
{
	uint64_t work = 0;
	for (size_t i = 0; i < q->n_queries; i++) {
		uint64_t shortest = UINT64_MAX, sum = 0;
		for (uint64_t t = q->at[i]; t < q->at[i + 1]; t++) {
			const uint64_t n = q->terms[t] < ix->n_terms ? gp_index_df(ix, q->terms[t]) : 0;
			sum += n;
			if (n < shortest) shortest = n;
		}
		const uint64_t terms = q->at[i + 1] - q->at[i];
		work += 1 + terms + (q->op == GP_IX_OR ? sum : (shortest == UINT64_MAX ? 0 : shortest * terms));
	}
	return work;
}

static int has_position(const int32_t *p, size_t n, int64_t x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[mid] < x) lo = mid + 1; else hi = mid;
	}
	return lo < n && p[lo] == x;
}

/* A phrase's place in the doc at hand: its term's positions there. */
typedef struct place_positions {
	const int32_t *p;
	uint32_t n;
} place_positions;

/* Whether a doc's postings in a phrase's places match at consecutive positions: pl[j] is place
 * j's positions in it. */
static int phrase_match(const place_positions *pl, size_t places)
{
	/* anchored at the place with the fewest positions in this doc; the others' positions are
	 * merged against the anchors (both increase), a cursor per place, or searched when the
	 * phrase has more places than cursors */
	enum { CURSORS = 16 };
	size_t r = 0, nr = SIZE_MAX, cur[CURSORS] = {0};
	for (size_t j = 0; j < places; j++) {
		if (pl[j].n < nr) {
			nr = pl[j].n;
			r = j;
		}
	}
	const int32_t *anchor = pl[r].p;
	for (size_t i = 0; i < nr; i++) {
		int64_t start = (int64_t)anchor[i] - (int64_t)r;
		size_t j = 0;
		for (; j < places; j++) {
			if (j == r) continue;
			const int32_t *pj = pl[j].p;
			size_t nj = pl[j].n;
			int64_t want = start + (int64_t)j;
			if (places > CURSORS) {
				if (!has_position(pj, nj, want)) break;
				continue;
			}
			while (cur[j] < nj && pj[cur[j]] < want) cur[j]++;
			if (cur[j] == nj) return 0;   /* later anchors want later positions still */
			if (pj[cur[j]] != want) break;
		}
		if (j == places) return 1;
	}
	return 0;
}

/* Scratch a query's operators share: a cursor a distinct term, and for phrases each place's
 * positions (decoded from a version 2 list into pos, room for the query's postings' counts). */
typedef struct query_scratch {
	gp_list_cursor *cur;
	place_positions *pl;
	uint32_t *heap;
	int32_t *pos;
	size_t pos_cap;
} query_scratch;

/* Each place's positions in the doc the cursors are at (places[p]: its term's cursor). */
static int gather_positions(query_scratch *w, const uint32_t *places, size_t n_places)
{
	uint64_t need = 0;
	for (size_t p = 0; p < n_places; p++) need += gp_cursor_count(&w->cur[places[p]]);
	if (need > w->pos_cap || !w->pos) {
		if (need < 16) need = 16;
		int32_t *x = realloc(w->pos, (size_t)need * sizeof(int32_t));
		if (!x) return GP_ENOMEM;
		w->pos = x;
		w->pos_cap = (size_t)need;
	}
	uint64_t at = 0;
	for (size_t p = 0; p < n_places; p++) {
		w->pl[p].p = gp_cursor_positions(&w->cur[places[p]], w->pos + at, INT32_MAX, &w->pl[p].n);
		at += w->pl[p].n;
	}
	return GP_OK;
}

/* AND (and a phrase's candidates) of the k distinct lists ids[], shortest first: a candidate from
 * the shortest list searched for in the others; where one has none, the next candidate is the
 * first doc of the shortest at least that one's (each cursor only moves forward). A phrase's
 * places[] name, for each place, its term's index in ids[]. With r, each match is scored for the
 * top k instead of listed. */
static int query_and(const gp_index *ix, const uint32_t *ids, size_t k, const uint32_t *places,
                     size_t n_places, query_scratch *w, gp_rank *r, gp_sink *s)
{
	gp_list_cursor *c = w->cur;
	for (size_t j = 0; j < k; j++) gp_cursor_open(&c[j], ix, ids[j]);
	/* the shortest: most of its postings are candidates; a list not much longer expects many
	 * candidates in each block it enters */
	for (size_t j = 0; j < k; j++) c[j].eager = c[j].n <= c[0].n * (uint64_t)GP_CURSOR_EAGER_RATIO;
	while (c[0].i < c[0].n) {
		uint32_t x = c[0].doc;
		size_t j = 1;
		for (; j < k; j++) {
			gp_cursor_geq(&c[j], x);
			if (c[j].i == c[j].n) return GP_OK;
			if (c[j].doc != x) break;
		}
		if (j < k) {
			gp_cursor_geq(&c[0], c[j].doc);
			continue;
		}
		if (places) {
			if (gather_positions(w, places, n_places) != GP_OK) return GP_ENOMEM;
			if (!phrase_match(w->pl, n_places)) {
				gp_cursor_next(&c[0]);
				continue;
			}
		}
		if (r) {
			for (size_t i = 0; i < k; i++) r->tf[i] = gp_cursor_tf(&c[i]);
			gp_rank_doc(r, x);
		} else {
			gp_sink_put(s, x);
		}
		gp_cursor_next(&c[0]);
	}
	return GP_OK;
}

/* The union of the cursors: a min-heap of their indexes by the doc each is at. */
static inline uint32_t heap_doc(const query_scratch *w, size_t i)
{
	return w->cur[w->heap[i]].doc;
}

static void heap_down(query_scratch *w, size_t n, size_t c)
{
	for (;;) {
		size_t l = 2 * c + 1, m = c;
		if (l < n && heap_doc(w, l) < heap_doc(w, m)) m = l;
		if (l + 1 < n && heap_doc(w, l + 1) < heap_doc(w, m)) m = l + 1;
		if (m == c) return;
		uint32_t t = w->heap[c]; w->heap[c] = w->heap[m]; w->heap[m] = t;
		c = m;
	}
}

/* OR: the union of the lists' cursors; with r, each doc scored for the top k from the tf of the
 * lists that hold it. */
static void query_or(const gp_index *ix, const uint32_t *ids, size_t k, query_scratch *w, gp_rank *r, gp_sink *s)
{
	size_t n = 0;
	for (size_t j = 0; j < k; j++) {
		gp_cursor_open(&w->cur[j], ix, ids[j]);
		if (w->cur[j].n) w->heap[n++] = (uint32_t)j;
	}
	for (size_t i = n / 2; i-- > 0;) heap_down(w, n, i);
	while (n > 0) {
		uint32_t x = heap_doc(w, 0);
		if (!r) gp_sink_put(s, x);   /* once: every list whose head is x moves on below */
		while (n > 0 && heap_doc(w, 0) == x) {
			gp_list_cursor *c = &w->cur[w->heap[0]];
			if (r) r->tf[w->heap[0]] = gp_cursor_tf(c);
			gp_cursor_next(c);
			if (c->i == c->n) w->heap[0] = w->heap[--n];
			heap_down(w, n, 0);
		}
		if (r) {
			gp_rank_doc(r, x);
			memset(r->tf, 0, k * sizeof(uint32_t));
		}
	}
}

/* Whether a doc whose score is at most `bound` cannot enter the top k. The slack covers the
 * rounding of bounds summed in another order than the score. */
static inline int pruned(const gp_rank *r, double bound)
{
	return gp_rank_full(r) && bound * (1.0 + 1e-9) <= gp_rank_threshold(r);
}

/* OR, ranked, by MaxScore (Turtle and Flood): the lists in increasing order of the most they add
 * to a score; those whose bounds together cannot lift a doc into the top k are not merged but
 * searched for the docs the others bring, and only while the doc can still enter, each first by
 * the bound of its block that would hold the doc (block-max MaxScore, as PISA's: a version 2
 * list's blocks carry theirs). The top k is
 * exactly the exhaustive merge's: docs come in increasing order, so a doc that only ties the
 * k-th score loses to it. ord, ub, pre: room for k + 1. */
static void query_or_maxscore(const gp_index *ix, const uint32_t *ids, size_t k, query_scratch *w, uint32_t *ord,
                              double *ub, double *pre, gp_rank *r)
{
	gp_list_cursor *c = w->cur;
	for (size_t j = 0; j < k; j++) {
		gp_cursor_open(&c[j], ix, ids[j]);
		ub[j] = gp_rank_term_bound(r, (uint32_t)j, ids[j]);
		ord[j] = (uint32_t)j;
	}
	for (size_t i = 1; i < k; i++) {   /* by bound, increasing (k is a query's terms: few) */
		uint32_t x = ord[i];
		size_t m = i;
		for (; m > 0 && ub[ord[m - 1]] > ub[x]; m--) ord[m] = ord[m - 1];
		ord[m] = x;
	}
	pre[0] = 0.0;
	for (size_t i = 0; i < k; i++) pre[i + 1] = pre[i] + ub[ord[i]];
	size_t lazy = 0;   /* ord[0 .. lazy): searched, not merged */
	for (;;) {
		uint32_t d = UINT32_MAX;
		int any = 0;
		for (size_t i = lazy; i < k; i++) {
			const gp_list_cursor *x = &c[ord[i]];
			if (x->i < x->n && (!any || x->doc < d)) {
				d = x->doc;
				any = 1;
			}
		}
		if (!any) break;
		double dl = (double)ix->doc_len[d], bound = pre[lazy];
		for (size_t i = lazy; i < k; i++) {
			uint32_t j = ord[i];
			if (c[j].i < c[j].n && c[j].doc == d) {
				r->tf[j] = gp_cursor_tf(&c[j]);
				bound += gp_rank_term_part(r, j, r->tf[j], dl);
				gp_cursor_next(&c[j]);
			}
		}
		int skip = pruned(r, bound);
		for (size_t i = lazy; i-- > 0 && !skip;) {   /* the searched lists, largest bound first */
			uint32_t j = ord[i];
			/* the bound of the block that would hold d first (block-max MaxScore): a doc
			 * it cannot lift is dropped without reading the block */
			double f = gp_cursor_block_bound(&c[j], d), bb = f < 0.0 ? 0.0 : gp_rank_frac_bound(r, j, f);
			if (bb < ub[j]) {
				bound += bb - ub[j];
				if ((skip = pruned(r, bound))) break;
			} else {
				bb = ub[j];
			}
			gp_cursor_geq(&c[j], d);
			if (c[j].i < c[j].n && c[j].doc == d) r->tf[j] = gp_cursor_tf(&c[j]);
			bound += gp_rank_term_part(r, j, r->tf[j], dl) - bb;
			skip = pruned(r, bound);
		}
		if (!skip) {
			gp_rank_doc(r, d);
			while (lazy < k && pruned(r, pre[lazy + 1])) lazy++;
		}
		memset(r->tf, 0, k * sizeof(uint32_t));
	}
}

int gp_query_batch_check(const gp_index *ix, const gp_query_batch *q, gp_error *err)
{
	const char *why = NULL;
	if (!gp_query_op_known(q->op)) why = "the operator is not OR, AND or PHRASE";
	else if (gp_query_ranked(q) && !ix->doc_len) why = "a ranked query (a limit) needs the index's doc lengths";
	else if (gp_query_ranked(q) && q->count_only) why = "a count takes no limit (counts only and a ranking together)";
	if (!why) return GP_OK;
	gp_fail(err, "query", 0, "%s", why);
	err->code = GP_EVALUE;
	return GP_EVALUE;
}

int gp_index_query_host(const gp_index *ix, const gp_query_batch *q, const gp_budget *budget,
                        gp_answers *out, gp_error *err)
{
	uint64_t max_terms = 0;
	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	if (gp_query_batch_check(ix, q, err) != GP_OK) return GP_EVALUE;
	const int ranked = gp_query_ranked(q);
	/* a version 2 file's lists (and doc lengths) checked before their first use */
	int rc = gp_index_v2_ready(ix, q->terms, (size_t)q->at[q->n_queries], ranked, err);
	if (rc != GP_OK) return rc;
	for (size_t qi = 0; qi < q->n_queries; qi++) {
		if (q->at[qi + 1] - q->at[qi] > max_terms) max_terms = q->at[qi + 1] - q->at[qi];
	}
	out->n_queries = q->n_queries;
	out->at = malloc((q->n_queries + 1) * sizeof(uint64_t));
	out->docs = malloc(sizeof(uint32_t));   /* never NULL: callers slice it */
	uint64_t *keys = malloc((max_terms + 1) * sizeof(uint64_t));
	uint32_t *ids = malloc((max_terms + 1) * sizeof(uint32_t));
	uint32_t *places = malloc((max_terms + 1) * sizeof(uint32_t));
	double *ub = malloc((max_terms + 1) * sizeof(double)), *pre = malloc((max_terms + 2) * sizeof(double));
	query_scratch w = {
		malloc((max_terms + 1) * sizeof(gp_list_cursor)), malloc((max_terms + 1) * sizeof(place_positions)),
		malloc((max_terms + 1) * sizeof(uint32_t)), NULL, 0,
	};
	gp_sink s = {out, 1, q->count_only, ranked, budget, err};
	gp_rank rank = {0}, *r = ranked ? &rank : NULL;
	if (ranked) out->scores = malloc(sizeof(double));
	if (!out->at || !out->docs || (ranked && !out->scores) || !ub || !pre || !keys || !ids || !places || !w.cur || !w.pl || !w.heap) {
		rc = GP_ENOMEM;
		goto done;
	}
	out->at[0] = 0;
	for (size_t qi = 0; qi < q->n_queries; qi++) {
		size_t k = gp_query_plan(ix, q, qi, keys);
		uint64_t bound = 0;
		for (size_t j = 0; j < k; j++) {
			ids[j] = (uint32_t)keys[j];
			bound = q->op == GP_IX_OR ? bound + (keys[j] >> 32) : (j == 0 ? keys[0] >> 32 : bound);
		}
		/* an OR's distinct docs: at most every doc (a version 2 list's docs are checked to be
		 * at most the largest doc; the distinct count is the header's, not checked) */
		if (q->op == GP_IX_OR && bound > (uint64_t)ix->max_doc + 1) bound = (uint64_t)ix->max_doc + 1;
		if (q->op == GP_IX_OR && !ix->v2 && bound > ix->n_docs) bound = ix->n_docs;
		if (r && bound > q->limit) bound = q->limit;
		if (k > 0 && (rc = gp_sink_reserve(&s, bound)) != GP_OK) goto done;
		if (r && k > 0 && (rc = gp_rank_begin(r, ix, q, qi, ids, k, bound)) != GP_OK) goto done;
		if (k == 0) {
			/* nothing matches */
		} else if (q->op == GP_IX_OR && r && k > 1) {
			query_or_maxscore(ix, ids, k, &w, places, ub, pre, r);
		} else if (q->op == GP_IX_OR) {
			query_or(ix, ids, k, &w, r, &s);
		} else if (q->op == GP_IX_PHRASE && ix->positional) {
			size_t n_places = (size_t)(q->at[qi + 1] - q->at[qi]);
			for (size_t p = 0; p < n_places; p++) {
				uint32_t t = q->terms[q->at[qi] + p];
				size_t j = 0;
				while (ids[j] != t) j++;
				places[p] = (uint32_t)j;
			}
			if ((rc = query_and(ix, ids, k, places, n_places, &w, NULL, &s)) != GP_OK) goto done;
		} else if (q->op != GP_IX_PHRASE) {
			if ((rc = query_and(ix, ids, k, NULL, 0, &w, r, &s)) != GP_OK) goto done;
		}
		if (r && k > 0) {
			size_t n = gp_rank_finish(r, out->docs + out->total, out->scores + out->total);
			if (q->count_only) n = 0;
			out->total += n;
		}
		out->at[qi + 1] = out->total;
		if (!q->count_only && (rc = gp_answers_admit(out, qi + 1, ranked, budget, err)) != GP_OK) goto done;
	}
done:
	gp_rank_free(&rank);
	free(ub);
	free(pre);
	free(keys);
	free(ids);
	free(places);
	free(w.cur);
	free(w.pl);
	free(w.heap);
	free(w.pos);
	if (rc != GP_OK) gp_sink_failed(&s, rc);
	return rc;
}
