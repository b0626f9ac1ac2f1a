/* An index split by docs over several devices: each shard holds every list's postings of its
 * range of docs (and their positions), so that the devices together hold what one could not,
 * and a query's answers are the shards' answers side by side (ranked: merged by score). A shard
 * borrows the whole index's dictionary, doc lengths, BM25 statistics and bounds, so that a
 * score on a shard is the score on the whole. */
#include <stdlib.h>
#include <string.h>

#include "gp_index.h"

/* What a posting weighs on a device: its doc and its positions. */
static uint64_t posting_weight(const gp_index *ix, uint32_t p)
{
	return 1 + (ix->positional ? ix->pos_at[p + 1] - ix->pos_at[p] : 0);
}

void gp_index_shard_bounds(const gp_index *ix, size_t n, const double *weights, uint64_t *bounds)
{
	uint64_t end = (uint64_t)ix->max_doc + 1;
	bounds[0] = 0;
	bounds[n] = end;
	if (n < 2) return;
	/* the weight of each of up to 2^16 doc ranges of equal width, then cuts between ranges */
	size_t buckets = end < 65536 ? (size_t)end : 65536;
	uint64_t *w = calloc(buckets, sizeof(uint64_t));
	double total_w = 0, total = 0;
	for (size_t i = 0; i < n; i++) total_w += weights[i];
	if (!w || total_w <= 0) {   /* equal doc ranges */
		for (size_t i = 1; i < n; i++) bounds[i] = end * i / n;
		free(w);
		return;
	}
	for (uint32_t p = 0; p < ix->n_postings; p++) {
		uint64_t b = (uint64_t)ix->docs[p] * buckets / end;
		w[b] += posting_weight(ix, p);
		total += (double)posting_weight(ix, p);
	}
	double at = 0, goal = 0;
	size_t b = 0;
	for (size_t i = 1; i < n; i++) {
		goal += total * weights[i - 1] / total_w;
		while (b < buckets && at + (double)w[b] / 2 <= goal) at += (double)w[b++];
		bounds[i] = (b * end + buckets - 1) / buckets;   /* the first doc of bucket b */
		if (bounds[i] < bounds[i - 1]) bounds[i] = bounds[i - 1];
	}
	free(w);
}

/* The first of list t's postings whose doc is at least d. */
static uint32_t list_from(const gp_index *ix, uint32_t t, uint64_t d)
{
	uint32_t lo = ix->list_at[t], hi = ix->list_at[t + 1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (ix->docs[mid] < d) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

int gp_index_shard(const gp_index *ix, uint64_t lo, uint64_t hi, const gp_budget *budget, gp_index **out,
                   gp_error *err)
{
	uint64_t postings = 0, positions = 0;
	*out = NULL;
	for (uint32_t t = 0; t < ix->n_terms; t++) {
		uint32_t a = list_from(ix, t, lo), b = list_from(ix, t, hi);
		postings += b - a;
		if (ix->positional) positions += ix->pos_at[b] - ix->pos_at[a];
	}
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
	s->n_postings = (uint32_t)postings;
	s->n_positions = (uint32_t)positions;
	s->list_at = malloc(((size_t)ix->n_terms + 1) * sizeof(uint32_t));
	s->docs = malloc((size_t)(postings ? postings : 1) * sizeof(uint32_t));
	s->pos_at = ix->positional ? malloc((size_t)(postings + 1) * sizeof(uint32_t)) : NULL;
	s->positions = ix->positional ? malloc((size_t)(positions ? positions : 1) * sizeof(int32_t)) : NULL;
	if (!s->list_at || !s->docs || (ix->positional && (!s->pos_at || !s->positions))) {
		gp_index_unref(s);
		return gp_index_fail_nomem(err, "an index shard's lists");
	}
	uint32_t at = 0, pos = 0;
	for (uint32_t t = 0; t < ix->n_terms; t++) {
		uint32_t a = list_from(ix, t, lo), b = list_from(ix, t, hi);
		s->list_at[t] = at;
		memcpy(s->docs + at, ix->docs + a, (size_t)(b - a) * sizeof(uint32_t));
		if (ix->positional) {
			uint32_t from = ix->pos_at[a], n = ix->pos_at[b] - from;
			for (uint32_t p = a; p < b; p++) s->pos_at[at + (p - a)] = pos + (ix->pos_at[p] - from);
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
