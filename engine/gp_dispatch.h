/* Dispatch: one entry point per operation. Picks the host codec or the OpenCL device per call (by
 * expected size and the device the caller names), falls back to the host when the device fails,
 * and lets the host decoder name the offset and rule when a kernel flags a malformed blob. Knows
 * no face. */
#ifndef GP_DISPATCH_H
#define GP_DISPATCH_H

#include "../codec/gp_result.h"
#include "../codec/gp_device.h"
#include "../codec/gp_trace.h"
#include "../query/gp_query.h"

enum { GP_FORMAT_MOD9 = 1, GP_FORMAT_S9 = 2, GP_FORMAT_QS = 3, GP_FORMAT_WAH = 4, GP_FORMAT_VBYTE = 5, GP_FORMAT_GROUP_VARINT = 6 };
enum { GP_OP_OR = GP_IX_OR, GP_OP_AND = GP_IX_AND, GP_OP_PHRASE = GP_IX_PHRASE };

/* The policy of one call, filled by the face (from its settings and its memory's room) and read
 * by every layer below: nothing of it lives in globals. */
typedef struct gp_ctx {
	const char *device;       /* which device or set (opened by the first call) */
	int device_all;           /* every device of the set, not one */
	long min_device_values;   /* the threshold: smaller work runs on the host */
	gp_budget budget;         /* what the call may build (gp_budget.h) */
} gp_ctx;

/* One plan of a batch for a caller that decodes it on the host a run of blobs at a time: 1 when
 * gp_decode would send it to the device instead; else 0, or GP_ENOMEM (err set) when the floor
 * of its result from the headers' counts already passes the budget. MOD9 has no header: each of
 * its runs is checked as it comes (measuring the whole batch first would cost a pass over it). */
int gp_decode_host_plan(int format, int mode, const uint8_t *const *blobs, const size_t *lens,
                        size_t n_blobs, const gp_ctx *ctx, gp_error *err);
/* Decodes a batch (a single call is a batch of one). */
int gp_decode(int format, int mode, const uint8_t *const *blobs, const size_t *lens,
              size_t n_blobs, const gp_ctx *ctx, gp_result *r, gp_error *err);

/* WAH: the size of a blob's uncompressed bitmap (header only), checked against the budget for
 * the caller's copy and the host path's (GP_ENOMEM when over), then the bitmap itself into out
 * (that many bytes); AND/OR of many bitmaps of equal nbits to their set rows (r->v64). */
int gp_wah_bitmap_bytes(const uint8_t *blob, size_t len, const gp_ctx *ctx, uint64_t *bytes,
                        gp_error *err);
int gp_wah_decompress(const uint8_t *blob, size_t len, const gp_ctx *ctx, uint8_t *out,
                      gp_error *err);
int gp_wah_query(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs, int op,
                 const gp_ctx *ctx, gp_result *r, gp_error *err);

/* Running sums of n int64 values; *overflow set (and GP_EVALUE returned) when a sum does not
 * fit 64 bits. */
int gp_prefix_sum(const int64_t *in, size_t n, int inclusive, const gp_ctx *ctx,
                  int64_t *out, size_t *overflow_at, gp_error *err);

/* GpuPost\Index (index/gp_index.h): where an index's queries run. AUTO: on the device when the
 * batch reads at least min_device_values postings (as decodes choose); DEVICE: always there
 * while it can be used; HOST: never. */
typedef enum { GP_PLACE_AUTO, GP_PLACE_HOST, GP_PLACE_DEVICE } gp_placement;

/* After a build or open: the lists made resident on the device now when its queries will run
 * there (DEVICE, or AUTO with a usable GPU and at least min_device_values postings), so that
 * the first query does not pay the upload; `image`, when not NULL, the pinned file image
 * (gp_index_image) the index was loaded from. */
void gp_index_prepare(gp_index *ix, gp_placement place, const gp_ctx *ctx, const uint8_t *image);
/* Pinned memory for open()'s file image of len bytes when its lists will go to a GPU (the
 * upload then reads it directly); NULL otherwise (the caller allocates its own). Freed with
 * gp_index_image_free. */
uint8_t *gp_index_image(size_t len, gp_placement place, const gp_ctx *ctx, void **handle);
void gp_index_image_free(void *handle, uint8_t *image);
/* Answers a batch of queries where `place` and the batch's work say, falling back to the host
 * when the device fails; *backend says who answered. GP_ENOMEM when the answers pass the
 * budget. */
int gp_index_search(gp_index *ix, const gp_query_batch *q, gp_placement place, const gp_ctx *ctx,
                    gp_answers *out, const char **backend, gp_error *err);

/* Answers a batch of query trees: unranked ones, without filters or totals, whose trees the
 * device's kernel takes (query/gp_tree_program.h), on the device where `place` and their
 * candidates say (one device's decoded lists); every other batch, and one the device fails, on
 * the host (gp_index_tree_query_host). *backend says who answered. */
struct gp_tree_batch;
int gp_index_tree_search(gp_index *ix, const struct gp_tree_batch *b, gp_placement place, const gp_ctx *ctx,
                         gp_answers *out, const char **backend, gp_error *err);

typedef struct gp_cached {
	uint64_t host_scratch, pinned, device;   /* bytes */
} gp_cached;

/* What the face reports of the devices, in one call (it opens the device if it was not yet). */
typedef struct gp_backend_info {
	int usable;                   /* the device serves this process's calls */
	const char *last_backend;     /* "host" or "opencl": who ran the last operation ("none") */
	const gp_device_info *device;   /* NULL when none was chosen */
	int built;                    /* its program built */
	gp_device_shape shape;            /* the launch shapes it was built with */
	int auto_device;              /* calls above the threshold go to it (not a CPU) */
	const char *reason;           /* why the device is not used, or the last failure ("" if none) */
	unsigned long device_failures;/* device calls that failed and were served by the host */
	gp_cached cached;             /* what the process keeps between calls */
	int test_hooks;               /* a test build (fault injection, forced staging) */
	size_t n_devices;             /* the devices this process uses (device is the first) */
	const gp_device_info *devices[8];
	double speeds[8];             /* their measured speeds (bytes a second; 0: not yet) */
	size_t in_set;                /* how many devices the spec matched */
	const char *rule;             /* how this process's devices were picked */
} gp_backend_info;
/* Whether an operation expecting `values` outputs would run on the device now. */
int gp_would_use_device(size_t values, const gp_ctx *ctx);

/* Between calls: the buffers this process keeps for the next call (host scratch, pinned staging,
 * device buffers) are trimmed to at most keep_bytes of host memory and keep_bytes of device
 * memory, largest first. */
void gp_trim_cached(uint64_t keep_bytes);

/* For the face's reports: the devices device_spec names (opened if they were not yet). */
void gp_backend(const char *device_spec, int device_all, gp_backend_info *info);
/* Whether device_spec is a device spec: auto, gpu, cpu, host, P:D, gpu:all,
 * cpu:all, all, or a list of P:D. */
int gp_device_spec_valid(const char *device_spec);
/* How the face calls the device spec and the every-device setting in the messages that name
 * them (defaults: "device", "every device"). */
void gp_device_option_names(const char *device, const char *every);
/* Module shutdown. */
void gp_shutdown(void);

#endif
