/* Throwaway: upload by registering the caller's memory (CL_MEM_USE_HOST_PTR) piece by piece on
 * threads. */
#include "upload_common.h"

static uint8_t *src;
static int nthr, how; /* how 0: copy from the buffer, 1: write from the pointer */
static cl_mem held[1024];
static void do_pieces(int t)
{
	(void)t;
	size_t a, b;
	while (take_piece(&a, &b)) {
		size_t k = a / piece;
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
static int phase;   /* 0: upload pieces, 1: release their buffers */
static void job(int t)
{
	if (t >= nthr) return;
	if (phase == 0) do_pieces(t);
	else do_release();
}
static void all(int ph)
{
	phase = ph;
	pool_run();
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
	exp_open(&src, 24);
	pool_job = job;
	pool_start(15);
	for (int round = 0; round < 2; round++) {
		double best = best_of(6, pinned_write);
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
