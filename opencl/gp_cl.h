/* Device runtime: platform and device choice, context, queue, the program (built once per
 * process from the sources compiled into the .so), grow-only device buffers, and launch
 * helpers. One launcher file per operation sits beside it. No PHP here. */
#ifndef GP_CL_H
#define GP_CL_H

#define CL_TARGET_OPENCL_VERSION 120
#ifdef __APPLE__
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif


#include "../codec/gp_common.h"

/* The kernels, in the order of gp_kernel_names (gp_cl.c). */
typedef enum {
	GP_K_SCAN_TILE_U32, GP_K_SCAN_ADD_U32, GP_K_SCAN_TILE_I64, GP_K_SCAN_ADD_I64,
	GP_K_MARK_BLOB_STARTS,
	GP_K_MOD9_TILE_COUNT_POSTINGS, GP_K_MOD9_TILE_COUNT_POSTINGS_BATCH, GP_K_MOD9_GAP_CARRY,
	GP_K_MOD9_TILE_POSTINGS, GP_K_MOD9_TILE_POSTINGS_BATCH, GP_K_MOD9_BLOB_OFFSETS,
	GP_K_WAH_GATHER, GP_K_WAH_QUERY,
	GP_K_COPY_U32,
	GP_K_MOD9_TILE_COUNT, GP_K_MOD9_TILE_DECODE, GP_K_S9_TILE_COUNT, GP_K_S9_TILE_DECODE,
	GP_K_QS_TILE_COUNT, GP_K_QS_TILE_DECODE, GP_K_WAH_TILE_WORDS, GP_K_WAH_TILE_COUNT,
	GP_K_WAH_TILE_OFFSETS, GP_K_BITMAP_TILE_COUNT, GP_K_BITMAP_TILE_ROWS, GP_K_MOD9_TILE_COUNT_DOCS,
	GP_K_MOD9_TILE_DOCS, GP_K_MOD9_TILE_COUNT_BATCH, GP_K_MOD9_TILE_COUNT_DOCS_BATCH,
	GP_K_MOD9_TILE_DECODE_BATCH, GP_K_MOD9_TILE_DOCS_BATCH, GP_K_S9_TILE_COUNT_BATCH,
	GP_K_S9_TILE_DECODE_BATCH, GP_K_QS_TILE_COUNT_BATCH, GP_K_QS_TILE_DECODE_BATCH,
	GP_K_BITMAP_TILE_COUNT_BATCH, GP_K_BITMAP_TILE_ROWS_BATCH, GP_K_WAH_TILE_COUNT_BATCH,
	GP_K_WAH_TILE_OFFSETS_BATCH,
	GP_K_COUNT
} gp_kernel_id;

/* Device buffers kept between calls, grown as needed. */
typedef enum {
	GP_B_INPUT, GP_B_FIRST, GP_B_COUNTS, GP_B_OFFSETS, GP_B_STARTS, GP_B_POFF, GP_B_BLOBS,
	GP_B_ERR, GP_B_META, GP_B_VALUES, GP_B_VSTART, GP_B_GAP_CARRY, GP_B_DOCS, GP_B_COMBINED,
	GP_B_WSUM, GP_B_POS, GP_B_SCRATCH, GP_B_GOFF, GP_B_BITMAP, GP_B_ROWS, GP_B_STAGE_OUT, GP_B_STAGE_IN,
	GP_B_TILE_STARTS,
	GP_B_COUNT
} gp_buffer_id;

typedef struct gp_cl_device_info {
	char platform[128], platform_version[128];
	char device[128], vendor[128], version[128];
	const char *type;           /* "gpu", "cpu", "accelerator", "other" */
	unsigned compute_units;
	unsigned long long global_mem, max_alloc;
	size_t max_work_group;
	int platform_index, device_index;
} gp_cl_device_info;

/* Remembers the gpupost.device value; no OpenCL work happens until a call needs the device. */
void gp_cl_configure(const char *device_spec);

/* Opens the device (once per process) and builds the program. Returns 1 when the device can
 * be used by this process, 0 when calls must take the host path (no device, "host", a build
 * failure, or a process forked after the device was opened). */
int gp_cl_available(void);

/* What gp_cl_available found; NULL before it ran or when no device was chosen. */
const gp_cl_device_info *gp_cl_info(void);
int gp_cl_program_built(void);
const char *gp_cl_last_error(void);   /* why the device is not used, or the last failure */

/* After a failed device call: waits for the queue, and drops the cached buffers when the failure
 * was about memory, so that the next call can succeed. */
void gp_cl_recover(int cl_status);

/* Releases everything this process opened (module shutdown). */
void gp_cl_shutdown(void);

/* --- for the launchers (opencl/gp_cl_*.c) --- */
cl_command_queue gp_cl_queue(void);
cl_kernel gp_cl_kernel(gp_kernel_id id);
/* A device buffer of at least `bytes`, reused between calls. NULL on failure (err set). */
cl_mem gp_cl_buffer(gp_buffer_id id, size_t bytes, gp_error *err);
/* Bytes buffer slot id holds now (0 before its first use). */
size_t gp_cl_buffer_capacity(gp_buffer_id id);
/* Work-group size for launches; global sizes are rounded up to a multiple of it. */
size_t gp_cl_wg(void);
/* Elements per work-item in the scans' tiles: kernels/scan.cl */
#define GP_SCAN_ITEMS 8
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
/* Enqueues `kernel` over at least `items` work-items. */
int gp_cl_run(cl_kernel kernel, size_t items, gp_error *err);
/* Records a failed OpenCL call in err (GP_EDEVICE) and returns GP_EDEVICE. */
int gp_cl_fail(gp_error *err, cl_int status, const char *what);
/* Drops cached buffers (after an allocation failure, to retry with less memory held). */
void gp_cl_release_buffers(void);
/* Between calls: frees the largest pinned staging buffers until at most pinned_keep bytes of
 * them are held, and the largest device buffers until at most device_keep; returns the pinned
 * bytes kept. gp_cl_cached tells what is held now (0 and 0 before the device is opened). */
uint64_t gp_cl_trim(uint64_t pinned_keep, uint64_t device_keep);
void gp_cl_cached(uint64_t *pinned, uint64_t *device);
/* Uploads `n_parts` host ranges back to back into buffer `id` (through the pinned staging
 * buffer: one mapped write, one device copy). */
cl_mem gp_cl_upload(gp_buffer_id id, const uint8_t *const *parts, const size_t *lens,
                    size_t n_parts, size_t total, gp_error *err);

/* A download through the pinned staging buffer: src's first `bytes` copied on the device into
 * it and mapped for reading. The pointer stays valid until gp_cl_unmap (one at a time): the PHP
 * arrays are filled straight from it, with no copy into a host buffer of our own. */
void *gp_cl_download_mapped(cl_mem src, size_t bytes, gp_error *err);
void gp_cl_unmap(void *p);
/* Whether transfers go through the pinned staging memory (a GPU; GPUPOST_FORCE_STAGING=1). */
int gp_cl_staged(void);
/* There only: one download of n buffers' first bytes[i] bytes, laid end to end in the pinned
 * staging memory, part i at base + at[i] (64-byte aligned), *total bytes in all; lent like
 * gp_cl_download_mapped's pointer. */
void *gp_cl_download_parts(const cl_mem *srcs, const size_t *bytes, size_t n, size_t *at,
                           size_t *total, gp_error *err);

/* With GPUPOST_PROFILE=1 in the environment when the device opens (benchmarks only): the device
 * time of every kernel launched since the last reset, in seconds (waits for them). With
 * GPUPOST_PROFILE=2 each launch also waits and prints its kernel, size and time on stderr. */
double gp_cl_kernel_seconds(void);
void gp_cl_kernel_seconds_reset(void);

/* Blocking read of `bytes` from the start of mem; fill of mem with a 32-bit pattern. */
int gp_cl_read(cl_mem mem, size_t bytes, void *dst, gp_error *err);
int gp_cl_read_at(cl_mem mem, size_t offset, size_t bytes, void *dst, gp_error *err);
int gp_cl_fill_u32(cl_mem mem, cl_uint pattern, size_t bytes, gp_error *err);

#define GP_CL_ARG(k, i, v) clSetKernelArg((k), (i), sizeof(v), &(v))

/* Scans (opencl/gp_cl_scan.c). n elements of uint (u32) or long (i64) at in/in_off to
 * out/out_off; inclusive or exclusive. */
int gp_cl_scan_u32(cl_mem in, cl_mem out, size_t n, int inclusive, gp_error *err);
int gp_cl_scan_i64(cl_mem in, cl_mem out, size_t n, int inclusive, gp_error *err);



/* gpu_prefix_sum on the device: out[i] = sum of in[0..i] (inclusive) or in[0..i-1]. */
int gp_cl_prefix_sum(const int64_t *in, size_t n, int inclusive, int64_t *out, gp_error *err);
/* Sets kernel arguments from (size, pointer) pairs; returns the OR of the statuses. */
cl_int gp_cl_args(cl_kernel k, int n, ...);
/* The same from argument `at` on. */
cl_int gp_cl_args_at(cl_kernel k, cl_uint at, int n, ...);

struct gp_result;
struct gp_mod9_counts;
/* GPUPOST_MOD9 batch decode (opencl/gp_cl_mod9.c): one upload, one sequence of launches, one
 * download. Blob lengths must be multiples of 4; est: the blobs' summed gp_mod9_estimate, which
 * sizes what comes back with the sizes. GP_EFORMAT (no detail) when a kernel flagged a
 * malformed word: the host decoder then names it. */
int gp_cl_mod9_decode(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs, int mode,
                      const struct gp_mod9_counts *est, struct gp_result *r, gp_error *err);

/* GPUPOST_S9 and GPUPOST_QS batch decodes (opencl/gp_cl_s9.c, gp_cl_qs.c); headers checked by
 * the caller. GP_EFORMAT when a kernel flagged the input. */
int gp_cl_s9_decode(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                    struct gp_result *r, gp_error *err);
int gp_cl_qs_decode(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                    struct gp_result *r, gp_error *err);

/* GPUPOST_WAH (opencl/gp_cl_wah.c), headers checked by the caller, every nbits < 2^32.
 * Rows of each blob (a batch), the bitmap bytes of one blob, or the rows of AND/OR over all. */
int gp_cl_wah_rows(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                   struct gp_result *r, gp_error *err);
int gp_cl_wah_decompress(const uint8_t *blob, size_t len, uint8_t *out, gp_error *err);
int gp_cl_wah_query(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs, int op,
                    struct gp_result *r, gp_error *err);

#endif
