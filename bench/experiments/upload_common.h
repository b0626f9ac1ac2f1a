/* What the two upload experiments share (bench/experiments/upload_*.c, throwaway, issue 5's
 * fifth session): a clock, the 64 MB buffers on the first GPU, the pinned write they are measured
 * against, and a pool of workers that each run pool_job(t) once per pool_run(). */
#ifndef UPLOAD_COMMON_H
#define UPLOAD_COMMON_H
#define CL_TARGET_OPENCL_VERSION 120
#define _GNU_SOURCE
#include <CL/cl.h>
#include <immintrin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
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

/* n bytes copied with non-temporal stores (past the caches, as gp_cl.c copies into staging). */
__attribute__((target("avx2"), unused)) static void nt_copy(uint8_t *d, const uint8_t *s, size_t n)
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

static size_t B = (size_t)64 << 20;
static cl_context ctx;
static cl_command_queue q;
static cl_mem dev;
static uint8_t *pin;   /* B bytes of mapped CL_MEM_ALLOC_HOST_PTR memory */

/* The first GPU's context, queue, a device buffer of B bytes and the pinned one; src_out gets B
 * bytes of pageable memory, filled, at `offset` into its allocation. */
static void exp_open(uint8_t **src_out, size_t offset)
{
	cl_platform_id p[4];
	cl_uint np;
	cl_device_id d = 0;
	cl_int st;
	clGetPlatformIDs(4, p, &np);
	for (cl_uint i = 0; i < np && !d; i++)
		if (clGetDeviceIDs(p[i], CL_DEVICE_TYPE_GPU, 1, &d, 0)) d = 0;
	if (!d) clGetDeviceIDs(p[0], CL_DEVICE_TYPE_ALL, 1, &d, 0);   /* a smoke test on PoCL */
	ctx = clCreateContext(0, 1, &d, 0, 0, &st);
	q = clCreateCommandQueue(ctx, d, 0, &st);
	dev = clCreateBuffer(ctx, CL_MEM_READ_WRITE, B, 0, &st);
	cl_mem pm = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, B, 0, &st);
	pin = clEnqueueMapBuffer(q, pm, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, B, 0, 0, 0, &st);
	memset(pin, 1, B);
	uint8_t *s = malloc(B + offset);
	*src_out = s + offset;
	for (size_t i = 0; i < B; i++) (*src_out)[i] = (uint8_t)(i * 7);
}

/* The best of `reps` runs of fn, the first not counted (it warms up). */
static double best_of(int reps, double (*fn)(void))
{
	double best = 1e9;
	for (int r = 0; r < reps; r++) {
		double t = fn();
		if (r && t < best) best = t;
	}
	return best;
}

static double pinned_write(void)
{
	double t0 = now();
	clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, B, pin, 0, 0, 0);
	return now() - t0;
}

/* The next piece [*a, *b) of B bytes, `piece` at a time from a shared counter; 0 when none is
 * left. */
static size_t piece;
static atomic_size_t next_piece;
__attribute__((unused)) static int take_piece(size_t *a, size_t *b)
{
	*a = atomic_fetch_add(&next_piece, 1) * piece;
	if (*a >= B) return 0;
	*b = *a + piece < B ? *a + piece : B;
	return 1;
}

/* Workers 1..pool_n wait for pool_run(), run pool_job(t) and report back; the caller runs
 * pool_job(0) meanwhile. */
static void (*pool_job)(int t);
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;
static int gen, remaining, pool_n;

static void *worker(void *p)
{
	int t = (int)(long)p, seen = 0;
	for (;;) {
		pthread_mutex_lock(&mu);
		while (gen == seen) pthread_cond_wait(&cv, &mu);
		seen = gen;
		pthread_mutex_unlock(&mu);
		pool_job(t);
		pthread_mutex_lock(&mu);
		if (--remaining == 0) pthread_cond_signal(&done_cv);
		pthread_mutex_unlock(&mu);
	}
	return 0;
}

static void pool_start(int n)
{
	static pthread_t w[32];
	pool_n = n;
	for (int t = 1; t <= n; t++) pthread_create(&w[t], 0, worker, (void *)(long)t);
}

/* Or, with POOL=sem in the environment, workers 1..n-1 alone woken, each by a semaphore of its
 * own (no herd of unwanted workers on one lock); the caller spins until they are done. */
#include <semaphore.h>
static sem_t pool_sem[32];
static atomic_int pool_left;
static int pool_sem_on = -1;
static void *sem_worker(void *p)
{
	int t = (int)(long)p;
	for (;;) {
		sem_wait(&pool_sem[t]);
		pool_job(t);
		atomic_fetch_sub(&pool_left, 1);
	}
	return 0;
}
static void pool_sem_start(void)
{
	pool_sem_on = getenv("POOL") && strcmp(getenv("POOL"), "sem") == 0;
	static pthread_t w[32];
	for (int t = 1; pool_sem_on && t <= pool_n; t++) {
		sem_init(&pool_sem[t], 0, 0);
		pthread_create(&w[t], 0, sem_worker, (void *)(long)t);
	}
}
static void pool_run_n(int n)
{
	atomic_store(&pool_left, n - 1);
	for (int t = 1; t < n; t++) sem_post(&pool_sem[t]);
	pool_job(0);
	while (atomic_load(&pool_left) > 0) _mm_pause();
}

static void pool_run(void)
{
	pthread_mutex_lock(&mu);
	remaining = pool_n;
	gen++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pool_job(0);
	pthread_mutex_lock(&mu);
	while (remaining) pthread_cond_wait(&done_cv, &mu);
	pthread_mutex_unlock(&mu);
}
#endif
