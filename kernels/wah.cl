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

/* bit / g for g = w - 1 (31 or 63), as divisions by constants (a multiply, not a division loop). */
inline uint wah_group_of(uint bit, uint w) { return w == 64u ? bit / 63u : bit / 31u; }

/* The last of words [lo, hi) of a blob (first word ws) whose first group is <= k. */
inline uint wah_find_word(__global const long *goff, uint ws, uint lo, uint hi, ulong k)
{
	long gbase = goff[ws];
	while (hi - lo > 1u) {
		uint mid = lo + (hi - lo) / 2u;
		if ((ulong)(goff[ws + mid] - gbase) <= k) lo = mid; else hi = mid;
	}
	return lo;
}

/* Output word q (bits 32q .. 32q+31) of blob t, whose words start at global index ws, given lo:
 * the word holding its first bit's group. */
/* Output word at bit bit0 from x, the WAH word whose group holds that bit (at bit off0 of the
 * group), and, when the group ends inside the output word and another follows, xn, the word
 * holding the next group; bits past nbits cleared. */
inline uint wah_compose(ulong x, ulong xn, uint has_next, uint w, uint bit0, uint off0, uint nbits)
{
	ulong out = wah_group_bits(x, w) >> off0;
	if (has_next) out |= wah_group_bits(xn, w) << (w - 1u - off0);
	uint v = (uint)out;
	if (nbits - bit0 < 32u) v &= (1u << (nbits - bit0)) - 1u;
	return v;
}

inline uint wah_gather_at(__global const uint *in, __global const uint *t, uint ws,
                          __global const long *goff, uint q, uint lo)
{
	uint w = t[GP_WB_W], g = w - 1u, nwords = t[GP_WB_WORDS], nbits = t[GP_WB_NBITS];
	uint bit0 = 32u * q;   /* nbits < 2^32 on the device path */
	ulong k0 = wah_group_of(bit0, w);
	uint off0 = bit0 - (uint)k0 * g, an = lo, has_next = g - off0 < 32u && k0 + 1ul < (ulong)t[GP_WB_GROUPS];
	if (has_next && lo + 1u < nwords && (ulong)(goff[ws + lo + 1u] - goff[ws]) <= k0 + 1ul) an++;
	return wah_compose(wah_word(in, t, lo), has_next ? wah_word(in, t, an) : 0ul, has_next, w, bit0, off0, nbits);
}

inline uint wah_gather_word(__global const uint *in, __global const uint *t, uint ws,
                            __global const long *goff, uint q)
{
	ulong k0 = wah_group_of(32u * q, t[GP_WB_W]);
	return wah_gather_at(in, t, ws, goff, q, wah_find_word(goff, ws, 0u, t[GP_WB_WORDS], k0));
}

/* Every output word of every blob of a batch (ostart: first output word of each blob), a tile of
 * GP_WAH_ITEMS * wg output words per work-group, item lid taking words k * wg + lid.
 * wah_tile_words finds, one item per tile and all tiles at once, the WAH words holding each
 * tile's first and last bits (or marks a tile that straddles blobs). wah_gather then loads the
 * words between (and one more) with their first groups into local memory, side by side: the
 * tile's 32 * tile bits span at most 32 * tile / 31 + 2 WAH words, since every word holds a
 * group or more (win holds tile + tile / 16 + 4). Each item gathers consecutive output words
 * from there into local memory, and the tile is written side by side. A tile that straddles
 * blobs searches per word in global memory. */
#define GP_WAH_ITEMS 8u
#define GP_WAH_STRADDLES 0xFFFFFFFFu

/* wah_gather's words q .. q + m - 1 of a blob of w-bit words (a constant where it is inlined)
 * from the window: one search, then forward. They go to stage[GP_SKEW(p0 + k)]. */
inline void wah_gather_run(__global const uint *in, __global const uint *t, __global const long *goff,
                           uint ws, uint lo, uint nwords, uint nbits, ulong groups, uint cnt,
                           ulong first, long gbase, __local const uint *win,
                           __local const ulong *win_words, uint q, uint m, const uint w,
                           __local uint *stage, uint p0)
{
	const uint g = w - 1u;
	uint a = 0u, h = cnt;
	if (m > 0u) {
		ulong rel = (ulong)wah_group_of(32u * q, w) - first;
		while (h - a > 1u) {
			uint mid = a + (h - a) / 2u;
			if ((ulong)win[mid] <= rel) a = mid; else h = mid;
		}
	}
	for (uint k = 0; k < GP_WAH_ITEMS; k++) {
		uint v = 0u;
		if (k < m) {
			/* as wah_gather_at, from local memory (a word past the window, never needed for a
			 * well-formed blob, from global memory) */
			uint bit0 = 32u * (q + k), k0 = wah_group_of(bit0, w), off0 = bit0 - k0 * g;
			ulong rel0 = (ulong)k0 - first;
			while (a + 1u < cnt && (ulong)win[a + 1u] <= rel0) a++;
			uint an = a, has_next = g - off0 < 32u && (ulong)k0 + 1ul < groups;
			ulong xn = 0ul;
			if (has_next) {
				if (lo + a + 1u < nwords) {
					ulong g1 = a + 1u < cnt ? first + win[a + 1u] : (ulong)(goff[ws + lo + a + 1u] - gbase);
					if (g1 <= (ulong)k0 + 1ul) an = a + 1u;
				}
				xn = an < cnt ? win_words[an] : wah_word(in, t, lo + an);
			}
			v = wah_compose(win_words[a], xn, has_next, w, bit0, off0, nbits);
		}
		stage[GP_SKEW(p0 + k)] = v;
	}
}

__kernel void wah_tile_words(__global const uint *bt, __global const uint *ostart,
                             __global const uint *wstart, __global const long *goff,
                             const uint n_blobs, const uint total, const uint tile,
                             __global uint *tile_words)
{
	uint tl = get_global_id(0), o0 = tl * tile;
	if (o0 >= total) return;
	uint last = min(o0 + tile, total) - 1u, b = gp_find_blob(ostart, n_blobs, o0);
	if (b != gp_find_blob(ostart, n_blobs, last)) {
		tile_words[2u * tl] = GP_WAH_STRADDLES;
		return;
	}
	__global const uint *t = bt + GP_WB_STRIDE * b;
	uint w = t[GP_WB_W], nwords = t[GP_WB_WORDS], q0 = o0 - ostart[b];
	uint lo = wah_find_word(goff, wstart[b], 0u, nwords, wah_group_of(32u * q0, w));
	uint hi = min(nwords, lo + tile + tile / 16u + 2u);
	tile_words[2u * tl] = lo;
	tile_words[2u * tl + 1u] = wah_find_word(goff, wstart[b], lo, hi, wah_group_of(32u * (q0 + last - o0) + 31u, w));
}

__kernel void wah_gather(__global const uint *in, __global const uint *bt, __global const uint *ostart,
                         __global const uint *wstart, __global const long *goff, const uint n_blobs,
                         const uint total, __global const uint *tile_words, __global uint *bitmap,
                         __local uint *win, __local ulong *win_words, __local uint *stage)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), tile = wg * GP_WAH_ITEMS;
	const uint o0 = get_group_id(0) * tile, lo = tile_words[2u * get_group_id(0)];
	const uint one = lo != GP_WAH_STRADDLES, b = one ? gp_find_blob(ostart, n_blobs, o0) : 0u;
	const uint ws = wstart[b], q0 = o0 - ostart[b];
	__global const uint *t = bt + GP_WB_STRIDE * b;
	const uint w = t[GP_WB_W], nwords = t[GP_WB_WORDS], nbits = t[GP_WB_NBITS];
	const ulong groups = t[GP_WB_GROUPS];
	/* the words (and the one after the last: the last output word's bits may go on there) */
	const uint cnt = one ? min(nwords - lo, tile_words[2u * get_group_id(0) + 1u] - lo + 2u) : 0u;
	const long base = one ? goff[ws + lo] : 0L, gbase = goff[ws];
	for (uint m = lid; m < cnt; m += wg) {
		win[m] = (uint)min((ulong)(goff[ws + lo + m] - base), (ulong)0xFFFFFFFFu);
		win_words[m] = wah_word(in, t, lo + m);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	/* each item gathers GP_WAH_ITEMS consecutive output words into stage, walking the window
	 * forward from one search (consecutive words need the same or the next WAH words), then the
	 * tile is written side by side. Word width as a constant in each loop (w is the blob's). */
	const ulong first = (ulong)(base - gbase);   /* word lo's first group */
	const uint p0 = lid * GP_WAH_ITEMS;
	if (!one) {   /* a tile that straddles blobs: every word searched in global memory */
		for (uint k = 0; k < GP_WAH_ITEMS; k++) {
			uint o = o0 + p0 + k, v = 0u;
			if (o < total) {
				uint ob = gp_find_blob(ostart, n_blobs, o);
				v = wah_gather_word(in, bt + GP_WB_STRIDE * ob, wstart[ob], goff, o - ostart[ob]);
			}
			stage[GP_SKEW(p0 + k)] = v;
		}
	} else if (w == 64u) {
		wah_gather_run(in, t, goff, ws, lo, nwords, nbits, groups, cnt, first, gbase, win, win_words,
		               q0 + p0, min(GP_WAH_ITEMS, total > o0 + p0 ? total - o0 - p0 : 0u), 64u,
		               stage, p0);
	} else {
		wah_gather_run(in, t, goff, ws, lo, nwords, nbits, groups, cnt, first, gbase, win, win_words,
		               q0 + p0, min(GP_WAH_ITEMS, total > o0 + p0 ? total - o0 - p0 : 0u), 32u,
		               stage, p0);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint k = 0; k < GP_WAH_ITEMS; k++) {
		uint idx = k * wg + lid;
		if (o0 + idx < total) bitmap[o0 + idx] = stage[GP_SKEW(idx)];
	}
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
