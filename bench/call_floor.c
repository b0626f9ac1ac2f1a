/* The hardware's floor for one small device call (issue 23), measured the way gpupost calls the
 * device but with nothing of gpupost: a non-blocking write of `bytes` from pinned host memory,
 * an empty kernel over one work-group, a blocking read of `bytes` back; and a bare launch +
 * clFinish. Medians over many repetitions, in microseconds.
 *   call_floor [BYTES (default 4096)] [REPS (default 2000)]
 * The device: GPUPOST_DEVICE=P:D, else the first GPU, else the first device. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	return v[n / 2];
}

#define CHECK(x)                                                                    \
	do {                                                                            \
		cl_int st_ = (x);                                                           \
		if (st_ != CL_SUCCESS) {                                                    \
			fprintf(stderr, "call_floor: %s failed: %d\n", #x, st_);                \
			return 1;                                                               \
		}                                                                           \
	} while (0)

int main(int argc, char **argv)
{
	size_t bytes = argc > 1 ? strtoul(argv[1], NULL, 10) : 4096;
	int reps = argc > 2 ? atoi(argv[2]) : 2000;
	cl_platform_id platforms[16];
	cl_uint np = 0;
	cl_device_id dev = NULL;
	const char *spec = getenv("GPUPOST_DEVICE");
	CHECK(clGetPlatformIDs(16, platforms, &np));
	if (spec && strchr(spec, ':')) {
		cl_device_id devs[16];
		cl_uint nd = 0;
		unsigned p = (unsigned)atoi(spec), d = (unsigned)atoi(strchr(spec, ':') + 1);
		if (p < np && clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devs, &nd) == CL_SUCCESS && d < nd) dev = devs[d];
	}
	for (cl_uint p = 0; !dev && p < np; p++) clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, &dev, NULL);
	for (cl_uint p = 0; !dev && p < np; p++) clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
	if (!dev) {
		fprintf(stderr, "call_floor: no OpenCL device\n");
		return 1;
	}
	char name[256] = "";
	clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
	cl_int st;
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &st);
	CHECK(st);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &st);
	CHECK(st);
	const char *src = "__kernel void empty(__global uint *a, const uint n) { if (get_global_id(0) >= n) return; }";
	cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &st);
	CHECK(st);
	CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
	cl_kernel k = clCreateKernel(prog, "empty", &st);
	CHECK(st);
	cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &st);
	CHECK(st);
	/* pinned host memory, as gpupost's staging */
	cl_mem pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &st);
	CHECK(st);
	void *host = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &st);
	CHECK(st);
	memset(host, 1, bytes);
	cl_uint n = 1;
	CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
	CHECK(clSetKernelArg(k, 1, sizeof(cl_uint), &n));
	size_t g = 64;
	double *wkr = malloc(sizeof(double) * (size_t)reps), *lf = malloc(sizeof(double) * (size_t)reps);
	for (int r = -50; r < reps; r++) {   /* 50 warm-up rounds */
		double t0 = now_us();
		CHECK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, bytes, host, 0, NULL, NULL));
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
		double t1 = now_us();
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL));
		CHECK(clFinish(q));
		double t2 = now_us();
		if (r >= 0) {
			wkr[r] = t1 - t0;
			lf[r] = t2 - t1;
		}
	}
	printf("floor %s: write %zu B + empty kernel + read %zu B: %.1f us; launch + finish: %.1f us (medians of %d)\n",
	       name, bytes, bytes, median(wkr, reps), median(lf, reps), reps);
	return 0;
}
