/* The program: context and queue for the chosen device, the kernels compiled from the sources
 * built into the .so with the device's launch shapes as -D options, and every kernel looked up
 * once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_cl_runtime.h"
#include "gp_kernels_src.h" /* generated from codec/gp_mod9_word.h and kernels/ at build time */

static const char *const gp_kernel_names[GP_K_COUNT] = {
#define GP_KERNEL_NAME(id, name) #name,
	GP_KERNELS(GP_KERNEL_NAME)
#undef GP_KERNEL_NAME
};

const char *gp_cl_kernel_name(cl_kernel k)
{
	for (int i = 0; i < GP_K_COUNT; i++) {
		if (gp_cl.kernels[i] == k) return gp_kernel_names[i];
	}
	return "kernel";
}

gp_cl_arg_memo *gp_cl_memo_of(cl_kernel k)
{
	for (int i = 0; i < GP_K_COUNT; i++) {
		if (gp_cl.kernels[i] == k) return &gp_cl.memos[i];
	}
	return NULL;
}

int gp_cl_memo_fresh(const gp_cl_arg_memo *m)
{
	return m->valid && m->generation == gp_cl.mem_generation;
}

void gp_cl_memo_keep(gp_cl_arg_memo *m, int valid)
{
	m->valid = valid;
	m->generation = gp_cl.mem_generation;
}

#ifdef GP_TEST_HOOKS
/* Test builds: each built kernel's parameters are the ones its setter sets (gp_cl_args.h), by
 * count and name, so that a signature changed without `php scripts/gen-kernel-args.php` fails
 * at start-up instead of passing arguments to the wrong parameters. */
#define GP_ARG_NAME_BUF(name) #name,
#define GP_ARG_NAME_VAL(type, name) #name,
#define GP_ARG_NAME_LOC(name) #name,
#define GP_KERNEL_ARG_NAMES(id, name) \
	static const char *const gp_arg_names_##name[] = {GP_KARGS_##name(GP_ARG_NAME_BUF, GP_ARG_NAME_VAL, GP_ARG_NAME_LOC)};
GP_KERNELS(GP_KERNEL_ARG_NAMES)
#undef GP_KERNEL_ARG_NAMES

static const char *const *const gp_arg_names[GP_K_COUNT] = {
#define GP_KERNEL_ARG_LIST(id, name) gp_arg_names_##name,
	GP_KERNELS(GP_KERNEL_ARG_LIST)
#undef GP_KERNEL_ARG_LIST
};

static const cl_uint gp_arg_counts[GP_K_COUNT] = {
#define GP_KERNEL_ARG_COUNT(id, name) sizeof(gp_arg_names_##name) / sizeof(gp_arg_names_##name[0]),
	GP_KERNELS(GP_KERNEL_ARG_COUNT)
#undef GP_KERNEL_ARG_COUNT
};

/* Kernels set through another kernel's setter: their parameter lists must be the same. */
static const gp_kernel_id gp_shared_setters[][2] = {
	{GP_K_SCAN_TILE_I64, GP_K_SCAN_TILE_U32}, {GP_K_SCAN_ADD_I64, GP_K_SCAN_ADD_U32},
	{GP_K_MOD9_TILE_COUNT_DOCS, GP_K_MOD9_TILE_COUNT},
	{GP_K_MOD9_TILE_COUNT_DOCS_BATCH, GP_K_MOD9_TILE_COUNT_BATCH},
	{GP_K_MOD9_TILE_DOCS, GP_K_MOD9_TILE_DECODE}, {GP_K_MOD9_TILE_DOCS_BATCH, GP_K_MOD9_TILE_DECODE_BATCH},
};

static int gp_cl_check_shared_setters(void)
{
	char what[200];
	for (size_t i = 0; i < sizeof(gp_shared_setters) / sizeof(gp_shared_setters[0]); i++) {
		gp_kernel_id a = gp_shared_setters[i][0], b = gp_shared_setters[i][1];
		int same = gp_arg_counts[a] == gp_arg_counts[b];
		for (cl_uint j = 0; same && j < gp_arg_counts[a]; j++) same = strcmp(gp_arg_names[a][j], gp_arg_names[b][j]) == 0;
		if (!same) {
			snprintf(what, sizeof(what), "kernel contract of %s (set through %s's setter, but their parameters differ)",
			         gp_kernel_names[a], gp_kernel_names[b]);
			return gp_cl_fail(NULL, CL_INVALID_KERNEL_ARGS, what);
		}
	}
	return GP_OK;
}

static int gp_cl_check_contract(int k)
{
	cl_uint n = 0;
	char name[64], what[200];
	clGetKernelInfo(gp_cl.kernels[k], CL_KERNEL_NUM_ARGS, sizeof(n), &n, NULL);
	if (n != gp_arg_counts[k]) {
		snprintf(what, sizeof(what), "kernel contract of %s (%u parameters built, %u in gp_cl_args.h)",
		         gp_kernel_names[k], (unsigned)n, (unsigned)gp_arg_counts[k]);
		return gp_cl_fail(NULL, CL_INVALID_KERNEL_ARGS, what);
	}
	for (cl_uint i = 0; i < n; i++) {
		name[0] = '\0';
		if (clGetKernelArgInfo(gp_cl.kernels[k], i, CL_KERNEL_ARG_NAME, sizeof(name), name, NULL) == CL_SUCCESS &&
		    strcmp(name, gp_arg_names[k][i]) != 0) {
			snprintf(what, sizeof(what), "kernel contract of %s (parameter %u is %s, gp_cl_args.h says %s)",
			         gp_kernel_names[k], (unsigned)i, name, gp_arg_names[k][i]);
			return gp_cl_fail(NULL, CL_INVALID_KERNEL_ARGS, what);
		}
	}
	return GP_OK;
}
#define GP_CL_ARG_INFO " -cl-kernel-arg-info"
#else
#define GP_CL_ARG_INFO ""
#endif

int gp_cl_build(void)
{
	cl_int st;
	const char *src = gp_kernels_src;
	cl_ulong lmem = 0;

	gp_cl_knobs_read(&gp_cl.knobs);
	gp_cl.context = clCreateContext(NULL, 1, &gp_cl.device, NULL, NULL, &st);
	if (st != CL_SUCCESS) return gp_cl_fail(NULL, st, "clCreateContext");
	gp_cl.queue = clCreateCommandQueue(gp_cl.context, gp_cl.device,
	                                   gp_cl.knobs.profile ? CL_QUEUE_PROFILING_ENABLE : 0, &st);
	if (st != CL_SUCCESS) return gp_cl_fail(NULL, st, "clCreateCommandQueue");
	gp_cl.program = clCreateProgramWithSource(gp_cl.context, 1, &src, NULL, &st);
	if (st != CL_SUCCESS) return gp_cl_fail(NULL, st, "clCreateProgramWithSource");
	clGetDeviceInfo(gp_cl.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(lmem), &lmem, NULL);
	gp_device_shape *s = &gp_cl.shape;
	gp_cl_choose_shape(s, gp_cl.info.max_work_group, (size_t)lmem, strcmp(gp_cl.info.type, "cpu") == 0, &gp_cl.knobs);

	char options[448];
	snprintf(options, sizeof(options),
	         "-cl-std=CL1.2 -DGP_STAGE_ITEMS=%zu -DGP_STAGE_ITEMS_32=%zu -DGP_QS_ITEMS=%zuu "
	         "-DGP_TILE_ITEMS=%zuu -DGP_WAH_ITEMS=%zuu%s %.250s", s->stage_items_64, s->stage_items_32,
	         s->qs_items, s->tile_items, s->wah_items, GP_CL_ARG_INFO, gp_cl.knobs.cl_options);
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
	size_t wg = s->work_group;
	for (int k = 0; k < GP_K_COUNT; k++) {
		size_t kwg = 0;
		gp_cl.memos[k].valid = 0;
		gp_cl.kernels[k] = clCreateKernel(gp_cl.program, gp_kernel_names[k], &st);
		if (st != CL_SUCCESS) {
			char what[96];
			snprintf(what, sizeof(what), "clCreateKernel(%s)", gp_kernel_names[k]);
			return gp_cl_fail(NULL, st, what);
		}
#ifdef GP_TEST_HOOKS
		if (gp_cl_check_contract(k) != GP_OK) return GP_EDEVICE;
#endif
		if (clGetKernelWorkGroupInfo(gp_cl.kernels[k], gp_cl.device, CL_KERNEL_WORK_GROUP_SIZE,
		                             sizeof(kwg), &kwg, NULL) == CL_SUCCESS && kwg < wg) {
			wg = kwg;
		}
	}
#ifdef GP_TEST_HOOKS
	if (gp_cl_check_shared_setters() != GP_OK) return GP_EDEVICE;
#endif
	/* then the largest power of two that every built kernel allows */
	while (wg > 1 && (wg & (wg - 1))) wg &= wg - 1;
	s->work_group = wg ? wg : 1;
	if (s->small_group > s->work_group) s->small_group = s->work_group;
	gp_cl.built = 1;
	return GP_OK;
}
