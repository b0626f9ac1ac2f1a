/* The device runtime as dispatch sees it: which device, whether it can be used, what it keeps,
 * and one entry point per device operation. Everything else (kernels, buffers, transfers,
 * launches) is for the launchers: gp_cl_internal.h. Knows no face.
 *
 * Layout of opencl/: gp_cl_device.c (platform and device choice, the per-process state, fork
 * safety), gp_cl_tuning.c (launch shapes per device, the environment's overrides read once),
 * gp_cl_program.c (the program built from the sources compiled into the .so), gp_cl_memory.c
 * (buffer slots, pinned staging, downloads, trimming), gp_cl_upload.c (the threaded upload, on
 * codec/gp_pool.c's threads), gp_cl_launch.c (launches, arguments, profiling), then one
 * launcher per format (gp_cl_mod9.c, gp_cl_s9.c, gp_cl_qs.c, gp_cl_wah.c, gp_cl_scan.c) over the
 * batch helpers of gp_cl_batch.c. */
#ifndef GP_CL_H
#define GP_CL_H

#include <stddef.h>
#include <stdint.h>

#include "../codec/gp_common.h"
#include "../codec/gp_device.h"

/* A device spec read (no OpenCL work): which kind of device, and whether every one of
 * that kind (gpu:all, cpu:all, all), or the devices it lists (P:D, or P:D,P:D,... up to
 * GP_CL_SPEC_MAX). 1 when the value is one of these, 0 when not. */
#define GP_CL_SPEC_MAX 8
typedef struct gp_cl_spec {
	enum { GP_CL_SPEC_AUTO, GP_CL_SPEC_GPU, GP_CL_SPEC_CPU, GP_CL_SPEC_ANY, GP_CL_SPEC_HOST, GP_CL_SPEC_LIST } kind;
	int every;                    /* every device of the kind, not the first */
	size_t n;                     /* LIST: the devices named, in order */
	int platform[GP_CL_SPEC_MAX], device[GP_CL_SPEC_MAX];
} gp_cl_spec;
int gp_cl_spec_parse(const char *value, gp_cl_spec *spec);

/* Opens the devices device_spec names (one device, or a set) and builds the program on each, once
 * per process: the first call's spec opens them, and a process keeps them (the spec is fixed for
 * the process). Of a set, the process uses every device when all_devices, else one picked by a
 * ticket that spreads the processes evenly. Returns 1 when a device can be used by this process, 0 when calls must take
 * the host path (no device, "host", a build failure, or a process forked after the device was
 * opened). No OpenCL work happens before the first call that asks. */
int gp_cl_available(const char *device_spec, int all_devices);
/* The names the face gives the device spec and the every-device setting, for messages (strings
 * that outlive the process's use of the devices). */
void gp_cl_option_names(const char *device, const char *every);

/* The devices this process uses (0 when none), numbered 0 .. n-1; how many the spec matched;
 * how they were picked (for gpu_info()). The launchers of a thread work on the device it
 * selected (gp_cl_select; device 0 until then): a call split over devices runs each share on
 * a thread that selected its device. */
size_t gp_cl_device_count(void);
size_t gp_cl_devices_in_set(void);
const char *gp_cl_device_rule(void);
void gp_cl_select(size_t d);
size_t gp_cl_selected(void);
const gp_device_info *gp_cl_info_of(size_t d);
/* The first of the process's devices that is the same OpenCL device as d (a device listed twice
 * has a context for each listing), or a CPU device of d's platform when d is one (they share the
 * host's cores): d itself when none before it is. Split calls run such devices' shares in turn. */
size_t gp_cl_physical(size_t d);
/* Device d's measured speed (input bytes a second over its shares of split calls; 0 before the
 * first), and a share's measurement added to it. */
double gp_cl_speed(size_t d);
void gp_cl_speed_note(size_t d, double bytes, double seconds);

/* What gp_cl_available found (the selected device); NULL before it ran or when no device was
 * chosen. */
const gp_device_info *gp_cl_info(void);
int gp_cl_program_built(void);
/* The shapes of the built program; 0 when it is not built. */
int gp_cl_shape_of(gp_device_shape *shape);
const char *gp_cl_last_error(void);   /* why the device is not used, or the last failure */

/* After a failed device call: waits for the queue, and drops the cached buffers when the failure
 * was about memory, so that the next call can succeed. */
void gp_cl_recover(int cl_status);

/* Between calls: frees the largest pinned staging buffers until at most pinned_keep bytes of
 * them are held, and the largest device buffers until at most device_keep; returns the pinned
 * bytes kept. gp_cl_cached tells what is held now (0 and 0 before the device is opened). */
uint64_t gp_cl_trim(uint64_t pinned_keep, uint64_t device_keep);
void gp_cl_cached(uint64_t *pinned, uint64_t *device);

/* Releases everything this process opened (module shutdown). */
void gp_cl_shutdown(void);

/* --- the device operations (one launcher file each) --- */

struct gp_result;
struct gp_batch_in;   /* codec/gp_batch.h: the blobs, the mode, the MOD9 estimate */
/* The batch decodes, one launcher file each, filling the result as the host drivers of
 * codec/gp_batch.c do: one upload, one sequence of launches, one download (two where the sizes
 * outgrow the estimate). The caller checked the headers (S9, QS, WAH: every nbits < 2^32; MOD9:
 * lengths a multiple of 4). GP_EFORMAT (no detail) when a kernel flagged the input: the host
 * decoder then names it. */
int gp_cl_mod9_decode(const struct gp_batch_in *in, struct gp_result *r, gp_error *err);
int gp_cl_s9_decode(const struct gp_batch_in *in, struct gp_result *r, gp_error *err);
int gp_cl_qs_decode(const struct gp_batch_in *in, struct gp_result *r, gp_error *err);
int gp_cl_vbyte_decode(const struct gp_batch_in *in, struct gp_result *r, gp_error *err);
int gp_cl_gvarint_decode(const struct gp_batch_in *in, struct gp_result *r, gp_error *err);
/* WAH (gp_cl_wah.c): the rows of each blob; the bitmap bytes of one blob; the rows of AND/OR over
 * all. */
int gp_cl_wah_rows(const struct gp_batch_in *in, struct gp_result *r, gp_error *err);
int gp_cl_wah_decompress(const uint8_t *blob, size_t len, uint8_t *out, gp_error *err);
int gp_cl_wah_query(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs, int op,
                    struct gp_result *r, gp_error *err);

/* GpuPost\Index (gp_cl_index.c): the lists made resident (ix->device, freed with the index),
 * decoded or (ix->device_compressed) as given, the latter uploaded from `image` (the file image
 * it was opened from, in pinned memory) when not NULL; and a batch of queries answered from
 * them, only the answers brought back. */
struct gp_index;
struct gp_query_batch;
struct gp_answers;
struct gp_budget;
int gp_cl_index_upload(struct gp_index *ix, const uint8_t *image, gp_error *err);   /* GP_EVALUE: past gp_cl_index_fits */
/* Whether a device copy's 32-bit offsets hold lists of `postings` postings and `positions`
 * positions (under the test hooks, GPUPOST_TEST_DEVICE_OFFSETS lowers the bound, so that the
 * tests reach it with small indexes). */
int gp_cl_index_fits(uint64_t postings, uint64_t positions);
int gp_cl_index_query(const struct gp_index *ix, const struct gp_query_batch *q,
                      const struct gp_budget *budget, struct gp_answers *out, gp_error *err);
/* A batch of query trees, compiled (query/gp_tree_program.h), answered over the resident decoded
 * lists (gp_cl_tree.c): docs, or with count_only each tree's count; with a ranking (rk not
 * NULL), each tree's best rk->limit by bm25() with their scores. sel (NULL: none) gives the
 * batch's filters, prior and order (query/gp_tree_query.h's gp_tree_batch: those fields only;
 * they need the index's attributes resident and doubles on the device); ordered, a doc's score is
 * the order's key (its attribute, negated ascending, -inf without one). GP_EVALUE: a tree of 2^32
 * or more candidates (the host answers it). */
struct gp_tree_programs;
struct gp_tree_ranking;
struct gp_tree_batch;
int gp_cl_tree_query(const struct gp_index *ix, const struct gp_tree_programs *p, const struct gp_tree_ranking *rk,
                     const struct gp_tree_batch *sel, int count_only, const struct gp_budget *budget,
                     struct gp_answers *out, gp_error *err);

/* Pinned host memory of `bytes` for a file image that is uploaded from (GpuPost\Index::open):
 * NULL on failure, or on a CPU device (which reads host memory as it is); freed with gp_cl_pinned_image_free(handle, p). */
void *gp_cl_pinned_image(size_t bytes, void **handle, gp_error *err);
void gp_cl_pinned_image_free(void *handle, void *p);

/* gpu_prefix_sum on the device (gp_cl_scan.c): out[i] = sum of in[0..i] (inclusive) or
 * in[0..i-1]. */
int gp_cl_prefix_sum(const int64_t *in, size_t n, int inclusive, int64_t *out, gp_error *err);

#endif
