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
