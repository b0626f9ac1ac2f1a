/* Platform and device choice (gpupost.device), the per-process state and its fork safety, what
 * the device is and why it is not used, recovery after a failure, and shutdown. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gp_cl_runtime.h"
#include "gp_pool.h"

gp_cl_runtime gp_cl = {.state = GP_CL_UNOPENED, .spec = "auto"};

int gp_cl_own(void)
{
	return gp_cl.state == GP_CL_READY && gp_cl.pid == getpid();
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
		err->code = GP_EDEVICE;
		err->format = "OpenCL";
		err->offset = 0;
		err->cl_status = (int)status;
		snprintf(err->rule, sizeof(err->rule), "%.190s", gp_cl.last_error);
	}
	return GP_EDEVICE;
}


static void gp_cl_unusable(const char *why)
{
	gp_cl.state = GP_CL_UNUSABLE;
	gp_cl.pid = getpid();
	snprintf(gp_cl.last_error, sizeof(gp_cl.last_error), "%s", why);
}

static void gp_cl_fill_info(int pi, int di)
{
	gp_device_info *in = &gp_cl.info;
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
	cl_device_fp_config fp = 0;
	in->fp64 = clGetDeviceInfo(gp_cl.device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp), &fp, NULL) == CL_SUCCESS && fp != 0;
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

int gp_cl_available(const char *device_spec)
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
			gp_cl.call_pending = 0;
			return 0;
		}
		gp_cl.state = GP_CL_UNOPENED; /* never opened by the parent: this process may */
	}
	if (gp_cl.state == GP_CL_READY) return 1;
	if (gp_cl.state == GP_CL_UNUSABLE) return 0;
	gp_cl.pid = getpid();
	snprintf(gp_cl.spec, sizeof(gp_cl.spec), "%s", device_spec ? device_spec : "auto");
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

const gp_device_info *gp_cl_info(void)
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

int gp_cl_shape_of(gp_device_shape *shape)
{
	if (!gp_cl_program_built()) return 0;
	*shape = gp_cl.shape;
	return 1;
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
	/* the kernels first: a driver may hold the buffers their arguments name until then */
	for (int k = 0; k < GP_K_COUNT; k++) {
		if (gp_cl.kernels[k]) clReleaseKernel(gp_cl.kernels[k]);
		gp_cl.kernels[k] = NULL;
		gp_cl.memos[k].valid = 0;
	}
	gp_cl_release_buffers();
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
