/* Throwaway: upload by registering the caller's memory (CL_MEM_USE_HOST_PTR) piece by piece on
 * threads. */
#define CL_TARGET_OPENCL_VERSION 120
#define _GNU_SOURCE
#include <CL/cl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}
static size_t B = (size_t)64 << 20;
static cl_context ctx;
static cl_command_queue q;
static cl_mem dev;
static uint8_t *src;
static size_t piece;
static int nthr, how; /* how 0: copy from the buffer, 1: write from the pointer */
static atomic_size_t next_piece;
static cl_mem held[1024];
static void do_pieces(int t)
{
	(void)t;
	for (;;) {
		size_t k = atomic_fetch_add(&next_piece, 1);
		size_t a = k * piece;
		if (a >= B)
			break;
		size_t b = a + piece < B ? a + piece : B;
		cl_int st;
		cl_mem h = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, b - a,
					  src + a, &st);
		if (st) {
			printf("create %d\n", st);
			exit(1);
		}
		held[k] = h;
		if (how == 0)
			st = clEnqueueCopyBuffer(q, h, dev, 0, a, b - a, 0, 0, 0);
		else
			st = clEnqueueWriteBuffer(q, dev, CL_FALSE, a, b - a, src + a, 0, 0, 0);
		if (st) {
			printf("enqueue %d\n", st);
			exit(1);
		}
		clFlush(q);
	}
}
static atomic_size_t next_rel;
static size_t npieces;
static void do_release(void)
{
	for (;;) {
		size_t k = atomic_fetch_add(&next_rel, 1);
		if (k >= npieces)
			break;
		clReleaseMemObject(held[k]);
	}
}
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;
static int gen, remaining, phase;
static int pool_n = 15;
static void *worker(void *p)
{
	int t = (int)(long)p;
	int seen = 0;
	for (;;) {
		pthread_mutex_lock(&mu);
		while (gen == seen)
			pthread_cond_wait(&cv, &mu);
		seen = gen;
		pthread_mutex_unlock(&mu);
		if (t < nthr) {
			if (phase == 0)
				do_pieces(t);
			else
				do_release();
		}
		pthread_mutex_lock(&mu);
		if (--remaining == 0)
			pthread_cond_signal(&done_cv);
		pthread_mutex_unlock(&mu);
	}
	return 0;
}
static void all(int ph)
{
	phase = ph;
	pthread_mutex_lock(&mu);
	remaining = pool_n;
	gen++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	if (ph == 0)
		do_pieces(0);
	else
		do_release();
	pthread_mutex_lock(&mu);
	while (remaining)
		pthread_cond_wait(&done_cv, &mu);
	pthread_mutex_unlock(&mu);
}
static double tp, tf, tr;
static double run(void)
{
	double t0 = now();
	atomic_store(&next_piece, 0);
	atomic_store(&next_rel, 0);
	npieces = (B + piece - 1) / piece;
	all(0);
	double t1 = now();
	clFinish(q);
	double t2 = now();
	all(1);
	double t3 = now();
	tp = t1 - t0;
	tf = t2 - t1;
	tr = t3 - t2;
	return t3 - t0;
}
int main(void)
{
	cl_platform_id p[4];
	cl_uint np;
	clGetPlatformIDs(4, p, &np);
	cl_device_id d = 0;
	for (cl_uint i = 0; i < np && !d; i++)
		if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 1, &d, 0))
			d = 0;
	cl_int st;
	ctx = clCreateContext(0, 1, &d, 0, 0, &st);
	q = clCreateCommandQueue(ctx, d, 0, &st);
	dev = clCreateBuffer(ctx, CL_MEM_READ_WRITE, B, 0, &st);
	cl_mem pm = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, B, 0, &st);
	uint8_t *pin =
	    clEnqueueMapBuffer(q, pm, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, B, 0, 0, 0, &st);
	memset(pin, 1, B);
	uint8_t *s = malloc(B + 64);
	src = s + 24;
	for (size_t i = 0; i < B; i++)
		src[i] = (uint8_t)(i * 7);
	pthread_t w[32];
	for (int t = 1; t <= pool_n; t++)
		pthread_create(&w[t], 0, worker, (void *)(long)t);
	for (int round = 0; round < 2; round++) {
		double best = 1e9;
		for (int r = 0; r < 6; r++) {
			double t0 = now();
			clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, B, pin, 0, 0, 0);
			t0 = now() - t0;
			if (r && t0 < best)
				best = t0;
		}
		printf("pinned write %.1f GB/s\n", B / best / 1e9);
		int th[] = {1, 4, 8, 16};
		size_t pcs[] = {(size_t)1 << 20, (size_t)4 << 20, (size_t)16 << 20};
		for (int hw = 0; hw < 2; hw++)
			for (int n = 0; n < 4; n++)
				for (int pp = 0; pp < 3; pp++) {
					nthr = th[n];
					piece = pcs[pp];
					how = hw;
					double b2 = 1e9, bp = 0, bf = 0, br = 0;
					for (int r = 0; r < 5; r++) {
						double t = run();
						if (r && t < b2) {
							b2 = t;
							bp = tp;
							bf = tf;
							br = tr;
						}
					}
					printf("%s threads %2d piece %5zu KB: %.1f GB/s = %.2f "
					       "(enqueue %.2f, finish %.2f, release %.2f ms)\n",
					       how ? "write" : "copy ", nthr, piece >> 10,
					       B / b2 / 1e9, best / b2, bp * 1e3, bf * 1e3,
					       br * 1e3);
				}
		/* check the bytes */
		uint8_t *back = malloc(B);
		clEnqueueReadBuffer(q, dev, CL_TRUE, 0, B, back, 0, 0, 0);
		printf("bytes %s\n", memcmp(back, src, B) ? "DIFFER" : "same");
		free(back);
	}
	return 0;
}
