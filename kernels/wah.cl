/* GPUPOST_WAH on the device. Groups per word (1 for a literal, the run for a fill) and a scan
 * give each word its first group; then every 32-bit word of the output bitmap is gathered from
 * the (at most two) groups it overlaps, found by binary search: no scatter, no atomics, and a fill
 * of a million groups costs no more than a literal. Queries gather the same output word from
 * every bitmap and combine them in registers, so no bitmap is decompressed to global memory. */

/* Per-blob table: the container batch layout (GP_BT_*), its fields read as WAH's. */
#define GP_WB_STRIDE GP_BT_STRIDE
#define GP_WB_BASE GP_BT_BASE     /* first payload word, in 32-bit units of the input */
#define GP_WB_W GP_BT_PARAM       /* 32 or 64 */
#define GP_WB_WORDS GP_BT_ITEMS   /* WAH words */
#define GP_WB_NBITS GP_BT_LAST    /* rows (the device path takes nbits < 2^32) */
#define GP_WB_GROUPS GP_BT_LOWER  /* ceil(nbits / (w - 1)) */

inline ulong wah_word(__global const uint *in, __global const uint *t, uint i)
{
	uint base = t[GP_WB_BASE];
	return t[GP_WB_W] == 32u ? (ulong)in[base + i]
	                         : ((ulong)in[base + 2u * i] | ((ulong)in[base + 2u * i + 1u] << 32));
}

inline ulong wah_is_fill(ulong x, uint w) { return (x >> (w - 1u)) & 1ul; }

inline ulong wah_run(ulong x, uint w)
{
	return wah_is_fill(x, w) ? (x & ((1ul << (w - 2u)) - 1ul)) : 1ul;
}

/* The g = w-1 bits of the group(s) word x stands for. */
inline ulong wah_group_bits(ulong x, uint w)
{
	ulong mask = (1ul << (w - 1u)) - 1ul;
	return wah_is_fill(x, w) ? (((x >> (w - 2u)) & 1ul) ? mask : 0ul) : (x & mask);
}

/* counts[i]: groups of word i (n+1 entries, the last 0); runs of 0 or past the blob's group
 * count are flagged and clamped so that the scan cannot overflow. */
__kernel void wah_count(__global const uint *in, __global const uint *bt, __global const uint *wstart,
                        const uint n_blobs, const uint total, __global long *counts, __global uint *err)
{
	uint i = get_global_id(0);
	if (i > total) return;
	if (i == total) { counts[i] = 0; return; }
	uint b = gp_find_blob(wstart, n_blobs, i);
	__global const uint *t = bt + GP_WB_STRIDE * b;
	ulong r = wah_run(wah_word(in, t, i - wstart[b]), t[GP_WB_W]);
	if (r == 0ul || r > (ulong)t[GP_WB_GROUPS]) {
		atomic_min(err, i);
		r = 1ul;
	}
	counts[i] = (long)r;
}

/* After the scan (goff, exclusive): the groups of each blob add up to exactly its group count,
 * and its last group has no bit at or past nbits. */
__kernel void wah_verify(__global const uint *in, __global const uint *bt, __global const uint *wstart,
                         const uint n_blobs, const uint total, __global const long *goff,
                         __global uint *err)
{
	uint i = get_global_id(0);
	if (i >= total) return;
	uint b = gp_find_blob(wstart, n_blobs, i);
	__global const uint *t = bt + GP_WB_STRIDE * b;
	uint w = t[GP_WB_W], g = w - 1u, tail = t[GP_WB_NBITS] % g;
	ulong x = wah_word(in, t, i - wstart[b]);
	long end = goff[i + 1u] - goff[wstart[b]];
	if (i + 1u == wstart[b + 1u] && end != (long)t[GP_WB_GROUPS]) atomic_min(err, i);
	if (end == (long)t[GP_WB_GROUPS] && tail != 0u && (wah_group_bits(x, w) >> tail) != 0ul) atomic_min(err, i);
}

/* Output word q (bits 32q .. 32q+31) of blob t, whose words start at global index ws. */
inline uint wah_gather_word(__global const uint *in, __global const uint *t, uint ws,
                            __global const long *goff, uint q)
{
	uint w = t[GP_WB_W], g = w - 1u, nwords = t[GP_WB_WORDS], nbits = t[GP_WB_NBITS];
	uint bit0 = 32u * q;
	long gbase = goff[ws];
	ulong k0 = bit0 / g;
	/* the last word whose first group is <= k0 */
	uint lo = 0u, hi = nwords;
	while (hi - lo > 1u) {
		uint mid = lo + (hi - lo) / 2u;
		if ((ulong)(goff[ws + mid] - gbase) <= k0) lo = mid; else hi = mid;
	}
	uint off0 = bit0 - (uint)(k0 * g);
	ulong out = wah_group_bits(wah_word(in, t, lo), w) >> off0;
	if (g - off0 < 32u) {
		ulong k1 = k0 + 1ul;
		if (lo + 1u < nwords && (ulong)(goff[ws + lo + 1u] - gbase) <= k1) lo++;
		if (k1 < (ulong)t[GP_WB_GROUPS]) out |= wah_group_bits(wah_word(in, t, lo), w) << (g - off0);
	}
	uint v = (uint)out;
	if (nbits - bit0 < 32u) v &= (1u << (nbits - bit0)) - 1u;
	return v;
}

/* Every output word of every blob of a batch (ostart: first output word of each blob). */
__kernel void wah_gather(__global const uint *in, __global const uint *bt, __global const uint *ostart,
                         __global const uint *wstart, __global const long *goff, const uint n_blobs,
                         const uint total, __global uint *bitmap)
{
	uint o = get_global_id(0);
	if (o >= total) return;
	uint b = gp_find_blob(ostart, n_blobs, o);
	bitmap[o] = wah_gather_word(in, bt + GP_WB_STRIDE * b, wstart[b], goff, o - ostart[b]);
}

/* A query: output word o of AND (op 2) or OR (op 1) over all blobs, combined in registers. */
__kernel void wah_query(__global const uint *in, __global const uint *bt, __global const uint *wstart,
                        __global const long *goff, const uint n_blobs, const uint total,
                        const uint op, __global uint *bitmap)
{
	uint o = get_global_id(0);
	if (o >= total) return;
	uint acc = op == 2u ? 0xFFFFFFFFu : 0u;
	for (uint b = 0; b < n_blobs; b++) {
		uint v = wah_gather_word(in, bt + GP_WB_STRIDE * b, wstart[b], goff, o);
		acc = op == 2u ? (acc & v) : (acc | v);
		if (op == 2u && acc == 0u) break;
	}
	bitmap[o] = acc;
}

__kernel void bitmap_popcount(__global const uint *bitmap, const uint total, __global uint *counts)
{
	uint o = get_global_id(0);
	if (o > total) return;
	counts[o] = o < total ? popcount(bitmap[o]) : 0u;
}

/* Set rows of each blob's bitmap, numbered from the blob's first row. */
__kernel void bitmap_rows(__global const uint *bitmap, const uint total, __global const uint *ostart,
                          const uint n_blobs, __global const uint *roff, __global long *rows)
{
	uint o = get_global_id(0);
	if (o >= total) return;
	uint b = gp_find_blob(ostart, n_blobs, o), x = bitmap[o], r = roff[o];
	long row0 = 32L * (long)(o - ostart[b]);
	for (; x != 0u; x &= x - 1u) rows[r++] = row0 + (long)popcount((x & (0u - x)) - 1u);
}
