/* Prefix sums: reduce-then-scan over tiles, portable OpenCL 1.2 (no inter-group progress).
 * scan_tile_T scans each tile of get_local_size(0) * GP_SCAN_ITEMS elements in local memory and
 * writes the tile's total; the host scans the totals (the same kernel, recursively) and
 * scan_add_T adds each tile's offset. The batch decoders' output offsets come from here, and so
 * does gpu_prefix_sum; the tiled single-list decoders find theirs without a scan launch
 * (gp_tile_total_put / gp_tile_offset_u32 below). Local memory: tile + work-group size elements
 * of T. */
/* Values each work-item stages in local memory in the tiled decoders, 64-bit (S9) and 32-bit
 * (MOD9, QS): set by the host from the device's local memory (gp_cl.c). */
#ifndef GP_STAGE_ITEMS
#define GP_STAGE_ITEMS 8
#endif
#ifndef GP_STAGE_ITEMS_32
#define GP_STAGE_ITEMS_32 8
#endif

/* Exclusive scan of one value per work-item across the group, Hillis-Steele in a[0..wg);
 * *total gets the group's sum. Every item of the group must call it (it has barriers); a can be
 * reused when it returns. The tiled decoders scan their per-word counts with it. */
#define GP_DEFINE_GROUP_SCAN(T, SUF)                                                           \
inline T gp_group_scan_##SUF(__local T *a, T x, T *total)                                     \
{                                                                                             \
	const uint lid = get_local_id(0), wg = get_local_size(0);                                 \
	a[lid] = x;                                                                               \
	barrier(CLK_LOCAL_MEM_FENCE);                                                             \
	for (uint off = 1; off < wg; off <<= 1) {                                                 \
		T t = lid >= off ? a[lid - off] : (T)0;                                               \
		barrier(CLK_LOCAL_MEM_FENCE);                                                         \
		a[lid] += t;                                                                          \
		barrier(CLK_LOCAL_MEM_FENCE);                                                         \
	}                                                                                         \
	T excl = a[lid] - x;                                                                      \
	*total = a[wg - 1];                                                                       \
	barrier(CLK_LOCAL_MEM_FENCE);                                                             \
	return excl;                                                                              \
}

GP_DEFINE_GROUP_SCAN(uint, u32)
GP_DEFINE_GROUP_SCAN(long, i64)

/* The group's sum of one value per item (a tree in a[0..wg), wg a power of two): half the
 * barriers of the scan, for the count passes that only need a tile's total (S9's value sums). */
#define GP_DEFINE_GROUP_SUM(T, SUF)                                                            \
inline T gp_group_sum_##SUF(__local T *a, T x)                                                \
{                                                                                             \
	const uint lid = get_local_id(0);                                                         \
	a[lid] = x;                                                                               \
	barrier(CLK_LOCAL_MEM_FENCE);                                                             \
	for (uint h = get_local_size(0) / 2u; h > 0u; h >>= 1) {                                  \
		if (lid < h) a[lid] += a[lid + h];                                                    \
		barrier(CLK_LOCAL_MEM_FENCE);                                                         \
	}                                                                                         \
	return a[0];                                                                              \
}

GP_DEFINE_GROUP_SUM(long, i64)

/* Sums of k 32-bit counters per item across the group by local atomic adds: three barriers
 * where a tree takes log2(wg) + 2 (local 32-bit atomics are core OpenCL since 1.1; NVIDIA's
 * compiler combines a warp's adds to one address, and spreading them over 8 addresses was
 * slower). x: the item's counts in, the group's sums out. a: k elements, free again when
 * it returns. */
inline void gp_group_sums_u32(__local uint *a, uint *x, const uint k)
{
	if (get_local_id(0) < k) a[get_local_id(0)] = 0u;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint c = 0; c < k; c++) if (x[c] != 0u) atomic_add(a + c, x[c]);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint c = 0; c < k; c++) x[c] = a[c];
	barrier(CLK_LOCAL_MEM_FENCE);
}

/* One such sum. */
inline uint gp_group_sum_u32(__local uint *a, uint x)
{
	gp_group_sums_u32(a, &x, 1u);
	return x;
}

/* Tile offsets without a scan launch. A count pass stores each tile's total and adds it to its
 * block's (bt tiles a block; a global atomic add: order-free, no progress between work-groups
 * needed); a decode pass sums the tiles before its own from at most g / bt block sums and
 * bt - 1 tile sums, spread over the group. The host picks bt near sqrt(tiles). */
inline void gp_tile_total_put(__global uint *tile_sums, __global uint *block_sums, uint bt, uint g,
                              uint x)
{
	tile_sums[g] = x;
	if (x != 0u) atomic_add(block_sums + g / bt, x);
}

/* A decode pass launched alone (one tile, no count pass before it: a small call's one launch)
 * starts its error word itself, before any item may flag the input. Every item must call it. */
inline void gp_alone_begin(__global uint *err)
{
	if (get_local_id(0) == 0u) *err = GP_ERR_NONE;
	barrier(CLK_GLOBAL_MEM_FENCE);
}

/* The body of a pass that two kernels share (one blob, a batch), so that the one-blob kernel's
 * arguments fold into it. MOD9's and QS's passes and S9's count pass run as fast this way as
 * written out in one kernel; S9's decode pass, the largest, does not (inlining asked for or not)
 * and is written out by a macro instead. */
#define GP_PASS_BODY inline __attribute__((always_inline))

/* Tiles g0 .. g-1 as the sums that cover them: tiles [head0, head1) and [tail0, g), blocks
 * [block0, block1) between (whole blocks where they lie inside the range). g0 is 0 for one
 * blob; a batch whose blobs have tiles of their own passes its blob's first tile. */
typedef struct gp_tile_range {
	uint head0, head1, block0, block1, tail0;
} gp_tile_range;

inline gp_tile_range gp_tile_range_of(uint g0, uint g, uint bt)
{
	gp_tile_range r;
	r.head0 = g0;
	r.block0 = (g0 + bt - 1u) / bt;
	r.block1 = g / bt;
	r.head1 = min(g, r.block0 * bt);
	r.tail0 = max(r.block1 * bt, r.head1);
	return r;
}

/* The sum of tiles g0 .. g-1, spread over the group. Every item of the group must call it; part
 * can be written again when it returns. The sum is taken in T (WAH's in 64 bits: a malformed
 * blob's tile sums may add up past 2^32). */
#define GP_DEFINE_TILE_OFFSET(T, SUF)                                                          \
inline T gp_tile_offset_##SUF(__global const uint *tile_sums, __global const uint *block_sums, \
                              uint bt, uint g0, uint g, __local T *part)                      \
{                                                                                             \
	const uint lid = get_local_id(0), wg = get_local_size(0);                                 \
	const gp_tile_range r = gp_tile_range_of(g0, g, bt);                                      \
	T s = 0;                                                                                  \
	for (uint i = r.head0 + lid; i < r.head1; i += wg) s += tile_sums[i];                     \
	for (uint i = r.block0 + lid; i < r.block1; i += wg) s += block_sums[i];                  \
	for (uint i = r.tail0 + lid; i < g; i += wg) s += tile_sums[i];                           \
	return gp_group_sum_##SUF(part, s);                                                       \
}

GP_DEFINE_TILE_OFFSET(uint, u32)
GP_DEFINE_TILE_OFFSET(long, i64)

/* Words per work-item of the tiled MOD9 and S9 decoders, set by the host (gp_cl.c); their count
 * passes read them as whole uint4s (item lid of a tile reading uint4 k * wg + lid), the words
 * 16-byte aligned. */
#ifndef GP_TILE_ITEMS
#define GP_TILE_ITEMS 8u
#endif
#define GP_TILE_VECS (GP_TILE_ITEMS / 4u)

/* Local arrays read both along (k * wg + lid) and across (lid * items + k) are padded by one
 * element in 32 (GP_SKEW, gp_shared.h) so that neither pattern meets a bank conflict. */

/* The per-word counts c[GP_SKEW(t)] of a tile of items * wg words (item lid reads words
 * k * wg + lid, side by side with its neighbours) become exclusive offsets in word order: each
 * item sums `items` consecutive words, the sums are scanned across the group, the offsets go
 * back. Returns the tile's total; every item must call it. part: wg elements. */
#define GP_DEFINE_TILE_OFFSETS(T, SUF)                                                         \
inline T gp_tile_offsets_##SUF(__local T *c, __local T *part, uint items)                     \
{                                                                                             \
	const uint lid = get_local_id(0);                                                         \
	barrier(CLK_LOCAL_MEM_FENCE);                                                             \
	T run = 0, total;                                                                         \
	for (uint k = 0; k < items; k++) run += c[GP_SKEW(lid * items + k)];                      \
	T acc = gp_group_scan_##SUF(part, run, &total);                                           \
	for (uint k = 0; k < items; k++) {                                                        \
		uint t = GP_SKEW(lid * items + k);                                                    \
		T x = c[t];                                                                           \
		c[t] = acc;                                                                           \
		acc += x;                                                                             \
	}                                                                                         \
	barrier(CLK_LOCAL_MEM_FENCE);                                                             \
	return total;                                                                             \
}

GP_DEFINE_TILE_OFFSETS(uint, u32)
GP_DEFINE_TILE_OFFSETS(long, i64)

/* lds: tile + tile / 32 + wg elements of T. */
#define GP_DEFINE_SCAN(T, SUF)                                                                 \
__kernel void scan_tile_##SUF(__global const T *in, const uint in_off, __global T *out,       \
                              const uint out_off, const uint n, __global T *sums,              \
                              const uint sums_off, const uint inclusive, __local T *lds)       \
{                                                                                             \
	const uint lid = get_local_id(0), wg = get_local_size(0), tile = wg * GP_SCAN_ITEMS;      \
	const uint base = get_group_id(0) * tile;                                                 \
	T x[GP_SCAN_ITEMS];                                                                       \
	in += in_off;                                                                             \
	out += out_off;                                                                           \
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {                                                \
		uint i = base + k * wg + lid;                                                         \
		x[k] = i < n ? in[i] : (T)0;                                                          \
		lds[GP_SKEW(k * wg + lid)] = x[k];                                                    \
	}                                                                                         \
	T total = gp_tile_offsets_##SUF(lds, lds + GP_SKEW(tile), GP_SCAN_ITEMS);                 \
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {                                                \
		uint i = base + k * wg + lid;                                                         \
		if (i < n) out[i] = lds[GP_SKEW(k * wg + lid)] + (inclusive ? x[k] : (T)0);           \
	}                                                                                         \
	if (lid == 0) sums[sums_off + get_group_id(0)] = total;                                   \
}                                                                                             \
                                                                                              \
__kernel void scan_add_##SUF(__global T *out, const uint out_off, const uint n,               \
                             __global const T *offsets, const uint offsets_off)               \
{                                                                                             \
	const uint lid = get_local_id(0), wg = get_local_size(0), tile = wg * GP_SCAN_ITEMS;      \
	const uint base = get_group_id(0) * tile;                                                 \
	const T add = offsets[offsets_off + get_group_id(0)];                                     \
	out += out_off;                                                                           \
	for (uint k = 0; k < GP_SCAN_ITEMS; k++) {                                                \
		uint i = base + k * wg + lid;                                                         \
		if (i < n) out[i] += add;                                                             \
	}                                                                                         \
}

GP_DEFINE_SCAN(uint, u32)
GP_DEFINE_SCAN(long, i64)

/* Big-endian 32-bit word as stored by PHP's pack("N"). */
inline uint gp_be32(uint x)
{
	return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
}

/* Marks the first word of each blob of a batch (first[] is zero-filled by the host). */
__kernel void mark_blob_starts(__global const uint *blob_words, const uint n_blobs,
                               __global uchar *first)
{
	uint b = get_global_id(0);
	if (b < n_blobs) first[blob_words[b]] = 1;
}

/* The blob of a batch that item i belongs to: the last b with starts[b] <= i (empty blobs share
 * their start with the next one, so the last such b is the one whose range holds i). */
inline uint gp_find_blob(__global const uint *starts, uint n_blobs, uint i)
{
	uint lo = 0, hi = n_blobs;
	while (hi - lo > 1) {
		uint mid = lo + (hi - lo) / 2;
		if (starts[mid] <= i) lo = mid; else hi = mid;
	}
	return lo;
}



/* The count and the value sum of tiles g0 .. g-1 (its blob's, before tile g) from a count pass's
 * `counters` arrays (gp_tile_total_put): the count, then counters - 1 limbs of limb_bits bits of
 * the value sums, least significant first (so that a block's limb sums fit 32 bits). Like
 * gp_tile_offset_u32; the sum taken across the group in three 21-bit pieces by 32-bit local
 * atomics (it is below 2^63). Every item must call it; part (4 elements) can be written again
 * when it returns. */
inline uint gp_tile_offset_limbs(__global const uint *tile_sums, __global const uint *block_sums, uint bt,
                                 uint tiles, uint blocks, uint g0, uint g, __local uint *part, uint counters,
                                 uint limb_bits, long *sum_before)
{
	const uint lid = get_local_id(0), wg = get_local_size(0);
	const gp_tile_range r = gp_tile_range_of(g0, g, bt);
	uint c = 0;
	long s = 0;
	for (uint i = r.head0 + lid; i < r.head1; i += wg) {
		c += tile_sums[i];
		for (uint k = 1; k < counters; k++) s += (long)tile_sums[k * (tiles + 1u) + i] << ((k - 1u) * limb_bits);
	}
	for (uint i = r.block0 + lid; i < r.block1; i += wg) {
		c += block_sums[i];
		for (uint k = 1; k < counters; k++) s += (long)block_sums[k * blocks + i] << ((k - 1u) * limb_bits);
	}
	for (uint i = r.tail0 + lid; i < g; i += wg) {
		c += tile_sums[i];
		for (uint k = 1; k < counters; k++) s += (long)tile_sums[k * (tiles + 1u) + i] << ((k - 1u) * limb_bits);
	}
	uint x[4] = {c, (uint)s & 0x1FFFFFu, (uint)(s >> 21) & 0x1FFFFFu, (uint)(s >> 42)};
	gp_group_sums_u32(part, x, 4u);
	*sum_before = (long)x[1] + ((long)x[2] << 21) + ((long)x[3] << 42);
	return x[0];
}

/* The byte formats (VBYTE, GROUP_VARINT): a payload starts at a 16-byte unit of the input
 * (`vec`), len bytes, and is cut into tiles of wg items (each format its bytes an item). One
 * blob's parameters are a kernel's arguments; a batch's, its table's (GP_BT_BASE the payload's
 * unit, GP_BT_BYTES, GP_BT_N, GP_BT_BYTE_DELTA, GP_BT_VALUES). */

typedef struct gp_byte_blob {
	uint vec, len, n, delta, vbase, g0;   /* ... its output at vbase, its first tile g0 */
} gp_byte_blob;

inline gp_byte_blob gp_byte_blob_of(__global const uint *tab, __global const uint *tile_start, uint n_blobs,
                                    uint g)
{
	uint b = gp_find_blob(tile_start, n_blobs, g);
	__global const uint *t = tab + GP_BT_STRIDE * b;
	gp_byte_blob x = {t[GP_BT_BASE], t[GP_BT_BYTES], t[GP_BT_N], t[GP_BT_BYTE_DELTA], t[GP_BT_VALUES], tile_start[b]};
	return x;
}

/* A plain copy, for the benchmarks' bandwidth reference (bench/device_bench.c). */
__kernel void copy_u32(__global const uint *in, __global uint *out, const uint n)
{
	uint i = get_global_id(0);
	if (i < n) out[i] = in[i];
}
