/* GPUPOST_S9 on the device: values per word from its selector, an exclusive scan for each
 * word's output offset, a scatter; the delta rules as a scan of the gaps (segmented per blob by
 * subtracting the sum before the blob). codec/gp_s9_word.h is prepended.
 * Work-item g covers payload word g of the batch; istart[b] is blob b's first such word. */

/* The last word of a blob holds the rest: first..n-1, at most its count, its unused slots 0. */
inline uint s9_last_word_bad(uint w, uint sel, uint first, uint n)
{
	return first >= n || n - first > gp_s9_count(sel) || gp_s9_unused_bits(w, gp_s9_bits(sel), n - first) != 0u;
}

__kernel void s9_count(__global const uint *in, __global const uint *bt, __global const uint *istart,
                       const uint n_blobs, const uint total, __global uint *counts, __global uint *err)
{
	uint g = get_global_id(0);
	if (g > total) return;
	if (g == total) { counts[g] = 0; return; }
	uint b = gp_find_blob(istart, n_blobs, g);
	uint w = in[bt[GP_BT_STRIDE * b + GP_BT_BASE] + (g - istart[b])];
	uint s = w >> 28;
	if (s > 8u) atomic_min(err, g);
	counts[g] = gp_s9_count(s);
}

__kernel void s9_decode(__global const uint *in, __global const uint *bt, __global const uint *istart,
                        const uint n_blobs, const uint total, __global const uint *off,
                        __global long *out, __global uint *err)
{
	uint g = get_global_id(0);
	if (g >= total) return;
	uint b = gp_find_blob(istart, n_blobs, g);
	__global const uint *t = bt + GP_BT_STRIDE * b;
	uint j = g - istart[b], w = in[t[GP_BT_BASE] + j], s = w >> 28;
	if (s > 8u) return;
	uint n = t[GP_BT_N], first = off[g] - off[istart[b]], c = gp_s9_count(s), bits = gp_s9_bits(s);
	if (j + 1 == t[GP_BT_ITEMS]) {
		if (s9_last_word_bad(w, s, first, n)) {
			atomic_min(err, g);
			return;
		}
		c = n - first;
	} else if (first + c >= n) {
		atomic_min(err, g);
		return;
	}
	__global long *o = out + t[GP_BT_VALUES] + first;
	for (uint k = 0; k < c; k++) o[k] = (long)gp_s9_value(w, bits, k);
}

/* x = the running sum of the gaps within the blob (sums: inclusive scan over the batch), plus
 * the index for the strict rule; blobs with delta 0 keep their values. */
__kernel void s9_delta(__global long *values, __global const long *sums, __global const uint *bt,
                       __global const uint *vstart, const uint n_blobs, const uint total)
{
	uint v = get_global_id(0);
	if (v >= total) return;
	uint b = gp_find_blob(vstart, n_blobs, v);
	uint delta = bt[GP_BT_STRIDE * b + GP_BT_PARAM], vb = vstart[b];
	if (delta == 0u) return;
	long before = vb > 0u ? sums[vb - 1u] : 0L;
	values[v] = sums[v] - before + (delta == 2u ? (long)(v - vb) : 0L);
}

/* One blob, tiled like MOD9's (GP_SCAN_ITEMS words per work-item, read side by side):
 * s9_tile_count sums each tile's value counts and values (the last word of the blob, which holds
 * "the rest", is left to the decode), both are scanned, then s9_tile_decode turns its words'
 * counts and sums into offsets in local memory and writes every value, the delta rule applied,
 * through a local staging area of GP_STAGE_ITEMS values per item (coalesced writes, no
 * per-value global scan). Words are at in[base ...]. */
/* Values and value sum of word i of nw: the last word (which holds "the rest") and a bad
 * selector count none here. */
inline uint s9_tile_word(uint w, uint i, uint nw, long *sum)
{
	uint cnt = 0, sel = w >> 28;
	*sum = 0;
	if (i + 1u < nw && sel <= 8u) {
		uint bits = gp_s9_bits(sel);
		cnt = gp_s9_count(sel);
		for (uint j = 0; j < cnt; j++) *sum += gp_s9_value(w, bits, j);
	}
	return cnt;
}

__kernel void s9_tile_count(__global const uint *in, const uint base, const uint nw,
                            __global uint *tile_counts, __global long *tile_sums, __global uint *err,
                            __local uint *part_c, __local long *part_s)
{
	const uint wg = get_local_size(0), first = get_group_id(0) * wg * GP_SCAN_ITEMS + get_local_id(0);
	uint w[GP_SCAN_ITEMS], c = 0, bad = 0xFFFFFFFFu, tc;
	long s = 0, ws, ts;
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {   /* every load issued before any is used */
		uint i = first + k * wg;
		w[k] = i < nw ? in[base + i] : 0u;
	}
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {
		uint i = first + k * wg;
		c += s9_tile_word(w[k], i, nw, &ws);
		s += ws;
		if (i < nw && (w[k] >> 28) > 8u && bad == 0xFFFFFFFFu) bad = i;
	}
	if (bad != 0xFFFFFFFFu) atomic_min(err, bad);
	tc = gp_group_sum_u32(part_c, c);
	ts = gp_group_sum_i64(part_s, s);
	if (get_local_id(0) == 0) { tile_counts[get_group_id(0)] = tc; tile_sums[get_group_id(0)] = ts; }
}

/* offs, sums: GP_SKEW(tile) elements; part_c, part_s: wg; stage: wg * GP_STAGE_ITEMS */
__kernel void s9_tile_decode(__global const uint *in, const uint base, const uint nw, const uint n,
                             const uint delta, __global const uint *tile_off,
                             __global const long *tile_sum_off, __global long *out,
                             __global uint *err, __local uint *offs, __local long *sums,
                             __local uint *part_c, __local long *part_s, __local long *stage)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), chunk = wg * GP_STAGE_ITEMS;
	const uint g = get_group_id(0), first = g * wg * GP_SCAN_ITEMS, out0 = tile_off[g];
	uint w[GP_SCAN_ITEMS], cnt[GP_SCAN_ITEMS];
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {
		uint i = first + k * wg + lid;
		w[k] = i < nw ? in[base + i] : 0u;
	}
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {
		long s;
		uint t = k * wg + lid;
		cnt[k] = s9_tile_word(w[k], first + t, nw, &s);
		offs[GP_SKEW(t)] = cnt[k];
		sums[GP_SKEW(t)] = s;
	}
	uint total = gp_tile_offsets_u32(offs, part_c, GP_SCAN_ITEMS);
	gp_tile_offsets_i64(sums, part_s, GP_SCAN_ITEMS);
	const long sum0 = tile_sum_off[g];
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {
		uint i = first + k * wg + lid, at_n = out0 + offs[GP_SKEW(k * wg + lid)], sel = w[k] >> 28;
		if (i + 1u == nw && sel <= 8u) {
			if (s9_last_word_bad(w[k], sel, at_n, n)) atomic_min(err, i);
			else cnt[k] = n - at_n;
		} else if (i < nw && at_n + cnt[k] >= n) {
			atomic_min(err, i);
		}
	}
	/* the tile ends where the next begins, the last tile at n; never past n */
	uint end = first + wg * GP_SCAN_ITEMS >= nw ? n : min(n, out0 + total);
	total = end > out0 ? end - out0 : 0u;
	for (uint c0 = 0; c0 < total; c0 += chunk) {
		for (uint k = 0; k < GP_SCAN_ITEMS; k++) {
			/* offsets and sums re-read from local memory: registers for them spill */
			uint t = GP_SKEW(k * wg + lid), at = offs[t], j1 = min(at + cnt[k], c0 + chunk);
			if (at + cnt[k] <= c0 || at >= j1) continue;
			uint bits = gp_s9_bits(w[k] >> 28);
			long run = sum0 + sums[t];
			for (uint j = at; j < j1; j++) {
				long v = (long)gp_s9_value(w[k], bits, j - at);
				run += v;
				if (j >= c0) stage[j - c0] = delta == 0u ? v : run + (delta == 2u ? (long)(out0 + j) : 0L);
			}
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		uint m = min(chunk, total - c0);
		for (uint q = lid; q < m; q += wg) out[out0 + c0 + q] = stage[q];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
}
