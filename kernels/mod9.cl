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
	if ((is_start && GP_MOD9_BAD_START(w)) || (last && GP_MOD9_CONTINUES(w))) atomic_min(err, i);
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

/* One blob in VALUES mode, tiled: mod9_tile_count sums each tile's values (one read of the words,
 * the flags checked on the way), the tile sums are scanned, then mod9_tile_decode recounts its
 * tile in local memory, scans it there and writes every word's values at its offset: two passes
 * over the words and one over the output, instead of counts, a global scan and a scatter.
 * Tile = get_local_size(0) * GP_SCAN_ITEMS words; lds holds tile + work-group size uints. */
inline uint mod9_word_checked(__global const uint *words, uint n, uint i, __global uint *err)
{
	uint w = gp_be32(words[i]);
	uint is_start = i == 0u || !GP_MOD9_CONTINUES(gp_be32(words[i - 1u]));
	if ((is_start && GP_MOD9_BAD_START(w)) || (i + 1u == n && GP_MOD9_CONTINUES(w))) atomic_min(err, i);
	return gp_mod9_word_count(w);
}

__kernel void mod9_tile_count(__global const uint *words, const uint n, __global uint *tile_sums,
                              __global uint *err, __local uint *lds)
{
	const uint lid = get_local_id(0), wg = get_local_size(0);
	const uint base = get_group_id(0) * wg * GP_SCAN_ITEMS;
	uint sum = 0;
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {
		uint i = base + k * wg + lid;
		if (i < n) sum += mod9_word_checked(words, n, i, err);
	}
	lds[lid] = sum;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint s = wg / 2; s > 0; s >>= 1) {
		if (lid < s) lds[lid] += lds[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0) tile_sums[get_group_id(0)] = lds[0];
}

__kernel void mod9_tile_decode(__global const uint *words, const uint n, __global const uint *tile_off,
                               __global uint *values, __local uint *lds)
{
	const uint lid = get_local_id(0), wg = get_local_size(0), tile = wg * GP_SCAN_ITEMS;
	const uint base = get_group_id(0) * tile;
	__local uint *part = lds + tile;
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {   /* counts, read coalesced */
		uint i = base + k * wg + lid;
		lds[k * wg + lid] = i < n ? gp_mod9_word_count(gp_be32(words[i])) : 0u;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	uint run = 0;                                  /* each item: GP_SCAN_ITEMS consecutive words */
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) run += lds[lid * GP_SCAN_ITEMS + k];
	part[lid] = run;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint off = 1; off < wg; off <<= 1) {
		uint t = lid >= off ? part[lid - off] : 0u;
		barrier(CLK_LOCAL_MEM_FENCE);
		part[lid] += t;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	/* exclusive offsets back into lds, in word order */
	uint acc = part[lid] - run;
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {
		uint c = lds[lid * GP_SCAN_ITEMS + k];
		lds[lid * GP_SCAN_ITEMS + k] = acc;
		acc += c;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	/* then each item takes every wg-th word, so that neighbours read and write side by side */
	const uint out0 = tile_off[get_group_id(0)], total = part[wg - 1];
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {
		uint t = k * wg + lid, i = base + t;
		if (i >= n) break;
		uint at = lds[t], count = (t + 1u < tile ? lds[t + 1u] : total) - at;
		uint w = gp_be32(words[i]), bits = gp_mod9_slot_bits(w);
		for (uint j = 0; j < count; j++) values[out0 + at + j] = gp_mod9_word_value(w, bits, count, j);
	}
}
