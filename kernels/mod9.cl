/* GPUPOST_MOD9 on the device, by tiles of words: a count pass that writes each tile's totals, a
 * decode pass that finds its tile's offsets from them and writes its outputs coalesced. VALUES
 * and DOCS below; POSTINGS (docs and running positions) at the end, with a segmented scan of
 * position gaps carried across tiles. codec/gp_mod9_word.h is prepended: it reads a word exactly
 * as the host does.
 * Errors go to err[0] (atomic_min of the word index); the host then names offset and rule. */

/* Per blob of a batch: where its values and postings begin (2 entries per blob, plus totals). */
__kernel void mod9_blob_offsets(__global const uint *blob_words, const uint n_blobs,
                                __global const uint *voff, __global const uint *poff,
                                __global uint *out)
{
	uint b = get_global_id(0);
	if (b > n_blobs) return;
	uint i = blob_words[b];
	out[2 * b] = voff[i];
	out[2 * b + 1] = poff[i];
}

/* The layout of each selector (bits 29..24) for the tiled passes, in local memory: so that a
 * word's count costs a load and the borrow trick, not the chains of comparisons (faster in both
 * passes). .x: slot bits, plus
 * 256 for selector 00's one value; .y: a 1 at the lowest bit of each slot. Every item calls it;
 * a barrier follows. */
inline void mod9_layouts_put(__local uint2 *lay)
{
	for (uint s = get_local_id(0); s < GP_MOD9_LAYOUTS; s += get_local_size(0)) {
		uint bits = gp_mod9_slot_bits(s << 24);
		lay[s] = bits == 28u ? (uint2)(28u | 256u, 1u) : (uint2)(bits, gp_mod9_slot_ones32(bits));
	}
}

inline uint mod9_bits_lay(uint w, __local const uint2 *lay) { return lay[(w >> 24) & 63u].x & 255u; }

inline uint mod9_count_lay(uint w, __local const uint2 *lay)
{
	uint2 e = lay[(w >> 24) & 63u];
	return gp_mod9_count_in(w, e.x & 255u, e.y) | (e.x >> 8);
}

/* Whether word i starts a posting: the first word of a blob, or one after a
 * word that does not continue its posting. prev: word i - 1 as stored, if any. */
inline uint mod9_starts(__global const uchar *first, uint i, uint prev)
{
	return (first ? first[i] != 0 : i == 0u) || !GP_MOD9_CONTINUES(gp_be32(prev));
}

/* Item lid's words of a count pass's tile as uint4s (words 4q .. 4q+3 for q = q0 + k * wg) and
 * the word before each (pv), every load issued before any is used. */
GP_PASS_BODY void mod9_tile_vecs(__global const uint *words, const uint n, const uint q0,
                                 const uint wg, uint4 *v, uint *pv)
{
	__global const uint4 *w4 = (__global const uint4 *)words;
	for (uint k = 0; k < GP_TILE_VECS; k++) {
		uint i = 4u * (q0 + k * wg);
		if (i + 3u < n) v[k] = w4[q0 + k * wg];
		else v[k] = (uint4)(i < n ? words[i] : 0u, i + 1u < n ? words[i + 1u] : 0u,
		                    i + 2u < n ? words[i + 2u] : 0u, 0u);
		pv[k] = i > 0u && i <= n ? words[i - 1u] : 0u;
	}
}

/* mod9_starts for word i (host order w) of n, checking the flag rules on the way: a posting
 * starts with flags 00 or 11, and a blob's last word ends one; the first word that breaks them
 * goes to *bad. */
GP_PASS_BODY uint mod9_checked_start(__global const uchar *first, const uint n, uint i, uint prev,
                                     uint w, uint *bad)
{
	uint st = mod9_starts(first, i, prev);
	uint is_last = i + 1u == n || (first && first[i + 1u]);
	if (GP_MOD9_FLAGS_BAD(st, is_last, w) && *bad == GP_ERR_NONE) *bad = i;
	return st;
}

/* One blob or a batch, tiled, in VALUES or DOCS mode: a tile is GP_TILE_ITEMS words per
 * work-item, item lid taking words k * wg + lid (read side by side). The count pass sums each tile's outputs (values,
 * or postings: the words that start one) and checks the flags on the way; the decode pass finds
 * its tile's offset from those sums (gp_tile_offset_u32), turns its words' output counts into
 * offsets in local memory and writes its outputs through a local staging area of
 * GP_STAGE_ITEMS_32 per item, so that every global write is coalesced. Each pass is one inline
 * body and two kernels, `docs` a constant in each. A batch's blobs lie back to back: first[i]
 * (NULL for one blob) marks the words that begin one, where a posting must start and before
 * which the last must have ended; the decode pass then also writes, at each such word, the
 * output offset it begins at (word_off, and word_off[n] the total) for mod9_blob_offsets. */
/* part: wg. Item lid reads uint4s (words 4q..4q+3) and the word before each for its flags. */
GP_PASS_BODY void mod9_tile_count_body(__global const uint *words, const uint n,
                                 __global const uchar *first, const uint bt,
                                 __global uint *tile_sums, __global uint *block_sums,
                                 __global uint *err, __local uint *part, __local uint2 *lay,
                                 const int docs)
{
	const uint wg = get_local_size(0), q0 = get_group_id(0) * wg * GP_TILE_VECS + get_local_id(0);
	uint4 v[GP_TILE_VECS];
	uint pv[GP_TILE_VECS], sum = 0, bad = GP_ERR_NONE, total;
	mod9_tile_vecs(words, n, q0, wg, v, pv);
	mod9_layouts_put(lay);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint k = 0; k < GP_TILE_VECS; k++) {
		uint a[5] = {pv[k], v[k].x, v[k].y, v[k].z, v[k].w};
		for (uint c = 0; c < 4u; c++) {
			uint i = 4u * (q0 + k * wg) + c, x = gp_be32(a[c + 1u]);
			if (i >= n) continue;
			uint is_start = mod9_checked_start(first, n, i, a[c], x, &bad);
			sum += docs ? is_start : mod9_count_lay(x, lay);
		}
	}
	if (bad != GP_ERR_NONE) atomic_min(err, bad);
	total = gp_group_sum_u32(part, sum);
	if (get_local_id(0) == 0) gp_tile_total_put(tile_sums, block_sums, bt, get_group_id(0), total);
}

/* The four count kernels: values or docs, one blob (no first[]: the compiler drops its tests)
 * or a batch. */
#define MOD9_TILE_COUNT(NAME, DOCS, FIRST_ARG, FIRST)                                           \
__kernel void NAME(__global const uint *words, const uint n, FIRST_ARG const uint bt,          \
                   __global uint *tile_sums, __global uint *block_sums, __global uint *err,    \
                   __local uint *part, __local uint2 *lay)                                     \
{                                                                                             \
	mod9_tile_count_body(words, n, FIRST, bt, tile_sums, block_sums, err, part, lay, DOCS);    \
}
#define MOD9_NO_ARG
#define MOD9_FIRST_ARG __global const uchar *first,
MOD9_TILE_COUNT(mod9_tile_count, 0, MOD9_NO_ARG, 0)
MOD9_TILE_COUNT(mod9_tile_count_docs, 1, MOD9_NO_ARG, 0)
MOD9_TILE_COUNT(mod9_tile_count_batch, 0, MOD9_FIRST_ARG, first)
MOD9_TILE_COUNT(mod9_tile_count_docs_batch, 1, MOD9_FIRST_ARG, first)

/* The first value of the posting that starts at word i (host byte order w), as the host's
 * mod9_decode_postings finds it: the word's first unless the word holds none (then the first of
 * the posting's later words that holds one: rare, read from global memory). A posting without
 * values, or whose first value is 0, is malformed. */
inline uint mod9_posting_first(__global const uint *words, const uint n, uint i, uint w,
                               __local const uint2 *lay, __global uint *err)
{
	uint c = mod9_count_lay(w, lay), head = i;
	while (c == 0u && GP_MOD9_CONTINUES(w) && i + 1u < n) {
		w = gp_be32(words[++i]);
		c = mod9_count_lay(w, lay);
	}
	uint v = c ? gp_mod9_word_value(w, mod9_bits_lay(w, lay), c, 0u) : 0u;
	if (v == 0u) atomic_min(err, head);
	return v;
}

/* A posting's doc from its first value (Yioop's unpackPosting). */
inline uint mod9_doc_of(uint v)
{
	return (v & GP_MOD9_COMBINED_BIT) ? (v >> 9) - (1u << 18) : v - 1u;
}

/* offs: GP_SKEW(tile) uints, part: wg, stage: wg * GP_STAGE_ITEMS_32 */
/* The last tile's group also stores the blob's output count, at tile_sums[tiles]. A launch of
 * one tile runs without the count pass (its offset is 0; a small call's one launch): it starts
 * the error word and checks the flags itself. */
GP_PASS_BODY void mod9_tile_decode_body(__global const uint *words, const uint n,
                                  __global const uchar *first, const uint bt,
                                  __global uint *tile_sums, __global const uint *block_sums,
                                  __global uint *out, __global uint *word_off, __global uint *err,
                                  __local uint *offs, __local uint *part, __local uint *stage,
                                  __local uint2 *lay, const int docs)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), chunk = wg * GP_STAGE_ITEMS_32;
	const uint g = get_group_id(0), base = g * wg * GP_TILE_ITEMS;
	const int alone = get_num_groups(0) == 1u;
	uint w[GP_TILE_ITEMS], cnt[GP_TILE_ITEMS], at[GP_TILE_ITEMS], pw[GP_TILE_ITEMS], bad = GP_ERR_NONE;
	if (alone) gp_alone_begin(err);
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {   /* in flight while the offset is summed */
		uint i = base + k * wg + lid;
		w[k] = i < n ? words[i] : 0u;
		if (docs || alone) pw[k] = i > 0u && i < n ? words[i - 1u] : 0u;
	}
	mod9_layouts_put(lay);   /* the barriers of gp_tile_offset_u32 follow */
	const uint out0 = gp_tile_offset_u32(tile_sums, block_sums, bt, 0u, g, part);
	for (uint k = 0; k < GP_TILE_ITEMS; k++) w[k] = gp_be32(w[k]);
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {
		uint i = base + k * wg + lid;
		if (alone && i < n) mod9_checked_start(first, n, i, pw[k], w[k], &bad);
		if (docs) cnt[k] = i < n && mod9_starts(first, i, pw[k]);
		else cnt[k] = i < n ? mod9_count_lay(w[k], lay) : 0u;
		offs[GP_SKEW(k * wg + lid)] = cnt[k];
	}
	if (bad != GP_ERR_NONE) atomic_min(err, bad);
	const uint total = gp_tile_offsets_u32(offs, part, GP_TILE_ITEMS);
	if (lid == 0 && g + 1u == get_num_groups(0)) {
		tile_sums[g + 1u] = out0 + total;
		if (first) word_off[n] = out0 + total;
	}
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {
		uint i = base + k * wg + lid;
		at[k] = offs[GP_SKEW(k * wg + lid)];
		if (first && i < n && first[i]) word_off[i] = out0 + at[k];
	}
	for (uint c0 = 0; c0 < total; c0 += chunk) {
		for (uint k = 0; k < GP_TILE_ITEMS; k++) {
			uint j1 = min(at[k] + cnt[k], c0 + chunk);
			if (at[k] + cnt[k] <= c0 || at[k] >= j1) continue;
			if (docs) {
				stage[at[k] - c0] = mod9_doc_of(mod9_posting_first(words, n, base + k * wg + lid, w[k], lay, err));
				continue;
			}
			uint bits = mod9_bits_lay(w[k], lay);
			for (uint j = max(at[k], c0); j < j1; j++) stage[j - c0] = gp_mod9_word_value(w[k], bits, cnt[k], j - at[k]);
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		uint m = min(chunk, total - c0);
		for (uint q = lid; q < m; q += wg) out[out0 + c0 + q] = stage[q];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
}

/* The four decode kernels, likewise. out: the values, or one uint a posting (its doc; a doc is
 * below 2^28), from element out_at (a tile alone: after the error word and its total, in their
 * buffer). A batch's also take first[] and word_off. */
#define MOD9_TILE_DECODE(NAME, DOCS, BATCH_ARGS, FIRST, WORD_OFF)                               \
__kernel void NAME(__global const uint *words, const uint n, BATCH_ARGS const uint bt,         \
                   __global uint *tile_sums, __global const uint *block_sums,                 \
                   __global uint *out, const uint out_at, __global uint *err,                 \
                   __local uint *offs, __local uint *part, __local uint *stage,               \
                   __local uint2 *lay)                                                        \
{                                                                                             \
	mod9_tile_decode_body(words, n, FIRST, bt, tile_sums, block_sums, out + out_at, WORD_OFF,  \
	                      err, offs, part, stage, lay, DOCS);                                  \
}
#define MOD9_BATCH_ARGS __global const uchar *first, __global uint *word_off,
MOD9_TILE_DECODE(mod9_tile_decode, 0, MOD9_NO_ARG, 0, 0)
MOD9_TILE_DECODE(mod9_tile_docs, 1, MOD9_NO_ARG, 0, 0)
MOD9_TILE_DECODE(mod9_tile_decode_batch, 0, MOD9_BATCH_ARGS, first, word_off)
MOD9_TILE_DECODE(mod9_tile_docs_batch, 1, MOD9_BATCH_ARGS, first, word_off)

/* ---- POSTINGS: docs, and the running positions of each posting's gaps ----
 * A posting's positions are the running sums of its gaps, restarted at each posting: a
 * segmented scan. Each word contributes the sum of its gaps (mod9_word_gaps); a tile's words
 * are scanned in local memory, segments restarting at the words that start a posting, and what
 * a posting that crosses into a tile has summed before it comes from a scan over the tiles
 * (mod9_gap_carry) of what the count pass left per tile: the gaps after its last posting start,
 * or all its gaps when none starts in it. A sum and its flag share a long: bit 62 set where a
 * posting starts (sums stay below 2^60: fewer than 2^32 values below 2^28), so that one add
 * carries both: */
#define MOD9_SEG_HEAD ((long)1 << 62)
#define MOD9_SEG_SUM (MOD9_SEG_HEAD - 1)

/* The segmented sum: what follows a start replaces what came before it. Associative, 0 its
 * identity. */
inline long mod9_seg(long before, long x)
{
	return (x & MOD9_SEG_HEAD) ? x : before + x;
}

/* Whether word i's first value is its posting's first (the doc): it starts the posting, or the
 * words from the posting's start to it hold no values (rare; read back from global memory, each
 * word once per run of empty words: linear in the blob). prev: word i - 1 as stored. */
inline uint mod9_holds_head(__global const uint *words, __global const uchar *first, uint i,
                            uint starts, uint prev, __local const uint2 *lay)
{
	if (starts) return 1u;
	uint j = i - 1u;                      /* i > 0: word 0 starts a posting */
	while (mod9_count_lay(gp_be32(prev), lay) == 0u) {
		prev = j > 0u ? words[j - 1u] : 0u;
		if (mod9_starts(first, j, prev)) return 1u;
		j--;
	}
	return 0u;
}

/* The gaps word w (host order, cnt values) adds to its posting's running position: its values,
 * except that a posting's first value (head: the word holds it) adds nothing, or its first gap
 * in the combined form. The slots are summed one by one or by bit planes (a popcount each),
 * whichever is fewer: at most 5 steps, as cnt * bits <= 28. */
inline uint mod9_word_gaps(uint w, uint cnt, uint head, __local const uint2 *lay)
{
	uint2 e = lay[(w >> 24) & 63u];
	uint bits = e.x & 255u, s = 0u;
	if (cnt == 0u) return 0u;
	if (bits == 28u) {
		s = w & 0x0FFFFFFFu;
	} else if (cnt <= bits) {
		for (uint j = 0; j < cnt; j++) s += (w >> (j * bits)) & ((1u << bits) - 1u);
	} else {
		uint x = w & ((1u << (cnt * bits)) - 1u);
		for (uint b = 0; b < bits; b++) s += (uint)popcount(x & (e.y << b)) << b;
	}
	if (head) {
		uint v = gp_mod9_word_value(w, bits, cnt, 0u);
		s = s - v + ((v & GP_MOD9_COMBINED_BIT) ? (v & 511u) : 0u);
	}
	return s;
}

/* Exclusive mod9_seg scan of one long per item across the group (Hillis-Steele in a[0..wg));
 * *total: the whole group's. Every item must call it. */
inline long mod9_group_seg_scan(__local long *a, long x, long *total)
{
	const uint lid = get_local_id(0), wg = get_local_size(0);
	a[lid] = x;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint off = 1; off < wg; off <<= 1) {
		long t = lid >= off ? a[lid - off] : 0L;
		barrier(CLK_LOCAL_MEM_FENCE);
		a[lid] = mod9_seg(t, a[lid]);
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	long excl = lid ? a[lid - 1u] : 0L;
	*total = a[wg - 1u];
	barrier(CLK_LOCAL_MEM_FENCE);
	return excl;
}

/* c[GP_SKEW(t)]: `items` * wg flagged gap sums in order, item lid owning lid * items .. + items;
 * they become each one's running sum before it within its segment (0 at a start), the first
 * segment continuing from `carry`. Returns the group's mod9_seg total; every item must call it. */
inline long mod9_seg_offsets(__local long *c, __local long *part, uint items, long carry)
{
	const uint lid = get_local_id(0);
	barrier(CLK_LOCAL_MEM_FENCE);
	long run = 0L, total;
	for (uint k = 0; k < items; k++) run = mod9_seg(run, c[GP_SKEW(lid * items + k)]);
	long acc = mod9_seg(carry, mod9_group_seg_scan(part, run, &total)) & MOD9_SEG_SUM;
	for (uint k = 0; k < items; k++) {
		uint t = GP_SKEW(lid * items + k);
		long x = c[t];
		if (x & MOD9_SEG_HEAD) acc = 0L;
		c[t] = acc;
		acc += x & MOD9_SEG_SUM;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	return total;
}

/* The count pass: per tile its values and postings (counters 0 and 1 of tile_sums, as S9's:
 * arrays of tiles + 1, block sums of blocks), and in seg[g] its flagged gap sum (after its last
 * posting start, or all of it). part: wg uints, lpart: wg longs. */
GP_PASS_BODY void mod9_tile_count_postings_body(__global const uint *words, const uint n,
                                                __global const uchar *first, const uint bt,
                                                const uint tiles, const uint blocks,
                                                __global uint *tile_sums, __global uint *block_sums,
                                                __global long *seg, __global uint *err,
                                                __local uint *part, __local long *lpart,
                                                __local uint2 *lay)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), g = get_group_id(0);
	const uint q0 = g * wg * GP_TILE_VECS + lid;
	__local uint *last = (__local uint *)lpart;   /* 1 + the tile's last start word, 0: none */
	uint4 v[GP_TILE_VECS];
	uint pv[GP_TILE_VECS], x[2] = {0u, 0u}, bad = GP_ERR_NONE, mine = 0u;
	mod9_tile_vecs(words, n, q0, wg, v, pv);
	mod9_layouts_put(lay);
	if (lid == 0u) *last = 0u;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint k = 0; k < GP_TILE_VECS; k++) {
		uint a[5] = {pv[k], v[k].x, v[k].y, v[k].z, v[k].w};
		for (uint c = 0; c < 4u; c++) {
			uint i = 4u * (q0 + k * wg) + c, w = gp_be32(a[c + 1u]);
			if (i >= n) continue;
			uint st = mod9_checked_start(first, n, i, a[c], w, &bad);
			x[0] += mod9_count_lay(w, lay);
			x[1] += st;
			if (st) mine = i + 1u;
		}
	}
	if (bad != GP_ERR_NONE) atomic_min(err, bad);
	if (mine) atomic_max(last, mine);
	barrier(CLK_LOCAL_MEM_FENCE);
	/* the gaps of the words from the last start on (all of them if none starts here): the tile's
	 * last posting only, most often a word or two */
	const uint from = *last;
	long s = 0L;
	for (uint k = 0; k < GP_TILE_VECS; k++) {
		uint a[5] = {pv[k], v[k].x, v[k].y, v[k].z, v[k].w};
		for (uint c = 0; c < 4u; c++) {
			uint i = 4u * (q0 + k * wg) + c, w = gp_be32(a[c + 1u]), cnt;
			if (i >= n || i + 1u < from || (cnt = mod9_count_lay(w, lay)) == 0u) continue;
			s += mod9_word_gaps(w, cnt, mod9_holds_head(words, first, i, mod9_starts(first, i, a[c]), a[c], lay), lay);
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);   /* *last read by all before lpart is summed into */
	gp_group_sums_u32(part, x, 2u);
	s = gp_group_sum_i64(lpart, s);
	if (lid == 0u) {
		gp_tile_total_put(tile_sums, block_sums, bt, g, x[0]);
		gp_tile_total_put(tile_sums + tiles + 1u, block_sums + blocks, bt, g, x[1]);
		seg[g] = from ? s | MOD9_SEG_HEAD : s;
	}
}

/* The two count kernels: one blob, a batch (first[]), as MOD9_TILE_COUNT. */
#define MOD9_TILE_COUNT_POSTINGS(NAME, FIRST_ARG, FIRST)                                        \
__kernel void NAME(__global const uint *words, const uint n, FIRST_ARG const uint bt,          \
                   const uint tiles, const uint blocks, __global uint *tile_sums,              \
                   __global uint *block_sums, __global long *seg, __global uint *err,          \
                   __local uint *part, __local long *lpart, __local uint2 *lay)                \
{                                                                                             \
	mod9_tile_count_postings_body(words, n, FIRST, bt, tiles, blocks, tile_sums, block_sums,   \
	                              seg, err, part, lpart, lay);                                 \
}
MOD9_TILE_COUNT_POSTINGS(mod9_tile_count_postings, MOD9_NO_ARG, 0)
MOD9_TILE_COUNT_POSTINGS(mod9_tile_count_postings_batch, MOD9_FIRST_ARG, first)

/* One work-group: seg[g] becomes what the posting open at tile g's start has summed before it
 * (an exclusive mod9_seg scan over the tiles), each item taking a run of consecutive tiles.
 * a: wg elements. */
__kernel void mod9_gap_carry(__global long *seg, const uint tiles, __local long *a)
{
	const uint wg = get_local_size(0), per = (tiles + wg - 1u) / wg;
	const uint i0 = min((uint)get_local_id(0) * per, tiles), i1 = min(i0 + per, tiles);
	long run = 0L, total;
	for (uint i = i0; i < i1; i++) run = mod9_seg(run, seg[i]);
	long acc = mod9_group_seg_scan(a, run, &total);
	for (uint i = i0; i < i1; i++) {
		long x = seg[i];
		seg[i] = acc & MOD9_SEG_SUM;
		acc = mod9_seg(acc, x);
	}
}

/* A tile's words' value counts and starts scanned as one: values above bit 13, starts below (a
 * tile holds at most 256 x 16 words: 4096 starts, 98,304 values). */
#define MOD9_POST_BITS 13u
#if GP_TILE_ITEMS > 16
#error "MOD9 POSTINGS packs a tile's starts in 13 bits: at most 16 words an item"
#endif

/* The decode pass: each tile's values and postings offsets (out0, p0) from the tile sums, its
 * words' offsets and the posting numbers of those that start one by one local scan
 * (MOD9_POST_BITS), their running positions by mod9_seg_offsets in
 * the same local array, carried in from seg[g]. Then per posting its doc, combined flag and
 * first value index, and every value's position, staged for coalesced writes: 32-bit (pos32),
 * with totals[flag_at] set where one does not fit (a posting's gaps past 2^32: the host then
 * runs the pass again `wide`, into pos64). The last tile writes vstart[postings] and
 * totals[0..1] (values, postings); a batch's also word_off and pword_off at each blob's first
 * word (and at n), for mod9_blob_offsets. A launch of one tile runs without the count and carry
 * passes (its offsets and carry are 0): it starts the error word and the wide flag and checks
 * the flags itself.
 * offs: GP_SKEW(tile) longs, part: wg longs. */
GP_PASS_BODY void mod9_tile_postings_body(__global const uint *words, const uint n,
                                          __global const uchar *first, __global uint *word_off,
                                          __global uint *pword_off, const uint bt,
                                          const uint tiles, const uint blocks,
                                          __global const uint *tile_sums,
                                          __global const uint *block_sums,
                                          __global const long *seg, __global uint *pos32,
                                          __global long *pos64, const uint wide, const uint flag_at,
                                          __global long *docs, __global uchar *combined,
                                          __global uint *vstart, __global uint *totals,
                                          __global uint *err, __local long *offs,
                                          __local long *part, __local uint2 *lay)
{
	/* the positions are staged in offs once it is read: a tile's words' worth at a time */
	const uint lid = get_local_id(0), wg = get_local_size(0), chunk = wg * GP_TILE_ITEMS;
	__local long *stage = offs;
	const uint g = get_group_id(0), base = g * wg * GP_TILE_ITEMS;
	uint w[GP_TILE_ITEMS], cnt[GP_TILE_ITEMS], at[GP_TILE_ITEMS], pw[GP_TILE_ITEMS];
	uint st = 0u, hh = 0u;   /* bit k: word k starts a posting, holds its first value */
	uint bad = GP_ERR_NONE;
	const int alone = get_num_groups(0) == 1u;
	long run[GP_TILE_ITEMS];
	if (alone && !wide && lid == 0u) totals[flag_at] = 0u;
	if (alone) gp_alone_begin(err);
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {
		uint i = base + k * wg + lid;
		w[k] = i < n ? words[i] : 0u;
		pw[k] = i > 0u && i < n ? words[i - 1u] : 0u;
	}
	const long carry = alone ? 0L : seg[g];
	mod9_layouts_put(lay);   /* the barriers of gp_tile_offset_u32 follow */
	__local uint *upart = (__local uint *)part, *uoffs = (__local uint *)offs;
	const uint out0 = gp_tile_offset_u32(tile_sums, block_sums, bt, 0u, g, upart);
	const uint p0 = gp_tile_offset_u32(tile_sums + tiles + 1u, block_sums + blocks, bt, 0u, g, upart);
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {
		uint i = base + k * wg + lid;
		w[k] = gp_be32(w[k]);
		cnt[k] = i < n ? mod9_count_lay(w[k], lay) : 0u;
		uint s = i < n && (alone ? mod9_checked_start(first, n, i, pw[k], w[k], &bad) : mod9_starts(first, i, pw[k]));
		st |= s << k;
		uoffs[GP_SKEW(k * wg + lid)] = (cnt[k] << MOD9_POST_BITS) | s;
	}
	if (bad != GP_ERR_NONE) atomic_min(err, bad);
	const uint both = gp_tile_offsets_u32(uoffs, upart, GP_TILE_ITEMS);
	const uint total = both >> MOD9_POST_BITS, npost = both & ((1u << MOD9_POST_BITS) - 1u);
	if (lid == 0 && g + 1u == get_num_groups(0)) {
		vstart[p0 + npost] = out0 + total;
		totals[0] = out0 + total;
		totals[1] = p0 + npost;
		if (word_off) {
			word_off[n] = out0 + total;
			pword_off[n] = p0 + npost;
		}
	}
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {
		uint i = base + k * wg + lid, o = uoffs[GP_SKEW(k * wg + lid)];
		at[k] = o >> MOD9_POST_BITS;
		if ((st >> k) & 1u) {   /* a posting starts here: its doc, form and first value */
			uint p = p0 + (o & ((1u << MOD9_POST_BITS) - 1u)), v = mod9_posting_first(words, n, i, w[k], lay, err);
			vstart[p] = out0 + at[k];
			docs[p] = (long)mod9_doc_of(v);
			combined[p] = (v & GP_MOD9_COMBINED_BIT) != 0u;
			if (word_off && first[i]) {
				word_off[i] = out0 + at[k];
				pword_off[i] = p;
			}
		}
		uint h = cnt[k] && mod9_holds_head(words, first, i, (st >> k) & 1u, pw[k], lay);
		hh |= h << k;
	}
	barrier(CLK_LOCAL_MEM_FENCE);   /* offs read by all before it takes the gap sums */
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {
		long x = mod9_word_gaps(w[k], cnt[k], (hh >> k) & 1u, lay);
		offs[GP_SKEW(k * wg + lid)] = ((st >> k) & 1u) ? x | MOD9_SEG_HEAD : x;
	}
	mod9_seg_offsets(offs, part, GP_TILE_ITEMS, carry);
	for (uint k = 0; k < GP_TILE_ITEMS; k++) run[k] = offs[GP_SKEW(k * wg + lid)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint c0 = 0; c0 < total; c0 += chunk) {
		for (uint k = 0; k < GP_TILE_ITEMS; k++) {
			uint j1 = min(at[k] + cnt[k], c0 + chunk);
			if (at[k] + cnt[k] <= c0 || at[k] >= j1) continue;
			uint bits = mod9_bits_lay(w[k], lay);
			long p = run[k];
			for (uint j = at[k]; j < j1; j++) {
				uint x = gp_mod9_word_value(w[k], bits, cnt[k], j - at[k]);
				if (j == at[k] && ((hh >> k) & 1u)) x = (x & GP_MOD9_COMBINED_BIT) ? (x & 511u) : 0u;
				p += x;
				if (j >= c0) stage[j - c0] = p;
			}
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		uint m = min(chunk, total - c0);
		for (uint q = lid; q < m; q += wg) {
			long p = stage[q];
			if (wide) {
				pos64[out0 + c0 + q] = p;
			} else {
				pos32[out0 + c0 + q] = (uint)p;
				if (p >> 32) totals[flag_at] = 1u;   /* any one item: the pass runs again wide */
			}
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
}

/* The two decode kernels: one blob, a batch (first[], word_off, pword_off). Each output from
 * an element offset (`*_at`) of its buffer: a call of one tile passes one buffer for them all,
 * the error word at its element 0 (opencl/gp_cl_mod9.c), so that one read brings them back. */
#define MOD9_TILE_POSTINGS(NAME, BATCH_ARGS, FIRST, WORD_OFF, PWORD_OFF)                        \
__kernel void NAME(__global const uint *words, const uint n, BATCH_ARGS const uint bt,         \
                   const uint tiles, const uint blocks, __global const uint *tile_sums,        \
                   __global const uint *block_sums, __global const long *seg,                  \
                   __global uint *pos32, __global long *pos64, const uint pos_at,              \
                   const uint wide, const uint flag_at, __global long *docs,                   \
                   const uint docs_at, __global uchar *combined, const uint combined_at,       \
                   __global uint *vstart, const uint vstart_at, __global uint *totals,         \
                   const uint totals_at, __global uint *err, __local long *offs,               \
                   __local long *part, __local uint2 *lay)                                     \
{                                                                                             \
	mod9_tile_postings_body(words, n, FIRST, WORD_OFF, PWORD_OFF, bt, tiles, blocks, tile_sums, \
	                        block_sums, seg, pos32 + pos_at, pos64 + pos_at, wide, flag_at,    \
	                        docs + docs_at, combined + combined_at, vstart + vstart_at,        \
	                        totals + totals_at, err, offs, part, lay);                         \
}
#define MOD9_POSTINGS_BATCH_ARGS __global const uchar *first, __global uint *word_off,         \
                                 __global uint *pword_off,
MOD9_TILE_POSTINGS(mod9_tile_postings, MOD9_NO_ARG, 0, 0, 0)
MOD9_TILE_POSTINGS(mod9_tile_postings_batch, MOD9_POSTINGS_BATCH_ARGS, first, word_off, pword_off)
