/* The device runtime as the launchers see it (opencl/gp_cl_*.c and the C benchmarks): kernels,
 * buffer slots, transfers and launches. Dispatch sees only gp_cl.h. */
#ifndef GP_CL_INTERNAL_H
#define GP_CL_INTERNAL_H

#define CL_TARGET_OPENCL_VERSION 120
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#include <string.h>

#include "gp_cl.h"
#include "../codec/gp_trace.h"
#include "../kernels/gp_shared.h"   /* layouts and constants the kernels read too */

#include "gp_cl_args.h"   /* GP_KERNELS and each kernel's parameters, from the kernels themselves */

typedef enum {
#define GP_KERNEL_ID(id, name) GP_K_##id,
	GP_KERNELS(GP_KERNEL_ID)
#undef GP_KERNEL_ID
	GP_K_COUNT
} gp_kernel_id;

/* One struct and one setter per kernel, made from its parameter list (gp_cl_args.h): a launcher
 * fills the fields by name and calls gp_set_<kernel>(kernel, &args). A __local array's field is
 * its size in bytes (name_bytes): the launcher states each kernel's local memory there, once.
 * Adding a parameter to a kernel is one edit of its signature in kernels/ (then
 * `php scripts/gen-kernel-args.php`) and one field set in its launcher; a test build checks at
 * start-up that the built kernels' parameters are these (gp_cl_program.c).
 * A setter passes only the arguments that differ from those it last set on that kernel (a
 * clSetKernelArg costs a fraction of a microsecond on a GPU, and a small call sets dozens):
 * the memo of a kernel's last arguments (gp_cl_memo_of) is forgotten when the kernels are built
 * and whenever a device buffer is released, since a new buffer may then reuse an old handle. */
#define GP_ARG_FIELD_BUF(name) cl_mem name;
#define GP_ARG_FIELD_VAL(type, name) type name;
#define GP_ARG_FIELD_LOC(name) size_t name##_bytes;
#define GP_ARG_CHANGED(field) (!last || memcmp(&last->field, &a->field, sizeof(a->field)) != 0)
#define GP_ARG_SET_BUF(name) \
	if (GP_ARG_CHANGED(name)) st |= clSetKernelArg(k, i, sizeof(cl_mem), &a->name); \
	i++;
#define GP_ARG_SET_VAL(type, name) \
	if (GP_ARG_CHANGED(name)) st |= clSetKernelArg(k, i, sizeof(type), &a->name); \
	i++;
#define GP_ARG_SET_LOC(name) \
	if (GP_ARG_CHANGED(name##_bytes)) st |= clSetKernelArg(k, i, a->name##_bytes, NULL); \
	i++;

#define GP_CL_MEMO_BYTES 512
typedef struct gp_cl_arg_memo {
	_Alignas(16) unsigned char args[GP_CL_MEMO_BYTES];   /* the kernel's gp_args_<kernel>, as last set */
	int valid;
	unsigned long generation;                           /* of the device buffers when set */
} gp_cl_arg_memo;
/* The memo of kernel k's last arguments (NULL for a kernel not built by the runtime); whether it
 * still holds them; that it does now (valid) or not. */
gp_cl_arg_memo *gp_cl_memo_of(cl_kernel k);
int gp_cl_memo_fresh(const gp_cl_arg_memo *m);
void gp_cl_memo_keep(gp_cl_arg_memo *m, int valid);

#define GP_KERNEL_SETTER(id, name)                                                                  \
	typedef struct gp_args_##name {                                                                 \
		GP_KARGS_##name(GP_ARG_FIELD_BUF, GP_ARG_FIELD_VAL, GP_ARG_FIELD_LOC)                       \
	} gp_args_##name;                                                                               \
	static inline cl_int gp_set_##name(cl_kernel k, const gp_args_##name *a)                        \
	{                                                                                               \
		_Static_assert(sizeof(gp_args_##name) <= GP_CL_MEMO_BYTES, "memo too small for " #name);    \
		gp_cl_arg_memo *m = gp_cl_memo_of(k);                                                       \
		const gp_args_##name *last = m && gp_cl_memo_fresh(m) ? (const gp_args_##name *)m->args : NULL; \
		cl_uint i = 0;                                                                              \
		cl_int st = CL_SUCCESS;                                                                     \
		GP_KARGS_##name(GP_ARG_SET_BUF, GP_ARG_SET_VAL, GP_ARG_SET_LOC)                             \
		if (m) {                                                                                    \
			if (st == CL_SUCCESS) memcpy(m->args, a, sizeof(*a));                                   \
			gp_cl_memo_keep(m, st == CL_SUCCESS);                                                   \
		}                                                                                           \
		return st;                                                                                  \
	}
GP_KERNELS(GP_KERNEL_SETTER)
#undef GP_KERNEL_SETTER

/* The local memory of the passes whose needs bound the launch shapes, stated once: the launchers
 * pass these sizes to their kernels, and gp_cl_tuning.c picks the shapes under which they fit.
 * tile: the words (or values) of a work-group's tile; stage: the values an item stages. */
typedef struct gp_local_mod9_decode {
	size_t offs, part, stage, lay;   /* word offsets, group counts, staged values, selector layouts */
} gp_local_mod9_decode;

static inline gp_local_mod9_decode gp_local_of_mod9_decode(size_t wg, size_t tile, size_t stage)
{
	return (gp_local_mod9_decode){GP_SKEW(tile) * 4, wg * 4, wg * stage * 4, (size_t)GP_MOD9_LAYOUTS * 8};
}

typedef struct gp_local_s9_decode {
	size_t offs, sums, part_c, part_s, stage, lay;   /* offsets and value sums of the words, the
	                                                  * group's counts and sums, staged values, layouts */
} gp_local_s9_decode;

static inline gp_local_s9_decode gp_local_of_s9_decode(size_t wg, size_t tile, size_t stage)
{
	return (gp_local_s9_decode){GP_SKEW(tile) * 4, GP_SKEW(tile) * 8, wg * 4, wg * 8, wg * stage * 8,
	                            (size_t)GP_S9_LAYOUTS * 8};
}

/* GROUP_VARINT's pass (kernels/gvarint.cl): each item's bytes and the 16 after them, an odd
 * number of words apart (GV_IB_STRIDE); the maps of the items' segments of 32; the items' places
 * (wg + 1 entries and group counts); the scans' parts (32- and 64-bit); the staged values
 * (GP_GV_STAGE_ITEMS an item, at least GP_GV_ENTRIES) followed by the items' maps (an exit and a
 * group count at each place in a byte, GV_STRIDE apart), whose room the staged values take over; what item
 * 0 found (4 longs) and the maps the look-back composed (2 (GV_BROKEN + 1) words). */
typedef struct gp_local_gvarint {
	size_t items, segs, places, part, part_s, stage, found;
} gp_local_gvarint;

static inline gp_local_gvarint gp_local_of_gvarint(size_t wg)
{
	const size_t item = GP_GV_ITEM, places = item > GP_GV_ENTRIES ? item : GP_GV_ENTRIES;
	const size_t own = wg * GP_GV_STAGE_ITEMS > GP_GV_ENTRIES ? wg * GP_GV_STAGE_ITEMS : GP_GV_ENTRIES;
	return (gp_local_gvarint){wg * 4 * (((item + 16) / 4) | 1), (wg + 31) / 32 * GP_GV_ENTRIES * 4, (wg + 1) * 4,
	                          wg * 4, wg * 8, own * 4 + wg * 4 * ((places + 3) / 4 | 1), 4 * 8 + 2 * (GP_GV_ENTRIES + 2) * 4};
}

/* VBYTE's decode pass (kernels/vbyte.cl): the scans' parts (32- and 64-bit) and the staged
 * values, a tile's all (GP_VB_ITEM an item, padded by GP_SKEW). */
typedef struct gp_local_vbyte {
	size_t part, part_s, stage;
} gp_local_vbyte;

static inline gp_local_vbyte gp_local_of_vbyte(size_t wg)
{
	return (gp_local_vbyte){wg * 4, wg * 8, GP_SKEW(wg * GP_VB_ITEM) * 4};
}

/* wah_gather: the window of words behind a tile of `tile` output words (cap of them for words of
 * wmin bits), their first groups, and the tile's groups expanded. */
static inline size_t gp_wah_gather_cap(size_t tile, size_t wmin)
{
	return 32 * tile / (wmin - 1) + 4;
}

typedef struct gp_local_wah_gather {
	size_t win, words, gval;
} gp_local_wah_gather;

static inline gp_local_wah_gather gp_local_of_wah_gather(size_t cap)
{
	return (gp_local_wah_gather){cap * 4, cap * 8, cap * 8};
}

/* Device buffers kept between calls, grown as needed (and trimmed between calls), each named for
 * what it holds; no two uses in one call share a slot. */
typedef enum {
	GP_B_INPUT,                   /* the blobs, back to back */
	GP_B_ERR,                     /* the error word (GP_ERR_NONE, or the first bad word) */
	GP_B_BLOB_TABLE,              /* a batch's per-blob table (GP_BT_*) */
	GP_B_BLOB_STARTS,             /* where each blob's work-items (or MOD9 words) start */
	GP_B_BLOB_VALUE_STARTS,       /* where each blob's output starts */
	GP_B_TILE_STARTS,             /* each blob's first tile */
	GP_B_TILE_SUMS,               /* per-tile sums of a tiled count pass */
	GP_B_BLOCK_SUMS,              /* per-block sums of the same */
	GP_B_OUT_32,                  /* 32-bit output: MOD9 values, docs and positions, QS values */
	GP_B_OUT_64,                  /* 64-bit output: S9 values, MOD9 positions past 2^32 */
	GP_B_SIZES,                   /* sizes a MOD9 decode found (per blob, totals, flags) */
	GP_B_FIRST_WORDS,             /* MOD9 batch: a mark at each blob's first word */
	GP_B_WORD_VALUE_OFFSETS,      /* MOD9 batch: the output offset at each blob's first word */
	GP_B_WORD_POSTING_OFFSETS,    /* MOD9 batch: the posting offset at each blob's first word */
	GP_B_POSTING_STARTS,          /* MOD9 POSTINGS: each posting's first value index */
	GP_B_DOCS,                    /* MOD9 POSTINGS: each posting's doc */
	GP_B_COMBINED,                /* MOD9 POSTINGS: each posting's form */
	GP_B_GAP_CARRY,               /* MOD9 POSTINGS: the gap sums carried across tiles */
	GP_B_SCAN_DATA,               /* gpu_prefix_sum's values, scanned in place */
	GP_B_SCAN_SUMS,               /* the scans' tile totals, level after level */
	GP_B_GROUP_TILE_SUMS,         /* WAH: per-tile group counts of the words */
	GP_B_GROUP_BLOCK_SUMS,        /* WAH: per-block sums of the same */
	GP_B_WORD_GROUPS,             /* WAH: each word's first group */
	GP_B_TILE_WORDS,              /* WAH: the word holding each gather tile's first bit */
	GP_B_BITMAP,                  /* WAH: the bitmaps gathered (or a query's combined) */
	GP_B_ROWS,                    /* WAH: set rows */
	GP_B_BLOB_ROWS,               /* WAH: each bitmap's first row in ROWS */
	GP_B_GV_STATUS,               /* GROUP_VARINT: each tile's map, state and sums (kernels/gvarint.cl) */
	GP_B_IX_QUERY_TABLES,         /* index: a batch's query tables (kernels/index.cl) */
	GP_B_IX_CANDIDATES,           /* index: each item's doc (OR: merged) */
	GP_B_IX_KEPT,                 /* index: which items are answers, then their running count */
	GP_B_IX_ANSWERS,              /* index: the answers, query after query */
	GP_B_IX_BOUNDS,               /* index: each query's first answer, and the total */
	GP_B_IX_KEYS,                 /* index, ranked: each candidate's score as a key (0: none) */
	GP_B_IX_ROW_KEYS,             /* index, ranked: the selected rows' keys */
	GP_B_IX_LISTS,                /* index, compressed lists: a batch's list table */
	GP_B_IX_DOCS,                 /* index, compressed lists: a batch's lists' docs */
	GP_B_IX_POS_AT,               /* index, compressed lists: their postings' first positions */
	GP_B_IX_POSITIONS,            /* index, compressed lists: their positions */
	GP_B_CALL_0,                  /* a call's regions (gp_cl_call.h), one buffer each */
	GP_B_CALL_LAST = GP_B_CALL_0 + 11,
	GP_B_CALL_HOST,               /* their pinned mirror */
	GP_B_STAGE_OUT,               /* pinned staging for downloads (GPU) */
	GP_B_STAGE_IN,                /* pinned staging for uploads (GPU) */
	GP_B_COUNT
} gp_buffer_id;

/* A device buffer of its own (not a slot: an index's resident lists), read-only for the
 * kernels, `bytes` copied from host (a 4-byte buffer when bytes is 0). NULL on failure (err
 * set). Released with gp_cl_resident_release, which does nothing in a forked child. */
cl_mem gp_cl_resident(const void *host, size_t bytes, gp_error *err);
void gp_cl_resident_release(cl_mem mem);

cl_command_queue gp_cl_queue(void);
cl_kernel gp_cl_kernel(gp_kernel_id id);
/* Its name in kernels/ (for the traces of GPUPOST_TRACE). */
const char *gp_cl_kernel_name(cl_kernel k);
/* A device buffer of at least `bytes`, reused between calls. NULL on failure (err set). */
cl_mem gp_cl_buffer(gp_buffer_id id, size_t bytes, gp_error *err);
/* Bytes buffer slot id holds now (0 before its first use). */
size_t gp_cl_buffer_capacity(gp_buffer_id id);
/* Work-group size for launches; global sizes are rounded up to a multiple of it. */
size_t gp_cl_wg(void);
/* The group a call whose `items` fit one tile of per_item an item runs with: the least power of
 * two that holds them, at least the device's small group, at most gp_cl_wg(). */
size_t gp_cl_call_wg(size_t items, size_t per_item);
/* Values of value_bytes (4 or 8) each work-item stages in local memory in the tiled decoders
 * (GP_STAGE_ITEMS_32, GP_STAGE_ITEMS). */
size_t gp_cl_stage_items(size_t value_bytes);
/* Upper words per work-item in QS's tiles (GP_QS_ITEMS), and the values QS stages per item
 * (GP_QS_STAGE_ITEMS: GP_STAGE_ITEMS_32, at most 16). */
size_t gp_cl_qs_items(void);
size_t gp_cl_qs_stage_items(void);
/* Words per work-item of the tiled MOD9 and S9 decoders (GP_TILE_ITEMS of the build). */
size_t gp_cl_tile_items(void);
/* Output words per work-item of wah_gather (GP_WAH_ITEMS of the build). */
size_t gp_cl_wah_items(void);
/* Most candidates one launch sequence of an index batch takes (GPUPOST_INDEX_CHUNK overrides). */
size_t gp_cl_index_chunk_items(void);
/* Whether a ranked OR batch whose lists hold `postings` is pruned: from a device type's
 * threshold (GPUPOST_INDEX_PRUNE_MIN overrides it; GPUPOST_INDEX_NO_PRUNE=1 never prunes: both
 * for benchmarks and tests). */
int gp_cl_index_prune(uint64_t postings);
/* Candidates of one tile of a ranked query's top k (GPUPOST_TOPK_TILE overrides, for benchmarks
 * and tests). */
uint64_t gp_cl_index_topk_tile(void);
/* Enqueues `kernel` over at least `items` work-items, in groups of gp_cl_wg() (or of wg). */
int gp_cl_run(cl_kernel kernel, size_t items, gp_error *err);
int gp_cl_run_groups(cl_kernel kernel, size_t items, size_t wg, gp_error *err);
/* Records a failed OpenCL call in err (GP_EDEVICE) and returns GP_EDEVICE. */
int gp_cl_fail(gp_error *err, cl_int status, const char *what);
/* Drops cached buffers (after an allocation failure, to retry with less memory held). */
void gp_cl_release_buffers(void);
/* Uploads `n_parts` host ranges back to back into buffer `id` (through the pinned staging
 * buffer: one mapped write, one device copy). */
cl_mem gp_cl_upload(gp_buffer_id id, const uint8_t *const *parts, const size_t *lens,
                    size_t n_parts, size_t total, gp_error *err);

/* A download through the pinned staging buffer: src's first `bytes` copied on the device into
 * it and mapped for reading. The pointer stays valid until gp_cl_unmap (one at a time): the PHP
 * arrays are filled straight from it, with no copy into a host buffer of our own. */
void *gp_cl_download_mapped(cl_mem src, size_t bytes, gp_error *err);
void gp_cl_unmap(void *p);
/* Whether transfers go through the pinned staging memory (a GPU; in a test build,
 * GPUPOST_FORCE_STAGING=1 on any device). */
int gp_cl_staged(void);
/* There only: one download of n buffers' first bytes[i] bytes, laid end to end in the pinned
 * staging memory, part i at base + at[i] (64-byte aligned), *total bytes in all; lent like
 * gp_cl_download_mapped's pointer. */
void *gp_cl_download_parts(const cl_mem *srcs, const size_t *bytes, size_t n, size_t *at,
                           size_t *total, gp_error *err);

/* With GPUPOST_PROFILE=1 in the environment when the device opens (benchmarks): the device
 * time of every kernel launched since the last reset, in seconds (waits for them). With
 * GPUPOST_PROFILE=2 each launch also waits and prints its kernel, size and time on stderr. */
double gp_cl_kernel_seconds(void);
void gp_cl_kernel_seconds_reset(void);

/* Blocking read of `bytes` from the start of mem; fill of mem with a 32-bit pattern. */
int gp_cl_read(cl_mem mem, size_t bytes, void *dst, gp_error *err);
int gp_cl_read_at(cl_mem mem, size_t offset, size_t bytes, void *dst, gp_error *err);
/* Several reads in one round trip: all enqueued, then one clFinish. */
typedef struct gp_cl_read_part {
	cl_mem mem;
	size_t offset, bytes;
	void *dst;
} gp_cl_read_part;
int gp_cl_read_parts(const gp_cl_read_part *parts, size_t n, gp_error *err);
int gp_cl_fill_u32(cl_mem mem, cl_uint pattern, size_t bytes, gp_error *err);

/* Scans (opencl/gp_cl_scan.c). n elements of uint (u32) or long (i64) at in/in_off to
 * out/out_off; inclusive or exclusive. */
int gp_cl_scan_u32(cl_mem in, cl_mem out, size_t n, int inclusive, gp_error *err);
int gp_cl_scan_i64(cl_mem in, cl_mem out, size_t n, int inclusive, gp_error *err);

/* Benchmarks: the upload plan (workers, first and largest piece in KiB; 0 keeps the default). */
void gp_cl_set_upload_plan(size_t threads, size_t first_kb, size_t piece_kb);

#endif
