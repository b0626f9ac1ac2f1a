/* GPUPOST_MOD9 on the device: per-word counts and posting starts, scans (scan.cl) for each
 * word's output offset and posting number, a scatter of the values, then per posting the doc
 * and per word the positions (a segmented prefix sum done as a scan of per-word gap sums).
 * codec/gp_mod9_word.h is prepended: it reads a word exactly as the host does.
 * Errors go to err[0] (atomic_min of the word index); the host then names offset and rule. */

/* counts[i]: values in word i; starts[i]: 1 where word i starts a posting. Both have n+1
 * entries; the extra zero makes the exclusive scan's last entry the total. */
__kernel void mod9_count(__global const uint *words, const uint n, __global const uchar *first,
                         __global uint *counts, __global uint *starts, __global uint *err)
{
	uint i = get_global_id(0);
	if (i > n) return;
	if (i == n) { counts[n] = 0; starts[n] = 0; return; }
	uint w = gp_be32(words[i]);
	uint is_start = first[i] || !GP_MOD9_CONTINUES(gp_be32(words[i - 1]));
	uint last = (i + 1 == n) || first[i + 1];
	if (GP_MOD9_FLAGS_BAD(is_start, last, w)) atomic_min(err, i);
	counts[i] = gp_mod9_word_count(w);
	starts[i] = is_start;
}

/* Posting p starts at word head_word[p] and its values at vstart[p]; vstart[P] = total. */
__kernel void mod9_heads(const uint n, __global const uint *starts, __global const uint *voff,
                         __global const uint *poff, __global uint *vstart,
                         __global uint *head_word)
{
	uint i = get_global_id(0);
	if (i > n) return;
	if (i == n) { vstart[poff[n]] = voff[n]; return; }
	if (starts[i]) { vstart[poff[i]] = voff[i]; head_word[poff[i]] = i; }
}

__kernel void mod9_scatter(__global const uint *words, const uint n, __global const uint *voff,
                           __global uint *values)
{
	uint i = get_global_id(0);
	if (i >= n) return;
	uint w = gp_be32(words[i]), bits = gp_mod9_slot_bits(w);
	uint base = voff[i], count = voff[i + 1] - base;
	for (uint j = 0; j < count; j++) values[base + j] = gp_mod9_word_value(w, bits, count, j);
}

/* Doc of each posting from its first value (Yioop's unpackPosting). */
__kernel void mod9_docs(__global const uint *values, __global const uint *vstart,
                        __global const uint *poff, __global const uint *head_word, const uint n,
                        __global long *docs, __global uchar *combined, __global uint *err)
{
	uint p = get_global_id(0);
	if (p >= poff[n]) return;
	uint a = vstart[p];
	if (a == vstart[p + 1] || values[a] == 0) { atomic_min(err, head_word[p]); return; }
	uint v = values[a];
	uint c = (v & GP_MOD9_COMBINED_BIT) != 0;
	docs[p] = c ? (long)(v >> 9) - (1L << 18) : (long)v - 1;
	combined[p] = (uchar)c;
}

/* The value at index a is its posting's doc: it adds its first gap (combined form) or nothing. */
inline long mod9_gap(uint x, uint j, uint a)
{
	return j != a ? (long)x : ((x & GP_MOD9_COMBINED_BIT) ? (long)(x & 511u) : 0L);
}

/* Sum of the position gaps in each word (n+1 entries, the last 0) for the segmented scan. */
__kernel void mod9_word_gaps(__global const uint *words, const uint n, __global const uint *voff,
                             __global const uint *poff, __global const uint *starts,
                             __global const uint *vstart, __global long *wsum)
{
	uint i = get_global_id(0);
	if (i > n) return;
	if (i == n) { wsum[n] = 0; return; }
	uint w = gp_be32(words[i]), bits = gp_mod9_slot_bits(w);
	uint base = voff[i], count = voff[i + 1] - base;
	uint a = vstart[poff[i] + starts[i] - 1];
	long s = 0;
	for (uint j = 0; j < count; j++) s += mod9_gap(gp_mod9_word_value(w, bits, count, j), base + j, a);
	wsum[i] = s;
}

/* pos[j]: running position at value j within its posting, from the scanned word gap sums
 * (wscan, exclusive) less the sum at the posting's first word. */
__kernel void mod9_positions(__global const uint *words, const uint n, __global const uint *voff,
                             __global const uint *poff, __global const uint *starts,
                             __global const uint *vstart, __global const uint *head_word,
                             __global const long *wscan, __global long *pos)
{
	uint i = get_global_id(0);
	if (i >= n) return;
	uint w = gp_be32(words[i]), bits = gp_mod9_slot_bits(w);
	uint base = voff[i], count = voff[i + 1] - base;
	uint p = poff[i] + starts[i] - 1, a = vstart[p];
	long run = wscan[i] - wscan[head_word[p]];
	for (uint j = 0; j < count; j++) {
		run += mod9_gap(gp_mod9_word_value(w, bits, count, j), base + j, a);
		pos[base + j] = run;
	}
}

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
 * word's count costs a load and the borrow trick, not the chains of comparisons (for 64M values
 * on the H100: count pass 0.066 -> 0.055 ms, decode pass 0.190 -> 0.167). .x: slot bits, plus
 * 256 for selector 00's one value; .y: a 1 at the lowest bit of each slot. Every item calls it;
 * a barrier follows. */
inline void mod9_layouts_put(__local uint2 *lay)
{
	for (uint s = get_local_id(0); s < 64u; s += get_local_size(0)) {
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
	__global const uint4 *w4 = (__global const uint4 *)words;
	uint4 v[GP_TILE_VECS];
	uint pv[GP_TILE_VECS], sum = 0, bad = 0xFFFFFFFFu, total;
	for (uint k = 0; k < GP_TILE_VECS; k++) {   /* every load issued before any is used */
		uint i = 4u * (q0 + k * wg);
		if (i + 3u < n) v[k] = w4[q0 + k * wg];
		else v[k] = (uint4)(i < n ? words[i] : 0u, i + 1u < n ? words[i + 1u] : 0u,
		                    i + 2u < n ? words[i + 2u] : 0u, 0u);
		pv[k] = i > 0u && i <= n ? words[i - 1u] : 0u;
	}
	mod9_layouts_put(lay);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint k = 0; k < GP_TILE_VECS; k++) {
		uint a[5] = {pv[k], v[k].x, v[k].y, v[k].z, v[k].w};
		for (uint c = 0; c < 4u; c++) {
			uint i = 4u * (q0 + k * wg) + c, x = gp_be32(a[c + 1u]);
			if (i >= n) continue;
			/* a posting starts with flags 00 or 11, and the blob's last word ends one */
			uint is_start = (first ? first[i] != 0 : i == 0u) || !GP_MOD9_CONTINUES(gp_be32(a[c]));
			uint is_last = i + 1u == n || (first && first[i + 1u]);
			if (GP_MOD9_FLAGS_BAD(is_start, is_last, x) && bad == 0xFFFFFFFFu) bad = i;
			sum += docs ? is_start : mod9_count_lay(x, lay);
		}
	}
	if (bad != 0xFFFFFFFFu) atomic_min(err, bad);
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

/* The doc of the posting that starts at word i (host byte order w), as the host's
 * mod9_decode_postings finds it: from the posting's first value, which is the word's first unless
 * the word holds none (then the first of the posting's later words that holds one: rare, read
 * from global memory). A posting without values, or whose first value is 0, is malformed. */
inline uint mod9_posting_doc(__global const uint *words, const uint n, uint i, uint w,
                             __local const uint2 *lay, __global uint *err)
{
	uint c = mod9_count_lay(w, lay), head = i;
	while (c == 0u && GP_MOD9_CONTINUES(w) && i + 1u < n) {
		w = gp_be32(words[++i]);
		c = mod9_count_lay(w, lay);
	}
	uint v = c ? gp_mod9_word_value(w, mod9_bits_lay(w, lay), c, 0u) : 0u;
	if (v == 0u) atomic_min(err, head);
	return (v & GP_MOD9_COMBINED_BIT) ? (v >> 9) - (1u << 18) : v - 1u;
}

/* offs: GP_SKEW(tile) uints, part: wg, stage: wg * GP_STAGE_ITEMS_32 */
/* The last tile's group also stores the blob's output count, at tile_sums[tiles]. */
GP_PASS_BODY void mod9_tile_decode_body(__global const uint *words, const uint n,
                                  __global const uchar *first, const uint bt,
                                  __global uint *tile_sums, __global const uint *block_sums,
                                  __global uint *out, __global uint *word_off, __global uint *err,
                                  __local uint *offs, __local uint *part, __local uint *stage,
                                  __local uint2 *lay, const int docs)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), chunk = wg * GP_STAGE_ITEMS_32;
	const uint g = get_group_id(0), base = g * wg * GP_TILE_ITEMS;
	uint w[GP_TILE_ITEMS], cnt[GP_TILE_ITEMS], at[GP_TILE_ITEMS], pw[GP_TILE_ITEMS];
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {   /* in flight while the offset is summed */
		uint i = base + k * wg + lid;
		w[k] = i < n ? words[i] : 0u;
		if (docs) pw[k] = i > 0u && i < n ? words[i - 1u] : 0u;
	}
	mod9_layouts_put(lay);   /* the barriers of gp_tile_offset_u32 follow */
	const uint out0 = gp_tile_offset_u32(tile_sums, block_sums, bt, 0u, g, part);
	for (uint k = 0; k < GP_TILE_ITEMS; k++) w[k] = gp_be32(w[k]);
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {
		uint i = base + k * wg + lid;
		if (docs) cnt[k] = i < n && ((first ? first[i] != 0 : i == 0u) || !GP_MOD9_CONTINUES(gp_be32(pw[k])));
		else cnt[k] = i < n ? mod9_count_lay(w[k], lay) : 0u;
		offs[GP_SKEW(k * wg + lid)] = cnt[k];
	}
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
				stage[at[k] - c0] = mod9_posting_doc(words, n, base + k * wg + lid, w[k], lay, err);
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
 * below 2^28). A batch's also take first[] and word_off. */
#define MOD9_TILE_DECODE(NAME, DOCS, BATCH_ARGS, FIRST, WORD_OFF)                               \
__kernel void NAME(__global const uint *words, const uint n, BATCH_ARGS const uint bt,         \
                   __global uint *tile_sums, __global const uint *block_sums,                 \
                   __global uint *out, __global uint *err, __local uint *offs,                \
                   __local uint *part, __local uint *stage, __local uint2 *lay)               \
{                                                                                             \
	mod9_tile_decode_body(words, n, FIRST, bt, tile_sums, block_sums, out, WORD_OFF, err,      \
	                      offs, part, stage, lay, DOCS);                                       \
}
#define MOD9_BATCH_ARGS __global const uchar *first, __global uint *word_off,
MOD9_TILE_DECODE(mod9_tile_decode, 0, MOD9_NO_ARG, 0, 0)
MOD9_TILE_DECODE(mod9_tile_docs, 1, MOD9_NO_ARG, 0, 0)
MOD9_TILE_DECODE(mod9_tile_decode_batch, 0, MOD9_BATCH_ARGS, first, word_off)
MOD9_TILE_DECODE(mod9_tile_docs_batch, 1, MOD9_BATCH_ARGS, first, word_off)
