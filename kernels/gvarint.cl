/* GPUPOST_GROUP_VARINT on the device (FORMATS.md 7), tiled over the payload's bytes
 * (gp_byte_tile_load). Where its groups begin is a chain (each selector gives where the next
 * begins), so each pass first finds, for every item of a tile, where the chain leaves its
 * GP_BYTE_ITEM bytes for each of the 17 places it may enter them (an entry e: the first group
 * begins e bytes into the item, e = 16 meaning at the next item's first byte) and how many groups
 * it passes: a map of 17 entries (gv_item_map). Following the maps from a known entry gives
 * every item's first group.
 *   gv_tile_maps: a tile's map (its items' maps followed from each entry);
 *   gv_carry: a work-group a blob, its tiles' maps followed from entry 0: each tile's entry and
 *     the groups before it; the chain must end at the payload's end after ceil(n / 4) groups;
 *   gv_tile_sums (delta rules 1 and 2): each tile's values summed, as VBYTE's count pass;
 *   gv_tile_decode: every value, the delta rule applied, through a local staging area.
 * One tile alone (a small call) is gv_tile_decode alone, from entry 0, checking the end itself.
 * Anything that breaks the format sets the error word: the host's decoder then names it. */

#define GV_ENTRIES ((uint)GP_GV_ENTRIES)
#define GV_END 17u     /* the chain ended at the payload's end */
#define GV_BROKEN 18u  /* a group ran past the payload's end */
#define GV_COUNTERS ((uint)GP_BYTE_COUNTERS)

inline uint gv_data_bytes(uint sel)
{
	return 4u + (sel & 3u) + ((sel >> 2) & 3u) + ((sel >> 4) & 3u) + (sel >> 6);
}

/* An item's map is kept for every place p of its bytes (the entries are its first 17): where the
 * chain from p leaves the item and the groups it passes, found from the item's last byte back to
 * its first, each place from the one its group leads to (a step a place, not a walk an entry).
 * An item's places lie GV_STRIDE bytes apart: an odd number of words, so that items side by side
 * read different banks. */
#define GV_PLACES (GP_BYTE_ITEM > GV_ENTRIES ? GP_BYTE_ITEM : GV_ENTRIES)
#define GV_STRIDE (4u * ((GV_PLACES + 3u) / 4u | 1u))

/* The chain at item place q (tile position s + q) when q is past the item's bytes or at or past
 * the payload's end (tile position `end`): GV_END, GV_BROKEN, or the exit q - GP_BYTE_ITEM;
 * GV_ENTRIES + 2 when it goes on inside the item. */
inline uint gv_place_end(uint s, uint q, uint end)
{
	return s + q == end ? GV_END : s + q > end ? GV_BROKEN : q >= GP_BYTE_ITEM ? q - GP_BYTE_ITEM : GV_BROKEN + 1u;
}

/* Every item's map into exits[GV_STRIDE * lid + p] and groups[...]. A barrier follows. */
inline void gv_item_map(__local const uchar *b, uint end, __local uchar *exits, __local uchar *groups)
{
	const uint lid = get_local_id(0), s = lid * GP_BYTE_ITEM;
	__local uchar *ex = exits + GV_STRIDE * lid, *gr = groups + GV_STRIDE * lid;
	for (uint p = GV_PLACES; p-- > 0u;) {
		uint x = gv_place_end(s, p, end), k = 0;
		if (x > GV_BROKEN) {
			const uint q = p + 1u + gv_data_bytes(b[GP_BYTE_HALO + s + p]);
			x = gv_place_end(s, q, end);
			k = 1;
			if (x > GV_BROKEN) {
				x = ex[q];
				k += gr[q];
			}
		}
		ex[p] = (uchar)x;
		gr[p] = (uchar)k;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
}

/* The maps of items [i0, i1) followed from entry e: the exit, *groups the groups passed. */
inline uint gv_follow(__local const uchar *exits, __local const uchar *groups, uint i0, uint i1, uint e,
                      uint *passed)
{
	uint k = 0;
	for (uint i = i0; i < i1 && e < GV_ENTRIES; i++) {
		k += groups[GV_STRIDE * i + e];
		e = exits[GV_STRIDE * i + e];
	}
	*passed = k;
	return e;
}

/* Following a tile's wg maps one after the other is a chain of wg steps: the items are taken in
 * segments of GV_SEGMENT, each segment's map made from every entry at once (GV_ENTRIES items a
 * segment), so that a chain through the tile takes wg / GV_SEGMENT steps, and one into an item
 * GV_SEGMENT more. segs: (wg / GV_SEGMENT) * GV_ENTRIES uints, the exit | the groups << 8. Every
 * item calls it; a barrier follows. */
#define GV_SEGMENT 32u
inline void gv_segment_maps(__local const uchar *exits, __local const uchar *groups, __local uint *segs)
{
	const uint lid = get_local_id(0), nseg = (get_local_size(0) + GV_SEGMENT - 1u) / GV_SEGMENT;
	for (uint q = lid; q < nseg * GV_ENTRIES; q += get_local_size(0)) {
		const uint seg = q / GV_ENTRIES, i0 = seg * GV_SEGMENT;
		uint k, e = gv_follow(exits, groups, i0, min(i0 + GV_SEGMENT, (uint)get_local_size(0)), q % GV_ENTRIES, &k);
		segs[q] = e | k << 8;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
}

/* The segments' maps followed from entry e: the tile's exit, *passed the groups. */
inline uint gv_follow_segments(__local const uint *segs, uint e, uint *passed)
{
	const uint nseg = (get_local_size(0) + GV_SEGMENT - 1u) / GV_SEGMENT;
	uint k = 0;
	for (uint s = 0; s < nseg && e < GV_ENTRIES; s++) {
		uint m = segs[GV_ENTRIES * s + e];
		k += m >> 8;
		e = m & 0xFFu;
	}
	*passed = k;
	return e;
}

inline uint gv_tile_end(const gp_byte_blob *x, uint t0, uint tb)
{
	return x->len - t0 < tb + GV_ENTRIES ? x->len - t0 : tb + GV_ENTRIES;   /* (len >= t0) */
}

/* A tile's map, an entry a uint: the exit | the groups << 8. bv: wg * GP_BYTE_ITEM / 16 + 2 units;
 * exits, groups: wg * GV_STRIDE; segs: as gv_segment_maps's. */
GP_PASS_BODY void gv_tile_maps_body(__global const uint4 *in, const gp_byte_blob *x, __global uint *maps,
                                    __local uint4 *bv, __local uchar *exits, __local uchar *groups,
                                    __local uint *segs)
{
	const uint lid = get_local_id(0), tb = get_local_size(0) * GP_BYTE_ITEM, g = get_group_id(0);
	const uint t0 = (g - x->g0) * tb;
	gp_byte_tile_load(in, x->vec, x->len, t0, bv);
	gv_item_map((__local const uchar *)bv, gv_tile_end(x, t0, tb), exits, groups);
	gv_segment_maps(exits, groups, segs);
	if (lid < GV_ENTRIES) {
		uint k, e = gv_follow_segments(segs, lid, &k);
		maps[GV_ENTRIES * g + lid] = e | k << 8;
	}
}

__kernel void gv_tile_maps(__global const uint4 *in, const uint vec, const uint len, __global uint *maps,
                           __local uint4 *bv, __local uchar *exits, __local uchar *groups, __local uint *segs)
{
	gp_byte_blob x = {vec, len, 0u, 0u, 0u, 0u};
	gv_tile_maps_body(in, &x, maps, bv, exits, groups, segs);
}

__kernel void gv_tile_maps_batch(__global const uint4 *in, __global const uint *tab,
                                 __global const uint *tile_start, const uint n_blobs, __global uint *maps,
                                 __local uint4 *bv, __local uchar *exits, __local uchar *groups,
                                 __local uint *segs)
{
	gp_byte_blob x = gp_byte_blob_of(tab, tile_start, n_blobs, get_group_id(0));
	gv_tile_maps_body(in, &x, maps, bv, exits, groups, segs);
}

/* Tiles [g0, g1) of one blob, from entry 0: each tile's entry (entry[t]) and the groups before
 * it in the blob (before[t]); the chain must end at the payload's end after `want` groups. Each
 * item follows a run of tiles from every entry (fmap: GV_ENTRIES uints an item, the exit | the
 * groups << 8), one item then follows the items, then each item its tiles. */
GP_PASS_BODY void gv_carry_body(__global const uint *maps, uint g0, uint g1, uint want, __global uint *entry,
                                __global uint *before, __global uint *err, __local uint *fmap,
                                __local uint *start)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), per = (g1 - g0 + wg - 1u) / wg;
	const uint a = min(g1, g0 + lid * per), z = min(g1, a + per);
	if (g0 == g1) return;   /* an empty blob: no chain */
	for (uint e = 0; e < GV_ENTRIES; e++) {
		uint x = e, k = 0;
		for (uint t = a; t < z && x < GV_ENTRIES; t++) {
			uint m = maps[GV_ENTRIES * t + x];
			k += m >> 8;
			x = m & 0xFFu;
		}
		fmap[GV_ENTRIES * lid + e] = x | k << 8;   /* (a run's groups stay below 2^24 bytes / 5) */
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	if (lid == 0u) {
		uint x = 0, k = 0;
		for (uint i = 0; i < wg; i++) {
			start[2u * i] = x;
			start[2u * i + 1u] = k;
			if (x < GV_ENTRIES) {
				uint m = fmap[GV_ENTRIES * i + x];
				k += m >> 8;
				x = m & 0xFFu;
			}
		}
		if (x != GV_END || k != want) atomic_min(err, 0u);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	uint x = start[2u * lid], k = start[2u * lid + 1u];
	for (uint t = a; t < z; t++) {
		entry[t] = x;
		before[t] = k;
		if (x < GV_ENTRIES) {
			uint m = maps[GV_ENTRIES * t + x];
			k += m >> 8;
			x = m & 0xFFu;
		}
	}
}

__kernel void gv_carry(__global const uint *maps, const uint tiles, const uint want, __global uint *entry,
                       __global uint *before, __global uint *err, __local uint *fmap, __local uint *start)
{
	gv_carry_body(maps, 0u, tiles, want, entry, before, err, fmap, start);
}

/* A work-group a blob. */
__kernel void gv_carry_batch(__global const uint *maps, __global const uint *tab, __global const uint *tile_start,
                             __global uint *entry, __global uint *before, __global uint *err, __local uint *fmap,
                             __local uint *start)
{
	const uint b = get_group_id(0);
	__global const uint *t = tab + GP_BT_STRIDE * b;
	gv_carry_body(maps, tile_start[b], tile_start[b + 1u], (t[GP_BT_N] + 3u) / 4u, entry, before, err, fmap, start);
}

/* The groups of an item from its entry, tile position p, k0 the groups of the blob before them:
 * *count gets the values (groups past ceil(n / 4) and the last group's unused slots hold none; an
 * unused slot must be one byte holding 0), *sum their sum. With `stage` as vb_item_values. The
 * first tile position that breaks the format, or GP_ERR_NONE. */
inline uint gv_item_values(__local const uchar *b, uint p, uint s, uint end, uint k0, uint n, uint *count,
                           ulong *sum, __local uint *stage, uint delta, ulong run0, uint at0, uint c0, uint c1)
{
	uint bad = GP_ERR_NONE, c = 0;
	ulong total = 0;
	for (uint k = k0; p < s + GP_BYTE_ITEM && p < end; k++) {
		const uint sel = b[GP_BYTE_HALO + p];
		uint d = p + 1u;
		p = d + gv_data_bytes(sel);
		if (p > end) bad = min(bad, d - 1u);   /* past the payload: read no further */
		if (p > end) break;
		for (uint j = 0; j < 4u; j++) {
			const uint bytes = ((sel >> (2u * j)) & 3u) + 1u;
			uint v = 0;
			for (uint q = 0; q < bytes; q++) v |= (uint)b[GP_BYTE_HALO + d + q] << (8u * q);
			d += bytes;
			if (4u * k + j >= n) {
				if (bytes != 1u || v != 0u) bad = min(bad, p);
				continue;
			}
			total += v;
			const ulong xv = delta == 0u ? (ulong)v : run0 + total + (delta == 2u ? (ulong)(4u * k + j) : 0UL);
			if (xv > 0xFFFFFFFFUL) bad = min(bad, p);
			if (stage && at0 + c >= c0 && at0 + c < c1) stage[at0 + c - c0] = (uint)xv;
			c++;
		}
	}
	*count = c;
	*sum = total;
	return bad;
}

/* Each item's entry and the tile's groups before it, from the tile's entry (into ientry and
 * ibefore, wg + 1 each: the last, the tile's exit and groups), after the items' maps: the
 * segments' maps, then one item follows the segments, then one item a segment its items. */
inline void gv_items_from(uint tile_entry, __local const uchar *exits, __local const uchar *groups,
                          __local uint *segs, __local uint *ientry, __local uint *ibefore)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), nseg = (wg + GV_SEGMENT - 1u) / GV_SEGMENT;
	gv_segment_maps(exits, groups, segs);
	if (lid == 0u) {
		uint x = tile_entry, k = 0;
		for (uint s = 0; s < nseg; s++) {
			ientry[s * GV_SEGMENT] = x;
			ibefore[s * GV_SEGMENT] = k;
			if (x < GV_ENTRIES) {
				uint m = segs[GV_ENTRIES * s + x];
				k += m >> 8;
				x = m & 0xFFu;
			}
		}
		ientry[wg] = x;
		ibefore[wg] = k;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	if (lid < nseg) {
		const uint i0 = lid * GV_SEGMENT, i1 = min(i0 + GV_SEGMENT, wg);
		uint x = ientry[i0], k = ibefore[i0];
		for (uint i = i0; i < i1; i++) {
			ientry[i] = x;
			ibefore[i] = k;
			if (x < GV_ENTRIES) {
				k += groups[GV_STRIDE * i + x];
				x = exits[GV_STRIDE * i + x];
			}
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
}

/* The tile's items placed (ientry, ibefore: wg + 1 each) from entry[g] and before[g] (a carry
 * pass ran) or from 0 (one tile alone). Returns the groups of the blob before the tile. */
GP_PASS_BODY uint gv_tile_place(__global const uint4 *in, const gp_byte_blob *x, __global const uint *entry,
                                __global const uint *before, uint t0, uint tb, __local uint4 *bv,
                                __local uchar *exits, __local uchar *groups, __local uint *segs,
                                __local uint *ientry, __local uint *ibefore)
{
	const int alone = get_num_groups(0) == 1u;
	const uint g = get_group_id(0);
	gp_byte_tile_load(in, x->vec, x->len, t0, bv);
	gv_item_map((__local const uchar *)bv, gv_tile_end(x, t0, tb), exits, groups);
	gv_items_from(alone ? 0u : entry[g], exits, groups, segs, ientry, ibefore);
	return alone ? 0u : before[g];
}

/* bv, exits, groups, segs as gv_tile_maps's; ientry, ibefore: wg + 1; part: GV_COUNTERS. */
GP_PASS_BODY void gv_tile_sums_body(__global const uint4 *in, const gp_byte_blob *x, __global const uint *entry,
                                    __global const uint *before, uint bt, uint tiles, uint blocks,
                                    __global uint *tile_sums, __global uint *block_sums, __global uint *err,
                                    __local uint4 *bv, __local uchar *exits, __local uchar *groups,
                                    __local uint *segs, __local uint *ientry, __local uint *ibefore,
                                    __local uint *part)
{
	const uint lid = get_local_id(0), tb = get_local_size(0) * GP_BYTE_ITEM, g = get_group_id(0);
	const uint t0 = (g - x->g0) * tb, end = gv_tile_end(x, t0, tb);
	const uint k0 = gv_tile_place(in, x, entry, before, t0, tb, bv, exits, groups, segs, ientry, ibefore);
	uint c = 0, bad = GP_ERR_NONE;
	ulong sum = 0;
	const uint e = ientry[lid];
	if (e < GV_ENTRIES) {
		bad = gv_item_values((__local const uchar *)bv, lid * GP_BYTE_ITEM + e, lid * GP_BYTE_ITEM, end,
		                     k0 + ibefore[lid], x->n, &c, &sum, 0, 0u, 0UL, 0u, 0u, 0u);
	}
	if (bad != GP_ERR_NONE) atomic_min(err, t0 + bad);
	uint xs[GV_COUNTERS] = {c, (uint)sum & 0xFFu, (uint)(sum >> 8) & 0xFFu, (uint)(sum >> 16) & 0xFFu,
	                        (uint)(sum >> 24) & 0xFFu};
	gp_group_sums_u32(part, xs, GV_COUNTERS);
	for (uint k = 0; k < GV_COUNTERS && lid == 0u; k++) {
		gp_tile_total_put(tile_sums + k * (tiles + 1u), block_sums + k * blocks, bt, g, xs[k]);
	}
}

__kernel void gv_tile_sums(__global const uint4 *in, const uint vec, const uint len, const uint n,
                           __global const uint *entry, __global const uint *before, const uint bt,
                           const uint tiles, const uint blocks, __global uint *tile_sums,
                           __global uint *block_sums, __global uint *err, __local uint4 *bv,
                           __local uchar *exits, __local uchar *groups, __local uint *segs, __local uint *ientry,
                           __local uint *ibefore, __local uint *part)
{
	gp_byte_blob x = {vec, len, n, 0u, 0u, 0u};
	gv_tile_sums_body(in, &x, entry, before, bt, tiles, blocks, tile_sums, block_sums, err, bv, exits, groups,
	                  segs, ientry, ibefore, part);
}

__kernel void gv_tile_sums_batch(__global const uint4 *in, __global const uint *tab,
                                 __global const uint *tile_start, const uint n_blobs,
                                 __global const uint *entry, __global const uint *before, const uint bt,
                                 const uint tiles, const uint blocks, __global uint *tile_sums,
                                 __global uint *block_sums, __global uint *err, __local uint4 *bv,
                                 __local uchar *exits, __local uchar *groups, __local uint *segs, __local uint *ientry,
                                 __local uint *ibefore, __local uint *part)
{
	gp_byte_blob x = gp_byte_blob_of(tab, tile_start, n_blobs, get_group_id(0));
	gv_tile_sums_body(in, &x, entry, before, bt, tiles, blocks, tile_sums, block_sums, err, bv, exits, groups,
	                  segs, ientry, ibefore, part);
}

/* As gv_tile_sums's, and part_s: wg longs; stage: wg * GP_BYTE_STAGE_ITEMS. The tile sums are
 * read only under delta rules 1 and 2 (gv_tile_sums ran). */
GP_PASS_BODY void gv_tile_decode_body(__global const uint4 *in, const gp_byte_blob *x, __global const uint *entry,
                                      __global const uint *before, uint bt, uint tiles, uint blocks,
                                      __global const uint *tile_sums, __global const uint *block_sums,
                                      __global uint *out_all, __global uint *err, __local uint4 *bv,
                                      __local uchar *exits, __local uchar *groups, __local uint *segs, __local uint *ientry,
                                      __local uint *ibefore, __local uint *part, __local long *part_s,
                                      __local uint *stage)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), tb = wg * GP_BYTE_ITEM, g = get_group_id(0);
	const uint t0 = (g - x->g0) * tb, end = gv_tile_end(x, t0, tb), chunk = wg * GP_BYTE_STAGE_ITEMS;
	__local const uchar *b = (__local const uchar *)bv;
	const int alone = get_num_groups(0) == 1u;
	if (alone) gp_alone_begin(err);
	__global uint *out = out_all + x->vbase;
	const uint k0 = gv_tile_place(in, x, entry, before, t0, tb, bv, exits, groups, segs, ientry, ibefore);
	long sum0 = 0;
	if (x->delta != 0u && !alone) {
		gp_tile_offset_limbs(tile_sums, block_sums, bt, tiles, blocks, x->g0, g, part, GV_COUNTERS, 8u, &sum0);
	}
	if (alone && lid == 0u && (ientry[wg] != GV_END || ibefore[wg] != (x->n + 3u) / 4u)) atomic_min(err, 0u);
	const uint e = ientry[lid], s = lid * GP_BYTE_ITEM, first = k0 + ibefore[lid];
	uint c = 0, bad = GP_ERR_NONE;
	ulong sum = 0;
	if (e < GV_ENTRIES) bad = gv_item_values(b, s + e, s, end, first, x->n, &c, &sum, 0, 0u, 0UL, 0u, 0u, 0u);
	if (bad != GP_ERR_NONE) atomic_min(err, t0 + bad);
	long all;
	const long sum_at = gp_group_scan_i64(part_s, (long)sum, &all);
	uint total;
	const uint at0 = gp_group_scan_u32(part, c, &total), out0 = 4u * k0;   /* the groups before are full */
	const uint stop = min(total, x->n > out0 ? x->n - out0 : 0u);
	for (uint c0 = 0; c0 < stop; c0 += chunk) {
		const uint c1 = min(c0 + chunk, stop);
		if (e < GV_ENTRIES && at0 < c1 && at0 + c > c0) {
			bad = gv_item_values(b, s + e, s, end, first, x->n, &c, &sum, stage, x->delta, (ulong)(sum0 + sum_at), at0,
			                     c0, c1);
			if (bad != GP_ERR_NONE) atomic_min(err, t0 + bad);
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint q = lid; q < c1 - c0; q += wg) out[out0 + c0 + q] = stage[q];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
}

__kernel void gv_tile_decode(__global const uint4 *in, const uint vec, const uint len, const uint n,
                             const uint delta, __global const uint *entry, __global const uint *before,
                             const uint bt, const uint tiles, const uint blocks,
                             __global const uint *tile_sums, __global const uint *block_sums,
                             __global uint *out_all, __global uint *err, __local uint4 *bv,
                             __local uchar *exits, __local uchar *groups, __local uint *segs, __local uint *ientry,
                             __local uint *ibefore, __local uint *part, __local long *part_s,
                             __local uint *stage)
{
	gp_byte_blob x = {vec, len, n, delta, 0u, 0u};
	gv_tile_decode_body(in, &x, entry, before, bt, tiles, blocks, tile_sums, block_sums, out_all, err, bv, exits,
	                    groups, segs, ientry, ibefore, part, part_s, stage);
}

__kernel void gv_tile_decode_batch(__global const uint4 *in, __global const uint *tab,
                                   __global const uint *tile_start, const uint n_blobs,
                                   __global const uint *entry, __global const uint *before, const uint bt,
                                   const uint tiles, const uint blocks, __global const uint *tile_sums,
                                   __global const uint *block_sums, __global uint *out_all,
                                   __global uint *err, __local uint4 *bv, __local uchar *exits,
                                   __local uchar *groups, __local uint *segs, __local uint *ientry, __local uint *ibefore,
                                   __local uint *part, __local long *part_s, __local uint *stage)
{
	gp_byte_blob x = gp_byte_blob_of(tab, tile_start, n_blobs, get_group_id(0));
	gv_tile_decode_body(in, &x, entry, before, bt, tiles, blocks, tile_sums, block_sums, out_all, err, bv, exits,
	                    groups, segs, ientry, ibefore, part, part_s, stage);
}
