/* GPUPOST_QS (Elias-Fano) on the device, Parallel-QS style: tiles of upper words (below). */

/* The l lower bits of element i: a 64-bit window over the two words holding bit i * l, so that
 * a value straddling words needs no branch. */
inline uint qs_lower(__global const uint *lower, uint l, uint mask, uint i)
{
	if (l == 0u) return 0u;
	ulong at = (ulong)i * l;
	uint word = (uint)(at >> 5);   /* word + 1 is at worst the first upper word, in the blob */
	ulong win = (ulong)lower[word] | ((ulong)lower[word + 1u] << 32);
	return (uint)(win >> (at & 31ul)) & mask;
}

/* The padding rules: bits of the lower array's last word past n * l, and bits of upper word j
 * past (last >> l) + n when it is the last, must be 0. */
inline uint qs_lower_padding_bad(uint last_lower_word, uint n, uint l)
{
	uint used = (uint)(((ulong)n * l) & 31ul);
	return used != 0u && (last_lower_word >> used) != 0u;
}

inline uint qs_upper_tail_bad(uint w, uint j, uint n, uint l, uint last)
{
	uint valid = (uint)((ulong)(last >> l) + n - 32ul * j);
	return valid < 32u && (w >> valid) != 0u;
}

/* One blob or a batch, tiled: GP_QS_ITEMS upper words per work-item, item lid taking words
 * k * wg + lid.
 * qs_tile_count sums each tile's set bits (and checks the padding of the lower and upper
 * arrays), then qs_tile_decode finds its tile's offset from those sums (gp_tile_offset_u32),
 * turns its words' popcounts into offsets in local memory; each word emits the upper parts (bit
 * position - element index) of its elements into a local staging area of GP_QS_STAGE_ITEMS per
 * item, and the staged elements are finished side by side: the lower bits read through a
 * two-word window, the value written coalesced and the order checked against the element
 * before. One blob starts at in[0]: header (GP_QS_HEADER_WORDS), nl lower words, nu upper
 * words, its parameters the kernel's arguments; in a batch (tab not NULL) each blob has tiles
 * of its own, tile_start[b] the first of blob b's, and a group takes its blob's parameters from
 * the batch table (GP_BT_*), its offset from the tiles of its blob before it. */
#define GP_QS_HEADER_WORDS 4u
#ifndef GP_QS_ITEMS   /* set by the host (gp_cl.c): upper words per work-item of a tile */
#define GP_QS_ITEMS 2u
#endif
/* elements staged per item: GP_STAGE_ITEMS_32, at most 16 (more was slower, docs/BENCHMARKS.md) */
#define GP_QS_STAGE_ITEMS (GP_STAGE_ITEMS_32 < 16 ? GP_STAGE_ITEMS_32 : 16)
/* The staging area is skewed (GP_SKEW): a word emits its elements at a stride of its popcount,
 * 16 for a list of gaps near 2^l, which unskewed puts 16 items of a warp on one bank. */
#define QS_ST(i) GP_SKEW(i)

typedef struct qs_blob {
	uint lower, nl, nu, n, l, last, vbase, g0;   /* lower array at in[lower..], values at vbase */
} qs_blob;

/* Each pass is one inline body and two kernels: one blob (its parameters the arguments) and a
 * batch (the blob of tile g looked up). */
inline qs_blob qs_blob_of(__global const uint *tab, __global const uint *tile_start,
                          uint n_blobs, uint g)
{
	uint b = gp_find_blob(tile_start, n_blobs, g);
	__global const uint *t = tab + GP_BT_STRIDE * b;
	qs_blob x = {t[GP_BT_BASE], t[GP_BT_QS_LOWER], t[GP_BT_ITEMS], t[GP_BT_N], t[GP_BT_QS_L],
	             t[GP_BT_QS_LAST], t[GP_BT_VALUES], tile_start[b]};
	return x;
}


/* The checks of the count pass on an item's upper words w (upper[j0 + k * wg]): the lower
 * part's padding, the upper part's tail. The decode pass makes them when it runs alone. */
inline void qs_tile_checks(__global const uint *upper, const qs_blob *blob, uint j0, uint wg,
                           const uint *w, __global uint *err)
{
	for (uint k = 0; k < GP_QS_ITEMS; k++) {
		uint j = j0 + k * wg;
		if (j == 0u && qs_lower_padding_bad(upper[-1], blob->n, blob->l)) atomic_min(err, blob->lower);
		if (j + 1u == blob->nu && qs_upper_tail_bad(w[k], j, blob->n, blob->l, blob->last)) atomic_min(err, blob->lower + j);
	}
}

GP_PASS_BODY void qs_tile_count_body(__global const uint *in, const qs_blob blob, const uint bt,
                               __global uint *tile_sums, __global uint *block_sums,
                               __global uint *err, __local uint *part)
{
	const uint nu = blob.nu;
	__global const uint *upper = in + blob.lower + blob.nl;
	const uint wg = get_local_size(0);
	const uint first = (get_group_id(0) - blob.g0) * wg * GP_QS_ITEMS + get_local_id(0);
	uint w[GP_QS_ITEMS], sum = 0, total;
	for (uint k = 0; k < GP_QS_ITEMS; k++) {   /* every load issued before any is used */
		uint j = first + k * wg;
		w[k] = j < nu ? upper[j] : 0u;
	}
	qs_tile_checks(upper, &blob, first, wg, w, err);
	for (uint k = 0; k < GP_QS_ITEMS; k++) sum += popcount(w[k]);
	total = gp_group_sum_u32(part, sum);
	if (get_local_id(0) == 0) gp_tile_total_put(tile_sums, block_sums, bt, get_group_id(0), total);
}

__kernel void qs_tile_count(__global const uint *in, const uint nl, const uint nu, const uint n,
                            const uint l, const uint last, const uint bt, __global uint *tile_sums,
                            __global uint *block_sums, __global uint *err, __local uint *part)
{
	const qs_blob blob = {GP_QS_HEADER_WORDS, nl, nu, n, l, last, 0u, 0u};
	qs_tile_count_body(in, blob, bt, tile_sums, block_sums, err, part);
}

__kernel void qs_tile_count_batch(__global const uint *in, __global const uint *tab,
                                  __global const uint *tile_start, const uint n_blobs,
                                  const uint bt, __global uint *tile_sums,
                                  __global uint *block_sums, __global uint *err,
                                  __local uint *part)
{
	qs_tile_count_body(in, qs_blob_of(tab, tile_start, n_blobs, get_group_id(0)), bt, tile_sums,
	                   block_sums, err, part);
}

GP_PASS_BODY void qs_tile_decode_body(__global const uint *in, const qs_blob blob, const uint bt,
                                __global const uint *tile_sums, __global const uint *block_sums,
                                __global uint *out_all, __global uint *err, __local uint *offs,
                                __local uint *part, __local uint *stage, __local uint *carry)
{
	const uint g = get_group_id(0);
	const uint nu = blob.nu, n = blob.n, l = blob.l, last = blob.last;
	__global const uint *lower = in + blob.lower, *upper = lower + blob.nl;
	__global uint *out = out_all + blob.vbase;
	const uint lid = get_local_id(0), wg = get_local_size(0), chunk = wg * GP_QS_STAGE_ITEMS;
	const uint first = (g - blob.g0) * wg * GP_QS_ITEMS;
	const uint mask = l ? (uint)((1ul << l) - 1ul) : 0u;
	uint w[GP_QS_ITEMS], at[GP_QS_ITEMS];
	for (uint k = 0; k < GP_QS_ITEMS; k++) {   /* in flight while the offset is summed */
		uint j = first + k * wg + lid;
		w[k] = j < nu ? upper[j] : 0u;
	}
	if (get_num_groups(0) == 1u) {   /* no count pass ran */
		gp_alone_begin(err);
		qs_tile_checks(upper, &blob, first + lid, wg, w, err);
	}
	const uint out0 = gp_tile_offset_u32(tile_sums, block_sums, bt, blob.g0, g, part);
	for (uint k = 0; k < GP_QS_ITEMS; k++) offs[GP_SKEW(k * wg + lid)] = popcount(w[k]);
	uint total = gp_tile_offsets_u32(offs, part, GP_QS_ITEMS);
	for (uint k = 0; k < GP_QS_ITEMS; k++) at[k] = offs[GP_SKEW(k * wg + lid)];
	if (first + wg * GP_QS_ITEMS >= nu && out0 + total != n) atomic_min(err, blob.lower + nu); /* set bits != n */
	total = out0 >= n ? 0u : min(total, n - out0);
	for (uint c0 = 0, p = 0; c0 < total; c0 += chunk, p ^= 1u) {
		for (uint k = 0; k < GP_QS_ITEMS; k++) {
			uint x = w[k], r = at[k], j = first + k * wg + lid;
			if (r + popcount(x) <= c0 || r >= c0 + chunk) continue;
			for (; r < c0; r++) x &= x - 1u;           /* elements of an earlier chunk */
			for (; x != 0u && r < c0 + chunk; r++, x &= x - 1u) {
				uint bit = 31u - clz(x & (0u - x));
				stage[QS_ST(r - c0)] = 32u * j + bit - (out0 + r);
			}
		}
		barrier(CLK_LOCAL_MEM_FENCE);
		uint m = min(chunk, total - c0);
		for (uint q = lid; q < m; q += wg) {
			uint i = out0 + c0 + q, hi = stage[QS_ST(q)], lo = qs_lower(lower, l, mask, i);
			out[i] = (hi << l) | lo;
			if (i + 1u == n && (((ulong)hi << l) | lo) != (ulong)last) atomic_min(err, blob.vbase + i);
			/* order: only an element right after the previous set bit has an equal upper part */
			uint adjacent;
			if (q > 0u) adjacent = stage[QS_ST(q - 1u)] == hi;
			else if (c0 > 0u) adjacent = carry[p] == hi;
			else adjacent = i > 0u && hi + i == 32u * first && (upper[first - 1u] >> 31) != 0u;
			if (adjacent && lo < qs_lower(lower, l, mask, i - 1u)) atomic_min(err, blob.vbase + i);
			if (q + 1u == m) carry[p ^ 1u] = hi;
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
}

/* offs: GP_SKEW(GP_QS_ITEMS * wg), part: wg, stage: GP_SKEW(wg * GP_QS_STAGE_ITEMS), carry: 2 */
__kernel void qs_tile_decode(__global const uint *in, const uint nl, const uint nu, const uint n,
                             const uint l, const uint last, const uint bt,
                             __global const uint *tile_sums, __global const uint *block_sums,
                             __global uint *out, const uint out_at, __global uint *err,
                             __local uint *offs, __local uint *part, __local uint *stage,
                             __local uint *carry)
{
	const qs_blob blob = {GP_QS_HEADER_WORDS, nl, nu, n, l, last, 0u, 0u};
	qs_tile_decode_body(in, blob, bt, tile_sums, block_sums, out + out_at, err, offs, part, stage, carry);
}

__kernel void qs_tile_decode_batch(__global const uint *in, __global const uint *tab,
                                   __global const uint *tile_start, const uint n_blobs,
                                   const uint bt, __global const uint *tile_sums,
                                   __global const uint *block_sums, __global uint *out,
                                   __global uint *err, __local uint *offs, __local uint *part,
                                   __local uint *stage, __local uint *carry)
{
	qs_tile_decode_body(in, qs_blob_of(tab, tile_start, n_blobs, get_group_id(0)), bt, tile_sums,
	                    block_sums, out, err, offs, part, stage, carry);
}
