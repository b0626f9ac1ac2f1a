/* GpuPost\Index on the device (opencl/gp_cl_index.c): a batch of queries over the resident
 * lists (docs, list_at; positions for phrases). One work-item per candidate: AND and phrases
 * take each query's shortest list as candidates and binary-search the others (Ao et al.'s
 * PARA batching); OR places every doc of a query's lists at its rank in their merge, then keeps
 * the first of equal docs. The kept items are compacted by a scan (scan.cl), so that only the
 * answers come back.
 *
 * The query tables are one uint buffer `qt`, read at offsets:
 *   queries (4 per query): the first of its terms in terms, its distinct terms k, the first of
 *     its places in places, its places (0 unless a phrase)
 *   terms: each query's distinct term ids, the shortest list first
 *   places: a phrase's places, each the index of its term among the query's terms
 *   item_start (n_queries + 1): each query's first item
 *   OR only, per (query, term) segment: seg_start (n_segs + 1), seg_query, seg_term. */

/* A phrase's places whose postings a work-item finds once and keeps. */
#define IX_PLACES 8

/* The first index in a[lo..hi) whose value is >= x (hi when none). */
static uint ix_lower_bound(__global const uint *a, uint lo, uint hi, uint x)
{
	while (lo < hi) {
		uint mid = lo + (hi - lo) / 2;
		if (a[mid] < x) lo = mid + 1; else hi = mid;
	}
	return lo;
}

/* The first index in a[lo..hi) whose value is > x. */
static uint ix_upper_bound(__global const uint *a, uint lo, uint hi, uint x)
{
	while (lo < hi) {
		uint mid = lo + (hi - lo) / 2;
		if (a[mid] <= x) lo = mid + 1; else hi = mid;
	}
	return lo;
}

/* The segment of item i: the last s with starts[s] <= i, for n + 1 increasing starts. */
static uint ix_segment_of(__global const uint *starts, uint n, uint i)
{
	return ix_upper_bound(starts, 0, n + 1, i) - 1;
}

static int ix_has_position(__global const int *p, uint lo, uint end, long x)
{
	uint hi = end;
	while (lo < hi) {
		uint mid = lo + (hi - lo) / 2;
		if ((long)p[mid] < x) lo = mid + 1; else hi = mid;
	}
	return lo < end && (long)p[lo] == x;
}

/* AND and phrases: cand[i] = the candidate doc, keep[i] = 1 when every list of its query holds
 * it (and, for a phrase, its places hold consecutive positions). */
__kernel void index_and(__global const uint *docs, __global const uint *list_at,
                        __global const uint *pos_at, __global const int *positions,
                        __global const uint *qt, const uint queries_off, const uint terms_off,
                        const uint places_off, const uint starts_off, const uint n_queries,
                        const uint n_items, const uint phrase, __global uint *cand,
                        __global uint *keep)
{
	uint i = get_global_id(0);
	if (i >= n_items) return;
	uint q = ix_segment_of(qt + starts_off, n_queries, i);
	__global const uint *info = qt + queries_off + 4 * q;
	__global const uint *ids = qt + terms_off + info[0];
	uint k = info[1], n_places = phrase ? info[3] : 0u;   /* a ranked AND's places are for its scores */
	uint at = list_at[ids[0]] + (i - qt[starts_off + q]);
	uint x = docs[at], ok = 1;
	for (uint j = 1; j < k && ok; j++) {
		uint lo = list_at[ids[j]], hi = list_at[ids[j] + 1];
		uint p = ix_lower_bound(docs, lo, hi, x);
		ok = p < hi && docs[p] == x;
	}
	if (ok && n_places > 0) {
		__global const uint *places = qt + places_off + info[2];
		/* each place's posting of x, found once for the first IX_PLACES places (again per
		 * anchor past them); anchored at the place with the fewest positions among those */
		uint post[IX_PLACES], r = 0, nr = 0xFFFFFFFFu;
		for (uint j = 0; j < n_places && j < IX_PLACES; j++) {
			uint t = ids[places[j]];
			post[j] = ix_lower_bound(docs, list_at[t], list_at[t + 1], x);
			uint n = pos_at[post[j] + 1] - pos_at[post[j]];
			if (n < nr) {
				nr = n;
				r = j;
			}
		}
		uint match = 0;
		for (uint a = pos_at[post[r]]; a < pos_at[post[r] + 1] && !match; a++) {
			long start = (long)positions[a] - (long)r;
			uint j = 0;
			for (; j < n_places; j++) {
				if (j == r) continue;
				uint pj;
				if (j < IX_PLACES) {
					pj = post[j];
				} else {
					uint t = ids[places[j]];
					pj = ix_lower_bound(docs, list_at[t], list_at[t + 1], x);
				}
				if (!ix_has_position(positions, pos_at[pj], pos_at[pj + 1], start + (long)j)) break;
			}
			match = j == n_places;
		}
		ok = match;
	}
	cand[i] = x;
	keep[i] = ok;
}

/* OR, first pass: every doc of a query's lists written at its rank in their merge (a list's
 * equal docs after those of the lists before it). */
__kernel void index_or_merge(__global const uint *docs, __global const uint *list_at,
                             __global const uint *qt, const uint queries_off, const uint terms_off,
                             const uint starts_off, const uint segs_off, const uint seg_query_off,
                             const uint seg_term_off, const uint n_segs, const uint n_items,
                             __global uint *merged)
{
	uint i = get_global_id(0);
	if (i >= n_items) return;
	uint s = ix_segment_of(qt + segs_off, n_segs, i);
	uint q = qt[seg_query_off + s], j = qt[seg_term_off + s];
	__global const uint *info = qt + queries_off + 4 * q;
	__global const uint *ids = qt + terms_off + info[0];
	uint k = info[1], within = i - qt[segs_off + s];
	uint x = docs[list_at[ids[j]] + within];
	uint rank = within;
	for (uint o = 0; o < k; o++) {
		if (o == j) continue;
		uint lo = list_at[ids[o]], hi = list_at[ids[o] + 1];
		rank += (o < j ? ix_upper_bound(docs, lo, hi, x) : ix_lower_bound(docs, lo, hi, x)) - lo;
	}
	merged[qt[starts_off + q] + rank] = x;
}

/* OR, second pass: keep the first of each run of equal docs within a query. */
__kernel void index_or_unique(__global const uint *merged, __global const uint *qt,
                              const uint starts_off, const uint n_queries, const uint n_items,
                              __global uint *keep)
{
	uint i = get_global_id(0);
	if (i >= n_items) return;
	uint q = ix_segment_of(qt + starts_off, n_queries, i);
	keep[i] = i == qt[starts_off + q] || merged[i] != merged[i - 1];
}

/* After the inclusive scan of keep: each kept candidate at its answer's place, and each query's
 * first answer (bounds[n_queries] = the total). */
__kernel void index_compact(__global const uint *cand, __global const uint *kept, const uint n_items,
                            __global uint *out)
{
	uint i = get_global_id(0);
	if (i >= n_items) return;
	uint before = i ? kept[i - 1] : 0;
	if (kept[i] != before) out[before] = cand[i];
}

__kernel void index_bounds(__global const uint *kept, __global const uint *qt, const uint starts_off,
                           const uint n_queries, __global uint *bounds)
{
	uint q = get_global_id(0);
	if (q > n_queries) return;
	uint s = qt[starts_off + q];
	bounds[q] = s ? kept[s - 1] : 0;
}

/* Compressed lists (an index built with 'device_lists' => 'compressed'): a batch decodes the
 * lists it needs with the formats' own passes, into the layout the kernels above read. The
 * batch's list table `lt` (a second uint buffer, its list_at first) also holds where each MOD9
 * blob's words are and the lists the host sends decoded (equal docs merged: their blobs would
 * decode otherwise), after the lists decoded here. */

/* MOD9: the words of the batch's blobs gathered back to back (blob b: its words from
 * src[b] in the resident blobs, to dst[b] .. dst[b + 1]). */
__kernel void index_gather_words(__global const uint *resident, __global const uint *lt, const uint src_off,
                                 const uint dst_off, const uint n_blobs, const uint n_words,
                                 __global uint *words)
{
	uint i = get_global_id(0);
	if (i >= n_words) return;
	uint b = ix_segment_of(lt + dst_off, n_blobs, i);
	words[i] = resident[lt[src_off + b] + (i - lt[dst_off + b])];
}

/* Each posting's doc (32- or 64-bit from the decode, or the host's for the n - n_decoded sent
 * decoded) and, with counts, its position count (MOD9 POSTINGS: its values less the separate
 * form's doc); counts[n] = 0 for the scan that makes them offsets. */
__kernel void index_list_docs(__global const uint *d32, __global const long *d64, const uint wide,
                              __global const uint *vstart, __global const uchar *combined,
                              __global const uint *lt, const uint sent_docs_off, const uint sent_pos_at_off,
                              const uint n_decoded, const uint n, __global uint *docs,
                              __global uint *counts)
{
	uint p = get_global_id(0);
	if (p > n) return;
	/* counts (NULL without positions) says whether positions are counted: vstart is NULL too
	 * when every list of the chunk came from the host */
	if (p == n) {
		if (counts) counts[n] = 0;
		return;
	}
	if (p < n_decoded) {
		docs[p] = wide ? (uint)d64[p] : d32[p];
		if (counts) counts[p] = vstart[p + 1] - vstart[p] - (combined[p] ? 0u : 1u);
	} else {
		uint s = p - n_decoded;
		docs[p] = lt[sent_docs_off + s];
		if (counts) counts[p] = lt[sent_pos_at_off + s + 1] - lt[sent_pos_at_off + s];
	}
}

/* After the exclusive scan of the counts into pos_at: each posting's positions, from the
 * decode's running positions or the host's. */
__kernel void index_list_positions(__global const uint *pos32, __global const uint *vstart,
                                   __global const uchar *combined, __global const uint *lt,
                                   const uint sent_pos_at_off, const uint sent_positions_off,
                                   const uint n_decoded, const uint n, __global const uint *pos_at,
                                   __global int *positions)
{
	uint p = get_global_id(0);
	if (p >= n) return;
	uint to = pos_at[p], m = pos_at[p + 1] - to;
	if (p < n_decoded) {
		uint from = vstart[p] + (combined[p] ? 0u : 1u);
		for (uint j = 0; j < m; j++) positions[to + j] = (int)pos32[from + j];
	} else {
		uint from = lt[sent_pos_at_off + p - n_decoded];
		for (uint j = 0; j < m; j++) positions[to + j] = (int)lt[sent_positions_off + from + j];
	}
}

/* Ranked queries (BM25 as SQLite FTS5's bm25(); query/gp_rank.c computes the same on
 * the host, in the same order): each kept candidate scored into a 64-bit key (a positive
 * double's bits order as the double does; 0: not a match), then each query's best selected by
 * one work-group. The query tables add, per place, its IDF (two uints, low first) at idf_off,
 * and per query the first of its rows in the output (n_queries + 1) at rows_off. */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
#endif

__kernel void index_score(__global const uint *cand, __global const uint *keep, __global const uint *docs,
                          __global const uint *list_at, __global const uint *pos_at,
                          __global const uint *doc_len, __global const uint *qt, const uint queries_off,
                          const uint terms_off, const uint places_off, const uint idf_off,
                          const uint starts_off, const uint n_queries, const uint n_items,
                          const uint positional, const ulong k1_bits, const ulong b_bits,
                          const ulong avgdl_bits, __global ulong *keys)
{
	uint i = get_global_id(0);
	if (i >= n_items) return;
	ulong key = 0;
#ifdef cl_khr_fp64
	if (keep[i]) {
		uint q = ix_segment_of(qt + starts_off, n_queries, i);
		__global const uint *info = qt + queries_off + 4 * q;
		__global const uint *ids = qt + terms_off + info[0];
		__global const uint *places = qt + places_off + info[2];
		uint x = cand[i];
		double k1 = as_double(k1_bits), b = as_double(b_bits), avgdl = as_double(avgdl_bits);
		double dl = (double)doc_len[x], score = 0.0;
		for (uint p = 0; p < info[3]; p++) {
			uint t = ids[places[p]], lo = list_at[t], hi = list_at[t + 1];
			uint at = ix_lower_bound(docs, lo, hi, x);
			if (at == hi || docs[at] != x) continue;
			double tf = positional ? (double)max(pos_at[at + 1] - pos_at[at], 1u) : 1.0;   /* a posting without positions: once */
			uint w = idf_off + 2 * (info[2] + p);
			double idf = as_double(upsample(qt[w + 1], qt[w]));
			score += idf * ((tf * (k1 + 1.0)) / (tf + k1 * (1 - b + b * dl / avgdl)));
		}
		key = as_ulong(score);
	}
#endif
	keys[i] = key;
}

/* The exclusive prefix sum of x over the work-group (s: one uint an item), its total in *total. */
static uint ix_group_scan(__local uint *s, uint x, uint *total)
{
	uint lid = get_local_id(0), wg = get_local_size(0);
	s[lid] = x;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint d = 1; d < wg; d <<= 1) {
		uint y = lid >= d ? s[lid - d] : 0u;
		barrier(CLK_LOCAL_MEM_FENCE);
		s[lid] += y;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	uint incl = s[lid];
	*total = s[wg - 1];
	barrier(CLK_LOCAL_MEM_FENCE);
	return incl - x;
}

#define IX_RADIX_BITS 11
#define IX_RADIX_BINS (1u << IX_RADIX_BITS)
#define IX_TOPK_ITEMS 8u

/* A tile's best keys (work-group q: a tile of a query's candidates, or the whole query; the
 * tables' starts and rows are the tiles'): a radix select from the top bits finds the key T of
 * the rows-th best and how many of the keys equal to it belong in (the first in item order: the
 * smaller docs); then every key above T and those are written to the tile's rows (out_doc,
 * out_key; out_n[q] of them) in no set order (the host sorts each query's rows): a local atomic
 * hands out the slots, where a second scan a chunk would cost as much again, and each item
 * takes IX_TOPK_ITEMS consecutive candidates a scan (a tile of a large k is a whole query, and
 * its candidates can run to millions). The group's count of what it writes is known before:
 * the rows, or every match (the radix select's first pass counts them), so that no barrier
 * follows the last loop to read the slot counter (with one there, PoCL lost the radix select's
 * results). hist:
 * IX_RADIX_BINS + 8 uints (the bins, the select's state); scan: one an item. */
__kernel void index_top_k(__global const ulong *keys, __global const uint *cand, __global const uint *qt,
                          const uint starts_off, const uint rows_off, const uint n_queries,
                          __global uint *out_doc, __global ulong *out_key, __global uint *out_n,
                          __local uint *hist, __local uint *scan)
{
	uint q = get_group_id(0), lid = get_local_id(0), wg = get_local_size(0);
	if (q >= n_queries) return;
	uint lo = qt[starts_off + q], hi = qt[starts_off + q + 1];
	uint row0 = qt[rows_off + q], rows = qt[rows_off + q + 1] - row0;
	/* the select's state after the bins: the prefix and mask of T so far (two uints each), the
	 * ties still needed, whether every match is taken; then the rows' slot counter */
	__local uint *st = hist + IX_RADIX_BINS;
	if (lid == 0) {
		st[0] = st[1] = st[2] = st[3] = 0;
		st[4] = rows;
		st[5] = 0;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	/* a fixed count of passes, every barrier reached by every item (PoCL skipped the histogram
	 * loop of this one when it was left by a break); a pass after the select is settled does
	 * nothing */
	uint done = rows == 0;
	for (int shift = 64 - IX_RADIX_BITS; shift > -IX_RADIX_BITS; shift -= IX_RADIX_BITS) {
		uint sh = shift < 0 ? 0u : (uint)shift, bits = shift < 0 ? (uint)(IX_RADIX_BITS + shift) : IX_RADIX_BITS;
		ulong prefix = upsample(st[1], st[0]), mask = upsample(st[3], st[2]);
		for (uint b = lid; b < IX_RADIX_BINS && !done; b += wg) hist[b] = 0;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint i = lo + lid; i < hi && !done; i += wg) {
			ulong k = keys[i];
			if (k != 0 && (k & mask) == prefix) atomic_inc(&hist[(uint)(k >> sh) & ((1u << bits) - 1u)]);
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		/* the bin of the rows-th best: item lid sums its bins (the top ones for item 0), then one
		 * thread walks those sums down to the chunk that crosses `need`, and its bins (one
		 * thread walking every bin cost a small query most of its time) */
		const uint n_bins = 1u << bits, per = (n_bins + wg - 1) / wg;
		const uint top = lid * per < n_bins ? n_bins - lid * per : 0u;
		uint mine = 0;
		for (uint d = top > per ? top - per : 0u; d < top && !done; d++) mine += hist[d];
		scan[lid] = mine;
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid == 0 && !done) {
			uint above = 0, need = st[4], c = 0, found = 0, d = 0;
			while (c < wg && above + scan[c] < need) above += scan[c++];
			if (c < wg) {
				for (d = c * per < n_bins ? n_bins - c * per : 0u; d > 0;) {
					d--;
					if (above + hist[d] >= need) {
						found = 1;
						break;
					}
					above += hist[d];
				}
			}
			if (!found) {
				st[5] = 1;   /* fewer matches than rows: every one */
				st[6] = above;
			} else {
				ulong p = prefix | ((ulong)d << sh), m = mask | ((ulong)(n_bins - 1u) << sh);
				st[4] = need - above;
				st[0] = (uint)p;
				st[1] = (uint)(p >> 32);
				st[2] = (uint)m;
				st[3] = (uint)(m >> 32);
			}
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		done = done || st[5] || sh == 0;
	}
	const ulong t = upsample(st[1], st[0]);
	const uint all = st[5] || rows == 0, need = st[4];
	__local uint *slot = st + 7;
	if (lid == 0) {
		*slot = 0;
		out_n[q] = rows == 0 ? 0 : all ? st[6] : rows;   /* what the slots will have handed out */
	}
	/* item lid takes IX_TOPK_ITEMS consecutive candidates of each span: one scan a span hands
	 * out the ties in item order */
	uint ties = 0;
	for (uint c = lo; c < hi; c += wg * IX_TOPK_ITEMS) {
		const uint first = c + lid * IX_TOPK_ITEMS;
		ulong kk[IX_TOPK_ITEMS];
		uint n_eq = 0, total;
		for (uint j = 0; j < IX_TOPK_ITEMS; j++) {
			kk[j] = first + j < hi ? keys[first + j] : 0;
			n_eq += !all && kk[j] != 0 && kk[j] == t;
		}
		uint before = ix_group_scan(scan, n_eq, &total);
		for (uint j = 0; j < IX_TOPK_ITEMS; j++) {
			ulong k = kk[j];
			uint eq = !all && k != 0 && k == t;
			uint take = all ? (k != 0 && rows > 0) : (k > t || (eq && ties + before < need));
			before += eq;
			if (take) {   /* a slot of the query's rows, in no set order: the host sorts them */
				uint at = atomic_inc(slot);
				out_doc[row0 + at] = cand[first + j];
				out_key[row0 + at] = k;
			}
		}
		ties += total;
	}
}
