/* An index split by docs over several devices: each shard holds every list's postings of its
 * range of docs (and their positions), so that the devices together hold what one could not,
 * and a query's answers are the shards' answers side by side (ranked: merged by score). A shard
 * borrows the whole index's dictionary, doc lengths, BM25 statistics and bounds, so that a
 * score on a shard is the score on the whole. */
#include <stdlib.h>
#include <string.h>

#include "gp_index.h"

/* The same from a (a posting of t), for a d just past it: galloping from a, then the search. */
static uint64_t list_from_at(const gp_index *ix, uint32_t t, uint64_t a, uint64_t d)
{
	uint64_t end = ix->list_at[t + 1], step = 1, lo = a;
	while (lo + step < end && ix->docs[lo + step] < d) {
		lo += step;
		step *= 2;
	}
	return gp_index_first_at_least(ix->docs, lo, lo + step < end ? lo + step : end, d);
}

/* The weight on a device of list t's postings [a, b): their docs and their positions. */
static uint64_t postings_weight(const gp_index *ix, uint64_t a, uint64_t b)
{
	return (b - a) + (ix->positional ? ix->pos_at[b] - ix->pos_at[a] : 0);
}

/* Up to 4096 doc ranges of equal width (bucket i: docs from edge(i)); each list's weight in each
 * found by walking its docs, or, for a list much longer than the ranges, by a search at each
 * edge: not a pass over every posting of a large index. */
#define SHARD_BUCKETS 4096

static uint64_t bucket_edge(uint64_t i, uint64_t buckets, uint64_t end)
{
	return (i * end + buckets - 1) / buckets;   /* the first doc d with d * buckets / end >= i */
}

void gp_index_shard_bounds(const gp_index *ix, size_t n, const double *weights, uint64_t *bounds)
{
	uint64_t end = (uint64_t)ix->max_doc + 1;
	bounds[0] = 0;
	bounds[n] = end;
	if (n < 2) return;
	size_t buckets = end < SHARD_BUCKETS ? (size_t)end : SHARD_BUCKETS;
	uint64_t *w = calloc(buckets, sizeof(uint64_t)), *edge = malloc((buckets + 1) * sizeof(uint64_t));
	double total_w = 0, total = 0;
	for (size_t i = 0; i < n; i++) total_w += weights[i];
	if (!w || !edge || total_w <= 0) {   /* equal doc ranges */
		for (size_t i = 1; i < n; i++) bounds[i] = end * i / n;
		free(w);
		free(edge);
		return;
	}
	for (size_t i = 0; i <= buckets; i++) edge[i] = bucket_edge(i, buckets, end);
	for (uint32_t t = 0; t < ix->n_terms; t++) {
		uint64_t a = ix->list_at[t], b = ix->list_at[t + 1];
		if (b - a < (uint64_t)buckets * 32) {
			for (uint64_t p = a, i = 0; p < b; p++) {
				while (ix->docs[p] >= edge[i + 1]) i++;
				w[i] += postings_weight(ix, p, p + 1);
			}
			continue;
		}
		for (size_t i = 0; i < buckets && a < b; i++) {
			uint64_t next = list_from_at(ix, t, a, edge[i + 1]);
			w[i] += postings_weight(ix, a, next);
			a = next;
		}
	}
	for (size_t i = 0; i < buckets; i++) total += (double)w[i];
	double at = 0, goal = 0;
	size_t b = 0;
	for (size_t i = 1; i < n; i++) {
		goal += total * weights[i - 1] / total_w;
		while (b < buckets && at + (double)w[b] / 2 <= goal) at += (double)w[b++];
		bounds[i] = edge[b];
		if (bounds[i] < bounds[i - 1]) bounds[i] = bounds[i - 1];
	}
	free(w);
	free(edge);
}

void gp_index_shard_size(const gp_index *ix, uint64_t lo, uint64_t hi, uint64_t *postings, uint64_t *positions)
{
	*postings = *positions = 0;
	for (uint32_t t = 0; t < ix->n_terms; t++) {
		uint64_t a = gp_index_list_from(ix, t, lo), b = gp_index_list_from(ix, t, hi);
		*postings += b - a;
		if (ix->positional) *positions += ix->pos_at[b] - ix->pos_at[a];
	}
}

int gp_index_shard(const gp_index *ix, uint64_t lo, uint64_t hi, const gp_budget *budget, gp_index **out,
                   gp_error *err)
{
	uint64_t postings, positions;
	*out = NULL;
	gp_index_shard_size(ix, lo, hi, &postings, &positions);
	uint64_t bytes = gp_index_lists_bytes(ix->n_terms, postings, positions, ix->positional);
	if (gp_budget_check(budget, 0, bytes, "an index shard's lists", err) != GP_OK) return GP_ENOMEM;
	gp_index *s = calloc(1, sizeof(*s));
	if (!s) return gp_index_fail_nomem(err, "an index shard");
	*s = *ix;   /* the dictionary, the doc lengths and the statistics: borrowed */
	s->whole = ix;
	s->blobs = NULL;
	s->blob_at = NULL;
	s->merged = NULL;
	s->device = NULL;
	s->device_free = NULL;
	s->device_bytes = 0;
	s->device_shards = 0;
	s->shards_host_bytes = 0;
	s->device_lists = GP_IX_LISTS_DECODED;   /* a shard's lists exist decoded only */
	s->device_compressed = 0;
	s->refs = 1;
	s->n_postings = postings;
	s->n_positions = positions;
	s->list_at = malloc(((size_t)ix->n_terms + 1) * sizeof(uint64_t));
	s->docs = malloc((size_t)(postings ? postings : 1) * sizeof(uint32_t));
	s->pos_at = ix->positional ? malloc((size_t)(postings + 1) * sizeof(uint64_t)) : NULL;
	s->positions = ix->positional ? malloc((size_t)(positions ? positions : 1) * sizeof(int32_t)) : NULL;
	if (!s->list_at || !s->docs || (ix->positional && (!s->pos_at || !s->positions))) {
		gp_index_unref(s);
		return gp_index_fail_nomem(err, "an index shard's lists");
	}
	uint64_t at = 0, pos = 0;
	for (uint32_t t = 0; t < ix->n_terms; t++) {
		uint64_t a = gp_index_list_from(ix, t, lo), b = gp_index_list_from(ix, t, hi);
		s->list_at[t] = at;
		memcpy(s->docs + at, ix->docs + a, (size_t)(b - a) * sizeof(uint32_t));
		if (ix->positional) {
			uint64_t from = ix->pos_at[a], n = ix->pos_at[b] - from;
			for (uint64_t p = a; p < b; p++) s->pos_at[at + (p - a)] = pos + (ix->pos_at[p] - from);
			memcpy(s->positions + pos, ix->positions + from, (size_t)n * sizeof(int32_t));
			pos += n;
		}
		at += b - a;
	}
	s->list_at[ix->n_terms] = at;
	if (ix->positional) s->pos_at[at] = pos;
	*out = s;
	return GP_OK;
}

void gp_index_shard_uploaded(gp_index *s)
{
	free(s->docs);
	free(s->pos_at);
	free(s->positions);
	s->docs = NULL;
	s->pos_at = NULL;
	s->positions = NULL;
}
