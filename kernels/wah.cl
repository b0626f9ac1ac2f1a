/* GPUPOST_WAH on the device. Groups per word (1 for a literal, the run for a fill), summed by
 * tiles, give each word its first group; then every 32-bit
 * word of the output bitmap is gathered from the (at most two) groups it overlaps: a tile's
 * groups are expanded in local memory once, and each output word is a few shifts of them. No
 * scatter, no atomics, and a fill of a million groups costs no more than a literal. Queries
 * gather the same output word from every bitmap and combine them in registers, so no bitmap is
 * decompressed to global memory. Set rows come from the bitmap, tiled too. */


inline ulong wah_word(__global const uint *in, __global const uint *t, uint i)
{
	uint base = t[GP_BT_BASE];
	return t[GP_BT_WAH_W] == 32u ? (ulong)in[base + i]
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

/* Groups of word i of blob t: a run of 0 or past the blob's group count is flagged in *bad (the
 * lowest such i) and taken as 1, so that the sums of runs cannot overflow. */
inline ulong wah_run_clamped(__global const uint *in, __global const uint *t, uint i, uint w,
                             ulong groups, uint *bad)
{
	ulong r = wah_run(wah_word(in, t, i), w);
	if (r == 0ul || r > groups) {
		*bad = min(*bad, i);
		r = 1ul;
	}
	return r;
}

/* Each word's first group, without a scan launch, tiled like the single-list decoders: wah_tile_count sums the groups of each tile of GP_TILE_ITEMS * wg words
 * (gp_tile_total_put), wah_tile_offsets writes each word's first group from its tile's offset
 * and a scan in local memory. Runs are clamped (wah_run_clamped) and a tile's sum to the blob's
 * groups + 1 (at most 2^32 / 31: nbits < 2^32 on the device path), and blocks are at most 30
 * tiles, so no 32-bit sum wraps: a malformed blob's last offset passes its group count and
 * wah_tile_offsets' check (wah_blob_ok) sees it. */
/* A batch's blobs each have tiles of their own (tile_start[b] the first of blob b's, its words
 * from wstart[b] in goff): a group takes its blob's table row t, its first tile g0 and its first
 * word ws, and its words' first groups count from the blob's start (every reader of goff takes
 * differences within a blob). One blob also writes its end, goff[nwords]; a batch's blob does
 * not: that entry is the next blob's start. */
#define WAH_BLOB_OF(tab, tile_start, n_blobs, g)                                                \
	const uint b_ = gp_find_blob(tile_start, n_blobs, g), g0 = tile_start[b_];                   \
	__global const uint *t = tab + GP_BT_STRIDE * b_

/* part: wg longs. */
GP_PASS_BODY void wah_tile_count_body(__global const uint *in, __global const uint *t,
                                      const uint g0, const uint bt, __global uint *tile_sums,
                                      __global uint *block_sums, __global uint *err,
                                      __local long *part)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), g = get_group_id(0);
	const uint w = t[GP_BT_WAH_W], nwords = t[GP_BT_ITEMS];
	const ulong groups = t[GP_BT_WAH_GROUPS];
	uint bad = GP_ERR_NONE;
	ulong s = 0;
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {
		uint i = ((g - g0) * GP_TILE_ITEMS + k) * wg + lid;
		if (i < nwords) s += wah_run_clamped(in, t, i, w, groups, &bad);
	}
	ulong total = (ulong)gp_group_sum_i64(part, (long)s);
	if (bad != GP_ERR_NONE) atomic_min(err, t[GP_BT_BASE] + bad);
	if (lid == 0u) gp_tile_total_put(tile_sums, block_sums, bt, g, (uint)min(total, groups + 1ul));
}

__kernel void wah_tile_count(__global const uint *in, __global const uint *t, const uint bt,
                             __global uint *tile_sums, __global uint *block_sums,
                             __global uint *err, __local long *part)
{
	wah_tile_count_body(in, t, 0u, bt, tile_sums, block_sums, err, part);
}

__kernel void wah_tile_count_batch(__global const uint *in, __global const uint *tab,
                                   __global const uint *tile_start, const uint n_blobs,
                                   const uint bt, __global uint *tile_sums,
                                   __global uint *block_sums, __global uint *err,
                                   __local long *part)
{
	WAH_BLOB_OF(tab, tile_start, n_blobs, get_group_id(0));
	wah_tile_count_body(in, t, g0, bt, tile_sums, block_sums, err, part);
}

/* The check of a blob whose last word is x and ends at group `end` (0: no words): its groups add
 * up to exactly its group count, and its last group has no bit at or past nbits. Since every
 * word counts a group or more (wah_run_clamped flags the rest), only the last word can end at
 * the group count. The host path names the fault; err only says there is one. */
inline uint wah_blob_ok(ulong x, long end, const __global uint *t)
{
	uint w = t[GP_BT_WAH_W], tail = t[GP_BT_WAH_NBITS] % (w - 1u);
	return end == (long)t[GP_BT_WAH_GROUPS] && (tail == 0u || (wah_group_bits(x, w) >> tail) == 0ul);
}

/* c: GP_SKEW(tile) longs; part: wg longs. goff: nwords + 1 entries. Also does the blob's check
 * (wah_blob_ok) and, for one blob, wah_tile_words' work for the gather's out_tiles tiles of 2^tile_shift bits (a power
 * of two: no 64-bit division): the word that holds a tile's first group writes its index there,
 * the words' group ranges being disjoint (no more stores than tiles and words). */
GP_PASS_BODY void wah_tile_offsets_body(__global const uint *in, __global const uint *t,
                                        const uint g0, const uint ws, const uint one, const uint bt,
                                        __global const uint *tile_sums,
                                        __global const uint *block_sums, __global long *goff,
                                        const uint tile_shift, const uint out_tiles,
                                        __global uint *tile_words, __global uint *err,
                                        __local long *c, __local long *part)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), g = get_group_id(0);
	const uint w = t[GP_BT_WAH_W], nwords = t[GP_BT_ITEMS];
	const ulong groups = t[GP_BT_WAH_GROUPS], gw = w - 1u;
	uint bad = GP_ERR_NONE;
	long run[GP_TILE_ITEMS];
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {
		uint i = ((g - g0) * GP_TILE_ITEMS + k) * wg + lid;
		run[k] = i < nwords ? (long)wah_run_clamped(in, t, i, w, groups, &bad) : 0L;
	}
	const long off = gp_tile_offset_i64(tile_sums, block_sums, bt, g0, g, part);
	for (uint k = 0; k < GP_TILE_ITEMS; k++) c[GP_SKEW(k * wg + lid)] = run[k];
	gp_tile_offsets_i64(c, part, GP_TILE_ITEMS);
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {
		uint i = ((g - g0) * GP_TILE_ITEMS + k) * wg + lid;
		if (i >= nwords) break;
		ulong at = (ulong)(off + c[GP_SKEW(k * wg + lid)]), end = at + (ulong)run[k];
		goff[ws + i] = (long)at;
		/* tiles whose first bit (tl << tile_shift) lies in groups [at, end) */
		ulong tl = (at * gw + (1ul << tile_shift) - 1ul) >> tile_shift;
		for (; tl < out_tiles && (tl << tile_shift) < end * gw; tl++) tile_words[tl] = i;
		if (i + 1u == nwords) {
			if (one) goff[nwords] = (long)end;
			if (!wah_blob_ok(wah_word(in, t, i), (long)end, t)) atomic_min(err, t[GP_BT_BASE] + i);
		}
	}
	if (one && nwords == 0u && g == 0u && lid == 0u) {
		goff[0] = 0L;
		if (!wah_blob_ok(0ul, 0L, t)) atomic_min(err, 0u);
	}
}

__kernel void wah_tile_offsets(__global const uint *in, __global const uint *t, const uint bt,
                               __global const uint *tile_sums, __global const uint *block_sums,
                               __global long *goff, const uint tile_shift, const uint out_tiles,
                               __global uint *tile_words, __global uint *err, __local long *c,
                               __local long *part)
{
	wah_tile_offsets_body(in, t, 0u, 0u, 1u, bt, tile_sums, block_sums, goff, tile_shift, out_tiles,
	                      tile_words, err, c, part);
}

/* A batch's: no gather tiles here (wah_tile_words finds them). */
__kernel void wah_tile_offsets_batch(__global const uint *in, __global const uint *tab,
                                     __global const uint *tile_start, const uint n_blobs,
                                     __global const uint *wstart, const uint bt,
                                     __global const uint *tile_sums,
                                     __global const uint *block_sums, __global long *goff,
                                     __global uint *err, __local long *c, __local long *part)
{
	WAH_BLOB_OF(tab, tile_start, n_blobs, get_group_id(0));
	wah_tile_offsets_body(in, t, g0, wstart[b_], 0u, bt, tile_sums, block_sums, goff, 0u, 0u, 0,
	                      err, c, part);
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

/* The 32-bit output word at bit bit0 from the bits of the g-bit group holding that bit (at bit
 * off of the group) and of the next group (0 where none follows); bits past nbits cleared. */
inline uint wah_out_word(ulong cur, ulong next, uint g, uint off, uint bit0, uint nbits)
{
	uint v = (uint)((cur >> off) | (next << (g - off)));
	if (nbits - bit0 < 32u) v &= (1u << (nbits - bit0)) - 1u;
	return v;
}

/* Output word q (bits 32q .. 32q+31) of blob t, whose words start at global index ws, given lo:
 * the word holding its first bit's group; the next group's word found from goff. */
inline uint wah_gather_at(__global const uint *in, __global const uint *t, uint ws,
                          __global const long *goff, uint q, uint lo)
{
	uint w = t[GP_BT_WAH_W], g = w - 1u, nwords = t[GP_BT_ITEMS], nbits = t[GP_BT_WAH_NBITS];
	uint bit0 = 32u * q;   /* nbits < 2^32 on the device path */
	ulong k0 = wah_group_of(bit0, w);
	uint off0 = bit0 - (uint)k0 * g, an = lo, has_next = g - off0 < 32u && k0 + 1ul < (ulong)t[GP_BT_WAH_GROUPS];
	if (has_next && lo + 1u < nwords && (ulong)(goff[ws + lo + 1u] - goff[ws]) <= k0 + 1ul) an++;
	ulong next = has_next ? wah_group_bits(wah_word(in, t, an), w) : 0ul;
	return wah_out_word(wah_group_bits(wah_word(in, t, lo), w), next, g, off0, bit0, nbits);
}

inline uint wah_gather_word(__global const uint *in, __global const uint *t, uint ws,
                            __global const long *goff, uint q)
{
	ulong k0 = wah_group_of(32u * q, t[GP_BT_WAH_W]);
	return wah_gather_at(in, t, ws, goff, q, wah_find_word(goff, ws, 0u, t[GP_BT_ITEMS], k0));
}

/* Every output word of every blob of a batch (ostart: first output word of each blob), a tile of
 * GP_WAH_ITEMS * wg output words per work-group. wah_tile_words finds, one item per tile and all
 * tiles at once, the WAH word holding each tile's first bit (or marks a tile that straddles
 * blobs). wah_gather loads the words from there to the next tile's first, with their first
 * groups, into local memory (the tile's 32 * tile bits span at most 32 * tile / (w - 1) + 2
 * groups, hence as many words), expands the tile's groups into gval, each item a run of
 * consecutive groups from one search, and then composes every output word from the (at most
 * two) groups it overlaps, item lid taking words k * wg + lid: a few shifts a word, written side
 * by side. A tile that straddles blobs searches per word in global memory. GP_WAH_ITEMS is set
 * by the host (gp_cl.c). */
#ifndef GP_WAH_ITEMS
#define GP_WAH_ITEMS 8u
#endif
#define GP_WAH_STRADDLES 0xFFFFFFFFu

/* gval[j] = bits of the blob's group k0 + j for j < ng (0 past its last group), gval[ng] = 0,
 * from the window of cnt words and their first groups (win, less first: the window's first
 * word's). Each item takes a run of consecutive groups: one search for its first word, then a
 * compare and a store a group. w: a constant where it is inlined. Every item calls it; a
 * barrier follows. */
inline void wah_expand_groups(__local const uint *win, __local const ulong *words, uint cnt,
                              ulong first, uint k0, uint ng, ulong groups, const uint w,
                              __local ulong *gval)
{
	const uint lid = get_local_id(0), wg = get_local_size(0);
	const uint per = (ng + wg - 1u) / wg, j0 = min(ng, lid * per), j1 = min(ng, j0 + per);
	/* groups of the blob among j0 .. j1 - 1 end at jv */
	const uint jv = (ulong)k0 + j1 <= groups ? j1 : max(j0, (uint)(groups - min(groups, (ulong)k0)));
	uint j = j0;
	if (lid == 0u) gval[ng] = 0ul;
	if (cnt != 0u && j < jv) {
		uint rel = (uint)((ulong)k0 - first) + j0, a = 0u, h = cnt;   /* first <= k0 */
		while (h - a > 1u) {
			uint mid = a + (h - a) / 2u;
			if (win[mid] <= rel) a = mid; else h = mid;
		}
		ulong bits = wah_group_bits(words[a], w);
		uint next = a + 1u < cnt ? win[a + 1u] : 0xFFFFFFFFu;   /* where word a + 1 starts */
		for (; j < jv; j++, rel++) {
			while (rel >= next && a + 1u < cnt) {
				a++;
				bits = wah_group_bits(words[a], w);
				next = a + 1u < cnt ? win[a + 1u] : 0xFFFFFFFFu;
			}
			gval[j] = bits;
		}
	}
	for (; j < j1; j++) gval[j] = 0ul;
}

/* Output words o0 + j (j below nt) at blob word q0 + j, from gval (group k0 first). 64-bit
 * words: two output words at once (64 bits from two 63-bit groups), item lid taking pairs
 * k * wg + lid; 32-bit words: one at a time, words k * wg + lid. Written side by side. */
inline void wah_compose_tile(__local const ulong *gval, uint k0, uint q0, uint nt, uint nbits,
                             const uint w, __global uint *out)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), g = w - 1u;
	if (w == 64u) {
		for (uint k = 0; k < (GP_WAH_ITEMS + 1u) / 2u; k++) {
			uint p = k * wg + lid, j = 2u * p;
			if (j >= nt) break;
			uint bit0 = 32u * (q0 + j), kk = wah_group_of(bit0, w), off = bit0 - kk * g, i = kk - k0;
			ulong v = (gval[i] >> off) | (gval[i + 1u] << (g - off));
			if (nbits - bit0 < 64u) v &= (1ul << (nbits - bit0)) - 1ul;
			if (j + 1u < nt) ((__global uint2 *)out)[p] = (uint2)((uint)v, (uint)(v >> 32));
			else out[j] = (uint)v;
		}
		return;
	}
	for (uint k = 0; k < GP_WAH_ITEMS; k++) {
		uint j = k * wg + lid;
		if (j >= nt) break;
		uint bit0 = 32u * (q0 + j), kk = wah_group_of(bit0, w), off = bit0 - kk * g, i = kk - k0;
		out[j] = wah_out_word(gval[i], gval[i + 1u], g, off, bit0, nbits);
	}
}

/* tile_words[tl]: the word holding tile tl's first bit (the last tile's ends its blob; every
 * other tile's last bit lies in the next tile's word or the one before). */
__kernel void wah_tile_words(__global const uint *bt, __global const uint *ostart,
                             __global const uint *wstart, __global const long *goff,
                             const uint n_blobs, const uint total, const uint tile,
                             __global uint *tile_words)
{
	uint tl = get_global_id(0), o0 = tl * tile;
	if (o0 >= total) return;
	uint b = gp_find_blob(ostart, n_blobs, o0);
	if (b != gp_find_blob(ostart, n_blobs, min(o0 + tile, total) - 1u)) {
		tile_words[tl] = GP_WAH_STRADDLES;
		return;
	}
	__global const uint *t = bt + GP_BT_STRIDE * b;
	uint k0 = wah_group_of(32u * (o0 - ostart[b]), t[GP_BT_WAH_W]);
	tile_words[tl] = wah_find_word(goff, wstart[b], 0u, t[GP_BT_ITEMS], k0);
}

/* cap: 32 * tile / (w - 1) + 4 for the batch's narrowest words, the entries of win (uint),
 * words and gval (ulong). */
__kernel void wah_gather(__global const uint *in, __global const uint *bt, __global const uint *ostart,
                         __global const uint *wstart, __global const long *goff, const uint n_blobs,
                         const uint total, __global const uint *tile_words, const uint cap,
                         __global uint *bitmap, __local uint *win, __local ulong *words,
                         __local ulong *gval)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), tile = wg * GP_WAH_ITEMS;
	const uint gid = get_group_id(0), o0 = gid * tile, lo = tile_words[gid];
	const uint nt = min(tile, total - o0), one = lo != GP_WAH_STRADDLES;
	if (!one) {   /* a tile that straddles blobs: every word searched in global memory */
		for (uint k = 0; k < GP_WAH_ITEMS; k++) {
			uint o = o0 + k * wg + lid;
			if (o >= o0 + nt) break;
			uint ob = gp_find_blob(ostart, n_blobs, o);
			bitmap[o] = wah_gather_word(in, bt + GP_BT_STRIDE * ob, wstart[ob], goff, o - ostart[ob]);
		}
	}
	/* barriers at the top level, reached by every item (PoCL) */
	const uint b = one ? gp_find_blob(ostart, n_blobs, o0) : 0u, ws = wstart[b], q0 = o0 - ostart[b];
	__global const uint *t = bt + GP_BT_STRIDE * b;
	const uint w = t[GP_BT_WAH_W], nwords = t[GP_BT_ITEMS], nbits = t[GP_BT_WAH_NBITS];
	const ulong groups = t[GP_BT_WAH_GROUPS];
	/* the words from lo to the next tile's first (and one more), when the next tile starts in
	 * this blob; at most cap, which covers any well-formed tile (a malformed blob's window is
	 * only searched, never trusted to cover the tile) */
	uint cnt = one && lo < nwords ? min(nwords - lo, cap) : 0u;
	if (one && o0 + tile < total && o0 + tile < (b + 1u < n_blobs ? ostart[b + 1u] : total)) {
		uint next = tile_words[gid + 1u];
		if (next != GP_WAH_STRADDLES && next >= lo) cnt = min(cnt, next - lo + 2u);
	}
	const long base = cnt != 0u ? goff[ws + lo] : 0L, gbase = goff[ws];
	for (uint m = lid; m < cnt; m += wg) {
		win[m] = (uint)min((ulong)(goff[ws + lo + m] - base), (ulong)0xFFFFFFFFu);
		words[m] = wah_word(in, t, lo + m);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	const ulong first = (ulong)(base - gbase);   /* word lo's first group */
	const uint k0 = wah_group_of(32u * q0, w), ng = wah_group_of(32u * (q0 + nt) - 1u, w) - k0 + 1u;
	if (one && w == 64u) wah_expand_groups(win, words, cnt, first, k0, ng, groups, 64u, gval);
	else if (one) wah_expand_groups(win, words, cnt, first, k0, ng, groups, 32u, gval);
	barrier(CLK_LOCAL_MEM_FENCE);
	if (one && w == 64u) wah_compose_tile(gval, k0, q0, nt, nbits, 64u, bitmap + o0);
	else if (one) wah_compose_tile(gval, k0, q0, nt, nbits, 32u, bitmap + o0);
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
		uint v = wah_gather_word(in, bt + GP_BT_STRIDE * b, wstart[b], goff, o);
		acc = op == 2u ? (acc & v) : (acc | v);
		if (op == 2u && acc == 0u) break;
	}
	bitmap[o] = acc;
}


/* Set rows of each blob's bitmap, numbered from the blob's first row. */

/* One bitmap's set rows, tiled like the single-list decoders (a query's, or one blob's): a tile
 * is GP_TILE_ITEMS words an item, item lid taking words k * wg + lid. bitmap_tile_count stores
 * each tile's set bits (gp_tile_total_put); bitmap_tile_rows finds its tile's first row number
 * from those (gp_tile_offset_u32) and each word's from a scan in local memory, then writes the
 * tile's rows side by side, item lid taking rows lid, lid + wg, ...: each row's word by a search
 * of the offsets, its bit by halving the word, so that a word of 32 rows and one of none cost
 * the items the same. A tile holds at most 32 * tile rows and the bitmap under 2^32. */
/* part: wg. */
/* A batch's bitmaps lie back to back, bitmap b at words ostart[b] .. ostart[b+1], each with
 * tiles of its own (tile_start[b] the first): a group takes its bitmap's words, and its rows are
 * numbered within that bitmap. */
GP_PASS_BODY void bitmap_tile_count_body(__global const uint *bitmap, const uint total,
                                         const uint g0, const uint bt, __global uint *tile_sums,
                                         __global uint *block_sums, __local uint *part)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), g = get_group_id(0);
	uint sum = 0;
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {
		uint o = ((g - g0) * GP_TILE_ITEMS + k) * wg + lid;
		if (o < total) sum += popcount(bitmap[o]);
	}
	sum = gp_group_sum_u32(part, sum);
	if (lid == 0u) gp_tile_total_put(tile_sums, block_sums, bt, g, sum);
}

__kernel void bitmap_tile_count(__global const uint *bitmap, const uint total, const uint bt,
                                __global uint *tile_sums, __global uint *block_sums,
                                __local uint *part)
{
	bitmap_tile_count_body(bitmap, total, 0u, bt, tile_sums, block_sums, part);
}

__kernel void bitmap_tile_count_batch(__global const uint *bitmap, __global const uint *ostart,
                                      __global const uint *tile_start, const uint n_blobs,
                                      const uint bt, __global uint *tile_sums,
                                      __global uint *block_sums, __local uint *part)
{
	const uint b = gp_find_blob(tile_start, n_blobs, get_group_id(0));
	bitmap_tile_count_body(bitmap + ostart[b], ostart[b + 1u] - ostart[b], tile_start[b], bt,
	                       tile_sums, block_sums, part);
}

/* Bit position of the set bit of x that has nth set bits below it (nth < popcount(x)). */
inline uint gp_select_bit(uint x, uint nth)
{
	uint pos = 0u;
	for (uint span = 16u; span > 0u; span >>= 1) {
		uint c = popcount(x & ((1u << span) - 1u));
		if (nth >= c) {
			nth -= c;
			x >>= span;
			pos += span;
		}
	}
	return pos;
}

/* offs, words: GP_SKEW(tile) uints, part: wg. rows holds cap rows: a tile writes those that
 * fit (the host sized it before the count was known, and decodes again into a larger one when
 * it falls short). The last tile's group stores the total at tile_sums[tiles] (and a batch's
 * at blob_rows[n_blobs]), the first tile's of each bitmap of a batch its first row at
 * blob_rows[b]: read with the results. Written out by one macro for both kernels, like S9's
 * decode pass. BLOB_SETUP declares bitmap (the bitmap's words), total, g0, b, n_blobs and
 * blob_rows. */
#define BITMAP_TILE_ROWS_KERNEL(NAME, BLOB_ARGS, BLOB_SETUP)                                        \
__kernel void NAME(__global const uint *bitmap_all, BLOB_ARGS const uint bt,                        \
                   __global uint *tile_sums, __global const uint *block_sums,                       \
                   __global long *rows, const ulong cap, __local uint *offs,                        \
                   __local uint *words, __local uint *part)                                         \
{                                                                                                   \
	BLOB_SETUP;                                                                                     \
	const uint lid = get_local_id(0), wg = get_local_size(0), tile = wg * GP_TILE_ITEMS;            \
	const uint g = get_group_id(0), base = (g - g0) * tile;                                         \
	uint x[GP_TILE_ITEMS];                                                                          \
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {   /* in flight while the offset is summed */         \
		uint o = base + k * wg + lid;                                                               \
		x[k] = o < total ? bitmap[o] : 0u;                                                          \
	}                                                                                               \
	const uint out0 = gp_tile_offset_u32(tile_sums, block_sums, bt, 0u, g, part);                   \
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {                                                      \
		offs[GP_SKEW(k * wg + lid)] = popcount(x[k]);                                               \
		words[GP_SKEW(k * wg + lid)] = x[k];                                                        \
	}                                                                                               \
	const uint n = gp_tile_offsets_u32(offs, part, GP_TILE_ITEMS);                                  \
	if (lid == 0u && g + 1u == get_num_groups(0)) {                                                 \
		tile_sums[g + 1u] = out0 + n;                                                               \
		if (blob_rows) blob_rows[n_blobs] = out0 + n;                                               \
	}                                                                                               \
	if (lid == 0u && g == g0 && blob_rows) blob_rows[b] = out0;                                     \
	for (uint r = lid; r < n && (ulong)out0 + r < cap; r += wg) {                                   \
		uint a = 0u, h = tile;   /* the last word whose first row is <= r: the one holding it */    \
		while (h - a > 1u) {                                                                        \
			uint mid = a + (h - a) / 2u;                                                            \
			if (offs[GP_SKEW(mid)] <= r) a = mid; else h = mid;                                     \
		}                                                                                           \
		uint bit = gp_select_bit(words[GP_SKEW(a)], r - offs[GP_SKEW(a)]);                          \
		rows[(ulong)out0 + r] = 32L * (long)(base + a) + (long)bit;                                 \
	}                                                                                               \
}
#define BITMAP_ONE_ARGS const uint total,
#define BITMAP_ONE_SETUP                                                                          \
	__global const uint *bitmap = bitmap_all;                                                    \
	__global uint *blob_rows = 0;                                                                \
	const uint g0 = 0u, b = 0u, n_blobs = 1u
#define BITMAP_BATCH_ARGS __global const uint *ostart, __global const uint *tile_start,          \
	const uint n_blobs, __global uint *blob_rows,
#define BITMAP_BATCH_SETUP                                                                        \
	const uint b = gp_find_blob(tile_start, n_blobs, get_group_id(0)), g0 = tile_start[b];       \
	__global const uint *bitmap = bitmap_all + ostart[b];                                        \
	const uint total = ostart[b + 1u] - ostart[b]
BITMAP_TILE_ROWS_KERNEL(bitmap_tile_rows, BITMAP_ONE_ARGS, BITMAP_ONE_SETUP)
BITMAP_TILE_ROWS_KERNEL(bitmap_tile_rows_batch, BITMAP_BATCH_ARGS, BITMAP_BATCH_SETUP)
