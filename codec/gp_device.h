/* What a device is, as every layer may describe it: plain C, no OpenCL types. The runtime
 * (opencl/) fills these; dispatch hands them to the glue for gpu_info() and phpinfo. */
#ifndef GP_DEVICE_H
#define GP_DEVICE_H

#include <stddef.h>

typedef struct gp_device_info {
	char platform[128], platform_version[128];
	char device[128], vendor[128], version[128];
	const char *type;           /* "gpu", "cpu", "accelerator", "other" */
	unsigned compute_units;
	unsigned long long global_mem, max_alloc;
	size_t max_work_group;
	int platform_index, device_index;
	int fp64;                   /* doubles in kernels (cl_khr_fp64): the index's ranked queries */
} gp_device_info;

/* The launch shapes chosen for the device when its program was built (opencl/gp_cl_tuning.c). */
typedef struct gp_device_shape {
	size_t work_group;          /* work-items a group; global sizes are rounded up to it */
	size_t small_group;         /* the least group a one-tile call runs with (<= work_group) */
	size_t stage_items_64;      /* 64-bit values an item stages in local memory (GP_STAGE_ITEMS) */
	size_t stage_items_32;      /* 32-bit values likewise (GP_STAGE_ITEMS_32) */
	size_t qs_items;            /* upper words an item in QS's tiles (GP_QS_ITEMS) */
	size_t tile_items;          /* words an item in the tiled MOD9 and S9 decoders (GP_TILE_ITEMS) */
	size_t wah_items;           /* output words an item of wah_gather (GP_WAH_ITEMS) */
} gp_device_shape;

#endif
