/* GPUPOST_S9 on the device: values per word from its selector, an exclusive scan for each
 * word's output offset, a scatter; the delta rules as a scan of the gaps (segmented per blob by
 * subtracting the sum before the blob). codec/gp_s9_word.h is prepended.
 * Work-item g covers payload word g of the batch; istart[b] is blob b's first such word. */

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
		/* the last word holds the rest, its unused slots 0 */
		if (first >= n || n - first > c || gp_s9_unused_bits(w, bits, n - first) != 0u) {
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

/* One blob, tiled: s9_tile_count sums each tile's value counts and values (the last word of the
 * blob, which holds "the rest", is left to the decode), both sums are scanned, then
 * s9_tile_decode scans its tile's counts and sums in local memory and writes every value with the
 * delta rule applied: no per-value global scan. Words are at in[base ...]. */
__kernel void s9_tile_count(__global const uint *in, const uint base, const uint nw,
                            __global uint *tile_counts, __global long *tile_sums, __global uint *err,
                            __local uint *lc, __local long *ls)
{
	const uint lid = get_local_id(0), wg = get_local_size(0);
	const uint tbase = get_group_id(0) * wg * GP_SCAN_ITEMS;
	uint c = 0;
	long s = 0;
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {
		uint i = tbase + k * wg + lid;
		if (i >= nw) break;
		uint w = in[base + i], sel = w >> 28;
		if (sel > 8u) { atomic_min(err, i); continue; }
		if (i + 1u == nw) continue;
		uint cc = gp_s9_count(sel), bits = gp_s9_bits(sel);
		c += cc;
		for (uint j = 0; j < cc; j++) s += gp_s9_value(w, bits, j);
	}
	lc[lid] = c;
	ls[lid] = s;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint h = wg / 2; h > 0; h >>= 1) {
		if (lid < h) { lc[lid] += lc[lid + h]; ls[lid] += ls[lid + h]; }
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0) { tile_counts[get_group_id(0)] = lc[0]; tile_sums[get_group_id(0)] = ls[0]; }
}

__kernel void s9_tile_decode(__global const uint *in, const uint base, const uint nw, const uint n,
                             const uint delta, __global const uint *tile_off,
                             __global const long *tile_sum_off, __global long *out,
                             __global uint *err, __local uint *lc, __local long *ls)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), tile = wg * GP_SCAN_ITEMS;
	const uint tbase = get_group_id(0) * tile;
	__local uint *pc = lc + tile;
	__local long *ps = ls + tile;
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {   /* per word: full count and value sum */
		uint t = k * wg + lid, i = tbase + t, cc = 0;
		long s = 0;
		if (i + 1u < nw) {
			uint w = in[base + i], sel = w >> 28;
			if (sel <= 8u) {
				uint bits = gp_s9_bits(sel);
				cc = gp_s9_count(sel);
				for (uint j = 0; j < cc; j++) s += gp_s9_value(w, bits, j);
			}
		}
		lc[t] = cc;
		ls[t] = s;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	uint runc = 0;
	long runs = 0;
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) { runc += lc[lid * GP_SCAN_ITEMS + k]; runs += ls[lid * GP_SCAN_ITEMS + k]; }
	pc[lid] = runc;
	ps[lid] = runs;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint off = 1; off < wg; off <<= 1) {
		uint tc = lid >= off ? pc[lid - off] : 0u;
		long ts = lid >= off ? ps[lid - off] : 0L;
		barrier(CLK_LOCAL_MEM_FENCE);
		pc[lid] += tc;
		ps[lid] += ts;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	uint accc = pc[lid] - runc;
	long accs = ps[lid] - runs;
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {   /* exclusive offsets back, in word order */
		uint t = lid * GP_SCAN_ITEMS + k, c0 = lc[t];
		long s0 = ls[t];
		lc[t] = accc;
		ls[t] = accs;
		accc += c0;
		accs += s0;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	const uint g = get_group_id(0);
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {
		uint t = k * wg + lid, i = tbase + t;
		if (i >= nw) break;
		uint w = in[base + i], sel = w >> 28;
		if (sel > 8u) continue;
		uint at = tile_off[g] + lc[t], cnt = gp_s9_count(sel), bits = gp_s9_bits(sel);
		long run = tile_sum_off[g] + ls[t];
		if (i + 1u == nw) {
			if (at >= n || n - at > cnt || gp_s9_unused_bits(w, bits, n - at) != 0u) { atomic_min(err, i); continue; }
			cnt = n - at;
		} else if (at + cnt >= n) {
			atomic_min(err, i);
			continue;
		}
		for (uint j = 0; j < cnt; j++) {
			long v = (long)gp_s9_value(w, bits, j);
			uint idx = at + j;
			if (delta == 0u) {
				out[idx] = v;
			} else {
				run += v;
				out[idx] = run + (delta == 2u ? (long)idx : 0L);
			}
		}
	}
}
