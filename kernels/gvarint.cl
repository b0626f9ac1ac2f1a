/* GPUPOST_GROUP_VARINT on the device (FORMATS.md 7), tiled over the payload's bytes
 * (gv_items_load), in one pass. Where its groups begin is a chain (each selector gives where
 * the next begins), so a tile first finds, for every item, where the chain leaves its
 * GV_ITEM bytes for each of the 17 places it may enter them (an entry e: the first group
 * begins e bytes into the item, e = 16 meaning at the next item's first byte) and how many groups
 * it passes: a map of 17 entries (gv_item_map), and from those the tile's own map.
 *   The tiles then learn where the chain enters them, and the sum of the values before them
 * (delta rules 1 and 2), by a chained scan with decoupled look-back (Merrill and Garland): a tile
 * takes its number from a counter when it starts, publishes its map (17 words) at once, then
 * follows the maps of the tiles before it back to one that has published its state (where the
 * chain leaves it, the blob's groups through it) or to its blob's first tile, entered at 0
 * (gv_look_back_entry); likewise its values' sum once it knows its entry (gv_look_back_sum). A tile waits only on tiles that started
 * before it, each of which publishes its map before it waits on anything: no tile waits on one
 * that is not running or done. Every published word carries GV_READY, so that a word is read
 * whole or not at all (the status buffer is zeroed before each launch).
 *   Every value is then written, the delta rule applied, through a local staging area. One tile
 * alone (a small call) needs none of the status. Anything that breaks the format sets the error
 * word: the host's decoder then names it. */

#define GV_ENTRIES ((uint)GP_GV_ENTRIES)
#define GV_ITEM ((uint)GP_GV_ITEM)   /* the payload bytes an item takes */
#define GV_END 17u     /* the chain ended at the payload's end */
#define GV_BROKEN 18u  /* a group ran past the payload's end */

inline uint gv_data_bytes(uint sel)
{
	return 4u + (sel & 3u) + ((sel >> 2) & 3u) + ((sel >> 4) & 3u) + (sel >> 6);
}

/* An item's map is kept for every place p of its bytes (the entries are its first 17): where the
 * chain from p leaves the item and the groups it passes, found from the item's last byte back to
 * its first, each place from the one its group leads to (a step a place, not a walk an entry).
 * An item's places lie GV_STRIDE bytes apart: an odd number of words, so that items side by side
 * read different banks. */
#define GV_PLACES (GV_ITEM > GV_ENTRIES ? GV_ITEM : GV_ENTRIES)
#define GV_STRIDE (4u * ((GV_PLACES + 3u) / 4u | 1u))

/* The chain at item place q (tile position s + q) when q is past the item's bytes or at or past
 * the payload's end (tile position `end`): GV_END, GV_BROKEN, or the exit q - GV_ITEM;
 * GV_ENTRIES + 2 when it goes on inside the item. */
inline uint gv_place_end(uint s, uint q, uint end)
{
	return s + q == end ? GV_END : s + q > end ? GV_BROKEN : q >= GV_ITEM ? q - GV_ITEM : GV_BROKEN + 1u;
}

/* An item's bytes in local memory: its own and the 16 after them (where its last group may end),
 * GV_IB_STRIDE bytes apart (an odd number of words), so that items side by side read different
 * banks (a tile's bytes end to end would put the items of a warp on a few banks). */
#define GV_IB (GV_ITEM + 16u)
#define GV_IB_WORDS ((GV_IB / 4u) | 1u)
#define GV_IB_STRIDE (4u * GV_IB_WORDS)

/* Values staged an item; with the room of the items' maps, free once their entries are known, a
 * tile's values go out in one or two rounds of writes */
#define GV_STAGE_ITEMS ((uint)GP_GV_STAGE_ITEMS)

/* The tile's items' bytes from the payload at tile position t0 (vec its first 16-byte unit, len
 * bytes; 0 past its last unit, the bytes past len in that unit as the input holds them: the
 * passes stop at len). Every item calls it; a barrier follows. */
inline void gv_items_load(__global const uint4 *in, uint vec, uint len, uint t0, __local uint *ib)
{
	const uint lid = get_local_id(0), u0 = (t0 + lid * GV_ITEM) / 16u, last = (len + 15u) / 16u;
	for (uint k = 0; k < GV_IB / 16u; k++) {
		const uint4 v = u0 + k < last ? in[vec + u0 + k] : (uint4)(0u);
		__local uint *w = ib + GV_IB_WORDS * lid + 4u * k;
		w[0] = v.x;
		w[1] = v.y;
		w[2] = v.z;
		w[3] = v.w;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
}

/* A place's map in a byte: the exit (at most GV_BROKEN) | the groups passed << 5 (a group takes at
 * least 5 bytes, so an item of GV_ITEM bytes passes at most 7 from any place). */
#if GP_GV_ITEM > 35
#error "GP_GV_ITEM: a place's groups must fit 3 bits"
#endif
#define GV_EXIT(m) ((uint)(m) & 31u)
#define GV_GROUPS(m) ((uint)(m) >> 5)

/* Every item's map into maps[GV_STRIDE * lid + p]. A barrier follows. */
inline void gv_item_map(__local const uchar *ib, uint end, __local uchar *maps)
{
	const uint lid = get_local_id(0), s = lid * GV_ITEM;
	__local const uchar *b = ib + GV_IB_STRIDE * lid;
	__local uchar *mp = maps + GV_STRIDE * lid;
	for (uint p = GV_PLACES; p-- > 0u;) {
		uint x = gv_place_end(s, p, end), k = 0;
		if (x > GV_BROKEN) {
			const uint q = p + 1u + gv_data_bytes(b[p]);
			x = gv_place_end(s, q, end);
			k = 1;
			if (x > GV_BROKEN) {
				const uint m = mp[q];
				x = GV_EXIT(m);
				k += GV_GROUPS(m);
			}
		}
		mp[p] = (uchar)(x | k << 5);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
}

/* The maps of items [i0, i1) followed from entry e: the exit, *groups the groups passed. */
inline uint gv_follow(__local const uchar *maps, uint i0, uint i1, uint e, uint *passed)
{
	uint k = 0;
	for (uint i = i0; i < i1 && e < GV_ENTRIES; i++) {
		const uint m = maps[GV_STRIDE * i + e];
		k += GV_GROUPS(m);
		e = GV_EXIT(m);
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
inline void gv_segment_maps(__local const uchar *maps, __local uint *segs)
{
	const uint lid = get_local_id(0), nseg = (get_local_size(0) + GV_SEGMENT - 1u) / GV_SEGMENT;
	for (uint q = lid; q < nseg * GV_ENTRIES; q += get_local_size(0)) {
		const uint seg = q / GV_ENTRIES, i0 = seg * GV_SEGMENT;
		uint k, e = gv_follow(maps, i0, min(i0 + GV_SEGMENT, (uint)get_local_size(0)), q % GV_ENTRIES, &k);
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

/* The groups of an item (its bytes at b, its first at tile position s) from its entry, tile
 * position p, k0 the groups of the blob before them:
 * *count gets the values (groups past ceil(n / 4) and the last group's unused slots hold none; an
 * unused slot must be one byte holding 0), *sum their sum. With `stage` as vb_item_values. The
 * first tile position that breaks the format, or GP_ERR_NONE. */
inline uint gv_item_values(__local const uchar *b, uint p, uint s, uint end, uint k0, uint n, uint *count,
                           ulong *sum, __local uint *stage, uint delta, ulong run0, uint at0, uint c0, uint c1)
{
	uint bad = GP_ERR_NONE, c = 0;
	ulong total = 0;
	for (uint k = k0; p < s + GV_ITEM && p < end; k++) {
		const uint sel = b[p - s];
		uint d = p + 1u;
		p = d + gv_data_bytes(sel);
		if (p > end) bad = min(bad, d - 1u);   /* past the payload: read no further */
		if (p > end) break;
		for (uint j = 0; j < 4u; j++) {
			const uint bytes = ((sel >> (2u * j)) & 3u) + 1u;
			uint v = 0;
			for (uint q = 0; q < bytes; q++) v |= (uint)b[d + q - s] << (8u * q);
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
 * ibefore, wg + 1 each: the last, the tile's exit and groups), after the segments' maps: one item
 * follows the segments, then one item a segment its items. */
inline void gv_items_from(uint tile_entry, __local const uchar *maps,
                          __local const uint *segs, __local uint *ientry, __local uint *ibefore)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), nseg = (wg + GV_SEGMENT - 1u) / GV_SEGMENT;
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
				const uint m = maps[GV_STRIDE * i + x];
				k += GV_GROUPS(m);
				x = GV_EXIT(m);
			}
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
}

/* A call's status (zeroed before the launch), for T tiles: a counter of the tiles started, then
 * each tile's state (where the chain leaves it << 32 | the groups of its blob through it), its
 * values' sum, the sum of its blob's values through it (64-bit words, GV_READY once written),
 * then each tile's map (GV_ENTRIES 32-bit words: the exit | the groups << 8, GV_READY32 once
 * written). A word is written whole, so a reader sees it ready and complete or not ready. */
#define GV_READY (1UL << 63)
#define GV_READY32 0x80000000u
#define GV_SUM_CAP ((1UL << 62) - 1UL)   /* sums saturate here (a valid blob's stay below 2^32) */
#define GV_STATE 0u
#define GV_SUM 1u
#define GV_SUMS 2u

inline ulong gv_read(__global const ulong *status, uint what, uint tile)
{
	return ((volatile __global const ulong *)status)[1UL + (ulong)what * get_num_groups(0) + tile];
}

inline void gv_write(__global ulong *status, uint what, uint tile, ulong v)
{
	((volatile __global ulong *)status)[1UL + (ulong)what * get_num_groups(0) + tile] = GV_READY | v;
}

inline volatile __global uint *gv_maps(__global ulong *status)
{
	return (volatile __global uint *)(status + 1UL + 3UL * get_num_groups(0));
}

/* Tile g's entry and the groups of its blob before it (*before, for item 0), g0 its blob's first
 * tile; every item calls it. A window of GV_WINDOW tiles before g is read by the group at once
 * for the nearest that has published its state (or the blob's start), and the maps of the tiles
 * after that one into win (GV_WINDOW * GV_ENTRIES words; a map not yet published is read again);
 * item 0 then follows the chain through them. A window without a state is composed into the
 * maps already passed (comp: where each entry of the window's first tile leads to g's entry,
 * and the groups on the way; 2 (GV_BROKEN + 1) words), and the window before it is read: a tile
 * never waits for another's state, only for maps, which every tile publishes before it waits on
 * anything. flag: 2 words. */
#define GV_WINDOW max(1u, min(GV_WINDOW_CAP, max(GV_STAGE_ITEMS * (uint)get_local_size(0), GV_ENTRIES) / GV_ENTRIES))
/* GP_GV_COMPOSE_TEST, a build option (GPUPOST_CL_OPTIONS) for tests: windows of two tiles whose
 * states are not read, so that every look-back composes the maps back to its blob's start, as
 * look-backs do where many tiles are in flight (tests/087) */
#ifdef GP_GV_COMPOSE_TEST
#define GV_WINDOW_CAP min(2u, (uint)get_local_size(0))
#define GV_STATE_READY(w) 0
#else
#define GV_WINDOW_CAP ((uint)get_local_size(0))
#define GV_STATE_READY(w) ((w) & GV_READY)
#endif
inline uint gv_look_back_entry(__global ulong *status, uint g, uint g0, __local uint *win, __local uint *flag,
                               __local uint *comp, uint *before)
{
	const uint lid = get_local_id(0), wg = get_local_size(0);
	volatile __global const uint *maps = gv_maps(status);
	__local uint *cx = comp, *ck = comp + GV_BROKEN + 1u;
	for (uint e = lid; e <= GV_BROKEN; e += wg) {   /* nothing passed yet: each entry to itself */
		cx[e] = e;
		ck[e] = 0u;
	}
	uint hi = g, from, f;   /* the tiles [lo, hi) read; the chain known entering tile `from` */
	for (;;) {
		const uint lo = hi - g0 > GV_WINDOW ? hi - GV_WINDOW : g0;
		if (lid == 0u) flag[0] = lo == g0 ? 1u : 0u;   /* tile j's state found: j + 2; the blob's start: 1 */
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint j = lo + lid; j < hi; j += wg) {
			if (GV_STATE_READY(gv_read(status, GV_STATE, j))) atomic_max(flag, j + 2u);
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		f = flag[0];
		from = f == 0u ? lo : f == 1u ? g0 : f - 1u;
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid == 0u) flag[1] = 0u;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint q = lid; q < (hi - from) * GV_ENTRIES; q += wg) {
			const uint m = maps[(ulong)from * GV_ENTRIES + q];
			win[q] = m;
			if (!(m & GV_READY32)) flag[1] = 1u;
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		const uint missing = flag[1];
		barrier(CLK_LOCAL_MEM_FENCE);
		if (missing) continue;   /* a map not published yet: read the window again */
		if (f != 0u) break;
		/* no state in [lo, hi): each entry of tile lo followed through the window, then through
		 * what was composed before */
		uint x[GV_ENTRIES], k[GV_ENTRIES];
		for (uint e = lid; e < GV_ENTRIES; e += wg) {
			uint y = e, kk = 0;
			for (uint t = 0; t < hi - lo && y < GV_ENTRIES; t++) {
				const uint m = win[GV_ENTRIES * t + y];
				kk += (m >> 8) & 0x7FFFFFu;
				y = m & 0xFFu;
			}
			x[e / wg] = cx[y];
			k[e / wg] = kk + ck[y];
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint e = lid; e < GV_ENTRIES; e += wg) {
			cx[e] = x[e / wg];
			ck[e] = k[e / wg];
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		hi = lo;
	}
	uint x = 0, k = 0;
	if (lid == 0u) {
		if (from > g0) {
			const ulong state = gv_read(status, GV_STATE, from - 1u);
			x = (uint)(state >> 32) & 0xFFu;
			k = (uint)state;
		}
		for (uint t = 0; t < hi - from && x < GV_ENTRIES; t++) {
			const uint m = win[GV_ENTRIES * t + x];
			k += (m >> 8) & 0x7FFFFFu;
			x = m & 0xFFu;
		}
		k += ck[x];
		x = cx[x];
	}
	barrier(CLK_LOCAL_MEM_FENCE);   /* win, flag and comp are free again */
	*before = k;
	return x;
}

/* The sum of the values of tile g's blob before it (saturating at GV_SUM_CAP), for every item;
 * every item calls it. A window of the tiles before g is read at once, a tile an item: the nearest
 * with its blob's sum through it ends the look-back, the tiles after it add their own sums (read
 * again until all are published); without one, the window's own sums add up and the next window
 * back is read. The sums add up in local memory in three limbs of 21 bits (a window's fit 32
 * bits). flag: 5 words. */
inline ulong gv_look_back_sum(__global ulong *status, uint g, uint g0, __local uint *flag)
{
	const uint lid = get_local_id(0), wg = get_local_size(0);
	ulong sum = 0;
	for (uint hi = g; hi > g0;) {
		const uint lo = hi - g0 > wg ? hi - wg : g0;
		if (lid < 5u) flag[lid] = 0u;
		barrier(CLK_LOCAL_MEM_FENCE);
		const uint j = hi - 1u - lid;   /* one tile an item */
		const int in = lid < hi - lo;
		if (in && (gv_read(status, GV_SUMS, j) & GV_READY)) atomic_max(flag, j + 1u);
		barrier(CLK_LOCAL_MEM_FENCE);
		const uint f = flag[0], from = f ? f - 1u : lo;   /* tiles [from, hi): tile `from`'s sums if f */
		if (in && j >= from) {
			const ulong w = gv_read(status, f && j == from ? GV_SUMS : GV_SUM, j), v = w & ~GV_READY;
			if (!(w & GV_READY)) flag[1] = 1u;
			atomic_add(flag + 2, (uint)v & 0x1FFFFFu);
			atomic_add(flag + 3, (uint)(v >> 21) & 0x1FFFFFu);
			atomic_add(flag + 4, (uint)(v >> 42));
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		const uint missing = flag[1];
		const ulong all = flag[4] >= (1u << 20) ? GV_SUM_CAP
		                  : (ulong)flag[2] + ((ulong)flag[3] << 21) + ((ulong)flag[4] << 42);
		barrier(CLK_LOCAL_MEM_FENCE);
		if (missing) continue;   /* a tile has not published its sum yet: read the window again */
		sum = min(sum + all, GV_SUM_CAP);
		if (f) break;
		hi = lo;
	}
	return sum;
}

/* The one pass. x: the tile's blob (its tiles [x->g0, ...)), g: the tile, alone: one tile in the
 * call (no status). ib: wg * GV_IB_STRIDE bytes; segs: as gv_segment_maps's; ientry, ibefore:
 * wg + 1; part: wg; part_s: wg; stage: GV_STAGE_OWN(wg) words, then the items' maps (wg *
 * GV_STRIDE bytes), which the staged values take over once the items' entries
 * are known; bc: 4 longs (what item 0 found, for every item), then the look-back's composed maps
 * (2 (GV_BROKEN + 1) words). */
#define GV_STAGE_OWN(wg) max((wg) * GV_STAGE_ITEMS, GV_ENTRIES)
GP_PASS_BODY void gv_decode_body(__global const uint4 *in, const gp_byte_blob *x, uint g, int alone,
                                 __global ulong *status, __global uint *out_all, __global uint *err,
                                 __local uint *ib, __local uint *segs, __local uint *ientry,
                                 __local uint *ibefore, __local uint *part, __local long *part_s,
                                 __local uint *stage, __local ulong *bc)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), tb = wg * GV_ITEM;
	const uint t0 = (g - x->g0) * tb, end = gv_tile_end(x, t0, tb);
	__local uchar *maps = (__local uchar *)(stage + GV_STAGE_OWN(wg));
	const uint chunk = GV_STAGE_OWN(wg) + wg * GV_STRIDE / 4u;   /* the stage with the maps' room */
	const int first = g == x->g0, last = t0 + tb >= x->len;
	__local const uchar *b = (__local const uchar *)ib + GV_IB_STRIDE * lid;   /* the item's bytes */
	__global uint *out = out_all + x->vbase;
	gv_items_load(in, x->vec, x->len, t0, ib);
	gv_item_map((__local const uchar *)ib, end, maps);
	gv_segment_maps(maps, segs);

	for (uint en = lid; !alone && en < GV_ENTRIES; en += wg) {   /* the tile's map, published before anything waits */
		uint k, e = gv_follow_segments(segs, en, &k);
		gv_maps(status)[(ulong)GV_ENTRIES * g + en] = GV_READY32 | k << 8 | e;
	}
	uint k0 = 0;
	const uint e0 = first ? 0u : gv_look_back_entry(status, g, x->g0, stage, part, (__local uint *)(bc + 4), &k0);
	if (lid == 0u) {
		uint k = 0;
		const uint ex = e0 < GV_ENTRIES ? gv_follow_segments(segs, e0, &k) : e0;
		if (!alone) gv_write(status, GV_STATE, g, (ulong)ex << 32 | (k0 + k));
		bc[0] = e0;
		bc[1] = k0;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	k0 = (uint)bc[1];
	gv_items_from((uint)bc[0], maps, segs, ientry, ibefore);
	/* the blob's last tile: the chain ends at the payload's end after ceil(n / 4) groups */
	if (last && lid == 0u && (ientry[wg] != GV_END || k0 + ibefore[wg] != (x->n + 3u) / 4u)) atomic_min(err, 0u);
	const uint e = ientry[lid], s = lid * GV_ITEM, first_group = k0 + ibefore[lid];
	uint c = 0, bad = GP_ERR_NONE;
	ulong sum = 0;
	if (e < GV_ENTRIES) bad = gv_item_values(b, s + e, s, end, first_group, x->n, &c, &sum, 0, 0u, 0UL, 0u, 0u, 0u);
	if (bad != GP_ERR_NONE) atomic_min(err, t0 + bad);
	long all;
	const long sum_at = gp_group_scan_i64(part_s, (long)sum, &all);
	ulong before = 0;
	if (x->delta != 0u) {
		const ulong own = min((ulong)all, GV_SUM_CAP);
		if (!alone && lid == 0u) gv_write(status, GV_SUM, g, own);   /* published before the look-back */
		if (!first) before = gv_look_back_sum(status, g, x->g0, part);
		if (!alone && lid == 0u) gv_write(status, GV_SUMS, g, min(before + own, GV_SUM_CAP));
	}
	uint total;
	const uint at0 = gp_group_scan_u32(part, c, &total), out0 = 4u * k0;   /* the groups before are full */
	const ulong run0 = before + (ulong)sum_at;
	const uint stop = min(total, x->n > out0 ? x->n - out0 : 0u);
	for (uint c0 = 0; c0 < stop; c0 += chunk) {
		const uint c1 = min(c0 + chunk, stop);
		if (e < GV_ENTRIES && at0 < c1 && at0 + c > c0) {
			bad = gv_item_values(b, s + e, s, end, first_group, x->n, &c, &sum, stage, x->delta, run0, at0, c0, c1);
			if (bad != GP_ERR_NONE) atomic_min(err, t0 + bad);
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint q = lid; q < c1 - c0; q += wg) out[out0 + c0 + q] = stage[q];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
}

/* Tiles are numbered in the order they start (the status's counter), so that a tile only ever
 * waits on tiles that started before it. Every item calls it; a barrier follows. */
inline uint gv_tile_number(__global ulong *status, int alone, __local ulong *bc)
{
	if (get_local_id(0) == 0u) bc[3] = alone ? 0u : atomic_inc((volatile __global uint *)status);
	barrier(CLK_LOCAL_MEM_FENCE);
	return (uint)bc[3];
}

__kernel void gv_decode(__global const uint4 *in, const uint vec, const uint len, const uint n,
                        const uint delta, __global ulong *status, __global uint *out_all, const uint out_at,
                        __global uint *err, __local uint *ib, __local uint *segs, __local uint *ientry, __local uint *ibefore,
                        __local uint *part, __local long *part_s, __local uint *stage, __local ulong *bc)
{
	const int alone = get_num_groups(0) == 1u;
	if (alone) gp_alone_begin(err);
	gp_byte_blob x = {vec, len, n, delta, 0u, 0u};
	const uint g = gv_tile_number(status, alone, bc);
	gv_decode_body(in, &x, g, alone, status, out_all + out_at, err, ib, segs, ientry, ibefore, part, part_s, stage, bc);
}

__kernel void gv_decode_batch(__global const uint4 *in, __global const uint *tab, __global const uint *tile_start,
                              const uint n_blobs, __global ulong *status, __global uint *out_all,
                              __global uint *err, __local uint *ib, __local uint *segs, __local uint *ientry,
                              __local uint *ibefore, __local uint *part, __local long *part_s, __local uint *stage,
                              __local ulong *bc)
{
	const int alone = get_num_groups(0) == 1u;
	if (alone) gp_alone_begin(err);
	const uint g = gv_tile_number(status, alone, bc);
	gp_byte_blob x = gp_byte_blob_of(tab, tile_start, n_blobs, g);
	gv_decode_body(in, &x, g, alone, status, out_all, err, ib, segs, ientry, ibefore, part, part_s, stage, bc);
}
