/* Upload experiment (issue 5, fifth session; docs/BENCHMARKS.md): ways to stage a 64 MB
 * pageable buffer through pinned memory to an NVIDIA GPU, each against the pinned write timed in
 * the same process. Threads started per call or a pool kept between uploads; 8, 12 or 16 of them;
 * pieces of 512 KB to 4 MB; memcpy or non-temporal stores; each thread its own slice or the next
 * piece from a counter. Not built by default:
 *   cc -O2 -std=gnu11 -o upload_staging bench/experiments/upload_staging.c -lOpenCL -lpthread
 * then run it on the GPU machine (source .gpu/env.sh first). */
#include "upload_common.h"

static const uint8_t *src;
static int use_nt, rr;
static int nthr;
/* Bytes [a, b) copied into the pinned buffer and their write enqueued. */
static void stage(size_t a, size_t b)
{
	if (use_nt)
		nt_copy(pin + a, src + a, b - a);
	else
		memcpy(pin + a, src + a, b - a);
	clEnqueueWriteBuffer(q, dev, CL_FALSE, a, b - a, pin + a, 0, 0, 0);
}
/* rr: the next piece from the counter; else thread t's own slice, a piece at a time. */
static void do_pieces(int t)
{
	size_t a, b;
	if (rr) {
		while (take_piece(&a, &b)) stage(a, b);
		return;
	}
	size_t slice = (B / nthr + 4095) & ~(size_t)4095;
	size_t from = t * slice, to = (t + 1) * slice < B && t + 1 < nthr ? (t + 1) * slice : B;
	for (a = from; a < to; a += piece) stage(a, a + piece < to ? a + piece : to);
}
static void job(int t)
{
	if (t < nthr) do_pieces(t);
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
		pool_run();
	}
	clFinish(q);
	return now() - t0;
}
/* One configuration, best of 6 runs (the first not counted), against the pinned write's best. */
static int run_mode;
static double run_current(void)
{
	return run(run_mode);
}
static void point(int mode, int threads, size_t piece_bytes, int nt, int r2, double best)
{
	run_mode = mode;
	nthr = threads;
	piece = piece_bytes;
	use_nt = nt;
	rr = r2;
	double b2 = best_of(6, run_current);
	printf("%s threads %2d piece %4zu KB %s %s: %.1f GB/s = %.2f\n", mode ? "pool" : "new ", nthr,
	       piece >> 10, nt ? "nt  " : "memc", rr ? "rr   " : "slice", B / b2 / 1e9, best / b2);
}
int main(void)
{
	uint8_t *s;
	exp_open(&s, 0);
	src = s;
	pool_job = job;
	pool_start(15);   /* workers 1..15; do_pieces(0) on the caller */
	for (int round = 0; round < 2; round++) {
		double best = best_of(6, pinned_write);
		printf("pinned write %.1f GB/s\n", B / best / 1e9);
		int th[] = {8, 12, 16};
		size_t pcs[] = {(size_t)512 << 10, (size_t)1 << 20, (size_t)2 << 20,
				(size_t)4 << 20};
		for (int mode = 0; mode < 2; mode++)
			for (int n = 0; n < 3; n++)
				for (int pp = 0; pp < 4; pp++)
					for (int nt = 0; nt < 2; nt++)
						for (int r2 = 0; r2 < 2; r2++) point(mode, th[n], pcs[pp], nt, r2, best);
		for (int mode = 0; mode < 2; mode++)
			for (int pp = 0; pp < 4; pp++)
				for (int nt = 0; nt < 2; nt++) point(mode, 16, pcs[pp], nt, 1, best);
	}
	return 0;
}
