#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#endif

#include "gp_cl.h"
#include "gp_pool.h"
#include "gp_kernels_src.h" /* generated from codec/gp_mod9_word.h and kernels/ at build time */

static const char *const gp_kernel_names[GP_K_COUNT] = {
	"scan_tile_u32", "scan_add_u32", "scan_tile_i64", "scan_add_i64",
	"mark_blob_starts",
	"mod9_tile_count_postings", "mod9_tile_count_postings_batch", "mod9_gap_carry",
	"mod9_tile_postings", "mod9_tile_postings_batch", "mod9_blob_offsets",
	"wah_gather", "wah_query",
	"copy_u32",
	"mod9_tile_count", "mod9_tile_decode", "s9_tile_count", "s9_tile_decode",
	"qs_tile_count", "qs_tile_decode", "wah_tile_words", "wah_tile_count",
	"wah_tile_offsets", "bitmap_tile_count", "bitmap_tile_rows", "mod9_tile_count_docs",
	"mod9_tile_docs", "mod9_tile_count_batch", "mod9_tile_count_docs_batch", "mod9_tile_decode_batch",
	"mod9_tile_docs_batch", "s9_tile_count_batch", "s9_tile_decode_batch", "qs_tile_count_batch",
	"qs_tile_decode_batch", "bitmap_tile_count_batch", "bitmap_tile_rows_batch",
	"wah_tile_count_batch", "wah_tile_offsets_batch",
};

enum { GP_CL_UNOPENED, GP_CL_READY, GP_CL_UNUSABLE };

typedef struct gp_cl_buffer_slot {
	cl_mem mem;
	size_t size;
	void *host; /* staging slots: the buffer's pinned memory, mapped once for its lifetime */
} gp_cl_buffer_slot;

/* One per process: php-fpm and Apache fork after start-up, so nothing is opened before the
 * first call that needs the device, and `pid` tells a forked child that the state is not its. */
static struct {
	int state;
	pid_t pid;
	char spec[64];
	int built;
	gp_cl_device_info info;
	cl_platform_id platform;
	cl_device_id device;
	cl_context context;
	cl_command_queue queue;
	cl_program program;
	cl_kernel kernels[GP_K_COUNT];
	gp_cl_buffer_slot buffers[GP_B_COUNT];
	size_t wg;
	unsigned stage_items, stage_items_32;   /* GP_STAGE_ITEMS and GP_STAGE_ITEMS_32 of the build */
	unsigned qs_items;                      /* GP_QS_ITEMS of the build */
	unsigned tile_items;                    /* GP_TILE_ITEMS of the build */
	unsigned wah_items;                     /* GP_WAH_ITEMS of the build */
	char last_error[512];
	int profile;
	cl_event events[4096];
	size_t n_events;
	double kernel_seconds;
} gp_cl = {.state = GP_CL_UNOPENED, .spec = "auto"};

/* The one mapping a result may hold (results live for one PHP call), and of which buffer. */
static void *gp_cl_mapped;
static cl_mem gp_cl_mapped_mem;

/* A GPU gets transfers through pinned staging buffers; a CPU device (PoCL) shares host memory,
 * where the staging copy would only add a copy. */
static void *gp_cl_pinned(gp_buffer_id id, size_t bytes, gp_error *err);

int gp_cl_staged(void)
{
	/* GPUPOST_FORCE_STAGING=1 takes the GPU's transfer path on any device (tests/038) */
	const char *force = getenv("GPUPOST_FORCE_STAGING");
	if (force && strcmp(force, "1") == 0) return 1;
	return gp_cl.info.type && strcmp(gp_cl.info.type, "cpu") != 0;
}

static const char *gp_cl_status_name(cl_int s)
{
	switch (s) {
	case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
	case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
	case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
	case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
	case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
	case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
	case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
	case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
	case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
	case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
	case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
	case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
	case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
	default: return "CL error";
	}
}

int gp_cl_fail(gp_error *err, cl_int status, const char *what)
{
	snprintf(gp_cl.last_error, sizeof(gp_cl.last_error), "%s failed: %s (%d)", what,
	         gp_cl_status_name(status), (int)status);
	if (err) {
		err->format = "OpenCL";
		err->offset = 0;
		err->cl_status = (int)status;
		snprintf(err->rule, sizeof(err->rule), "%.190s", gp_cl.last_error);
	}
	return GP_EDEVICE;
}

void gp_cl_configure(const char *device_spec)
{
	snprintf(gp_cl.spec, sizeof(gp_cl.spec), "%s", device_spec ? device_spec : "auto");
}

static void gp_cl_unusable(const char *why)
{
	gp_cl.state = GP_CL_UNUSABLE;
	gp_cl.pid = getpid();
	snprintf(gp_cl.last_error, sizeof(gp_cl.last_error), "%s", why);
}

static void gp_cl_fill_info(int pi, int di)
{
	gp_cl_device_info *in = &gp_cl.info;
	cl_device_type type = 0;
	cl_uint cu = 0;
	cl_ulong mem = 0, alloc = 0;
	size_t wg = 0;
	memset(in, 0, sizeof(*in));
	clGetPlatformInfo(gp_cl.platform, CL_PLATFORM_NAME, sizeof(in->platform) - 1, in->platform, NULL);
	clGetPlatformInfo(gp_cl.platform, CL_PLATFORM_VERSION, sizeof(in->platform_version) - 1,
	                  in->platform_version, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_NAME, sizeof(in->device) - 1, in->device, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_VENDOR, sizeof(in->vendor) - 1, in->vendor, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_VERSION, sizeof(in->version) - 1, in->version, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cu), &cu, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(mem), &mem, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(alloc), &alloc, NULL);
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL);
	in->type = (type & CL_DEVICE_TYPE_GPU) ? "gpu" : (type & CL_DEVICE_TYPE_CPU) ? "cpu" :
	           (type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator" : "other";
	in->compute_units = cu;
	in->global_mem = mem;
	in->max_alloc = alloc;
	in->max_work_group = wg;
	in->platform_index = pi;
	in->device_index = di;
}

/* Picks platform and device as gpupost.device says (API.md). Returns 0 when none matches. */
static int gp_cl_choose(void)
{
	cl_platform_id platforms[16];
	cl_uint np = 0;
	const char *spec = gp_cl.spec;
	int want_p = -1, want_d = -1;
	cl_device_type want = CL_DEVICE_TYPE_ALL;
	int pass, passes = 1;

	if (strcmp(spec, "gpu") == 0) {
		want = CL_DEVICE_TYPE_GPU;
	} else if (strcmp(spec, "cpu") == 0) {
		want = CL_DEVICE_TYPE_CPU;
	} else if (strcmp(spec, "auto") == 0) {
		passes = 2; /* a GPU on any platform first, then any device */
	} else if (sscanf(spec, "%d:%d", &want_p, &want_d) != 2 || want_p < 0 || want_d < 0) {
		snprintf(gp_cl.last_error, sizeof(gp_cl.last_error),
		         "gpupost.device=\"%s\" is not auto, gpu, cpu, host or P:D", spec);
		return 0;
	}
	if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0) {
		snprintf(gp_cl.last_error, sizeof(gp_cl.last_error), "no OpenCL platform found");
		return 0;
	}
	for (pass = 0; pass < passes; pass++) {
		cl_device_type type = passes == 2 ? (pass == 0 ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL) : want;
		for (cl_uint p = 0; p < np && p < 16; p++) {
			cl_device_id devices[16];
			cl_uint nd = 0;
			if (want_p >= 0 && (int)p != want_p) continue;
			if (clGetDeviceIDs(platforms[p], type, 16, devices, &nd) != CL_SUCCESS) continue;
			for (cl_uint d = 0; d < nd && d < 16; d++) {
				if (want_d >= 0 && (int)d != want_d) continue;
				gp_cl.platform = platforms[p];
				gp_cl.device = devices[d];
				gp_cl_fill_info((int)p, (int)d);
				return 1;
			}
		}
	}
	snprintf(gp_cl.last_error, sizeof(gp_cl.last_error),
	         "no OpenCL device matches gpupost.device=\"%s\"", spec);
	return 0;
}

/* The selector layouts the tiled MOD9 and S9 passes keep in local memory (64 and 16 uint2s). */
#define GP_LAYOUT_TABLE (64 * 8)

/* Local memory of the tiled decoders for a work-group of wg staging `stage` values per item:
 * s9_tile_decode (64-bit values, offsets and sums per word) and mod9_tile_decode (32-bit values,
 * offsets per word), the largest users of each staging width. */

static size_t gp_cl_local_need(size_t wg, size_t stage)
{
	size_t tile = wg * gp_cl.tile_items;
	return (tile + tile / 32) * (4 + 8) + wg * (4 + 8) + wg * stage * 8 + GP_LAYOUT_TABLE;
}

/* wah_gather of 31-bit groups: the words behind a tile of `items` output words an item, their
 * first groups, and the tile's groups expanded. */
static size_t gp_cl_local_need_wah(size_t wg, size_t items)
{
	return (32 * wg * items / 31 + 4) * (4 + 8 + 8);
}

static size_t gp_cl_local_need_32(size_t wg, size_t stage)
{
	size_t tile = wg * gp_cl.tile_items;
	return (tile + tile / 32) * 4 + wg * 4 + wg * stage * 4 + GP_LAYOUT_TABLE;
}

static int gp_cl_build(void)
{
	cl_int st;
	const char *src = gp_kernels_src;
	size_t wg = 256, local_mem = 0;
	cl_ulong lmem = 0;

	gp_cl.context = clCreateContext(NULL, 1, &gp_cl.device, NULL, NULL, &st);
	if (st != CL_SUCCESS) return gp_cl_fail(NULL, st, "clCreateContext");
	/* GPUPOST_PROFILE=1 (benchmarks only) times every kernel with events: gp_cl_kernel_seconds */
	const char *prof = getenv("GPUPOST_PROFILE");
	gp_cl.profile = prof ? atoi(prof) : 0;   /* 2: also each launch's time on stderr */
	gp_cl.queue = clCreateCommandQueue(gp_cl.context, gp_cl.device,
	                                   gp_cl.profile ? CL_QUEUE_PROFILING_ENABLE : 0, &st);
	if (st != CL_SUCCESS) return gp_cl_fail(NULL, st, "clCreateCommandQueue");
	gp_cl.program = clCreateProgramWithSource(gp_cl.context, 1, &src, NULL, &st);
	if (st != CL_SUCCESS) return gp_cl_fail(NULL, st, "clCreateProgramWithSource");
	/* The work-group size before the kernels are built: at most 256, a power of two, within the
	 * device's limit and small enough that the largest local-memory user (s9_tile_decode:
	 * GP_TILE_ITEMS words of offsets and sums per item, padded, two scans and the staging area;
	 * wah_gather's windows) fits. Then the values staged per item: as many as still fit, at most 16. */
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL);
	local_mem = (size_t)lmem;
	if (gp_cl.info.max_work_group && gp_cl.info.max_work_group < wg) wg = gp_cl.info.max_work_group;
	while (wg > 1 && (wg & (wg - 1))) wg &= wg - 1;
	/* GPUPOST_TILE_ITEMS (benchmarks only: 4, 8 or 16 words a work-item in the tiled MOD9 and S9
	 * decoders) replaces the default of 8 */
	const char *env = getenv("GPUPOST_TILE_ITEMS");
	gp_cl.tile_items = env && (atoi(env) == 4 || atoi(env) == 16) ? (unsigned)atoi(env) : 8u;
	while (wg > 1 && local_mem &&
	       (gp_cl_local_need(wg, 1) > local_mem || gp_cl_local_need_wah(wg, 1) > local_mem)) wg /= 2;
	/* output words an item of wah_gather: 8, or GPUPOST_WAH_ITEMS (benchmarks only: 4 or 16),
	 * fewer where local memory is short */
	env = getenv("GPUPOST_WAH_ITEMS");
	gp_cl.wah_items = env && (atoi(env) == 4 || atoi(env) == 16) ? (unsigned)atoi(env) : 8u;
	while (gp_cl.wah_items > 1 && local_mem && gp_cl_local_need_wah(wg, gp_cl.wah_items) > local_mem) {
		gp_cl.wah_items /= 2;
	}
	gp_cl.stage_items = 16;
	gp_cl.stage_items_32 = 32;
	while (gp_cl.stage_items > 1 && local_mem && gp_cl_local_need(wg, gp_cl.stage_items) > local_mem) {
		gp_cl.stage_items /= 2;
	}
	while (gp_cl.stage_items_32 > 1 && local_mem &&
	       gp_cl_local_need_32(wg, gp_cl.stage_items_32) > local_mem) {
		gp_cl.stage_items_32 /= 2;
	}
	/* GPUPOST_STAGE_ITEMS_32 and GPUPOST_QS_ITEMS (benchmarks only: bench/device_bench tries
	 * other tile shapes with them) replace the choices above, within what local memory holds */
	gp_cl.qs_items = 2;
	env = getenv("GPUPOST_STAGE_ITEMS_32");
	if (env && atoi(env) >= 1 && atoi(env) <= 64 && gp_cl_local_need_32(wg, (size_t)atoi(env)) <= local_mem) {
		gp_cl.stage_items_32 = (unsigned)atoi(env);
	}
	if ((env = getenv("GPUPOST_QS_ITEMS")) && atoi(env) >= 1 && atoi(env) <= GP_SCAN_ITEMS) {
		gp_cl.qs_items = (unsigned)atoi(env);
	}

	/* GPUPOST_CL_OPTIONS (benchmarks only: kernel variants compared in one process) is appended */
	const char *extra = getenv("GPUPOST_CL_OPTIONS");
	char options[448];
	snprintf(options, sizeof(options),
	         "-cl-std=CL1.2 -DGP_STAGE_ITEMS=%u -DGP_STAGE_ITEMS_32=%u -DGP_QS_ITEMS=%uu "
	         "-DGP_TILE_ITEMS=%uu -DGP_WAH_ITEMS=%uu %.250s", gp_cl.stage_items, gp_cl.stage_items_32,
	         gp_cl.qs_items, gp_cl.tile_items, gp_cl.wah_items, extra ? extra : "");
	st = clBuildProgram(gp_cl.program, 1, &gp_cl.device, options, NULL, NULL);
	if (st != CL_SUCCESS) {
		char log[400] = "";
		clGetProgramBuildInfo(gp_cl.program, gp_cl.device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1,
		                      log, NULL);
		gp_cl_fail(NULL, st, "clBuildProgram");
		size_t used = strlen(gp_cl.last_error);
		snprintf(gp_cl.last_error + used, sizeof(gp_cl.last_error) - used, ": %s", log);
		return GP_EDEVICE;
	}
	for (int k = 0; k < GP_K_COUNT; k++) {
		size_t kwg = 0;
		gp_cl.kernels[k] = clCreateKernel(gp_cl.program, gp_kernel_names[k], &st);
		if (st != CL_SUCCESS) {
			char what[96];
			snprintf(what, sizeof(what), "clCreateKernel(%s)", gp_kernel_names[k]);
			return gp_cl_fail(NULL, st, what);
		}
		if (clGetKernelWorkGroupInfo(gp_cl.kernels[k], gp_cl.device, CL_KERNEL_WORK_GROUP_SIZE,
		                             sizeof(kwg), &kwg, NULL) == CL_SUCCESS && kwg < wg) {
			wg = kwg;
		}
	}
	/* then the largest power of two that every built kernel allows */
	while (wg > 1 && (wg & (wg - 1))) wg &= wg - 1;
	gp_cl.wg = wg ? wg : 1;
	gp_cl.built = 1;
	return GP_OK;
}

int gp_cl_available(void)
{
	if (gp_cl.state != GP_CL_UNOPENED && gp_cl.pid != getpid()) {
		if (gp_cl.state == GP_CL_READY) {
			/* The parent's context is not ours to use or release: a driver can hang on it. */
			snprintf(gp_cl.last_error, sizeof(gp_cl.last_error),
			         "process %d forked after process %d opened the device: the host path "
			         "serves this process", (int)getpid(), (int)gp_cl.pid);
			gp_cl.state = GP_CL_UNUSABLE;
			gp_cl.pid = getpid();
			gp_cl.built = 0;
			memset(gp_cl.buffers, 0, sizeof(gp_cl.buffers));
			return 0;
		}
		gp_cl.state = GP_CL_UNOPENED; /* never opened by the parent: this process may */
	}
	if (gp_cl.state == GP_CL_READY) return 1;
	if (gp_cl.state == GP_CL_UNUSABLE) return 0;
	gp_cl.pid = getpid();
	if (strcmp(gp_cl.spec, "host") == 0) {
		gp_cl_unusable("gpupost.device=host: OpenCL is not used");
		return 0;
	}
	if (!gp_cl_choose()) {
		gp_cl.state = GP_CL_UNUSABLE;
		return 0;
	}
	if (gp_cl_build() != GP_OK) {
		gp_cl.state = GP_CL_UNUSABLE;
		return 0;
	}
	gp_cl.state = GP_CL_READY;
	return 1;
}

const gp_cl_device_info *gp_cl_info(void)
{
	return gp_cl.device && gp_cl.pid == getpid() ? &gp_cl.info : NULL;
}

int gp_cl_program_built(void)
{
	return gp_cl.built && gp_cl.pid == getpid();
}

const char *gp_cl_last_error(void)
{
	return gp_cl.last_error;
}

static void gp_cl_release_slot(gp_cl_buffer_slot *slot)
{
	if (slot->host) {
		clEnqueueUnmapMemObject(gp_cl.queue, slot->mem, slot->host, 0, NULL, NULL);
		clFinish(gp_cl.queue);
		slot->host = NULL;
	}
	if (slot->mem) clReleaseMemObject(slot->mem);
	slot->mem = NULL;
	slot->size = 0;
}

void gp_cl_release_buffers(void)
{
	if (gp_cl_mapped) gp_cl_unmap(gp_cl_mapped);
	for (int b = 0; b < GP_B_COUNT; b++) gp_cl_release_slot(&gp_cl.buffers[b]);
}

static int gp_cl_own(void)
{
	return gp_cl.state == GP_CL_READY && gp_cl.pid == getpid();
}

/* Bytes held in pinned staging slots (pinned = 1) or device-only slots (pinned = 0). */
static uint64_t gp_cl_held(int pinned)
{
	uint64_t held = 0;
	for (int b = 0; b < GP_B_COUNT; b++) {
		const gp_cl_buffer_slot *slot = &gp_cl.buffers[b];
		if (slot->mem && (slot->host != NULL) == pinned) held += slot->size;
	}
	return held;
}

/* Frees the largest slots of one kind until at most keep bytes of it are held. */
static void gp_cl_trim_kind(int pinned, uint64_t keep)
{
	uint64_t held = gp_cl_held(pinned);
	while (held > keep) {
		gp_cl_buffer_slot *largest = NULL;
		for (int b = 0; b < GP_B_COUNT; b++) {
			gp_cl_buffer_slot *slot = &gp_cl.buffers[b];
			if (slot->mem && (slot->host != NULL) == pinned && (!largest || slot->size > largest->size)) {
				largest = slot;
			}
		}
		held -= largest->size;
		gp_cl_release_slot(largest);
	}
}

uint64_t gp_cl_trim(uint64_t pinned_keep, uint64_t device_keep)
{
	if (!gp_cl_own()) return 0;
	if (gp_cl_mapped) gp_cl_unmap(gp_cl_mapped);   /* no result is held between calls */
	gp_cl_trim_kind(1, pinned_keep);
	gp_cl_trim_kind(0, device_keep);
	return gp_cl_held(1);
}

void gp_cl_cached(uint64_t *pinned, uint64_t *device)
{
	*pinned = gp_cl_own() ? gp_cl_held(1) : 0;
	*device = gp_cl_own() ? gp_cl_held(0) : 0;
}

void gp_cl_recover(int cl_status)
{
	if (gp_cl.state != GP_CL_READY || gp_cl.pid != getpid()) return;
	clFinish(gp_cl.queue);
	if (cl_status == CL_MEM_OBJECT_ALLOCATION_FAILURE || cl_status == CL_OUT_OF_RESOURCES ||
	    cl_status == CL_OUT_OF_HOST_MEMORY || cl_status == CL_INVALID_BUFFER_SIZE) {
		gp_cl_release_buffers();
	}
}

void gp_cl_shutdown(void)
{
	gp_pool_shutdown();
	if (gp_cl.pid != getpid() || gp_cl.state != GP_CL_READY) return;
	gp_cl_release_buffers();
	for (int k = 0; k < GP_K_COUNT; k++) {
		if (gp_cl.kernels[k]) clReleaseKernel(gp_cl.kernels[k]);
		gp_cl.kernels[k] = NULL;
	}
	if (gp_cl.program) clReleaseProgram(gp_cl.program);
	if (gp_cl.queue) clReleaseCommandQueue(gp_cl.queue);
	if (gp_cl.context) clReleaseContext(gp_cl.context);
	gp_cl.program = NULL;
	gp_cl.queue = NULL;
	gp_cl.context = NULL;
	gp_cl.built = 0;
	gp_cl.state = GP_CL_UNOPENED;
}

cl_command_queue gp_cl_queue(void) { return gp_cl.queue; }
cl_kernel gp_cl_kernel(gp_kernel_id id) { return gp_cl.kernels[id]; }
size_t gp_cl_wg(void) { return gp_cl.wg; }
size_t gp_cl_qs_items(void) { return gp_cl.qs_items; }
size_t gp_cl_tile_items(void) { return gp_cl.tile_items; }
size_t gp_cl_wah_items(void) { return gp_cl.wah_items; }

size_t gp_cl_qs_stage_items(void) { return gp_cl.stage_items_32 < 16 ? gp_cl.stage_items_32 : 16; }

size_t gp_cl_stage_items(size_t value_bytes)
{
	return value_bytes == 8 ? gp_cl.stage_items : gp_cl.stage_items_32;
}

/* Fault injection for the tests (tests/035_device_faults.phpt): GPUPOST_FAULT=alloc makes every
 * device allocation fail, GPUPOST_FAULT=launch every kernel launch. Read on each use, so that a
 * test can set and clear it with putenv(). */
static int gp_cl_fault(const char *what)
{
	const char *f = getenv("GPUPOST_FAULT");
	return f && strcmp(f, what) == 0;
}

size_t gp_cl_buffer_capacity(gp_buffer_id id)
{
	return gp_cl.buffers[id].mem ? gp_cl.buffers[id].size : 0;
}

cl_mem gp_cl_buffer(gp_buffer_id id, size_t bytes, gp_error *err)
{
	gp_cl_buffer_slot *slot = &gp_cl.buffers[id];
	cl_int st;
	if (gp_cl_fault("alloc")) {
		gp_cl_fail(err, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer (injected by GPUPOST_FAULT)");
		return NULL;
	}
	if (bytes == 0) bytes = 64;
	if (slot->mem && slot->size >= bytes) return slot->mem;
	if (slot->mem) clReleaseMemObject(slot->mem);
	slot->mem = NULL;
	slot->size = 0;
	/* Grow by a quarter more than asked so that slowly growing inputs do not reallocate. */
	size_t want = bytes + bytes / 4;
	if (want < bytes || (gp_cl.info.max_alloc && want > gp_cl.info.max_alloc)) want = bytes;
	if (gp_cl.info.max_alloc && want > gp_cl.info.max_alloc) {
		gp_cl_fail(err, CL_INVALID_BUFFER_SIZE, "device buffer larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE");
		return NULL;
	}
	slot->mem = clCreateBuffer(gp_cl.context, CL_MEM_READ_WRITE, want, NULL, &st);
	if (st != CL_SUCCESS) {
		gp_cl_fail(err, st, "clCreateBuffer");
		return NULL;
	}
	slot->size = want;
	return slot->mem;
}

int gp_cl_run(cl_kernel kernel, size_t items, gp_error *err)
{
	size_t wg = gp_cl.wg, global = (items + wg - 1) / wg * wg;
	cl_int st;
	if (global == 0) return GP_OK;
	if (gp_cl_fault("launch")) {
		return gp_cl_fail(err, CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel (injected by GPUPOST_FAULT)");
	}
	if (gp_cl.profile && gp_cl.n_events == sizeof(gp_cl.events) / sizeof(gp_cl.events[0])) {
		gp_cl_kernel_seconds(); /* folds the events in so far */
	}
	st = clEnqueueNDRangeKernel(gp_cl.queue, kernel, 1, NULL, &global, &wg, 0, NULL,
	                            gp_cl.profile ? &gp_cl.events[gp_cl.n_events++] : NULL);
	if (st == CL_SUCCESS && gp_cl.profile == 2) {
		cl_ulong t0 = 0, t1 = 0;
		char name[64] = "";
		cl_event ev = gp_cl.events[gp_cl.n_events - 1];
		clWaitForEvents(1, &ev);
		clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL);
		clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL);
		clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL);
		fprintf(stderr, "gpupost kernel %-20s %10zu items %9.3f ms\n", name, global, (t1 - t0) / 1e6);
	}
	return st == CL_SUCCESS ? GP_OK : gp_cl_fail(err, st, "clEnqueueNDRangeKernel");
}

/* memcpy into pinned staging memory with non-temporal stores: the bytes are for the DMA, not
 * for this core's cache, and a plain store first reads each line it fills (a third more memory
 * traffic on a host whose memory bandwidth the DMA shares). The caller fences before the bus
 * may read them. */
static void gp_copy_streaming(uint8_t *dst, const uint8_t *src, size_t n)
{
#if defined(__x86_64__) || defined(_M_X64)
	size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
	if (head > n) head = n;
	memcpy(dst, src, head);
	size_t i = head;
	for (; i + 64 <= n; i += 64) {
		__m128i a = _mm_loadu_si128((const __m128i *)(src + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(src + i + 16));
		__m128i c = _mm_loadu_si128((const __m128i *)(src + i + 32));
		__m128i d = _mm_loadu_si128((const __m128i *)(src + i + 48));
		_mm_stream_si128((__m128i *)(dst + i), a);
		_mm_stream_si128((__m128i *)(dst + i + 16), b);
		_mm_stream_si128((__m128i *)(dst + i + 32), c);
		_mm_stream_si128((__m128i *)(dst + i + 48), d);
	}
	memcpy(dst + i, src + i, n - i);
#else
	memcpy(dst, src, n);
#endif
}

static void gp_copy_fence(void)
{
#if defined(__x86_64__) || defined(_M_X64)
	_mm_sfence();
#endif
}

/* Copies bytes [from, to) of the parts laid end to end into dst + from; `streaming` for
 * staging memory (see gp_copy_streaming). */
static void gp_copy_parts(uint8_t *dst, const uint8_t *const *parts, const size_t *lens,
                          size_t n_parts, size_t from, size_t to, int streaming)
{
	for (size_t i = 0, at = 0; i < n_parts && at < to; at += lens[i], i++) {
		size_t a = at > from ? at : from, b = at + lens[i] < to ? at + lens[i] : to;
		if (a >= b) continue;
		if (streaming) gp_copy_streaming(dst + a, parts[i] + (a - at), b - a);
		else memcpy(dst + a, parts[i] + (a - at), b - a);
	}
	if (streaming) gp_copy_fence();
}

/* A staged upload is shared among threads: one thread's memcpy moves a fraction of what the bus
 * takes from pinned memory (6-14 against 53-55 GB/s on the GPU machines' hosts,
 * docs/BENCHMARKS.md). Each worker takes the next piece, copies it into the pinned staging
 * memory and enqueues its write at once (OpenCL queues are thread-safe), so the DMA overlaps
 * the copies. The workers are a pool kept between calls (gp_pool.c). The first pieces are small
 * and grow (doubling every round of workers up to GP_UPLOAD_PIECE): the DMA starts after a
 * 256 KB copy rather than a 2 MB one, and the later pieces stay few (32 writes of 2 MB took
 * 6-7% longer than one of 64 MB). Measured on the H100's lent hosts (seventh session,
 * bench/experiments/upload_pipeline.c and device_bench): 256 KB to 4 MB pieces on 7 workers
 * 0.76-0.82 of the pinned write back to back against 0.71-0.77 for 2 MB throughout on 8, and no
 * difference right after other work (0.54-0.74 for either). The best number of workers depends on
 * how fast one host thread copies: 7 were 1.5-5% faster than 8 in four runs of five on hosts
 * copying 7.5-10 GB/s a thread (8 copying threads there also slowed a DMA beside them by a
 * quarter), 1.5-4% slower on a host copying 6-7 GB/s; 6 fell behind there. Registering the
 * caller's memory with the driver instead (CL_MEM_USE_HOST_PTR) ran at 3-12 GB/s: the driver
 * pins pages one call at a time. */
#define GP_UPLOAD_THREADS_DEFAULT 7
#define GP_UPLOAD_MIN_THREADED ((size_t)4 << 20)
#define GP_UPLOAD_FIRST ((size_t)256 << 10)
#define GP_UPLOAD_PIECE ((size_t)4 << 20)

typedef struct gp_upload_job {
	const uint8_t *const *parts;
	const size_t *lens;
	size_t n_parts, total, first, piece, workers;
	uint8_t *pinned;
	cl_mem mem;
	atomic_size_t next;      /* the next piece to take */
	atomic_int status;       /* the first failure; the others stop taking pieces */
} gp_upload_job;

/* Where piece k starts: `workers` pieces of `first` bytes, as many of twice that, and so on up
 * to `piece` bytes, which the rest have. A piece ends where the next starts, so the pieces
 * cover the blob whatever the plan. */
static size_t gp_upload_piece_start(const gp_upload_job *job, size_t k)
{
	size_t at = 0, size = job->first;
	while (size < job->piece && k >= job->workers) {
		at += job->workers * size;
		k -= job->workers;
		size *= 2;
	}
	if (size > job->piece) size = job->piece;
	return at + k * size;
}

static void gp_upload_worker(void *arg)
{
	gp_upload_job *job = arg;
	while (atomic_load(&job->status) == CL_SUCCESS) {
		size_t k = atomic_fetch_add(&job->next, 1);
		size_t a = gp_upload_piece_start(job, k);
		if (a >= job->total) break;
		size_t b = gp_upload_piece_start(job, k + 1);
		if (b > job->total) b = job->total;
		gp_copy_parts(job->pinned, job->parts, job->lens, job->n_parts, a, b, 1);
		cl_int st = clEnqueueWriteBuffer(gp_cl.queue, job->mem, CL_FALSE, a, b - a, job->pinned + a,
		                                 0, NULL, NULL);
		if (st != CL_SUCCESS) {
			int ok = CL_SUCCESS;
			atomic_compare_exchange_strong(&job->status, &ok, st);
		}
	}
}

/* env: GPUPOST_UPLOAD_THREADS, GPUPOST_UPLOAD_FIRST and GPUPOST_UPLOAD_PIECE (KB), for
 * benchmarks only (bench/device_bench compares them). */
static size_t gp_upload_env(const char *name, size_t fallback)
{
	const char *v = getenv(name);
	return v && atoi(v) > 0 ? (size_t)atoi(v) : fallback;
}

static cl_int gp_upload_staged(cl_mem mem, uint8_t *pinned, const uint8_t *const *parts,
                               const size_t *lens, size_t n_parts, size_t total)
{
	gp_upload_job job = {
		.parts = parts, .lens = lens, .n_parts = n_parts, .total = total,
		.first = gp_upload_env("GPUPOST_UPLOAD_FIRST", GP_UPLOAD_FIRST >> 10) << 10,
		.piece = gp_upload_env("GPUPOST_UPLOAD_PIECE", GP_UPLOAD_PIECE >> 10) << 10,
		.pinned = pinned, .mem = mem,
	};
	if (job.piece < ((size_t)64 << 10)) job.piece = (size_t)64 << 10;
	if (job.first < ((size_t)64 << 10) || job.first > job.piece) job.first = job.piece;
	atomic_init(&job.next, 0);
	atomic_init(&job.status, CL_SUCCESS);
	size_t n = gp_upload_env("GPUPOST_UPLOAD_THREADS", GP_UPLOAD_THREADS_DEFAULT);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus > 0 && n > (size_t)cpus) n = (size_t)cpus;
	if (n > GP_POOL_MAX) n = GP_POOL_MAX;
	if (total < GP_UPLOAD_MIN_THREADED) n = 1;
	job.workers = n;
	gp_pool_run(n, gp_upload_worker, &job);
	/* the staging memory is reused by the next upload: wait until the writes have read it */
	cl_int fin = clFinish(gp_cl.queue);
	cl_int st = atomic_load(&job.status);
	return st != CL_SUCCESS ? st : fin;
}

cl_mem gp_cl_upload(gp_buffer_id id, const uint8_t *const *parts, const size_t *lens,
                    size_t n_parts, size_t total, gp_error *err)
{
	/* On a GPU the parts are gathered in pinned staging memory (by threads, piece by piece, each
	 * piece written as soon as it is there: gp_upload_staged); a CPU device shares host memory,
	 * so its buffer is mapped and written directly. */
	cl_int st;
	cl_mem mem = gp_cl_buffer(id, total, err);
	uint8_t *dst;
	if (!mem) return NULL;
	if (total == 0) return mem;
	if (gp_cl_staged()) {
		if (!(dst = gp_cl_pinned(GP_B_STAGE_IN, total, err))) return NULL;
		st = gp_upload_staged(mem, dst, parts, lens, n_parts, total);
		if (st != CL_SUCCESS) {
			gp_cl_fail(err, st, "clEnqueueWriteBuffer");
			return NULL;
		}
		return mem;
	}
	dst = clEnqueueMapBuffer(gp_cl.queue, mem, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, total,
	                         0, NULL, NULL, &st);
	if (st != CL_SUCCESS) {
		gp_cl_fail(err, st, "clEnqueueMapBuffer");
		return NULL;
	}
	gp_copy_parts(dst, parts, lens, n_parts, 0, total, 0);
	st = clEnqueueUnmapMemObject(gp_cl.queue, mem, dst, 0, NULL, NULL);
	if (st != CL_SUCCESS) {
		gp_cl_fail(err, st, "clEnqueueUnmapMemObject");
		return NULL;
	}
	return mem;
}

/* Pinned host memory of at least `bytes` for staging slot id: a CL_MEM_ALLOC_HOST_PTR buffer
 * mapped once and kept mapped, the host side of blocking reads and writes that then run at the
 * bus's speed (NVIDIA's recommended pattern). */
static void *gp_cl_pinned(gp_buffer_id id, size_t bytes, gp_error *err)
{
	gp_cl_buffer_slot *slot = &gp_cl.buffers[id];
	cl_int st;
	if (gp_cl_fault("alloc")) {
		gp_cl_fail(err, CL_MEM_OBJECT_ALLOCATION_FAILURE, "clCreateBuffer (injected by GPUPOST_FAULT)");
		return NULL;
	}
	if (slot->host && slot->size >= bytes) return slot->host;
	gp_cl_release_slot(slot);
	size_t want = bytes + bytes / 4 > bytes ? bytes + bytes / 4 : bytes;
	if (want < 4096) want = 4096;
	slot->mem = clCreateBuffer(gp_cl.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, want, NULL, &st);
	if (st != CL_SUCCESS) {
		slot->mem = NULL;
		gp_cl_fail(err, st, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
		return NULL;
	}
	slot->host = clEnqueueMapBuffer(gp_cl.queue, slot->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, want,
	                                0, NULL, NULL, &st);
	if (st != CL_SUCCESS) {
		clReleaseMemObject(slot->mem);
		slot->mem = NULL;
		slot->host = NULL;
		gp_cl_fail(err, st, "clEnqueueMapBuffer(staging)");
		return NULL;
	}
	slot->size = want;
	return slot->host;
}

void *gp_cl_download_parts(const cl_mem *srcs, const size_t *bytes, size_t n, size_t *at,
                           size_t *total, gp_error *err)
{
	size_t end = 0;
	for (size_t i = 0; i < n; i++) {   /* each part at a 64-byte boundary */
		at[i] = end;
		end += (bytes[i] + 63) & ~(size_t)63;
	}
	if (gp_cl_mapped) gp_cl_unmap(gp_cl_mapped);
	uint8_t *pinned = gp_cl_pinned(GP_B_STAGE_OUT, end, err);
	if (!pinned) return NULL;
	cl_int st = CL_SUCCESS;
	for (size_t i = 0; i < n && st == CL_SUCCESS; i++) {
		if (bytes[i]) {
			st = clEnqueueReadBuffer(gp_cl.queue, srcs[i], CL_FALSE, 0, bytes[i], pinned + at[i], 0,
			                         NULL, NULL);
		}
	}
	cl_int fin = clFinish(gp_cl.queue);   /* the reads land before the memory is used or reused */
	if (st != CL_SUCCESS || fin != CL_SUCCESS) {
		gp_cl_fail(err, st != CL_SUCCESS ? st : fin, "clEnqueueReadBuffer");
		return NULL;
	}
	gp_cl_mapped = pinned;
	gp_cl_mapped_mem = NULL;   /* stays mapped: nothing to unmap */
	*total = end;
	return pinned;
}

void *gp_cl_download_mapped(cl_mem src, size_t bytes, gp_error *err)
{
	cl_int st;
	if (gp_cl_staged()) {   /* a read into the pinned staging memory, lent until the next call */
		size_t at, total;
		return gp_cl_download_parts(&src, &bytes, 1, &at, &total, err);
	}
	if (gp_cl_mapped) gp_cl_unmap(gp_cl_mapped);
	void *p = clEnqueueMapBuffer(gp_cl.queue, src, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL, &st);
	if (st != CL_SUCCESS) {
		gp_cl_fail(err, st, "clEnqueueMapBuffer");
		return NULL;
	}
	gp_cl_mapped = p;
	gp_cl_mapped_mem = src;
	return p;
}

void gp_cl_unmap(void *p)
{
	if (!p || p != gp_cl_mapped) return;
	if (gp_cl.state == GP_CL_READY && gp_cl.pid == getpid() && gp_cl_mapped_mem) {
		clEnqueueUnmapMemObject(gp_cl.queue, gp_cl_mapped_mem, p, 0, NULL, NULL);
		clFinish(gp_cl.queue);
	}
	gp_cl_mapped = NULL;
	gp_cl_mapped_mem = NULL;
}

double gp_cl_kernel_seconds(void)
{
	if (gp_cl.n_events) clWaitForEvents((cl_uint)gp_cl.n_events, gp_cl.events);
	for (size_t i = 0; i < gp_cl.n_events; i++) {
		cl_ulong t0 = 0, t1 = 0;
		clGetEventProfilingInfo(gp_cl.events[i], CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL);
		clGetEventProfilingInfo(gp_cl.events[i], CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL);
		gp_cl.kernel_seconds += (double)(t1 - t0) * 1e-9;
		clReleaseEvent(gp_cl.events[i]);
	}
	gp_cl.n_events = 0;
	double total = gp_cl.kernel_seconds;
	return total;
}

void gp_cl_kernel_seconds_reset(void)
{
	gp_cl_kernel_seconds();
	gp_cl.kernel_seconds = 0;
}

static cl_int gp_cl_args_list(cl_kernel k, cl_uint at, int n, va_list ap)
{
	cl_int st = CL_SUCCESS;
	for (int i = 0; i < n; i++) {
		size_t size = va_arg(ap, size_t);
		const void *value = va_arg(ap, const void *);
		st |= clSetKernelArg(k, at + (cl_uint)i, size, value);
	}
	return st;
}

cl_int gp_cl_args(cl_kernel k, int n, ...)
{
	va_list ap;
	va_start(ap, n);
	cl_int st = gp_cl_args_list(k, 0, n, ap);
	va_end(ap);
	return st;
}

cl_int gp_cl_args_at(cl_kernel k, cl_uint at, int n, ...)
{
	va_list ap;
	va_start(ap, n);
	cl_int st = gp_cl_args_list(k, at, n, ap);
	va_end(ap);
	return st;
}

int gp_cl_read_at(cl_mem mem, size_t offset, size_t bytes, void *dst, gp_error *err)
{
	cl_int st;
	if (bytes == 0) return GP_OK;
	st = clEnqueueReadBuffer(gp_cl_queue(), mem, CL_TRUE, offset, bytes, dst, 0, NULL, NULL);
	return st == CL_SUCCESS ? GP_OK : gp_cl_fail(err, st, "clEnqueueReadBuffer");
}

int gp_cl_read(cl_mem mem, size_t bytes, void *dst, gp_error *err)
{
	return gp_cl_read_at(mem, 0, bytes, dst, err);
}

int gp_cl_fill_u32(cl_mem mem, cl_uint pattern, size_t bytes, gp_error *err)
{
	cl_int st = clEnqueueFillBuffer(gp_cl_queue(), mem, &pattern, sizeof(pattern), 0, bytes, 0,
	                                NULL, NULL);
	return st == CL_SUCCESS ? GP_OK : gp_cl_fail(err, st, "clEnqueueFillBuffer");
}

