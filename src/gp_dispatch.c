#include <stdlib.h>
#include <string.h>

#include "gp_dispatch.h"
#include "../codec/gp_mod9.h"
#include "../codec/gp_qs.h"
#include "../codec/gp_s9.h"
#include "../codec/gp_wah.h"
#include "../opencl/gp_cl.h"

static const char *last_backend = "none";
static unsigned long last_device_failures = 0;

int gp_would_use_device(size_t values, long min_device_values)
{
	if (min_device_values > 0 && values < (size_t)min_device_values) return 0;
	if (!gp_cl_available()) return 0;
	/* An OpenCL CPU device (PoCL) was slower than the host path at every list size measured
	 * (docs/BENCHMARKS.md): the automatic choice leaves it alone, and only
	 * gpupost.min_device_values=0 sends work to it. */
	if (min_device_values != 0 && gp_cl_info() && strcmp(gp_cl_info()->type, "cpu") == 0) return 0;
	return 1;
}

/* A device call failed: the caller takes the host path. Buffers are dropped after an allocation
 * failure so that the next call starts from nothing held; the queue is drained so that nothing
 * of the failed call is still running when its buffers are reused. */
static void device_failed(const gp_error *err)
{
	last_device_failures++;
	gp_cl_recover(err->cl_status);
}

/* After a device attempt: 1 when it settled the call (done, or refused as too large), 0 when the
 * host path must take it (a device failure, or a malformed blob for the host decoder to name). */
static int device_settled(int rc, gp_result *r, gp_error *err)
{
	if (rc == GP_OK) {
		last_backend = "opencl";
		return 1;
	}
	if (rc == GP_ENOMEM) {
		if (r) gp_result_free(r);
		return 1;
	}
	if (rc == GP_EDEVICE) device_failed(err);
	memset(err, 0, sizeof(*err));
	return 0;
}

/* The host path's result: marked as the host's, or freed on error. */
static int host_done(int rc, gp_result *r)
{
	last_backend = "host";
	if (rc == GP_OK) {
		r->backend = "host";
	} else {
		gp_result_free(r);
	}
	return rc;
}

static int host_fail_nomem(gp_error *err)
{
	if (err) {
		err->code = GP_ENOMEM;
		err->format = "host";
		err->offset = 0;
		err->cl_status = 0;
		strcpy(err->rule, "out of memory for the decoded result");
	}
	return GP_ENOMEM;
}

/* Host MOD9 values in one validating pass, into a buffer sized by the most a word yields. */
static int host_mod9_values_bounded(const uint8_t *const *blobs, const size_t *lens,
                                    size_t n_blobs, size_t words, gp_result *r, gp_error *err)
{
	size_t nv = 0;
	if (gp_array_scratch(&r->values, GP_SCRATCH_VALUES, words * 24, 4) != GP_OK) return host_fail_nomem(err);
	uint32_t *v32 = r->values.data;
	for (size_t b = 0; b < n_blobs; b++) {
		size_t n = gp_mod9_decode_values_checked(blobs[b], lens[b], v32 + nv, err);
		if (n == (size_t)-1) {
			err->blob = b;
			return GP_EFORMAT;
		}
		r->blob_values[b] = nv;
		r->blob_postings[b] = 0;
		nv += n;
	}
	r->blob_values[n_blobs] = nv;
	r->blob_postings[n_blobs] = 0;
	r->n_values = nv;
	return gp_check_result(r, nv, 0, err);
}

/* Host MOD9: validate and count every blob, allocate once, decode each into its slice. */
static int host_mod9(int mode, const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                     gp_result *r, gp_error *err)
{
	size_t nv = 0, np = 0, words = 0;
	r->n_blobs = n_blobs;
	r->blob_values = gp_alloc_array(n_blobs + 1, sizeof(size_t));
	r->blob_postings = gp_alloc_array(n_blobs + 1, sizeof(size_t));
	if (!r->blob_values || !r->blob_postings) return host_fail_nomem(err);
	for (size_t b = 0; b < n_blobs; b++) words += lens[b] / 4;
	/* the one-pass decoder's buffer is sized by the blob's words, not its counts: taken only where
	 * that size fits the budget too */
	if (mode == GP_MODE_VALUES && words <= ((size_t)64 << 20) / 24 &&
	    gp_budget_check(r->budget, 0, (uint64_t)words * 24 * sizeof(uint32_t), "", NULL) == GP_OK) {
		return host_mod9_values_bounded(blobs, lens, n_blobs, words, r, err);
	}
	for (size_t b = 0; b < n_blobs; b++) {
		gp_mod9_counts c;
		r->blob_values[b] = nv;
		r->blob_postings[b] = np;
		if (gp_mod9_measure(blobs[b], lens[b], mode != GP_MODE_VALUES, &c, err) != GP_OK) {
			err->blob = b;
			return GP_EFORMAT;
		}
		nv += c.values;
		np += c.postings;
	}
	r->blob_values[n_blobs] = nv;
	r->blob_postings[n_blobs] = mode == GP_MODE_VALUES ? 0 : np;
	r->n_values = nv;
	if (gp_check_result(r, mode == GP_MODE_DOCS ? np : nv, mode == GP_MODE_POSTINGS ? np : 0, err) != GP_OK) {
		return GP_ENOMEM;
	}
	if (mode == GP_MODE_VALUES) {
		/* the fast decoder writes up to 24 values past a blob's last (the next blob's, decoded
		 * after it, or the spare) */
		if (gp_array_scratch(&r->values, GP_SCRATCH_VALUES, nv + 24, 4) != GP_OK) return host_fail_nomem(err);
		for (size_t b = 0; b < n_blobs; b++) {
			gp_mod9_decode_values_checked(blobs[b], lens[b], (uint32_t *)r->values.data + r->blob_values[b], err);
		}
		return GP_OK;
	}
	if (nv > 0xFFFFFFFFu) return host_fail_nomem(err); /* vstart holds 32-bit value indices */
	r->n_postings = np;
	if (gp_array_alloc(&r->docs, np, 8) != GP_OK) return host_fail_nomem(err);
	const int full = mode == GP_MODE_POSTINGS;
	if (full && (gp_array_alloc(&r->vstart, np + 1, 4) != GP_OK || gp_array_alloc(&r->combined, np, 1) != GP_OK ||
	             gp_array_scratch(&r->pos, GP_SCRATCH_POS, nv, 8) != GP_OK)) {
		return host_fail_nomem(err);
	}
	int64_t *docs = r->docs.data, *pos = r->pos.data;
	uint32_t *vstart = r->vstart.data;
	uint8_t *combined = r->combined.data;
	for (size_t b = 0; b < n_blobs; b++) {
		size_t p0 = r->blob_postings[b];
		gp_mod9_decode_postings(blobs[b], lens[b], docs + p0, full ? vstart + p0 : NULL,
		                        full ? combined + p0 : NULL, full ? pos : NULL,
		                        (uint32_t)r->blob_values[b]);
	}
	return GP_OK;
}

static int host_offsets(gp_result *r, size_t n_blobs, gp_error *err)
{
	r->n_blobs = n_blobs;
	r->blob_values = gp_alloc_array(n_blobs + 1, sizeof(size_t));
	r->blob_postings = calloc(n_blobs + 1, sizeof(size_t));
	return r->blob_values && r->blob_postings ? GP_OK : host_fail_nomem(err);
}

/* Host S9 and QS: each blob validated completely, then decoded into its slice. */
static int host_container(int format, const uint8_t *const *blobs, const size_t *lens,
                          size_t n_blobs, gp_result *r, gp_error *err)
{
	size_t nv = 0;
	if (host_offsets(r, n_blobs, err) != GP_OK) return GP_ENOMEM;
	for (size_t b = 0; b < n_blobs; b++) {
		size_t n;
		uint32_t delta;
		gp_qs_header h;
		int rc = format == GP_FORMAT_S9 ? gp_s9_measure(blobs[b], lens[b], &n, &delta, err)
		                                : gp_qs_measure(blobs[b], lens[b], &h, err);
		if (rc != GP_OK) {
			err->blob = b;
			return GP_EFORMAT;
		}
		r->blob_values[b] = nv;
		nv += format == GP_FORMAT_S9 ? n : h.n;
	}
	r->blob_values[n_blobs] = nv;
	r->n_values = nv;
	if (gp_check_result(r, nv, 0, err) != GP_OK) return GP_ENOMEM;
	if (format == GP_FORMAT_S9) {
		if (gp_array_scratch(&r->values, GP_SCRATCH_VALUES, nv, 8) != GP_OK) return host_fail_nomem(err);
		for (size_t b = 0; b < n_blobs; b++) {
			gp_s9_decode(blobs[b], lens[b], (int64_t *)r->values.data + r->blob_values[b]);
		}
		return GP_OK;
	}
	if (gp_array_scratch(&r->values, GP_SCRATCH_VALUES, nv, 4) != GP_OK) return host_fail_nomem(err);
	for (size_t b = 0; b < n_blobs; b++) {
		gp_qs_header h;
		gp_qs_check_header(blobs[b], lens[b], &h, NULL);
		if (gp_qs_decode(blobs[b], &h, (uint32_t *)r->values.data + r->blob_values[b], err) != GP_OK) {
			err->blob = b;
			return GP_EFORMAT;
		}
	}
	return GP_OK;
}

/* Host WAH rows of each blob. */
static int host_wah_rows(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                         gp_result *r, gp_error *err)
{
	size_t nv = 0;
	if (host_offsets(r, n_blobs, err) != GP_OK) return GP_ENOMEM;
	for (size_t b = 0; b < n_blobs; b++) {
		gp_wah_header h;
		if (gp_wah_measure(blobs[b], lens[b], &h, err) != GP_OK) {
			err->blob = b;
			return GP_EFORMAT;
		}
		r->blob_values[b] = nv;
		if (h.ones > SIZE_MAX / 16 - nv) return host_fail_nomem(err);
		nv += (size_t)h.ones;
	}
	r->blob_values[n_blobs] = nv;
	r->n_values = nv;
	if (gp_check_result(r, nv, 0, err) != GP_OK) return GP_ENOMEM;
	if (gp_array_scratch(&r->values, GP_SCRATCH_VALUES, nv, 8) != GP_OK) return host_fail_nomem(err);
	for (size_t b = 0; b < n_blobs; b++) {
		gp_wah_header h; /* measured above: the header is all the decoder needs now */
		gp_wah_check_header(blobs[b], lens[b], &h, NULL);
		gp_wah_rows(blobs[b], &h, (int64_t *)r->values.data + r->blob_values[b]);
	}
	return GP_OK;
}

/* Headers of a WAH batch: the work they imply (output words) and whether the device path's
 * 32-bit row numbering holds them. */
static int wah_headers(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                       size_t *expected, int *device_ok, gp_error *err)
{
	*expected = 0;
	*device_ok = 1;
	for (size_t b = 0; b < n_blobs; b++) {
		gp_wah_header h;
		if (gp_wah_check_header(blobs[b], lens[b], &h, err) != GP_OK) {
			err->blob = b;
			return GP_EFORMAT;
		}
		if (h.nbits >= 0xFFFFFFE0u || (h.words == 0) != (h.groups == 0)) *device_ok = 0;
		*expected += (size_t)(h.nbits / 32 < SIZE_MAX / 2 ? h.nbits / 32 : SIZE_MAX / 2);
		if (*expected > 0xFFFFFFFFu) *device_ok = 0;
	}
	return GP_OK;
}

int gp_wah_bitmap_bytes(const uint8_t *blob, size_t len, const gp_ctx *ctx, uint64_t *bytes,
                        gp_error *err)
{
	gp_wah_header h;
	memset(err, 0, sizeof(*err));
	if (gp_wah_check_header(blob, len, &h, err) != GP_OK) return GP_EFORMAT;
	*bytes = h.nbits / 8 + (h.nbits % 8 != 0);
	/* the caller's string and the host path's bitmap beside it */
	return gp_budget_check(&ctx->budget, *bytes + 32, *bytes + 8, "the uncompressed bitmap", err);
}

int gp_wah_decompress(const uint8_t *blob, size_t len, const gp_ctx *ctx, uint8_t *out,
                      gp_error *err)
{
	size_t expected;
	int device_ok;
	gp_wah_header h;
	memset(err, 0, sizeof(*err));
	if (wah_headers(&blob, &len, 1, &expected, &device_ok, err) == GP_OK && device_ok &&
	    gp_would_use_device(expected, ctx->min_device_values)) {
		int rc = gp_cl_wah_decompress(blob, len, out, err);
		if (device_settled(rc, NULL, err)) return rc;
	}
	memset(err, 0, sizeof(*err));
	last_backend = "host";
	if (gp_wah_measure(blob, len, &h, err) != GP_OK) return GP_EFORMAT;
	uint64_t *bm = calloc((size_t)(h.nbits / 64 + 1), sizeof(uint64_t));
	if (!bm) return host_fail_nomem(err);
	gp_wah_apply(blob, &h, bm, GP_WAH_COPY);
	memcpy(out, bm, (size_t)(h.nbits / 8 + (h.nbits % 8 != 0))); /* little-endian words */
	free(bm);
	return GP_OK;
}

int gp_wah_query(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs, int op,
                 const gp_ctx *ctx, gp_result *r, gp_error *err)
{
	size_t expected;
	int device_ok, rc;
	gp_wah_header h0;
	memset(r, 0, sizeof(*r));
	memset(err, 0, sizeof(*err));
	r->budget = &ctx->budget;
	if ((rc = wah_headers(blobs, lens, n_blobs, &expected, &device_ok, err)) != GP_OK) goto host;
	gp_wah_check_header(blobs[0], lens[0], &h0, NULL);
	for (size_t b = 1; b < n_blobs; b++) {
		gp_wah_header h;
		gp_wah_check_header(blobs[b], lens[b], &h, NULL);
		if (h.nbits != h0.nbits) {
			err->blob = b;
			return gp_fail(err, GP_WAH_NAME, 8, "nbits %llu differs from the first bitmap's %llu",
			               (unsigned long long)h.nbits, (unsigned long long)h0.nbits);
		}
	}
	if (gp_budget_check(r->budget, 0, h0.nbits / 8 + 8, "the combined bitmap", err) != GP_OK) return GP_ENOMEM;
	if (device_ok && gp_would_use_device(expected / n_blobs, ctx->min_device_values)) {
		rc = gp_cl_wah_query(blobs, lens, n_blobs, op, r, err);
		if (device_settled(rc, r, err)) return rc;
	}
host:
	memset(err, 0, sizeof(*err));
	last_backend = "host";
	for (size_t b = 0; b < n_blobs; b++) {
		gp_wah_header h;
		if (gp_wah_measure(blobs[b], lens[b], &h, err) != GP_OK) {
			err->blob = b;
			return GP_EFORMAT;
		}
	}
	if (gp_budget_check(r->budget, 0, h0.nbits / 8 + 8, "the combined bitmap", err) != GP_OK) return GP_ENOMEM;
	uint64_t *bm = calloc((size_t)(h0.nbits / 64 + 1), sizeof(uint64_t));
	if (!bm || host_offsets(r, 1, err) != GP_OK) {
		free(bm);
		gp_result_free(r);
		return host_fail_nomem(err);
	}
	for (size_t b = 0; b < n_blobs; b++) {
		gp_wah_header h;
		gp_wah_check_header(blobs[b], lens[b], &h, NULL);
		gp_wah_apply(blobs[b], &h, bm, b == 0 ? GP_WAH_COPY : op == GP_OP_AND ? GP_WAH_AND : GP_WAH_OR);
	}
	size_t n = gp_bitmap_rows(bm, h0.nbits, NULL);
	if (gp_check_result(r, n, 0, err) != GP_OK) {
		free(bm);
		gp_result_free(r);
		return GP_ENOMEM;
	}
	if (gp_array_scratch(&r->values, GP_SCRATCH_VALUES, n, 8) != GP_OK) {
		free(bm);
		gp_result_free(r);
		return host_fail_nomem(err);
	}
	gp_bitmap_rows(bm, h0.nbits, r->values.data);
	free(bm);
	r->n_values = n;
	r->blob_values[0] = 0;
	r->blob_values[1] = n;
	r->backend = "host";
	return GP_OK;
}

static int decode_container(int format, const uint8_t *const *blobs, const size_t *lens,
                            size_t n_blobs, long min_device_values, gp_result *r, gp_error *err)
{
	size_t expected = 0;
	int rc;
	for (size_t b = 0; b < n_blobs; b++) {
		size_t n;
		uint32_t delta;
		gp_qs_header h;
		/* O(1) header checks; a bad header goes to the host decoder, which names it */
		rc = format == GP_FORMAT_S9 ? gp_s9_check_header(blobs[b], lens[b], &n, &delta, err)
		                            : gp_qs_check_header(blobs[b], lens[b], &h, err);
		if (rc != GP_OK) goto host;
		expected += format == GP_FORMAT_S9 ? n : h.n;
	}
	/* the headers say how large the result is: refuse it before anything is allocated */
	if (gp_check_result(r, expected, 0, err) != GP_OK) return GP_ENOMEM;
	if (gp_would_use_device(expected, min_device_values)) {
		rc = format == GP_FORMAT_S9 ? gp_cl_s9_decode(blobs, lens, n_blobs, r, err)
		                            : gp_cl_qs_decode(blobs, lens, n_blobs, r, err);
		if (device_settled(rc, r, err)) return rc;
	}
host:
	memset(err, 0, sizeof(*err));
	return host_done(host_container(format, blobs, lens, n_blobs, r, err), r);
}

int gp_decode(int format, int mode, const uint8_t *const *blobs, const size_t *lens,
              size_t n_blobs, const gp_ctx *ctx, gp_result *r, gp_error *err)
{
	size_t expected = 0;
	long min_device_values = ctx->min_device_values;
	int rc;
	memset(r, 0, sizeof(*r));
	memset(err, 0, sizeof(*err));
	r->budget = &ctx->budget;
	if (format == GP_FORMAT_S9 || format == GP_FORMAT_QS) {
		return decode_container(format, blobs, lens, n_blobs, min_device_values, r, err);
	}
	if (format == GP_FORMAT_WAH) {
		int device_ok;
		/* the device gathers each bitmap whole (4 bytes a word of 32 rows) before it finds its
		 * rows: too large for the budget, the host counts the rows without the bitmap */
		if (wah_headers(blobs, lens, n_blobs, &expected, &device_ok, err) == GP_OK && device_ok &&
		    gp_budget_check(r->budget, 0, (uint64_t)expected * 4, "", NULL) == GP_OK &&
		    gp_would_use_device(expected, min_device_values)) {
			rc = gp_cl_wah_rows(blobs, lens, n_blobs, r, err);
			if (device_settled(rc, r, err)) return rc;
		}
		memset(err, 0, sizeof(*err));
		return host_done(host_wah_rows(blobs, lens, n_blobs, r, err), r);
	}
	if (format != GP_FORMAT_MOD9) return GP_EVALUE;

	gp_mod9_counts est = {0, 0, 0}, one;   /* for the choice, and to size the device's reply */
	for (size_t b = 0; b < n_blobs; b++) {
		if (lens[b] % 4 != 0) goto host; /* the host decoder names the error */
		gp_mod9_estimate(blobs[b], lens[b], &one);
		est.values += one.values;
		est.postings += one.postings;
	}
	if (gp_would_use_device(est.values, min_device_values)) {
		rc = gp_cl_mod9_decode(blobs, lens, n_blobs, mode, &est, r, err);
		if (device_settled(rc, r, err)) return rc;
	}
host:
	return host_done(host_mod9(mode, blobs, lens, n_blobs, r, err), r);
}

int gp_prefix_sum(const int64_t *in, size_t n, int inclusive, const gp_ctx *ctx,
                  int64_t *out, size_t *overflow_at, gp_error *err)
{
	long min_device_values = ctx->min_device_values;
	int64_t sum = 0, max_abs = 0;
	memset(err, 0, sizeof(*err));
	/* The device adds modulo 2^64, so it only gets lists whose sums provably fit. */
	for (size_t i = 0; i < n; i++) {
		int64_t a = in[i] < 0 ? (in[i] == INT64_MIN ? INT64_MAX : -in[i]) : in[i];
		if (a > max_abs) max_abs = a;
	}
	if ((n == 0 || (uint64_t)max_abs <= (uint64_t)INT64_MAX / n) &&
	    gp_would_use_device(n, min_device_values)) {
		if (device_settled(gp_cl_prefix_sum(in, n, inclusive, out, err), NULL, err)) return GP_OK;
	}
	last_backend = "host";
	for (size_t i = 0; i < n; i++) {
		int64_t next;
		if (__builtin_add_overflow(sum, in[i], &next)) {
			*overflow_at = i;
			return GP_EVALUE;
		}
		out[i] = inclusive ? next : sum;
		sum = next;
	}
	return GP_OK;
}

void gp_trim_cached(uint64_t keep_bytes)
{
	uint64_t pinned_kept = gp_cl_trim(keep_bytes, keep_bytes);
	gp_scratch_trim(keep_bytes > pinned_kept ? keep_bytes - pinned_kept : 0);
}

void gp_backend(gp_backend_info *info)
{
	memset(info, 0, sizeof(*info));
	info->usable = gp_cl_available();
	info->last_backend = last_backend;
	info->device = gp_cl_info();
	info->built = gp_cl_shape_of(&info->shape);
	info->auto_device = info->usable && info->device && strcmp(info->device->type, "cpu") != 0;
	info->reason = gp_cl_last_error();
	info->device_failures = last_device_failures;
	info->cached.host_scratch = gp_scratch_bytes();
	gp_cl_cached(&info->cached.pinned, &info->cached.device);
#ifdef GP_TEST_HOOKS
	info->test_hooks = 1;
#endif
}

void gp_configure_device(const char *device_spec)
{
	gp_cl_configure(device_spec);
}

void gp_shutdown(void)
{
	gp_cl_shutdown();
	gp_scratch_release();
}
