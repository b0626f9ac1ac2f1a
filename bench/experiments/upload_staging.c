/* Upload experiment (issue 5, fifth session; docs/BENCHMARKS.md): ways to stage a 64 MB
 * pageable buffer through pinned memory to an NVIDIA GPU, each against the pinned write timed in
 * the same process. Threads started per call or a pool kept between uploads; 8, 12 or 16 of them;
 * pieces of 512 KB to 4 MB; memcpy or non-temporal stores; each thread its own slice or the next
 * piece from a counter. Not built by default:
 *   cc -O2 -std=gnu11 -o upload_staging bench/experiments/upload_staging.c -lOpenCL -lpthread
 * then run it on the GPU machine (source .gpu/env.sh first). */
#define CL_TARGET_OPENCL_VERSION 120
#define _GNU_SOURCE
#include <CL/cl.h>
#include <immintrin.h>
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
static uint8_t *pin;
static const uint8_t *src;
__attribute__((target("avx2"))) static void nt_copy(uint8_t *d, const uint8_t *s, size_t n)
{
	size_t i = 0;
	for (; i + 128 <= n; i += 128) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(s + i)),
			b = _mm256_loadu_si256((const __m256i *)(s + i + 32)),
			c = _mm256_loadu_si256((const __m256i *)(s + i + 64)),
			e = _mm256_loadu_si256((const __m256i *)(s + i + 96));
		_mm256_stream_si256((__m256i *)(d + i), a);
		_mm256_stream_si256((__m256i *)(d + i + 32), b);
		_mm256_stream_si256((__m256i *)(d + i + 64), c);
		_mm256_stream_si256((__m256i *)(d + i + 96), e);
	}
	_mm_sfence();
	memcpy(d + i, s + i, n - i);
}
static int use_nt, rr;
static size_t piece;
static int nthr;
static atomic_size_t next_piece;
typedef struct {
	int t;
} arg_t;
static void do_pieces(int t)
{
	if (rr) {
		for (;;) {
			size_t k = atomic_fetch_add(&next_piece, 1);
			size_t a = k * piece;
			if (a >= B)
				break;
			size_t b = a + piece < B ? a + piece : B;
			if (use_nt)
				nt_copy(pin + a, src + a, b - a);
			else
				memcpy(pin + a, src + a, b - a);
			clEnqueueWriteBuffer(q, dev, CL_FALSE, a, b - a, pin + a, 0, 0, 0);
		}
		return;
	}
	size_t slice = (B / nthr + 4095) & ~(size_t)4095;
	size_t from = t * slice, to = (t + 1) * slice < B && t + 1 < nthr ? (t + 1) * slice : B;
	for (size_t a = from; a < to; a += piece) {
		size_t b = a + piece < to ? a + piece : to;
		if (use_nt)
			nt_copy(pin + a, src + a, b - a);
		else
			memcpy(pin + a, src + a, b - a);
		clEnqueueWriteBuffer(q, dev, CL_FALSE, a, b - a, pin + a, 0, 0, 0);
	}
}
/* pool */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;
static int gen, remaining;
static int pool_n;
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
		if (t < nthr)
			do_pieces(t);
		pthread_mutex_lock(&mu);
		if (--remaining == 0)
			pthread_cond_signal(&done_cv);
		pthread_mutex_unlock(&mu);
	}
	return 0;
}
static void *once(void *p)
{
	do_pieces((int)(long)p);
	return 0;
}
static double run(int mode)
{ /* 0: threads per call, 1: pool */
	double t0 = now();
	atomic_store(&next_piece, 0);
	if (mode == 0) {
		pthread_t th[32];
		for (int t = 1; t < nthr; t++)
			pthread_create(&th[t], 0, once, (void *)(long)t);
		do_pieces(0);
		for (int t = 1; t < nthr; t++)
			pthread_join(th[t], 0);
	} else {
		pthread_mutex_lock(&mu);
		remaining = pool_n;
		gen++;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		do_pieces(0);
		pthread_mutex_lock(&mu);
		while (remaining)
			pthread_cond_wait(&done_cv, &mu);
		pthread_mutex_unlock(&mu);
	}
	clFinish(q);
	return now() - t0;
}
int main(int argc, char **argv)
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
	pin = clEnqueueMapBuffer(q, pm, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, B, 0, 0, 0, &st);
	memset(pin, 1, B);
	uint8_t *s = malloc(B);
	for (size_t i = 0; i < B; i++)
		s[i] = (uint8_t)(i * 7);
	src = s;
	pool_n = 15;
	pthread_t w[32];
	for (int t = 1; t <= pool_n; t++)
		pthread_create(&w[t], 0, worker, (void *)(long)t);
	/* pool workers use ids 1..15; do_pieces(0) on main */
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
		int th[] = {8, 12, 16};
		size_t pcs[] = {(size_t)512 << 10, (size_t)1 << 20, (size_t)2 << 20,
				(size_t)4 << 20};
		for (int mode = 0; mode < 2; mode++)
			for (int n = 0; n < 1 + (mode == 0 ? 0 : 0) + 2; n++)
				for (int pp = 0; pp < 4; pp++)
					for (int nt = 0; nt < 2; nt++)
						for (int r2 = 0; r2 < 2; r2++) {
							nthr = th[n];
							piece = pcs[pp];
							use_nt = nt;
							rr = r2;
							double b2 = 1e9;
							for (int r = 0; r < 6; r++) {
								double t = run(mode);
								if (r && t < b2)
									b2 = t;
							}
							printf("%s threads %2d piece %4zu KB %s "
							       "%s: %.1f GB/s = %.2f\n",
							       mode ? "pool" : "new ", nthr,
							       piece >> 10, nt ? "nt  " : "memc",
							       rr ? "rr   " : "slice", B / b2 / 1e9,
							       best / b2);
						}
		nthr = 16;
		for (int mode = 0; mode < 2; mode++)
			for (int pp = 0; pp < 4; pp++)
				for (int nt = 0; nt < 2; nt++) {
					piece = pcs[pp];
					use_nt = nt;
					rr = 1;
					double b2 = 1e9;
					for (int r = 0; r < 6; r++) {
						double t = run(mode);
						if (r && t < b2)
							b2 = t;
					}
					printf("%s threads %2d piece %4zu KB %s rr: %.1f GB/s = "
					       "%.2f\n",
					       mode ? "pool" : "new ", nthr, piece >> 10,
					       nt ? "nt  " : "memc", B / b2 / 1e9, best / b2);
				}
	}
	return 0;
}
