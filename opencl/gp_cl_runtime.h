/* State shared by the runtime's own files (gp_cl_device.c, _tuning.c, _program.c, _memory.c,
 * _upload.c, _launch.c); launchers never include it. */
#ifndef GP_CL_RUNTIME_H
#define GP_CL_RUNTIME_H

#include <sys/types.h>

#include "gp_cl_internal.h"

enum { GP_CL_UNOPENED, GP_CL_READY, GP_CL_UNUSABLE };

typedef struct gp_cl_buffer_slot {
	cl_mem mem;
	size_t size;
	void *host; /* staging slots: the buffer's pinned memory, mapped once for its lifetime */
} gp_cl_buffer_slot;

/* What the environment may change, read once when the device opens (gp_cl_knobs_read):
 * benchmarks compare tile shapes, kernel variants and upload plans with them. 0: the default. */
typedef struct gp_cl_knobs {
	int profile;                      /* GPUPOST_PROFILE: 1 kernel times, 2 also on stderr */
	unsigned tile_items;              /* GPUPOST_TILE_ITEMS: 4 or 16 */
	unsigned wah_items;               /* GPUPOST_WAH_ITEMS: 4 or 16 */
	unsigned stage_items_32;          /* GPUPOST_STAGE_ITEMS_32: 1 to 64 */
	unsigned qs_items;                /* GPUPOST_QS_ITEMS: 1 to GP_SCAN_ITEMS */
	unsigned small_group;             /* GPUPOST_SMALL_GROUP: a power of two, 8 to 256 */
	char cl_options[256];             /* GPUPOST_CL_OPTIONS, appended to the build options */
	size_t upload_threads, upload_first_kb, upload_piece_kb;   /* GPUPOST_UPLOAD_* */
	size_t index_chunk_items;         /* GPUPOST_INDEX_CHUNK: candidates of one index launch */
	unsigned index_no_prune;          /* GPUPOST_INDEX_NO_PRUNE=1: ranked OR batches unpruned */
	unsigned index_prune_min;         /* GPUPOST_INDEX_PRUNE_MIN: postings from which they are pruned */
	unsigned index_topk_tile;         /* GPUPOST_TOPK_TILE: candidates of a top k's tile */
} gp_cl_knobs;

/* One per device a process opens (the device spec names one or a set): pre-forking servers fork
 * after start-up, so nothing is opened before the first call that needs the device, and `pid`
 * tells a forked child that the state is not its. */
typedef struct gp_cl_runtime {
	int state;
	pid_t pid;
	int built;
	gp_device_info info;
	cl_platform_id platform;
	cl_device_id device;
	cl_context context;
	cl_command_queue queue;
	cl_program program;
	cl_kernel kernels[GP_K_COUNT];
	gp_cl_arg_memo memos[GP_K_COUNT];     /* each kernel's arguments as last set */
	unsigned long mem_generation;         /* device buffers released so far */
	gp_cl_buffer_slot buffers[GP_B_COUNT];
	void *mapped;                         /* the one mapping a result may hold (a call's life) */
	cl_mem mapped_mem;                    /* ... and of which buffer (NULL: pinned staging) */
	int call_pending;                     /* a call's write may still read its mirror */
	size_t stage_in_at;                   /* the next free byte of the upload ring (GP_B_STAGE_IN) */
	gp_cl_knobs knobs;
	gp_device_shape shape;                /* of the build: the -D options the kernels were built with */
	double speed;                         /* input bytes a second of its share of split calls
	                                       * (0 until measured): how the next split is weighed */
	char last_error[512];
	cl_event events[4096];            /* profiled launches not yet folded in */
	size_t n_events;
	double kernel_seconds;
} gp_cl_runtime;

/* The devices this process uses (gp_cl_device.c), and the one the launchers of this thread
 * work on: every launcher reads `gp_cl`, which is that device's state, so that a call split
 * over several devices runs each share on a thread of its own with no change to a launcher.
 * gp_cl_select() sets it. */
#define GP_CL_MAX_DEVICES 8
extern gp_cl_runtime gp_cl_devices[GP_CL_MAX_DEVICES];
extern _Thread_local gp_cl_runtime *gp_cl_current;
#define gp_cl (*gp_cl_current)

/* Whether this process opened the device and may use it. */
int gp_cl_own(void);

/* gp_cl_tuning.c: the knobs from the environment; the shapes for this device (local memory
 * and work-group limits, the knobs within them). */
void gp_cl_knobs_read(gp_cl_knobs *knobs);
void gp_cl_choose_shape(gp_device_shape *shape, size_t max_work_group, size_t local_mem, int cpu,
                        const gp_cl_knobs *knobs);

/* gp_cl_program.c: context, queue, program and kernels for the chosen device. */
int gp_cl_build(void);

/* gp_cl_upload.c: uploads from this size on are copied and written piece by piece by threads
 * (gp_cl_upload_staged: `total` bytes of the parts through pinned memory into mem at `base`;
 * it waits for the writes). */
#define GP_UPLOAD_MIN_THREADED ((size_t)4 << 20)
cl_int gp_cl_upload_staged(cl_mem mem, size_t base, uint8_t *pinned, const uint8_t *const *parts,
                           const size_t *lens, size_t n_parts, size_t total);

/* gp_cl_memory.c: pinned host memory of at least `bytes` for staging slot id. */
void *gp_cl_pinned(gp_buffer_id id, size_t bytes, gp_error *err);

/* Test builds only (configure --enable-gpupost-test-hooks): GPUPOST_FAULT=alloc makes every
 * device allocation fail, GPUPOST_FAULT=launch every kernel launch (alloc@D, launch@D: on
 * device D of the process only), read on each use so that a
 * test can set and clear it with putenv() (tests/035). Absent from a release build. */
#ifdef GP_TEST_HOOKS
int gp_cl_fault(const char *what);
#else
#define gp_cl_fault(what) 0
#endif

#endif
