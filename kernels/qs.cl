/* GPUPOST_QS (Elias-Fano) on the device, Parallel-QS style: a popcount per upper word, an
 * exclusive scan for each word's first element index, then each upper word emits its elements
 * with their lower bits read in the same kernel through a two-word window (no branch for a value
 * that straddles words). Work-item g covers upper word g of the batch. */

__kernel void qs_count(__global const uint *in, __global const uint *bt, __global const uint *istart,
                       const uint n_blobs, const uint total, __global uint *counts, __global uint *err)
{
	uint g = get_global_id(0);
	if (g > total) return;
	if (g == total) { counts[g] = 0; return; }
	uint b = gp_find_blob(istart, n_blobs, g);
	__global const uint *t = bt + GP_BT_STRIDE * b;
	uint j = g - istart[b], w = in[t[GP_BT_BASE] + t[GP_BT_LOWER] + j];
	if (j == 0u) {
		/* once per blob: the lower array's padding bits past n * l are 0 */
		ulong lower_bits = (ulong)t[GP_BT_N] * t[GP_BT_PARAM];
		uint used = (uint)(lower_bits & 31ul);
		if (used != 0u && (in[t[GP_BT_BASE] + t[GP_BT_LOWER] - 1u] >> used) != 0u) atomic_min(err, g);
	}
	if (j + 1 == t[GP_BT_ITEMS]) {
		ulong nbits = (ulong)(t[GP_BT_LAST] >> t[GP_BT_PARAM]) + t[GP_BT_N];
		uint valid = (uint)(nbits - 32ul * j);
		if (valid < 32u && (w >> valid) != 0u) atomic_min(err, g);
	}
	counts[g] = popcount(w);
}

__kernel void qs_decode(__global const uint *in, __global const uint *bt, __global const uint *istart,
                        const uint n_blobs, const uint total, __global const uint *rank,
                        __global uint *out, __global uint *err)
{
	uint g = get_global_id(0);
	if (g >= total) return;
	uint b = gp_find_blob(istart, n_blobs, g);
	__global const uint *t = bt + GP_BT_STRIDE * b;
	__global const uint *lower = in + t[GP_BT_BASE];
	uint j = g - istart[b], l = t[GP_BT_PARAM], n = t[GP_BT_N];
	uint w = lower[t[GP_BT_LOWER] + j];
	uint i = rank[g] - rank[istart[b]];
	if (j + 1 == t[GP_BT_ITEMS] && i + popcount(w) != n) { atomic_min(err, g); return; }
	uint mask = l ? (uint)((1ul << l) - 1ul) : 0u;
	__global uint *o = out + t[GP_BT_VALUES];
	for (; w != 0u && i < n; i++, w &= w - 1u) {
		uint bit = (uint)popcount((w & (0u - w)) - 1u);
		ulong hi = (ulong)32u * j + bit - i;
		/* lower bits: a 64-bit window over the two words holding bit i*l; the second word is at
		 * worst the first upper word, inside the blob */
		uint lo = 0u;
		if (l) {
			ulong at = (ulong)i * l;
			uint word = (uint)(at >> 5);
			ulong win = (ulong)lower[word] | ((ulong)lower[word + 1u] << 32);
			lo = (uint)(win >> (at & 31ul)) & mask;
		}
		uint x = (uint)((hi << l) | lo);
		o[i] = x;
		if (i + 1u == n && x != t[GP_BT_LAST]) atomic_min(err, g);
	}
	if (w != 0u) atomic_min(err, g);
}

/* A QS list never decreases: a blob that decodes to a decreasing pair is malformed. */
__kernel void qs_check_order(__global const uint *values, __global const uint *vstart,
                             const uint n_blobs, const uint total, __global uint *err)
{
	uint v = get_global_id(0);
	if (v >= total) return;
	uint b = gp_find_blob(vstart, n_blobs, v);
	if (v > vstart[b] && values[v] < values[v - 1u]) atomic_min(err, v);
}
