/* The hardware's floor for one small device call (issue 23), measured the way gpupost calls the
 * device but with nothing of gpupost: a non-blocking write of `bytes` from pinned host memory,
 * an empty kernel over one work-group, a blocking read of `bytes` back; and a bare launch +
 * clFinish; then what each kind of command adds to the first (the cost model of a call's
 * breakdown). Medians over many repetitions, in microseconds.
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
	/* empty: the floor's kernel; many: one of 19 arguments (as call_gather), set before each
	 * launch; put: 256 bytes carried in its arguments into a buffer (a write as a kernel) */
	const char *src =
		"__kernel void empty(__global uint *a, const uint n) { if (get_global_id(0) >= n) return; }\n"
		"__kernel void many(__global uint *d, __global uint *a, __global uint *b, __global uint *c,\n"
		"  __global uint *e, __global uint *f, __global uint *g, uint l0, uint l1, uint l2, uint l3, uint l4,\n"
		"  uint l5, uint t0, uint t1, uint t2, uint t3, uint t4, uint t5)\n"
		"{ if (get_global_id(0) < l0 + l1 + l2 + l3 + l4 + l5 + t0 + t1 + t2 + t3 + t4 + t5) d[0] = a[0]; }\n"
		"__kernel void put(__global uint *a, uint16 w0, uint16 w1, uint16 w2, uint16 w3)\n"
		"{ uint i = get_global_id(0); if (i < 4) vstore16(i == 0 ? w0 : i == 1 ? w1 : i == 2 ? w2 : w3, i, a); }\n"
		"__kernel void loc(__global uint *a, const uint n, __local uint *x, __local uint *y, __local uint *z,\n"
		"  __local uint *w)\n"
		"{ uint i = get_local_id(0); x[i] = y[i] = z[i] = w[i] = i; barrier(CLK_LOCAL_MEM_FENCE);\n"
		"  if (get_global_id(0) >= n) a[0] = x[i ^ 1] + y[i ^ 2] + z[i ^ 3] + w[i ^ 4]; }\n";
	cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &st);
	CHECK(st);
	CHECK(clBuildProgram(prog, 1, &dev, "", NULL, NULL));
	cl_kernel k = clCreateKernel(prog, "empty", &st);
	CHECK(st);
	cl_kernel kmany = clCreateKernel(prog, "many", &st);
	CHECK(st);
	cl_kernel kput = clCreateKernel(prog, "put", &st);
	CHECK(st);
	cl_kernel kloc = clCreateKernel(prog, "loc", &st);
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
	/* the decode passes' kind of kernel: local memory in arguments (set once) */
	CHECK(clSetKernelArg(kloc, 0, sizeof(cl_mem), &buf));
	CHECK(clSetKernelArg(kloc, 1, sizeof(cl_uint), &n));
	for (cl_uint a = 2; a < 6; a++) CHECK(clSetKernelArg(kloc, a, 4096, NULL));
	size_t g = 64;
	double *t = malloc(sizeof(double) * (size_t)reps);
	/* The cost of each kind of command a call may add to the floor, so that a call's breakdown can
	 * be read against it: the floor's write + kernel + blocking read with one more of each. */
	cl_mem small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256, NULL, &st);
	CHECK(st);
	void *pageable = malloc(bytes);
	memset(pageable, 1, bytes);
	cl_uint zero = 0;
	const char *names[] = {"write + kernel + read (the floor)", "launch + finish",
	                       "+ a 2nd and 3rd write (16 B each)", "+ two fills (16 B each)",
	                       "+ a 2nd kernel", "+ a 2nd and 3rd kernel", "+ two non-blocking reads before",
	                       "+ kernel arguments set again (2)", "write from pageable memory",
	                       "non-blocking read + clFinish", "+ a clFinish after the write",
	                       "write + 2 kernels + read, 16 KiB", "+ four non-blocking reads before",
	                       "+ a 2nd kernel, its 19 arguments set", "the write as a kernel (256 B in its arguments)",
	                       "its kernel with 4 local arguments (16 KiB)"};
	cl_uint words[64] = {0};
	const int cases = (int)(sizeof(names) / sizeof(names[0]));
	double med[24];
	for (int c = 0; c < cases; c++) {
		for (int r = -50; r < reps; r++) {   /* 50 warm-up rounds */
			double t0 = now_us();
			size_t nb = c == 11 ? (bytes < 16384 ? bytes : 16384) : bytes;
			if (c == 1) {
				CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &g, 0, NULL, NULL));
				CHECK(clFinish(q));
				if (r >= 0) t[r] = now_us() - t0;
				continue;
			}
			if (c == 14) {
				for (cl_uint a = 0; a < 4; a++) CHECK(clSetKernelArg(kput, a + 1, 64, words + 16 * a));
				CHECK(clSetKernelArg(kput, 0, sizeof(cl_mem), &buf));
				CHECK(clEnqueueNDRangeKernel(q, kput, 1, NULL, &g, &g, 0, NULL, NULL));
			} else {
				CHECK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, nb, c == 8 ? pageable : host, 0, NULL, NULL));
			}
			if (c == 10) CHECK(clFinish(q));
			if (c == 2) {
				CHECK(clEnqueueWriteBuffer(q, small, CL_FALSE, 0, 16, host, 0, NULL, NULL));
				CHECK(clEnqueueWriteBuffer(q, small, CL_FALSE, 64, 16, host, 0, NULL, NULL));
			}
			if (c == 3) {
				CHECK(clEnqueueFillBuffer(q, small, &zero, 4, 0, 16, 0, NULL, NULL));
				CHECK(clEnqueueFillBuffer(q, small, &zero, 4, 64, 16, 0, NULL, NULL));
			}
			if (c == 7) {
				CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &buf));
				CHECK(clSetKernelArg(k, 1, sizeof(cl_uint), &n));
			}
			int kernels = c == 4 || c == 11 ? 2 : c == 5 ? 3 : 1;
			for (int i = 0; i < kernels; i++) CHECK(clEnqueueNDRangeKernel(q, c == 15 ? kloc : k, 1, NULL, &g, &g, 0, NULL, NULL));
			if (c == 13) {
				for (cl_uint a = 0; a < 7; a++) CHECK(clSetKernelArg(kmany, a, sizeof(cl_mem), a ? &small : &buf));
				for (cl_uint a = 7; a < 19; a++) CHECK(clSetKernelArg(kmany, a, sizeof(cl_uint), &zero));
				CHECK(clEnqueueNDRangeKernel(q, kmany, 1, NULL, &g, &g, 0, NULL, NULL));
			}
			if (c == 12) {
				for (int j = 0; j < 4; j++) {
					CHECK(clEnqueueReadBuffer(q, small, CL_FALSE, 64 * (size_t)j, 16, (char *)host + nb - 64 + 16 * j, 0,
					                          NULL, NULL));
				}
			}
			if (c == 6) {
				CHECK(clEnqueueReadBuffer(q, small, CL_FALSE, 0, 16, (char *)host + nb - 64, 0, NULL, NULL));
				CHECK(clEnqueueReadBuffer(q, small, CL_FALSE, 64, 16, (char *)host + nb - 32, 0, NULL, NULL));
			}
			if (c == 9) {
				CHECK(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, nb, host, 0, NULL, NULL));
				CHECK(clFinish(q));
			} else {
				CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, nb, host, 0, NULL, NULL));
			}
			if (r >= 0) t[r] = now_us() - t0;
		}
		med[c] = median(t, reps);
	}
	printf("floor %s: write %zu B + empty kernel + read %zu B: %.1f us; launch + finish: %.1f us (medians of %d)\n",
	       name, bytes, bytes, med[0], med[1], reps);
	for (int c = 2; c < cases; c++) printf("  %-40s %7.1f us (%+.1f)\n", names[c], med[c], med[c] - med[0]);
	free(pageable);
	return 0;
}
