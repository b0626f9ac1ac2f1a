/* GPUPOST_S9 on the device, tiled (below). codec/gp_s9_word.h is prepended. */

/* The last word of a blob holds the rest: first..n-1, at most its count, its unused slots 0. */
inline uint s9_last_word_bad(uint w, uint sel, uint first, uint n)
{
	return first >= n || n - first > gp_s9_count(sel) || gp_s9_unused_bits(w, gp_s9_bits(sel), n - first) != 0u;
}

/* One blob or a batch, tiled like MOD9's (GP_TILE_ITEMS words per work-item, read side by side):
 * s9_tile_count sums each tile's value counts and values (the last word of the blob, which holds
 * "the rest", is left to the decode), then s9_tile_decode finds the counts and sums before its
 * tile within its blob from those (gp_tile_offset_limbs), turns its words' counts and sums into offsets
 * in local memory and writes every value, the delta rule applied, through a local staging area
 * of GP_STAGE_ITEMS values per item (coalesced writes, no per-value global scan). One blob's
 * words are at in[base ...], its parameters the kernel's arguments; in a batch (tab not NULL)
 * each blob has tiles of its own, tile_start[b] the first of blob b's, and a group takes its
 * blob's parameters from the batch table (GP_BT_*). */
/* Each pass has two kernels: one blob (its parameters the arguments, so that the compiler folds
 * them) and a batch (the parameters of tile g's blob looked up here). A blob's parameters: its
 * words at in[base..], nw of them, n values out at vbase under rule delta, its first tile g0. */
#define S9_BLOB_OF(tab, tile_start, n_blobs, g)                                                 \
	const uint b_ = gp_find_blob(tile_start, n_blobs, g);                                        \
	__global const uint *t_ = tab + GP_BT_STRIDE * b_;                                           \
	const uint base = t_[GP_BT_BASE], nw = t_[GP_BT_ITEMS], n = t_[GP_BT_N];                     \
	const uint delta = t_[GP_BT_S9_DELTA], vbase = t_[GP_BT_VALUES], g0 = tile_start[b_]

/* Values and value sum of word i of nw, whose selector's layout is cnt values of `bits`: the
 * last word (which holds "the rest") and a bad selector count none here. The count pass reads
 * the layout from gp_s9_count's and gp_s9_bits's columns packed 5 bits a selector into 64-bit
 * constants (faster than chains of comparisons), the decode pass from a table in local memory
 * (s9_layouts_put). */
#define S9_COUNTS_PACKED 0x1c724e520c41UL   /* 1 2 3 4 5 7 9 14 28 */
#define S9_BITS_PACKED 0x110c853a5dcUL      /* 28 14 9 7 5 4 3 2 1 */
inline uint s9_tile_word(uint w, uint i, uint nw, uint cnt, uint bits, uint *sum)
{
	uint s = 0;   /* below 2^28: the values share 28 bits */
	if (i + 1u >= nw || (w >> 28) > 8u) cnt = 0u;
	for (uint j = 0; j < cnt; j++) s += gp_s9_value(w, bits, j);
	*sum = s;
	return cnt;
}

/* .x: values, .y: bits of selectors 0..15 (none past 8). Every item calls it; a barrier
 * follows. */
inline void s9_layouts_put(__local uint2 *lay)
{
	for (uint s = get_local_id(0); s < GP_S9_LAYOUTS; s += get_local_size(0)) {
		lay[s] = (uint2)(gp_s9_count(s), gp_s9_bits(s));
	}
}

/* The count pass's sums per tile (gp_tile_total_put): its values, and its value sum in three
 * limbs (bits 0-9, 10-19, 20-27 of each word's sum, which is below 2^28), so that a tile's limbs
 * (at most 16 * 256 words) and a block's (at most 256 tiles) fit 32 bits. */
#define S9_SUMS 4u

/* part: wg. tile_sums: S9_SUMS arrays of tiles + 1, block_sums: of blocks. in + base must be
 * 16-byte aligned: item lid reads uint4s. */
GP_PASS_BODY void s9_tile_count_body(__global const uint *in, const uint base, const uint nw,
                                     const uint g0, const uint bt, const uint tiles,
                                     const uint blocks, __global uint *tile_sums,
                                     __global uint *block_sums, __global uint *err,
                                     __local uint *part)
{
	const uint wg = get_local_size(0);
	const uint q0 = (get_group_id(0) - g0) * wg * GP_TILE_VECS + get_local_id(0);
	__global const uint *words = in + base;
	__global const uint4 *w4 = (__global const uint4 *)words;
	const int aligned = (base & 3u) == 0u;   /* a batch's blobs may not be: read words */
	uint4 v[GP_TILE_VECS];
	uint x[S9_SUMS] = {0u, 0u, 0u, 0u}, bad = GP_ERR_NONE;
	for (uint k = 0; k < GP_TILE_VECS; k++) {   /* every load issued before any is used */
		uint i = 4u * (q0 + k * wg);
		if (i + 3u < nw && aligned) v[k] = w4[q0 + k * wg];
		else if (i + 3u < nw) v[k] = (uint4)(words[i], words[i + 1u], words[i + 2u], words[i + 3u]);
		else v[k] = (uint4)(i < nw ? words[i] : 0u, i + 1u < nw ? words[i + 1u] : 0u,
		                    i + 2u < nw ? words[i + 2u] : 0u, 0u);
	}
	for (uint k = 0; k < GP_TILE_VECS; k++) {
		uint a[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
		for (uint c = 0; c < 4u; c++) {
			uint i = 4u * (q0 + k * wg) + c, ws;
			uint sel = a[c] >> 28;
			x[0] += s9_tile_word(a[c], i, nw, (uint)(S9_COUNTS_PACKED >> (5u * sel)) & 31u,
			                     (uint)(S9_BITS_PACKED >> (5u * sel)) & 31u, &ws);
			x[1] += ws & 0x3FFu;
			x[2] += (ws >> 10) & 0x3FFu;
			x[3] += ws >> 20;
			if (i < nw && sel > 8u && bad == GP_ERR_NONE) bad = base + i;
		}
	}
	if (bad != GP_ERR_NONE) atomic_min(err, bad);
	gp_group_sums_u32(part, x, S9_SUMS);
	for (uint c = 0; c < S9_SUMS && get_local_id(0) == 0; c++) {
		gp_tile_total_put(tile_sums + c * (tiles + 1u), block_sums + c * blocks, bt, get_group_id(0), x[c]);
	}
}

__kernel void s9_tile_count(__global const uint *in, const uint base, const uint nw, const uint bt,
                            const uint tiles, const uint blocks, __global uint *tile_sums,
                            __global uint *block_sums, __global uint *err, __local uint *part)
{
	s9_tile_count_body(in, base, nw, 0u, bt, tiles, blocks, tile_sums, block_sums, err, part);
}

__kernel void s9_tile_count_batch(__global const uint *in, __global const uint *tab,
                                  __global const uint *tile_start, const uint n_blobs,
                                  const uint bt, const uint tiles, const uint blocks,
                                  __global uint *tile_sums, __global uint *block_sums,
                                  __global uint *err, __local uint *part)
{
	S9_BLOB_OF(tab, tile_start, n_blobs, get_group_id(0));
	(void)n, (void)delta, (void)vbase;   /* the decode pass's */
	s9_tile_count_body(in, base, nw, g0, bt, tiles, blocks, tile_sums, block_sums, err, part);
}

/* offs, sums: GP_SKEW(tile) elements; part_c, part_s: wg; stage: wg * GP_STAGE_ITEMS. The two
 * decode kernels are written out from one macro, not through a shared function: through one
 * (inlined or not), NVIDIA's compiler made the one-blob pass markedly slower. BLOB_SETUP declares vbase and g0 (and, in a batch, the blob's other parameters). */
#define S9_TILE_DECODE_KERNEL(NAME, BLOB_ARGS, BLOB_SETUP)                                          \
__kernel void NAME(__global const uint *in, BLOB_ARGS const uint bt, const uint tiles,              \
                   const uint blocks, __global const uint *tile_sums,                               \
                   __global const uint *block_sums, __global long *out_all, const uint out_at,      \
                   __global uint *err, __local uint *offs, __local long *sums,                      \
                   __local uint *part_c, __local long *part_s, __local long *stage,                 \
                   __local uint2 *lay)                                                              \
{                                                                                                   \
	BLOB_SETUP;                                                                                     \
	const uint lid = get_local_id(0), wg = get_local_size(0), chunk = wg * GP_STAGE_ITEMS;          \
	const uint g = get_group_id(0), first = (g - g0) * wg * GP_TILE_ITEMS;                          \
	const int alone = get_num_groups(0) == 1u;   /* no count pass ran: check its selectors */      \
	if (alone) gp_alone_begin(err);                                                                 \
	__global long *out = out_all + out_at + vbase;                                                  \
	uint w[GP_TILE_ITEMS], cnt[GP_TILE_ITEMS];                                                      \
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {   /* in flight while the offsets are summed */       \
		uint i = first + k * wg + lid;                                                              \
		w[k] = i < nw ? in[base + i] : 0u;                                                          \
	}                                                                                               \
	long sum0;                                                                                      \
	s9_layouts_put(lay);   /* the barriers of gp_tile_offset_limbs follow */                              \
	const uint out0 = gp_tile_offset_limbs(tile_sums, block_sums, bt, tiles, blocks, g0, g, part_c, S9_SUMS, 10u, &sum0); \
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {                                                      \
		uint s;                                                                                     \
		uint t = k * wg + lid;                                                                      \
		uint2 e = lay[w[k] >> 28];                                                                  \
		cnt[k] = s9_tile_word(w[k], first + t, nw, e.x, e.y, &s);                                   \
		offs[GP_SKEW(t)] = cnt[k];                                                                  \
		sums[GP_SKEW(t)] = s;                                                                       \
	}                                                                                               \
	uint total = gp_tile_offsets_u32(offs, part_c, GP_TILE_ITEMS);                                  \
	gp_tile_offsets_i64(sums, part_s, GP_TILE_ITEMS);                                               \
	for (uint k = 0; k < GP_TILE_ITEMS; k++) {                                                      \
		uint i = first + k * wg + lid, at_n = out0 + offs[GP_SKEW(k * wg + lid)], sel = w[k] >> 28; \
		if (alone && i < nw && sel > 8u) atomic_min(err, base + i);                                 \
		if (i + 1u == nw && sel <= 8u) {                                                            \
			if (s9_last_word_bad(w[k], sel, at_n, n)) atomic_min(err, base + i);                    \
			else cnt[k] = n - at_n;                                                                 \
		} else if (i < nw && at_n + cnt[k] >= n) {                                                  \
			atomic_min(err, base + i);                                                              \
		}                                                                                           \
	}                                                                                               \
	/* the tile ends where the next begins, the last tile at n; never past n */                     \
	uint end = first + wg * GP_TILE_ITEMS >= nw ? n : min(n, out0 + total);                         \
	total = end > out0 ? end - out0 : 0u;                                                           \
	for (uint c0 = 0; c0 < total; c0 += chunk) {                                                    \
		for (uint k = 0; k < GP_TILE_ITEMS; k++) {                                                  \
			/* offsets and sums re-read from local memory: registers for them spill */              \
			uint t = GP_SKEW(k * wg + lid), at = offs[t], j1 = min(at + cnt[k], c0 + chunk);        \
			if (at + cnt[k] <= c0 || at >= j1) continue;                                            \
			uint bits = lay[w[k] >> 28].y;                                                          \
			long run = sum0 + sums[t];                                                              \
			for (uint j = at; j < j1; j++) {                                                        \
				long v = (long)gp_s9_value(w[k], bits, j - at);                                     \
				run += v;                                                                           \
				if (j >= c0) stage[j - c0] = delta == 0u ? v : run + (delta == 2u ? (long)(out0 + j) : 0L); \
			}                                                                                       \
		}                                                                                           \
		barrier(CLK_LOCAL_MEM_FENCE);                                                               \
		uint m = min(chunk, total - c0);                                                            \
		for (uint q = lid; q < m; q += wg) out[out0 + c0 + q] = stage[q];                           \
		barrier(CLK_LOCAL_MEM_FENCE);                                                               \
	}                                                                                               \
}
#define S9_ONE_ARGS const uint base, const uint nw, const uint n, const uint delta,
#define S9_ONE_SETUP const uint vbase = 0u, g0 = 0u
#define S9_BATCH_ARGS __global const uint *tab, __global const uint *tile_start, const uint n_blobs,
#define S9_BATCH_SETUP S9_BLOB_OF(tab, tile_start, n_blobs, get_group_id(0))
S9_TILE_DECODE_KERNEL(s9_tile_decode, S9_ONE_ARGS, S9_ONE_SETUP)
S9_TILE_DECODE_KERNEL(s9_tile_decode_batch, S9_BATCH_ARGS, S9_BATCH_SETUP)
