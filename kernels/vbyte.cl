/* GPUPOST_VBYTE on the device (FORMATS.md 6), tiled over the payload's bytes: item lid of a tile
 * takes the values whose last byte lies in its VB_ITEM bytes, read into registers with the
 * four bytes before them (where a value ending there may begin). vb_tile_count counts each
 * tile's values (a popcount of the bytes whose high bit is clear) and, under delta rules 1 and
 * 2, their sum (four 8-bit limbs, so that a block's sums fit 32 bits); vb_tile_decode finds the
 * values and the sum before its tile from those (gp_tile_offset_limbs), scans its items' counts
 * and sums across the group, checks every byte, and writes the values, the delta rule applied,
 * through a local staging area (coalesced writes). Anything that breaks the format sets the
 * error word: the host's decoder then names it. */

#define VB_COUNTERS ((uint)GP_BYTE_COUNTERS)
/* bytes an item: sixteen (one read, more groups a multiprocessor, a tile's values staged whole)
 * ran faster than 32 or 64 on an H100 (docs/BENCHMARKS.md) */
#define VB_ITEM ((uint)GP_VB_ITEM)
#define VB_WORDS (VB_ITEM / 4u + 1u)   /* the four bytes before an item's, then its own */
#define VB_STAGE_ITEMS VB_ITEM        /* values staged an item: all of a tile's */

/* Byte i of an item's words (0..3 the four before its own). */
#define VB_BYTE(w, i) (((w)[(i) >> 2] >> (((i) & 3u) * 8u)) & 0xFFu)

/* An item's words: payload bytes [at - 4, at + VB_ITEM) of x (0 before the payload and past
 * its last 16-byte unit; the bytes past len in that unit are whatever the input holds). */
inline void vb_item_load(__global const uint4 *in, const gp_byte_blob *x, uint at, uint *w)
{
	__global const uint *in32 = (__global const uint *)in;
	const uint last = (x->len + 15u) / 16u;   /* units of the payload */
	w[0] = at > 0u && (at - 4u) / 16u < last ? in32[4u * x->vec + (at - 4u) / 4u] : 0u;
	for (uint k = 0; k < (VB_ITEM / 16u); k++) {
		uint4 v = at / 16u + k < last ? in[x->vec + at / 16u + k] : (uint4)(0u);
		w[1u + 4u * k] = v.x;
		w[2u + 4u * k] = v.y;
		w[3u + 4u * k] = v.z;
		w[4u + 4u * k] = v.w;
	}
}

/* How many of the item's own first `own` bytes end a value (their high bit clear). */
inline uint vb_item_count(const uint *w, uint own)
{
	uint c = 0;
	for (uint k = 0; k < VB_ITEM / 4u; k++) {
		uint ends = ~w[1u + k] & 0x80808080u;
		uint keep = own >= 4u * (k + 1u) ? 0xFFFFFFFFu : own <= 4u * k ? 0u : (1u << (8u * (own - 4u * k))) - 1u;
		c += popcount(ends & keep);
	}
	return c;
}

/* The values ending in the item's first `own` bytes, in order: *sum gets their sum; with
 * `stage`, value j also goes to stage[GP_SKEW(at0 + j - c0)] for at0 + j in [c0, c1), as its x
 * under `delta` (run0 plus the values up to it, plus index0 + j for rule 2). Returns the item
 * byte of the first that breaks the format (a fifth byte in a row with its high bit set, a value
 * above 2^32-1, an x above 2^32-1), or GP_ERR_NONE. */
inline uint vb_item_values(const uint *w, uint own, ulong *sum, __local uint *stage, uint delta, ulong run0,
                           uint index0, uint at0, uint c0, uint c1)
{
	/* the usual d-gaps: a whole item of one-byte values (no high bit set, the bytes before
	 * included), 32-bit sums with one check of the last x (the xs increase) */
	uint high = 0;
	for (uint k = 0; k < VB_WORDS; k++) high |= w[k];
	if (own == VB_ITEM && (high & 0x80808080u) == 0u) {
		uint t = 0;
		for (uint i = 0; i < VB_ITEM; i++) t += VB_BYTE(w, 4u + i);
		const ulong last = delta == 0u ? 0UL : run0 + t + (delta == 2u ? (ulong)index0 + VB_ITEM - 1u : 0UL);
		if (last <= 0xFFFFFFFFUL) {
			*sum = t;
			if (stage) {
				const uint base = (uint)run0 + (delta == 2u ? index0 : 0u);
				uint acc = 0;
				for (uint i = 0; i < VB_ITEM; i++) {
					const uint v = VB_BYTE(w, 4u + i);
					acc += v;
					if (at0 + i >= c0 && at0 + i < c1) {
						stage[GP_SKEW(at0 + i - c0)] = delta == 0u ? v : base + acc + (delta == 2u ? i : 0u);
					}
				}
			}
			return GP_ERR_NONE;
		}
	}
	uint bad = GP_ERR_NONE, c = 0, cont = 0;
	ulong v = 0, total = 0;
	for (uint i = 0; i < 4u + VB_ITEM; i++) {
		const uint x = VB_BYTE(w, i);
		if (i >= 4u && i - 4u >= own) break;
		if (cont < 5u) v |= (ulong)(x & 0x7Fu) << (7u * cont);
		if (x & 0x80u) {
			if (cont == 4u && i >= 4u) bad = min(bad, i - 4u);   /* the fifth in a row: longer than 5 bytes */
			cont++;
			continue;
		}
		if (i >= 4u) {   /* (the four bytes before only start values) */
			total += v;
			const ulong xv = delta == 0u ? v : run0 + total + (delta == 2u ? (ulong)(index0 + c) : 0UL);
			if (v > 0xFFFFFFFFUL || xv > 0xFFFFFFFFUL) bad = min(bad, i - 4u);
			if (stage && at0 + c >= c0 && at0 + c < c1) stage[GP_SKEW(at0 + c - c0)] = (uint)xv;
			c++;
		}
		v = 0;
		cont = 0;
	}
	*sum = total;
	return bad;
}

/* The item's own bytes: those of [t0 + lid * VB_ITEM, + VB_ITEM) before len. */
inline uint vb_item_own(uint t0, uint len)
{
	const uint s = t0 + get_local_id(0) * VB_ITEM;
	return s >= len ? 0u : min(VB_ITEM, len - s);
}

/* part: VB_COUNTERS. */
GP_PASS_BODY void vb_tile_count_body(__global const uint4 *in, const gp_byte_blob *x, uint bt, uint tiles,
                                     uint blocks, __global uint *tile_sums, __global uint *block_sums,
                                     __local uint *part)
{
	const uint g = get_group_id(0), t0 = (g - x->g0) * get_local_size(0) * VB_ITEM;
	const uint own = vb_item_own(t0, x->len);
	uint w[VB_WORDS];
	vb_item_load(in, x, t0 + get_local_id(0) * VB_ITEM, w);
	ulong sum = 0;
	if (x->delta != 0u) vb_item_values(w, own, &sum, 0, 0u, 0UL, 0u, 0u, 0u, 0u);
	/* (the decode pass checks every byte) */
	uint xs[VB_COUNTERS] = {vb_item_count(w, own), (uint)sum & 0xFFu, (uint)(sum >> 8) & 0xFFu,
	                        (uint)(sum >> 16) & 0xFFu, (uint)(sum >> 24) & 0xFFu};
	gp_group_sums_u32(part, xs, VB_COUNTERS);
	for (uint k = 0; k < VB_COUNTERS && get_local_id(0) == 0u; k++) {
		gp_tile_total_put(tile_sums + k * (tiles + 1u), block_sums + k * blocks, bt, g, xs[k]);
	}
}

__kernel void vb_tile_count(__global const uint4 *in, const uint vec, const uint len, const uint delta,
                            const uint bt, const uint tiles, const uint blocks, __global uint *tile_sums,
                            __global uint *block_sums, __local uint *part)
{
	gp_byte_blob x = {vec, len, 0u, delta, 0u, 0u};
	vb_tile_count_body(in, &x, bt, tiles, blocks, tile_sums, block_sums, part);
}

__kernel void vb_tile_count_batch(__global const uint4 *in, __global const uint *tab,
                                  __global const uint *tile_start, const uint n_blobs, const uint bt,
                                  const uint tiles, const uint blocks, __global uint *tile_sums,
                                  __global uint *block_sums, __local uint *part)
{
	gp_byte_blob x = gp_byte_blob_of(tab, tile_start, n_blobs, get_group_id(0));
	vb_tile_count_body(in, &x, bt, tiles, blocks, tile_sums, block_sums, part);
}

/* part: wg; part_s: wg; stage: GP_SKEW(wg * VB_STAGE_ITEMS). */
GP_PASS_BODY void vb_tile_decode_body(__global const uint4 *in, const gp_byte_blob *x, uint bt, uint tiles,
                                      uint blocks, __global const uint *tile_sums,
                                      __global const uint *block_sums, __global uint *out_all,
                                      __global uint *err, __local uint *part, __local long *part_s,
                                      __local uint *stage)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), tb = wg * VB_ITEM, g = get_group_id(0);
	const uint t0 = (g - x->g0) * tb, chunk = wg * VB_STAGE_ITEMS, own = vb_item_own(t0, x->len);
	if (get_num_groups(0) == 1u) gp_alone_begin(err);   /* no count pass ran */
	__global uint *out = out_all + x->vbase;
	uint w[VB_WORDS];
	vb_item_load(in, x, t0 + lid * VB_ITEM, w);
	long sum0 = 0, sum_at = 0, all;
	uint out0, total;
	if (x->delta != 0u) {
		out0 = gp_tile_offset_limbs(tile_sums, block_sums, bt, tiles, blocks, x->g0, g, part, VB_COUNTERS, 8u, &sum0);
		ulong sum;
		vb_item_values(w, own, &sum, 0, 0u, 0UL, 0u, 0u, 0u, 0u);
		sum_at = gp_group_scan_i64(part_s, (long)sum, &all);
	} else {
		out0 = gp_tile_offset_u32(tile_sums, block_sums, bt, x->g0, g, part);
	}
	const uint c = vb_item_count(w, own), at0 = gp_group_scan_u32(part, c, &total);
	/* the blob's last tile: its payload ends a value, and holds n values; none past n anywhere */
	if (lid == 0u && t0 + tb >= x->len) {
		uint at = x->len - 1u, word = x->vec * 4u + at / 4u;
		if (x->len > 0u && ((((__global const uint *)in)[word] >> (8u * (at & 3u))) & 0x80u)) atomic_min(err, at);
		if (out0 + total != x->n) atomic_min(err, x->len);
	}
	if (lid == 0u && out0 + total > x->n) atomic_min(err, t0);
	const uint end = min(total, out0 < x->n ? x->n - out0 : 0u);
	uint bad = GP_ERR_NONE;
	ulong sum;
	if (end == 0u) bad = vb_item_values(w, own, &sum, 0, x->delta, (ulong)(sum0 + sum_at), out0 + at0, 0u, 0u, 0u);
	for (uint c0 = 0; c0 < end; c0 += chunk) {
		const uint c1 = min(c0 + chunk, end);
		/* every byte checked once: in the chunk of the item's first value, or the first */
		if ((at0 < c1 && at0 + c > c0) || (c0 == 0u && (c == 0u || at0 >= end))) {
			uint b = vb_item_values(w, own, &sum, stage, x->delta, (ulong)(sum0 + sum_at), out0 + at0, at0, c0, c1);
			if ((at0 >= c0 && at0 < c1) || c == 0u || at0 >= end) bad = min(bad, b);
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint q = lid; q < c1 - c0; q += wg) out[out0 + c0 + q] = stage[GP_SKEW(q)];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (bad != GP_ERR_NONE) atomic_min(err, t0 + lid * VB_ITEM + bad);
}

__kernel void vb_tile_decode(__global const uint4 *in, const uint vec, const uint len, const uint n,
                             const uint delta, const uint bt, const uint tiles, const uint blocks,
                             __global const uint *tile_sums, __global const uint *block_sums,
                             __global uint *out_all, const uint out_at, __global uint *err,
                             __local uint *part, __local long *part_s, __local uint *stage)
{
	gp_byte_blob x = {vec, len, n, delta, 0u, 0u};
	vb_tile_decode_body(in, &x, bt, tiles, blocks, tile_sums, block_sums, out_all + out_at, err, part, part_s, stage);
}

__kernel void vb_tile_decode_batch(__global const uint4 *in, __global const uint *tab,
                                   __global const uint *tile_start, const uint n_blobs, const uint bt,
                                   const uint tiles, const uint blocks, __global const uint *tile_sums,
                                   __global const uint *block_sums, __global uint *out_all,
                                   __global uint *err, __local uint *part, __local long *part_s,
                                   __local uint *stage)
{
	gp_byte_blob x = gp_byte_blob_of(tab, tile_start, n_blobs, get_group_id(0));
	vb_tile_decode_body(in, &x, bt, tiles, blocks, tile_sums, block_sums, out_all, err, part, part_s, stage);
}
