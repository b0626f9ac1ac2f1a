/* Launches: the work-group size, enqueueing, and the profiling of benchmarks (kernel arguments
 * are set through the typed setters of gp_cl_internal.h). */
#include <stdio.h>

#include "gp_cl_runtime.h"

size_t gp_cl_wg(void) { return gp_cl.shape.work_group; }

size_t gp_cl_call_wg(size_t items, size_t per_item)
{
	size_t wg = gp_cl.shape.small_group ? gp_cl.shape.small_group : gp_cl.shape.work_group;
	while (wg < gp_cl.shape.work_group && wg * per_item < items) wg *= 2;
	return wg < gp_cl.shape.work_group ? wg : gp_cl.shape.work_group;
}

int gp_cl_run(cl_kernel kernel, size_t items, gp_error *err)
{
	return gp_cl_run_groups(kernel, items, gp_cl.shape.work_group, err);
}

int gp_cl_run_groups(cl_kernel kernel, size_t items, size_t wg, gp_error *err)
{
	size_t global = (items + wg - 1) / wg * wg;
	cl_int st;
	if (global == 0) return GP_OK;
	if (gp_cl_fault("launch")) {
		return gp_cl_fail(err, CL_OUT_OF_RESOURCES, "clEnqueueNDRangeKernel (injected by GPUPOST_FAULT)");
	}
	if (gp_cl.knobs.profile && gp_cl.n_events == sizeof(gp_cl.events) / sizeof(gp_cl.events[0])) {
		gp_cl_kernel_seconds(); /* folds the events in so far */
	}
	st = clEnqueueNDRangeKernel(gp_cl.queue, kernel, 1, NULL, &global, &wg, 0, NULL,
	                            gp_cl.knobs.profile ? &gp_cl.events[gp_cl.n_events++] : NULL);
	GP_TRACE(gp_cl_kernel_name(kernel));
	if (st == CL_SUCCESS && gp_cl.knobs.profile == 2) {
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
