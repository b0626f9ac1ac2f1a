/* Benchmark (not a test) of the decoders below PHP: host codecs and OpenCL launchers on the same
 * inputs, into C arrays, so that the PHP array (5 ns an element) does not hide the decoder.
 * Prints values/s (WAH: rows of bitmap/s) for the host, the device end to end (upload, kernels,
 * download) and a device copy of the same bytes for scale.
 *
 *   make bench-c && ./bench/device_bench [values, default 64M] [reps, default 5] [formats]
 * formats: a comma-separated subset of MOD9,MOD9d,MOD9p,S9,VB,GV,S9v,QS,WAH (default all).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../codec/gp_batch.h"
#include "../codec/gp_mod9.h"
#include "../codec/gp_qs.h"
#include "../codec/gp_result.h"
#include "../codec/gp_s9.h"
#include "../codec/gp_wah.h"
#include "../codec/gp_vbyte.h"
#include "../codec/gp_gvarint.h"
#include "../opencl/gp_cl_internal.h"

/* gpupost.device's syntax: GPUPOST_DEVICE, or auto */
static const char *device_spec = "auto";

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rng = 88172645463325252ull;
static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

typedef int (*device_fn)(const uint8_t *blob, size_t len, gp_result *r, gp_error *err);

/* As the dispatch calls them: one blob, and for MOD9 the blob's estimate. */
static int dev_decode(int (*decode)(const gp_batch_in *, gp_result *, gp_error *), const uint8_t *b,
                      size_t len, int mode, gp_result *r, gp_error *e)
{
	gp_batch_in in = {.blobs = &b, .lens = &len, .n_blobs = 1, .mode = mode};
	gp_mod9_estimate(b, len, &in.est);
	return decode(&in, r, e);
}
static int dev_mod9(const uint8_t *b, size_t len, gp_result *r, gp_error *e) { return dev_decode(gp_cl_mod9_decode, b, len, GP_MODE_VALUES, r, e); }
static int dev_mod9_docs(const uint8_t *b, size_t len, gp_result *r, gp_error *e) { return dev_decode(gp_cl_mod9_decode, b, len, GP_MODE_DOCS, r, e); }
static int dev_mod9_postings(const uint8_t *b, size_t len, gp_result *r, gp_error *e) { return dev_decode(gp_cl_mod9_decode, b, len, GP_MODE_POSTINGS, r, e); }
static int dev_s9(const uint8_t *b, size_t len, gp_result *r, gp_error *e) { return dev_decode(gp_cl_s9_decode, b, len, GP_MODE_VALUES, r, e); }
static int dev_qs(const uint8_t *b, size_t len, gp_result *r, gp_error *e) { return dev_decode(gp_cl_qs_decode, b, len, GP_MODE_VALUES, r, e); }
static int dev_wah(const uint8_t *b, size_t len, gp_result *r, gp_error *e) { return dev_decode(gp_cl_wah_rows, b, len, GP_MODE_VALUES, r, e); }
static int dev_vbyte(const uint8_t *b, size_t len, gp_result *r, gp_error *e) { return dev_decode(gp_cl_vbyte_decode, b, len, GP_MODE_VALUES, r, e); }
static int dev_gvarint(const uint8_t *b, size_t len, gp_result *r, gp_error *e) { return dev_decode(gp_cl_gvarint_decode, b, len, GP_MODE_VALUES, r, e); }
static uint8_t *wah_bitmap_out;
static int dev_wah_bitmap(const uint8_t *b, size_t len, gp_result *r, gp_error *e)
{
	(void)r;
	return gp_cl_wah_decompress(b, len, wah_bitmap_out, e);
}

/* Device time of a plain buffer copy of `bytes` (upload, clEnqueueCopyBuffer, download). */
static double device_copy(const uint8_t *src, size_t bytes, int reps)
{
	gp_error err;
	double best = 1e30;
	uint8_t *dst = malloc(bytes);
	for (int r = 0; r < reps && dst; r++) {
		double t0 = now();
		cl_mem in = gp_cl_upload(GP_B_INPUT, &src, &bytes, 1, bytes, &err);
		cl_mem out = gp_cl_buffer(GP_B_BITMAP, bytes, &err);
		if (!in || !out) break;
		clEnqueueCopyBuffer(gp_cl_queue(), in, out, 0, 0, bytes, 0, NULL, NULL);
		gp_cl_read(out, bytes, dst, &err);
		double t = now() - t0;
		if (t < best) best = t;
	}
	free(dst);
	return best;
}

/* Device-resident bandwidth of a plain copy kernel over `bytes` (read + write counted), GB/s. */
static double copy_kernel_gbs(size_t bytes)
{
	gp_error err;
	cl_mem a = gp_cl_buffer(GP_B_BITMAP, bytes, &err), b = gp_cl_buffer(GP_B_ROWS, bytes, &err);
	cl_uint n = (cl_uint)(bytes / 4);
	cl_kernel k = gp_cl_kernel(GP_K_COPY_U32);
	double best = 1e30;
	if (!a || !b) return 0;
	gp_set_copy_u32(k, &(gp_args_copy_u32){.in = a, .out = b, .n = n});
	for (int r = 0; r < 5; r++) {
		gp_cl_kernel_seconds_reset();
		gp_cl_run(k, n, &err);
		double t = gp_cl_kernel_seconds();
		if (t > 0 && t < best) best = t;
	}
	return 2.0 * bytes / best / 1e9;
}

/* The same bytes moved by clEnqueueCopyBuffer (the driver's own copy), read + write, GB/s. */
static double copy_buffer_gbs(size_t bytes)
{
	gp_error err;
	cl_mem a = gp_cl_buffer(GP_B_BITMAP, bytes, &err), b = gp_cl_buffer(GP_B_ROWS, bytes, &err);
	double best = 1e30;
	if (!a || !b) return 0;
	for (int r = 0; r < 5; r++) {
		cl_event ev;
		cl_ulong t0 = 0, t1 = 0;
		if (clEnqueueCopyBuffer(gp_cl_queue(), a, b, 0, 0, bytes, 0, NULL, &ev) != CL_SUCCESS) return 0;
		clWaitForEvents(1, &ev);
		clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL);
		clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL);
		clReleaseEvent(ev);
		if (t1 > t0 && (t1 - t0) / 1e9 < best) best = (t1 - t0) / 1e9;
	}
	return 2.0 * bytes / best / 1e9;
}

static double copy_gbs;

/* Whether the comma-separated list names `name` (a whole item: "S9" is not "S9v"). */
static int has_format(const char *list, const char *name)
{
	size_t k = strlen(name);
	for (const char *p = list; (p = strstr(p, name)) != NULL; p += k) {
		if ((p == list || p[-1] == ',') && (p[k] == ',' || p[k] == '\0')) return 1;
	}
	return 0;
}

/* gp_cl_upload of `bytes`, best of reps seconds, its copy on `threads` threads (NULL: the
 * default) in pieces growing from `first_kb` to `piece_kb` (NULL: the defaults). */
static double upload_seconds(const uint8_t *src, size_t bytes, int reps, const char *threads,
                             const char *first_kb, const char *piece_kb)
{
	gp_error err;
	double best = 1e30;
	gp_cl_set_upload_plan(threads ? (size_t)atoi(threads) : 0, first_kb ? (size_t)atoi(first_kb) : 0,
	                      piece_kb ? (size_t)atoi(piece_kb) : 0);
	for (int r = 0; r < reps + 1; r++) {   /* the first grows the buffers */
		double t0 = now();
		gp_cl_upload(GP_B_INPUT, &src, &bytes, 1, bytes, &err);
		if (r > 0 && now() - t0 < best) best = now() - t0;
	}
	gp_cl_set_upload_plan(0, 0, 0);
	return best;
}

/* (d) Host-to-device bandwidth for one blob of `bytes`, GB/s, best of reps: the device's best
 * (a blocking write from pinned memory: a mapped CL_MEM_ALLOC_HOST_PTR buffer), a write from
 * malloc'd (pageable) memory, a plain memcpy on the host, and gp_cl_upload, which copies the
 * caller's bytes into its pinned staging memory and writes from there. Pinned device-to-host
 * reads beside them. */
static void upload_report(size_t bytes, int reps)
{
	gp_error err;
	cl_context ctx;
	cl_int st;
	clGetCommandQueueInfo(gp_cl_queue(), CL_QUEUE_CONTEXT, sizeof(ctx), &ctx, NULL);
	cl_mem dev = gp_cl_buffer(GP_B_BITMAP, bytes, &err);
	cl_mem pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &st);
	uint8_t *src = malloc(bytes), *dst = malloc(bytes);
	if (!dev || st != CL_SUCCESS || !src || !dst) return;
	uint8_t *host = clEnqueueMapBuffer(gp_cl_queue(), pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
	                                   bytes, 0, NULL, NULL, &st);
	if (st != CL_SUCCESS) return;
	for (size_t i = 0; i < bytes; i++) src[i] = (uint8_t)next_rand();
	memset(host, 1, bytes);
	memset(dst, 2, bytes);
	static const char *const threads[] = {"1", "4", "6", "7", "8", "16"},
		*const pieces[] = {"2048", "4096", "8192"};
	double best[6] = {1e30, 1e30, 1e30, 1e30, 1e30, 1e30}, by_threads[6], by_piece[3], flat, shipped;
	for (int k = 0; k < 6; k++) by_threads[k] = upload_seconds(src, bytes, reps, threads[k], NULL, NULL);
	for (int k = 0; k < 3; k++) by_piece[k] = upload_seconds(src, bytes, reps, NULL, NULL, pieces[k]);
	flat = upload_seconds(src, bytes, reps, "8", "2048", "2048");   /* 2 MB pieces on 8 workers throughout */
	shipped = upload_seconds(src, bytes, reps, NULL, NULL, NULL);
	for (int r = 0; r < reps + 1; r++) {
		double t[6], t0 = now();
		clEnqueueWriteBuffer(gp_cl_queue(), dev, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
		t[0] = now() - t0; t0 = now();
		clEnqueueWriteBuffer(gp_cl_queue(), dev, CL_TRUE, 0, bytes, src, 0, NULL, NULL);
		t[1] = now() - t0; t0 = now();
		memcpy(dst, src, bytes);
		t[2] = now() - t0; t0 = now();
		const uint8_t *part = src;
		gp_cl_upload(GP_B_INPUT, &part, &bytes, 1, bytes, &err);
		t[3] = now() - t0; t0 = now();
		clEnqueueReadBuffer(gp_cl_queue(), dev, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
		t[4] = now() - t0; t0 = now();
		memcpy(dst, host, bytes);   /* the CPU reading what the DMA just wrote to pinned memory */
		t[5] = now() - t0;
		for (int k = 0; r > 0 && k < 6; k++) if (t[k] < best[k]) best[k] = t[k];
	}
	printf("# upload of %zu MB: pinned write %.1f GB/s (the device's best), pageable write %.1f GB/s,\n"
	       "# host memcpy %.1f GB/s, gp_cl_upload %.1f GB/s = %.2f of the best; pinned read %.1f GB/s\n",
	       bytes >> 20, bytes / best[0] / 1e9, bytes / best[1] / 1e9, bytes / best[2] / 1e9,
	       bytes / best[3] / 1e9, best[0] / best[3], bytes / best[4] / 1e9);
	printf("# memcpy out of pinned memory the DMA just wrote: %.1f GB/s\n", bytes / best[5] / 1e9);
	printf("# gp_cl_upload with its copy on 1, 4, 6, 7, 8, 16 threads: %.1f, %.1f, %.1f, %.1f, %.1f, "
	       "%.1f GB/s\n", bytes / by_threads[0] / 1e9, bytes / by_threads[1] / 1e9,
	       bytes / by_threads[2] / 1e9, bytes / by_threads[3] / 1e9, bytes / by_threads[4] / 1e9,
	       bytes / by_threads[5] / 1e9);
	printf("# gp_cl_upload, pieces from 256 KB up to 2, 4, 8 MB: %.1f, %.1f, %.1f GB/s; 2 MB pieces "
	       "throughout on 8 threads: %.1f GB/s\n", bytes / by_piece[0] / 1e9,
	       bytes / by_piece[1] / 1e9, bytes / by_piece[2] / 1e9, bytes / flat / 1e9);
	printf("# gp_cl_upload as shipped, uploads back to back: %.1f GB/s = %.2f of the best\n",
	       bytes / shipped / 1e9, best[0] / shipped);
	clEnqueueUnmapMemObject(gp_cl_queue(), pin, host, 0, NULL, NULL);
	clFinish(gp_cl_queue());
	clReleaseMemObject(pin);
	free(src);
	free(dst);
}

/* out_bytes: bytes the decode writes per value (4, 8 for S9's 64-bit values; 1/8 for a bitmap). */
static void report(const char *name, size_t values, double out_bytes, const uint8_t *blob,
                   size_t len, double host, device_fn dev, int reps)
{
	double best = 1e30, kbest = 1e30;
	gp_error err;
	if (gp_cl_available(device_spec, 0)) {
		for (int r = 0; r < reps + 1; r++) { /* the first run grows the buffers */
			gp_result res;
			memset(&res, 0, sizeof(res));
			gp_cl_kernel_seconds_reset();
			double t0 = now();
			int rc = dev(blob, len, &res, &err);
			double t = now() - t0, kt = gp_cl_kernel_seconds();
			if (r > 0 && kt > 0 && kt < kbest) kbest = kt;
			if (rc != GP_OK) {
				printf("%-6s device failed: %s\n", name, err.rule);
				best = 0;
				break;
			}
			/* a DOCS result counts postings (its docs), the others values */
			size_t got = strcmp(name, "MOD9d") == 0 ? res.n_postings : res.n_values;
			if (got != values && strcmp(name, "WAHb") != 0) printf("%-6s device count %zu != %zu\n", name, got, values);
			gp_result_free(&res);
			if (r > 0 && t < best) best = t;
		}
	}
	double copy = gp_cl_available(device_spec, 0) ? device_copy(blob, len, reps) : 0;
	/* device-resident: bytes moved (compressed read + what is written) per kernel second */
	double kgbs = kbest < 1e30 ? (len + out_bytes * values) / kbest / 1e9 : 0;
	printf("%-5s %10zu %8.2f %10.1f %12.1f %12.1f %10.2f %12.1f %8.1f %8.2f\n", name, values,
	       8.0 * len / values, values / host / 1e6, best > 0 && best < 1e30 ? values / best / 1e6 : 0.0,
	       copy > 0 ? values / copy / 1e6 : 0.0, copy > 0 && best < 1e30 ? copy / best : 0.0,
	       kbest < 1e30 ? values / kbest / 1e6 : 0.0, kgbs, copy_gbs > 0 ? kgbs / copy_gbs : 0.0);
}

/* One S9 row: x[0..n) encoded under `delta`, the host decoder timed, then the device. */
static void bench_s9(const char *name, const int64_t *x, size_t n, uint32_t delta, int64_t *out,
                     int reps)
{
	const char *why;
	size_t at;
	uint8_t *blob = malloc(gp_s9_encode_bound(n));
	size_t len = gp_s9_encode(x, n, delta, blob, &why, &at);
	double best = 1e30;
	for (int r = 0; r < reps; r++) {
		double t0 = now();
		gp_s9_decode(blob, len, out);
		if (now() - t0 < best) best = now() - t0;
	}
	report(name, n, 8, blob, len, best, dev_s9, reps);
	free(blob);
}

/* One row of a byte format: x[0..n) encoded under `delta`, the host decoder timed, then the
 * device. */
static void bench_bytes(const char *name, const int64_t *x, size_t n, uint32_t delta, uint32_t *out, int reps,
                        size_t (*encode)(const int64_t *, size_t, uint32_t, uint8_t *, size_t *), size_t bound,
                        int (*decode)(const uint8_t *, size_t, uint32_t *, gp_error *), device_fn dev)
{
	size_t at;
	gp_error err;
	uint8_t *blob = malloc(bound);
	size_t len = blob ? encode(x, n, delta, blob, &at) : 0;
	double best = 1e30;
	for (int r = 0; r < reps && len; r++) {
		double t0 = now();
		if (decode(blob, len, out, &err) != GP_OK) printf("%-5s host decode failed: %s\n", name, err.rule);
		if (now() - t0 < best) best = now() - t0;
	}
	if (len) report(name, n, 4, blob, len, best, dev, reps);
	free(blob);
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : (size_t)64 << 20;
	int reps = argc > 2 ? atoi(argv[2]) : 5;
	const char *formats = argc > 3 ? argv[3] : "MOD9,MOD9d,MOD9p,S9,VB,GV,S9v,QS,WAH";
	if (getenv("GPUPOST_DEVICE")) device_spec = getenv("GPUPOST_DEVICE");
	setenv("GPUPOST_PROFILE", "1", 0); /* kernel times from events (2: each launch on stderr) */
	const gp_device_info *d = gp_cl_available(device_spec, 0) ? gp_cl_info() : NULL;
	printf("# device_bench: %zu values, best of %d; device: %s (%s)\n", n, reps,
	       d ? d->device : "none", d ? d->platform : gp_cl_last_error());
	if (d) {
		printf("# launch shapes: work-group %zu, tiles of %zu words an item (MOD9, S9), %zu (QS), "
		       "values staged an item %zu (32-bit), %zu (64-bit)\n", gp_cl_wg(), gp_cl_tile_items(),
		       gp_cl_qs_items(), gp_cl_stage_items(4), gp_cl_stage_items(8));
	}
	printf("# input: d-gaps 1..255 (MOD9, S9 delta 2), docIDs of gaps 1..64 (VB, GV delta 2: a byte a\n"
	       "# value), values 0..65535 (VBw, GVw delta 0), one-word postings (MOD9d: their docs), postings\n"
	       "# of 1..6 positions, gaps 1..255, docs 1..15 apart (MOD9p: docs and positions, values = docs + positions), values\n"
	       "# 0..254 (S9v, delta 0), a sorted docID list\n"
	       "# with mean gap 16 (QS), a bitmap of 32 n rows, runs of 1..64 set rows at density 1/64 (WAHr:\n"
	       "# its set rows; WAHb: the bitmap, n "
	       "32-bit words). device = upload + kernels + download, into C arrays;\n"
	       "# copy = the same bytes uploaded, copied on the device and downloaded.\n");
	if (gp_cl_available(device_spec, 0)) {
		copy_gbs = copy_kernel_gbs((size_t)256 << 20);
		printf("# for scale: clEnqueueCopyBuffer of 256 MB %.1f GB/s (read + write)\n",
		       copy_buffer_gbs((size_t)256 << 20));
		upload_report((size_t)64 << 20, reps);
	}
	printf("# kernels = the same decode's kernel time alone (OpenCL events): M values/s, GB/s moved\n"
	       "# (compressed read + 4 B a value written, 8 for S9 and WAHr, whose values are 64-bit; MOD9p\n"
	       "# 4 B a value and 13 a posting) and that\n"
	       "# as a fraction of a copy kernel's\n"
	       "# %.1f GB/s (256 MB, read + write) measured in this process.\n", copy_gbs);
	printf("%-5s %10s %8s %10s %12s %12s %10s %12s %8s %8s\n", "fmt", "values", "bits/v", "host M/s",
	       "device M/s", "copy M/s", "dev/copy", "kernels M/s", "GB/s", "of copy");

	uint32_t *gaps = malloc(n * sizeof(uint32_t));
	int64_t *docs = malloc(n * sizeof(int64_t));
	uint32_t *docs32 = malloc(n * sizeof(uint32_t));
	uint32_t *out32 = malloc((n + 64) * sizeof(uint32_t));
	int64_t *out64 = malloc((n + 64) * sizeof(int64_t));
	if (!gaps || !docs || !docs32 || !out32 || !out64) return 1;
	int64_t x = -1;
	for (size_t i = 0; i < n; i++) {
		gaps[i] = 1 + next_rand() % 255;
		x += gaps[i];
		docs[i] = x;
		docs32[i] = (uint32_t)(i * 16 + next_rand() % 16);
	}
	gp_error err;
	double t0, host, best;

	uint8_t *blob = NULL;
	size_t len;
	/* MOD9 */
	if (has_format(formats, "MOD9")) {
	blob = malloc(gp_mod9_encode_bound(n));
	len = gp_mod9_encode_values(gaps, n, blob);
	best = 1e30;
	for (int r = 0; r < reps; r++) {
		t0 = now();
		gp_mod9_decode_values_checked(blob, len, out32, &err);
		if (now() - t0 < best) best = now() - t0;
	}
	host = best;
	report("MOD9", n, 4, blob, len, host, dev_mod9, reps);
	free(blob);
	}

	/* MOD9 DOCS: n postings of one word each (flags 00, 2 x 14 bits: doc + 1, then a position
	 * gap), each posting's doc out (4 bytes) */
	if (has_format(formats, "MOD9d")) {
	blob = malloc(4 * n);
	for (size_t i = 0; i < n; i++) {
		uint32_t doc1 = 1 + (uint32_t)(next_rand() % 16383), gap = 1 + (uint32_t)(next_rand() % 16383);
		gp_store_be32(blob + 4 * i, 0x10000000u | doc1 << 14 | gap);
	}
	best = 1e30;
	for (int r = 0; r < reps; r++) {
		t0 = now();
		gp_mod9_decode_postings(blob, 4 * n, out64, NULL, NULL, NULL, 0);
		if (now() - t0 < best) best = now() - t0;
	}
	report("MOD9d", n, 4, blob, 4 * n, best, dev_mod9_docs, reps);
	free(blob);
	}

	/* MOD9 POSTINGS: postings of 1..6 positions with gaps 1..255, docs 1..15 apart, encoded as
	 * Yioop's packPosting does; docs and every value's running position out (4 bytes a value:
	 * the device's positions are 32-bit where they fit; 13 a posting: doc, form, first value
	 * index) */
	if (has_format(formats, "MOD9p")) {
	blob = malloc(gp_mod9_encode_bound(n) + 64);
	size_t nv = 0, np = 0;
	int64_t doc = 0, pos[6];
	uint32_t vals[7];
	const char *why;
	len = 0;
	while (nv + 7 <= n) {
		size_t k = 1 + next_rand() % 6;
		doc += 1 + next_rand() % 15;   /* docs stay below 2^28 for 64M values */
		for (size_t j = 0; j < k; j++) pos[j] = (j ? pos[j - 1] : 0) + 1 + next_rand() % 255;
		size_t c = gp_mod9_posting_values(doc, pos, k, 1, vals, &why);
		if (c == 0) break;
		len += gp_mod9_encode_values(vals, c, blob + len);
		nv += c;
		np++;
	}
	uint32_t *vst = malloc((np + 1) * sizeof(uint32_t));
	uint8_t *comb = malloc(np);
	int64_t *pdocs = malloc(np * sizeof(int64_t));   /* not docs[]: the S9 rows encode it */
	best = 1e30;
	for (int r = 0; r < reps && vst && comb && pdocs; r++) {
		t0 = now();
		gp_mod9_decode_postings(blob, len, pdocs, vst, comb, out64, 0);
		if (now() - t0 < best) best = now() - t0;
	}
	report("MOD9p", nv, 4 + 13.0 * np / nv, blob, len, best, dev_mod9_postings, reps);
	free(vst);
	free(comb);
	free(pdocs);
	free(blob);
	}

	/* S9: strictly increasing docIDs (delta rule 2), then values under 2^8 as stored (S9v) */
	if (has_format(formats, "S9")) bench_s9("S9", docs, n, 2, out64, reps);
	/* VBYTE and GROUP_VARINT: docIDs of gaps 1..64 under rule 2 (one byte a value: VB, GV), then
	 * values 0..65535 as stored (one to three bytes: VBw, GVw) */
	if (has_format(formats, "VB") || has_format(formats, "GV")) {
		int64_t *x = malloc(n * sizeof(int64_t));
		for (size_t i = 0; x && i < n; i++) x[i] = (i ? x[i - 1] : -1) + 1 + next_rand() % 64;
		for (int wide = 0; x && wide < 2; wide++) {
			if (wide) for (size_t i = 0; i < n; i++) x[i] = next_rand() % 65536;
			if (has_format(formats, "VB")) {
				bench_bytes(wide ? "VBw" : "VB", x, n, wide ? 0 : 2, out32, reps, gp_vbyte_encode, gp_vbyte_encode_bound(n),
				            gp_vbyte_decode, dev_vbyte);
			}
			if (has_format(formats, "GV")) {
				bench_bytes(wide ? "GVw" : "GV", x, n, wide ? 0 : 2, out32, reps, gp_gvarint_encode,
				            gp_gvarint_encode_bound(n), gp_gvarint_decode, dev_gvarint);
			}
		}
		free(x);
	}
	if (has_format(formats, "S9v")) {
		for (size_t i = 0; i < n; i++) docs[i] = gaps[i] - 1;
		bench_s9("S9v", docs, n, 0, out64, reps);
	}

	/* QS */
	if (has_format(formats, "QS")) {
	uint32_t l = gp_qs_choose_l(docs32[n - 1], n, 1.0);
	len = gp_qs_encoded_size(docs32[n - 1], n, l);
	blob = calloc(1, len);
	gp_qs_encode(docs32, n, l, blob);
	gp_qs_header h;
	gp_qs_check_header(blob, len, &h, NULL);
	best = 1e30;
	for (int r = 0; r < reps; r++) {
		t0 = now();
		gp_qs_decode(blob, &h, out32, &err);
		if (now() - t0 < best) best = now() - t0;
	}
	report("QS", n, 4, blob, len, best, dev_qs, reps);
	free(blob);
	}

	/* WAH: a bitmap of 32 * n rows (n 32-bit words decompressed, the "values" of WAHb), runs of
	 * 1..64 set rows at density 1/64; WAHr returns its set rows (its values). */
	if (!has_format(formats, "WAH")) {
		gp_cl_shutdown();
		return 0;
	}
	uint64_t nbits = (uint64_t)n * 32 < 0xFFFFFFC0u ? (uint64_t)n * 32 : 0xFFFFFFC0u; /* device: < 2^32 - 32 */
	size_t nrows = 0;
	for (uint64_t r = 0; r < nbits && nrows < n; ) {
		size_t run = 1 + next_rand() % 64;
		if (next_rand() % 64 == 0) {
			for (size_t k = 0; k < run && r + k < nbits && nrows < n; k++) docs[nrows++] = (int64_t)(r + k);
		}
		r += run;
	}
	len = gp_wah_encode(docs, nrows, nbits, 64, NULL);
	blob = malloc(len);
	gp_wah_encode(docs, nrows, nbits, 64, blob);
	gp_wah_header wh;
	gp_wah_measure(blob, len, &wh, &err);
	best = 1e30;
	for (int r = 0; r < reps; r++) {
		t0 = now();
		gp_wah_rows(blob, &wh, out64);
		if (now() - t0 < best) best = now() - t0;
	}
	report("WAHr", nrows, 8, blob, len, best, dev_wah, reps);
	best = 1e30;
	for (int r = 0; r < reps; r++) {
		t0 = now();
		gp_wah_apply(blob, &wh, (uint64_t *)out64, GP_WAH_COPY);
		if (now() - t0 < best) best = now() - t0;
	}
	wah_bitmap_out = (uint8_t *)out32;   /* nbits / 8 <= 4 n bytes */
	report("WAHb", (size_t)(nbits / 32), 4, blob, len, best, dev_wah_bitmap, reps);
	free(blob);
	gp_cl_shutdown();
	return 0;
}
