/* Upload experiment (issue 5, seventh session; docs/BENCHMARKS.md, docs/bench/h100-s7/upload/):
 * where does the staged upload of a 64 MB pageable buffer lose against the pinned write? Three
 * modes, each in one process:
 *   probe:  the pinned write as one command, as 32 of 2 MB, and 32 times from one 2 MB region
 *           just written (still in the CPU's cache); the copy alone into pinned memory on 1-16
 *           threads; a DMA beside a copy on 0-12 threads and a copy beside a DMA (the host's
 *           memory bandwidth, shared); the staged upload with one thread enqueueing in order; a
 *           ring of pinned slots reused through events, ordinary or non-temporal stores.
 *   (none): candidate plans (workers; first piece, growing to a largest) interleaved rep after
 *           rep, each against the pinned write of its rep, median of 40.
 *   after:  the staged upload right after other work (a memcpy, a sleep, a spin), with when its
 *           last worker began; POOL=sem wakes each worker by a semaphore of its own.
 * Not built by default:
 *   cc -O2 -std=gnu11 -o upload_pipeline bench/experiments/upload_pipeline.c -lOpenCL -lpthread
 * then run it on the GPU machine (source .gpu/env.sh first). */
#include <sched.h>

#include "upload_common.h"

#define MAX_PIECES 4096
static const uint8_t *src;
static cl_mem pm2;            /* a second pinned buffer, for a DMA beside the copy */
static uint8_t *pin2;
static size_t offs[MAX_PIECES + 1];
static size_t n_pieces;
static int nthr, use_nt, flush_each, ring_slots, dma_only, copy_skip, submitter;
static atomic_int ready[MAX_PIECES];
static atomic_int stop_copy;
static size_t ring_piece;
static int grow_every;   /* pieces between doublings; 0: nthr */
static _Atomic(cl_event) evs[MAX_PIECES];

/* Piece boundaries: sizes start at first, double every grow_every (or nthr) pieces up to `piece`. */
static void plan(size_t first, size_t piece_max)
{
	size_t a = 0, sz = first;
	n_pieces = 0;
	while (a < B && n_pieces < MAX_PIECES) {
		offs[n_pieces++] = a;
		a += sz < B - a ? sz : B - a;
		if (n_pieces % (grow_every ? grow_every : nthr ? nthr : 1) == 0 && sz < piece_max) sz *= 2;
		if (sz > piece_max) sz = piece_max;
	}
	offs[n_pieces] = B;
}

static void copy(uint8_t *d, const uint8_t *s, size_t n)
{
	if (use_nt) nt_copy(d, s, n);
	else memcpy(d, s, n);
}

/* Thread 0 enqueues each piece's write in order as soon as its copy is there; the others copy. */
static void submit_in_order(void)
{
	for (size_t k = 0; k < n_pieces; k++) {
		while (!atomic_load_explicit(&ready[k], memory_order_acquire)) _mm_pause();
		clEnqueueWriteBuffer(q, dev, CL_FALSE, offs[k], offs[k + 1] - offs[k], pin + offs[k], 0, 0, 0);
		if (flush_each) clFlush(q);
	}
}

/* Copies src into pin on every thread until stop_copy (a load beside a DMA). */
static void copy_until_stopped(void)
{
	while (!atomic_load(&stop_copy)) {
		size_t k = atomic_fetch_add(&next_piece, 1) % n_pieces;
		nt_copy(pin + offs[k], src + offs[k], offs[k + 1] - offs[k]);
	}
}

static double job_started[32], run_started;   /* when each worker began, when run() did */
static void job(int t)
{
	if (t >= nthr) return;
	job_started[t] = now();
	if (dma_only == 2) {
		copy_until_stopped();
		return;
	}
	if (submitter && t == 0) {
		submit_in_order();
		return;
	}
	for (;;) {
		size_t k = atomic_fetch_add(&next_piece, 1);
		if (k >= n_pieces) break;
		size_t a = offs[k], n = offs[k + 1] - a;
		if (dma_only) {   /* copy only, no DMA */
			copy(pin + a, src + a, n);
			continue;
		}
		if (submitter) {
			copy(pin + a, src + a, n);
			atomic_store_explicit(&ready[k], 1, memory_order_release);
			continue;
		}
		if (!ring_slots) {
			if (!copy_skip) copy(pin + a, src + a, n);
			clEnqueueWriteBuffer(q, dev, CL_FALSE, a, n, pin + a, 0, 0, 0);
			if (flush_each) clFlush(q);
			continue;
		}
		uint8_t *slot = pin + (k % ring_slots) * ring_piece;
		if (k >= (size_t)ring_slots) {   /* the slot's last write must have read it */
			cl_event e;
			while (!(e = atomic_load(&evs[k - ring_slots]))) sched_yield();
			clWaitForEvents(1, &e);
		}
		copy(slot, src + a, n);
		cl_event e;
		clEnqueueWriteBuffer(q, dev, CL_FALSE, a, n, slot, 0, 0, &e);
		clFlush(q);
		atomic_store(&evs[k], e);
	}
}

static double run(void)
{
	for (size_t k = 0; k < n_pieces; k++) {
		atomic_store(&evs[k], NULL);
		atomic_store(&ready[k], 0);
	}
	atomic_store(&next_piece, 0);
	double t0 = now();
	run_started = t0;
	if (pool_sem_on < 0) pool_sem_start();
	if (pool_sem_on) pool_run_n(nthr);
	else pool_run();
	clFinish(q);
	double t = now() - t0;
	for (size_t k = 0; k < n_pieces; k++) {
		cl_event e = atomic_load(&evs[k]);
		if (e) clReleaseEvent(e);
	}
	return t;
}

static double pinned_pieces(void)   /* 32 writes of 2 MB, from different memory */
{
	double t0 = now();
	for (size_t a = 0; a < B; a += (size_t)2 << 20)
		clEnqueueWriteBuffer(q, dev, CL_FALSE, a, (size_t)2 << 20, pin + a, 0, 0, 0);
	clFinish(q);
	return now() - t0;
}

static double pinned_same(void)   /* 32 writes of one 2 MB region the CPU has just written */
{
	memset(pin, 5, (size_t)2 << 20);
	double t0 = now();
	for (size_t a = 0; a < B; a += (size_t)2 << 20)
		clEnqueueWriteBuffer(q, dev, CL_FALSE, a, (size_t)2 << 20, pin, 0, 0, 0);
	clFinish(q);
	return now() - t0;
}

static double copy_beside_dma(void)   /* the copy on nthr threads while other memory is DMAed */
{
	double t0 = now();
	clEnqueueWriteBuffer(q, dev, CL_FALSE, 0, B, pin2, 0, 0, 0);
	clFlush(q);
	atomic_store(&next_piece, 0);
	pool_run();
	double t = now() - t0;
	clFinish(q);
	return t;
}

/* A 64 MB pinned write of other memory while nthr threads copy (the DMA's rate under load). */
static void *pool_thread(void *p)
{
	(void)p;
	pool_run();
	return 0;
}
static double dma_beside_copy(void)
{
	pthread_t th;
	atomic_store(&stop_copy, 0);
	atomic_store(&next_piece, 0);
	if (nthr) pthread_create(&th, 0, pool_thread, 0);
	struct timespec w = {0, 200000};
	nanosleep(&w, 0);   /* the copies running */
	double t0 = now();
	clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, B, pin2, 0, 0, 0);
	double t = now() - t0;
	atomic_store(&stop_copy, 1);
	if (nthr) pthread_join(th, 0);
	return t;
}

static void report(const char *what, double t, double best)
{
	printf("%-58s %6.1f GB/s = %.2f\n", what, B / t / 1e9, best / t);
}

static void point(const char *what, int threads, size_t first, size_t piece, int nt, int flush,
                  int slots, double best)
{
	char line[128];
	copy_skip = submitter = 0;
	if (what[0] == 'e') copy_skip = 1;
	if (what[0] == 's' && what[1] == 'u') submitter = 1;
	nthr = threads;
	use_nt = nt;
	flush_each = flush;
	ring_slots = slots;
	ring_piece = piece;
	dma_only = 0;
	plan(first, piece);
	snprintf(line, sizeof line, "%s thr %2d first %4zuK piece %4zuK grow %d %s%s slots %d: %zu", what,
	         threads, first >> 10, piece >> 10, grow_every, nt ? "nt" : "mc", flush ? " fl" : "", slots,
	         n_pieces);
	report(line, best_of(6, run), best);
}

static void probe(void)
{
	const size_t K = 1024, M = K * K;
	double best = best_of(6, pinned_write);
	report("pinned write, one command", best, best);
	report("pinned write, 32 commands of 2 MB", best_of(6, pinned_pieces), best);
	report("pinned write, 32 x the same 2 MB just written", best_of(6, pinned_same), best);
	int ths[] = {1, 4, 8, 12, 16};
	for (int i = 0; i < 5; i++)
		for (int nt = 0; nt < 2; nt++) {
			char line[96];
			nthr = ths[i];
			use_nt = nt;
			dma_only = 1;
			ring_slots = 0;
			plan(2 * M, 2 * M);
			snprintf(line, sizeof line, "copy only, thr %2d %s", nthr, nt ? "nt" : "mc");
			report(line, best_of(6, run), best);
		}
	nthr = 8;
	use_nt = 1;
	plan(2 * M, 2 * M);
	report("copy only thr 8 nt, beside a 64 MB pinned write", best_of(6, copy_beside_dma), best);
	int beside[] = {0, 2, 4, 6, 8, 12};
	for (int i = 0; i < 6; i++) {
		char line[96];
		nthr = beside[i];
		dma_only = 2;
		plan(2 * M, 2 * M);
		snprintf(line, sizeof line, "pinned write beside a copy on %2d threads", nthr);
		report(line, best_of(6, dma_beside_copy), best);
	}
	dma_only = 0;
	point("staged", 8, 2 * M, 2 * M, 1, 0, 0, best);
	point("enqueue only", 8, 2 * M, 2 * M, 1, 0, 0, best);
	point("submitter", 7, 256 * K, 2 * M, 1, 1, 0, best);
	size_t rp[] = {256 * K, 1 * M};
	for (int i = 0; i < 2; i++)
		for (int nt = 0; nt < 2; nt++) point("ring  ", 8, rp[i], rp[i], nt, 1, 16, best);
}

static void after_other_work(void)
{
	const size_t K = 1024, M = K * K;
	/* The staged upload (6 workers, 256 KB to 4 MB) right after other work, as device_bench's
	 * interleaved line times it: after a 64 MB memcpy, after 20 ms asleep, after 20 ms of the
	 * caller spinning, back to back; each against the pinned write, best and median of 21. */
	uint8_t *dst = malloc(B);
	memset(dst, 3, B);
	const char *names[] = {"after a 64 MB memcpy", "after 20 ms asleep", "after 20 ms spinning",
	                       "back to back", "after a memcpy, then 20 ms asleep"};
	enum { NB = 5, R = 21 };
	static double t_up[NB][R], wake[NB][R];
	double best_pin = 1e9;
	for (int r = 0; r < R; r++) {
		double tp = pinned_write();
		if (tp < best_pin) best_pin = tp;
		for (int b = 0; b < NB; b++) {
			nthr = 6;
			grow_every = 0;
			use_nt = 1;
			flush_each = ring_slots = dma_only = copy_skip = submitter = 0;
			plan(256 * K, 4 * M);
			if (b == 0 || b == 4) memcpy(dst, src, B);
			if (b == 1 || b == 4) {
				struct timespec w = {0, 20000000};
				nanosleep(&w, 0);
			}
			if (b == 2) {
				double t0 = now();
				while (now() - t0 < 0.02) _mm_pause();
			}
			if (b == 3) run();
			t_up[b][r] = run();
			double late = 0;   /* the last worker's start after run()'s */
			for (int t = 1; t < nthr; t++)
				if (job_started[t] - run_started > late) late = job_started[t] - run_started;
			wake[b][r] = late;
		}
	}
	for (int b = 0; b < NB; b++) {
		double *f = t_up[b] + 1;
		int n = R - 1;
		for (int a = 1; a < n; a++)
			for (int c = a; c > 0 && f[c - 1] > f[c]; c--) {
				double x = f[c];
				f[c] = f[c - 1];
				f[c - 1] = x;
			}
		double *w = wake[b] + 1;
		for (int a = 1; a < n; a++)
			for (int c = a; c > 0 && w[c - 1] > w[c]; c--) {
				double x = w[c];
				w[c] = w[c - 1];
				w[c - 1] = x;
			}
		printf("staged upload %-36s best %.2f median %.2f of the pinned write's best; last worker "
		       "started after %.0f us (median; %.0f-%.0f)\n", names[b], best_pin / f[0],
		       best_pin / f[n / 2], w[n / 2] * 1e6, w[0] * 1e6, w[n - 1] * 1e6);
	}
}

int main(int argc, char **argv)
{
	uint8_t *s;
	cl_int st;
	exp_open(&s, 0);
	src = s;
	pm2 = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, B, 0, &st);
	pin2 = clEnqueueMapBuffer(q, pm2, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, B, 0, 0, 0, &st);
	memset(pin2, 2, B);
	pool_job = job;
	pool_start(15);
	const size_t K = 1024, M = K * K;
	if (argc > 1 && strcmp(argv[1], "after") == 0) {
		after_other_work();
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "probe") == 0) {
		probe();
		return 0;
	}
	/* Candidates interleaved, rep after rep, each timed against a pinned write of the same rep:
	 * the lent host's slow spells then hit every candidate alike. */
	struct { int thr; size_t first, max; int grow; } c[] = {
		{8, 2 * M, 2 * M, 0}, {6, 2 * M, 2 * M, 0}, {7, 2 * M, 2 * M, 0},
		{6, 256 * K, 4 * M, 0}, {6, 512 * K, 4 * M, 0}, {7, 256 * K, 4 * M, 0},
		{5, 512 * K, 2 * M, 0}, {6, 128 * K, 2 * M, 1}, {6, 256 * K, 8 * M, 0},
		{6, 256 * K, 2 * M, 0}, {7, 512 * K, 8 * M, 0}, {5, 256 * K, 4 * M, 0},
	};
	enum { NC = sizeof c / sizeof c[0], REPS = 41 };
	static double frac[NC][REPS];
	for (int r = 0; r < REPS; r++) {
		double tp = pinned_write();
		for (int i = 0; i < NC; i++) {
			nthr = c[i].thr;
			grow_every = c[i].grow;
			use_nt = 1;
			flush_each = ring_slots = dma_only = copy_skip = submitter = 0;
			plan(c[i].first, c[i].max);
			frac[i][r] = tp / run();
		}
	}
	for (int i = 0; i < NC; i++) {
		double *f = frac[i] + 1;   /* the first rep warms up */
		int n = REPS - 1;
		for (int a = 1; a < n; a++)   /* insertion sort */
			for (int b = a; b > 0 && f[b - 1] > f[b]; b--) {
				double x = f[b];
				f[b] = f[b - 1];
				f[b - 1] = x;
			}
		nthr = c[i].thr;
		grow_every = c[i].grow;
		plan(c[i].first, c[i].max);
		printf("thr %d first %4zuK max %4zuK grow %d (%2zu pieces): median %.3f  quartiles %.3f-%.3f  best %.3f\n",
		       c[i].thr, c[i].first >> 10, c[i].max >> 10, c[i].grow, n_pieces, f[n / 2], f[n / 4],
		       f[3 * n / 4], f[n - 1]);
	}
	return 0;
}
