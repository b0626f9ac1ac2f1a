#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_dispatch.h"
#include "../codec/gp_batch.h"
#include "../index/gp_index_v2.h"
#include "../codec/gp_mod9.h"
#include "../codec/gp_qs.h"
#include "../codec/gp_s9.h"
#include "../codec/gp_wah.h"
#include "../codec/gp_vbyte.h"
#include "../codec/gp_gvarint.h"
#include "../opencl/gp_cl.h"
#include "../query/gp_tree_program.h"
#include "../query/gp_tree_query.h"
#include "gp_split.h"

/* the calling thread's last search's (a server answers on several threads; a PHP request on one) */
static _Thread_local const char *last_backend = "none";
static unsigned long last_device_failures = 0;

/* What a decode's expected outputs weigh in the host/device choice, in MOD9 values: the ratio of
 * MOD9 VALUES' crossover to the format's and mode's, as measured on GPUs (docs/BENCHMARKS.md,
 * "The host/device crossover"), so that the caller's threshold (gp_ctx.min_device_values) is the
 * crossover of each. DOCS counts the values its postings decode but returns one doc a posting, so
 * the device, whose cost is mostly the result, wins sooner; POSTINGS costs the host more a value
 * (its nested arrays); GROUP_VARINT's host decoder is the fastest and its device passes the
 * slowest, so the device wins later. */
static size_t device_work(int format, int mode, size_t expected)
{
	size_t times = 1, per = 1;
	if (format == GP_FORMAT_MOD9 && mode == GP_MODE_DOCS) times = 4;
	else if (format == GP_FORMAT_MOD9 && mode == GP_MODE_POSTINGS) times = 2;
	else if (format == GP_FORMAT_GROUP_VARINT) per = 3;
	return expected > SIZE_MAX / 4 ? SIZE_MAX : expected * times / per;
}

int gp_would_use_device(size_t values, const gp_ctx *ctx)
{
	long min_device_values = ctx->min_device_values;
	if (min_device_values > 0 && values < (size_t)min_device_values) return 0;
	if (!gp_cl_available(ctx->device, ctx->device_all)) return 0;
	/* An OpenCL CPU device (PoCL) was slower than the host path at every list size measured
	 * (docs/BENCHMARKS.md): the automatic choice leaves it alone, and only
	 * a threshold of 0 sends work to it. */
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
			if (err) err->blob = b;
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
	    gp_would_use_device(expected, ctx)) {
		int rc = gp_cl_wah_decompress(blob, len, out, err);
		if (device_settled(rc, NULL, err)) return rc;
	}
	memset(err, 0, sizeof(*err));
	last_backend = "host";
	if (gp_wah_measure(blob, len, &h, err) != GP_OK) return GP_EFORMAT;
	uint64_t *bm = calloc((size_t)(h.nbits / 64 + 1), sizeof(uint64_t));
	if (!bm) return gp_fail_nomem(err);
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
	if (device_ok && gp_would_use_device(expected / n_blobs, ctx)) {
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
	/* (the bitmap's size passed the budget before the device was tried) */
	uint64_t *bm = calloc((size_t)(h0.nbits / 64 + 1), sizeof(uint64_t));
	if (!bm || gp_result_begin(r, 1) != GP_OK) {
		free(bm);
		gp_result_free(r);
		return gp_fail_nomem(err);
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
		return gp_fail_nomem(err);
	}
	gp_bitmap_rows(bm, h0.nbits, r->values.data);
	free(bm);
	r->n_values = n;
	r->blob_values[0] = 0;
	r->blob_values[1] = n;
	r->backend = "host";
	return GP_OK;
}

/* A decode's plan: the blobs' headers read and checked once, and what they imply, for the choice
 * and for both paths (in: what the host driver and the device launcher take). */
typedef struct gp_plan {
	gp_batch_in in;
	int headers_ok;          /* every header passed its check (else the host names the error) */
	int sized;               /* the headers give the result's size exactly (S9, QS) */
	size_t expected;         /* outputs the headers imply: what the host/device choice weighs */
	int device_ok;           /* the device path takes these blobs */
	uint64_t device_bytes;   /* device memory the headers size, not the counts (WAH's bitmaps) */
} gp_plan;

typedef int (*gp_decode_fn)(const gp_batch_in *in, gp_result *r, gp_error *err);

/* What a format does at each step of a decode. */
typedef struct gp_format_ops {
	void (*plan)(gp_plan *p);
	gp_decode_fn host, device;
} gp_format_ops;

static void mod9_plan(gp_plan *p)
{
	gp_mod9_counts one;
	for (size_t b = 0; b < p->in.n_blobs; b++) {
		if (p->in.lens[b] % 4 != 0) return;   /* the host decoder names the error */
		gp_mod9_estimate(p->in.blobs[b], p->in.lens[b], &one);
		p->in.est.values += one.values;
		p->in.est.postings += one.postings;
	}
	p->expected = p->in.est.values;
	p->headers_ok = p->device_ok = 1;
}


static void qs_plan(gp_plan *p)
{
	for (size_t b = 0; b < p->in.n_blobs; b++) {
		gp_qs_header h;
		if (gp_qs_check_header(p->in.blobs[b], p->in.lens[b], &h, NULL) != GP_OK) return;
		p->expected += h.n;
	}
	p->headers_ok = p->sized = p->device_ok = 1;
}

/* The device gathers each bitmap whole (4 bytes a word of 32 rows) before it finds its rows;
 * its 32-bit row numbering takes nbits below 2^32. */
static void wah_plan(gp_plan *p)
{
	int device_ok;
	if (wah_headers(p->in.blobs, p->in.lens, p->in.n_blobs, &p->expected, &device_ok, NULL) != GP_OK) return;
	p->headers_ok = 1;
	p->device_ok = device_ok;
	p->device_bytes = (uint64_t)p->expected * 4;
}

/* S9, VBYTE and GROUP_VARINT: n from the headers (the decoders check the words or bytes). */
typedef int (*container_header_fn)(const uint8_t *blob, size_t len, size_t *n, uint32_t *delta, gp_error *err);

static void container_plan(gp_plan *p, container_header_fn header)
{
	for (size_t b = 0; b < p->in.n_blobs; b++) {
		size_t n;
		uint32_t delta;
		if (header(p->in.blobs[b], p->in.lens[b], &n, &delta, NULL) != GP_OK) return;
		p->expected += n;
	}
	p->headers_ok = p->sized = p->device_ok = 1;
}

static void s9_plan(gp_plan *p) { container_plan(p, gp_s9_check_header); }
static void vbyte_plan(gp_plan *p) { container_plan(p, gp_vbyte_check_header); }
static void gvarint_plan(gp_plan *p) { container_plan(p, gp_gvarint_check_header); }

static const gp_format_ops format_ops[] = {
	[GP_FORMAT_MOD9] = {mod9_plan, gp_mod9_decode_batch, gp_cl_mod9_decode},
	[GP_FORMAT_S9] = {s9_plan, gp_s9_decode_batch, gp_cl_s9_decode},
	[GP_FORMAT_QS] = {qs_plan, gp_qs_decode_batch, gp_cl_qs_decode},
	[GP_FORMAT_WAH] = {wah_plan, gp_wah_rows_batch, gp_cl_wah_rows},
	[GP_FORMAT_VBYTE] = {vbyte_plan, gp_vbyte_decode_batch, gp_cl_vbyte_decode},
	[GP_FORMAT_GROUP_VARINT] = {gvarint_plan, gp_gvarint_decode_batch, gp_cl_gvarint_decode},
};

/* The device's part of a decode: on one device, or split over the process's devices (each
 * share's plan made here, before the shares' threads start). */
static int device_decode(const gp_format_ops *ops, const gp_plan *p, gp_result *r, gp_error *err)
{
	size_t first[GP_SPLIT_MAX + 1];
	size_t n = gp_split_plan(p->in.lens, p->in.n_blobs, gp_cl_device_count(), first);
	if (n > 1) {
		gp_batch_in ins[GP_SPLIT_MAX];
		for (size_t s = 0; s < n; s++) {
			gp_plan share = {.in = {.blobs = p->in.blobs + first[s], .lens = p->in.lens + first[s],
			                        .n_blobs = first[s + 1] - first[s], .mode = p->in.mode}};
			ops->plan(&share);
			ins[s] = share.in;
		}
		int rc = gp_split_run(ops->device, ins, n, r, err, &last_device_failures);
		if (rc != GP_ENOMEM) return rc;
		/* a share over its part of the budget: the whole batch on one device decides */
		memset(err, 0, sizeof(*err));
	}
	return ops->device(&p->in, r, err);
}

/* Whether a planned decode goes to the device: headers it can size from, a device that takes
 * the format, what it would size within the budget (if not, the host counts first), and work
 * enough for the device by the call's threshold. */
static int plan_wants_device(const gp_plan *p, int format, int mode, const gp_ctx *ctx)
{
	return p->headers_ok && p->device_ok && gp_budget_check(&ctx->budget, 0, p->device_bytes, "", NULL) == GP_OK &&
	       gp_would_use_device(device_work(format, mode, p->expected), ctx);
}

int gp_decode_host_plan(int format, int mode, const uint8_t *const *blobs, const size_t *lens,
                        size_t n_blobs, const gp_ctx *ctx, gp_error *err)
{
	memset(err, 0, sizeof(*err));
	if (format < GP_FORMAT_MOD9 || format > GP_FORMAT_GROUP_VARINT) return 0;
	gp_plan p = {.in = {.blobs = blobs, .lens = lens, .n_blobs = n_blobs, .mode = mode}};
	format_ops[format].plan(&p);
	if (plan_wants_device(&p, format, mode, ctx)) return 1;
	gp_result r = {.budget = &ctx->budget};
	if (p.headers_ok && p.sized) return gp_check_result(&r, p.expected, 0, err);
	return 0;
}

int gp_decode(int format, int mode, const uint8_t *const *blobs, const size_t *lens,
              size_t n_blobs, const gp_ctx *ctx, gp_result *r, gp_error *err)
{
	memset(r, 0, sizeof(*r));
	memset(err, 0, sizeof(*err));
	r->budget = &ctx->budget;
	if (format < GP_FORMAT_MOD9 || format > GP_FORMAT_GROUP_VARINT) return GP_EVALUE;
	const gp_format_ops *ops = &format_ops[format];
	gp_plan p = {.in = {.blobs = blobs, .lens = lens, .n_blobs = n_blobs, .mode = mode}};
	ops->plan(&p);
	GP_TRACE("plan");
	/* headers that give the result's size: refused before anything is allocated */
	if (p.headers_ok && p.sized && gp_check_result(r, p.expected, 0, err) != GP_OK) return GP_ENOMEM;
	if (plan_wants_device(&p, format, mode, ctx)) {
		int rc = device_decode(ops, &p, r, err);
		if (device_settled(rc, r, err)) return rc;
	}
	memset(err, 0, sizeof(*err));
	return host_done(ops->host(&p.in, r, err), r);
}

int gp_prefix_sum(const int64_t *in, size_t n, int inclusive, const gp_ctx *ctx,
                  int64_t *out, size_t *overflow_at, gp_error *err)
{
	int64_t sum = 0, max_abs = 0;
	memset(err, 0, sizeof(*err));
	/* The device adds modulo 2^64, so it only gets lists whose sums provably fit. */
	for (size_t i = 0; i < n; i++) {
		int64_t a = in[i] < 0 ? (in[i] == INT64_MIN ? INT64_MAX : -in[i]) : in[i];
		if (a > max_abs) max_abs = a;
	}
	if ((n == 0 || (uint64_t)max_abs <= (uint64_t)INT64_MAX / n) &&
	    gp_would_use_device(n, ctx)) {
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

void gp_backend(const char *device_spec, int device_all, gp_backend_info *info)
{
	memset(info, 0, sizeof(*info));
	info->usable = gp_cl_available(device_spec, device_all);
	info->n_devices = gp_cl_device_count();
	for (size_t d = 0; d < info->n_devices && d < 8; d++) {
		info->devices[d] = gp_cl_info_of(d);
		info->speeds[d] = gp_cl_speed(d);
	}
	info->in_set = gp_cl_devices_in_set();
	info->rule = gp_cl_device_rule();
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

void gp_device_option_names(const char *device, const char *every)
{
	gp_cl_option_names(device, every);
}

int gp_device_spec_valid(const char *v)
{
	gp_cl_spec spec;
	return gp_cl_spec_parse(v, &spec);
}

void gp_shutdown(void)
{
	gp_cl_shutdown();
	gp_scratch_release();
}

/* --- GpuPost\Index --- */

static int index_on_device(const gp_index *ix, uint64_t work, gp_placement place, const gp_ctx *ctx)
{
	if (place == GP_PLACE_HOST || ix->n_postings == 0 || ix->device_refused) return 0;
	if (place == GP_PLACE_DEVICE) return gp_cl_available(ctx->device, ctx->device_all);
	return gp_would_use_device(work > SIZE_MAX ? SIZE_MAX : (size_t)work, ctx);
}

/* The lists made resident: on the one device, or in shards over the process's devices. */
static int index_upload(gp_index *ix, const uint8_t *image, const gp_ctx *ctx, gp_error *err)
{
	size_t n = gp_cl_device_count();
	/* a version 2 file's lists are read in place on the host; a device copy is made from them
	 * decoded (every list checked first): when they cannot be, the host answers */
	int rc = gp_index_v2_materialize(ix, &ctx->budget, err);
	if (rc != GP_OK) rc = GP_EVALUE;
	else rc = n > 1 ? gp_split_index_upload(ix, n, &ctx->budget, err, &last_device_failures)
	               : gp_cl_index_upload(ix, image, err);
	/* past what the devices' offsets hold: the host answers, and the device is not asked again */
	if (rc == GP_EVALUE) {
		ix->device_refused = 1;
		memset(err, 0, sizeof(*err));
	}
	return rc;
}

void gp_index_prepare(gp_index *ix, gp_placement place, const gp_ctx *ctx, const uint8_t *image)
{
	gp_error err;
	/* AUTO: an index whose lists together are under the threshold waits for a batch that
	 * needs the device (a small index does not open the device, or build its kernels) */
	if (ix->device || !index_on_device(ix, ix->n_postings, place, ctx)) return;
	if (index_upload(ix, image, ctx, &err) == GP_EDEVICE) device_failed(&err);
}

uint8_t *gp_index_image(size_t len, gp_placement place, const gp_ctx *ctx, void **handle)
{
	gp_error err;
	*handle = NULL;
	/* the postings are fewer than the file's words: AUTO's guess of what prepare will choose */
	if (place == GP_PLACE_HOST || !(place == GP_PLACE_DEVICE ? gp_cl_available(ctx->device, ctx->device_all) : gp_would_use_device(len / 4, ctx))) {
		return NULL;
	}
	return gp_cl_pinned_image(len + 1, handle, &err);
}

void gp_index_image_free(void *handle, uint8_t *image)
{
	gp_cl_pinned_image_free(handle, image);
}

int gp_index_search(gp_index *ix, const gp_query_batch *q, gp_placement place, const gp_ctx *ctx,
                    gp_answers *out, const char **backend, gp_error *err)
{
	int rc;
	memset(err, 0, sizeof(*err));
	memset(out, 0, sizeof(*out));
	if (gp_query_batch_check(ix, q, err) != GP_OK) return GP_EVALUE;
	/* ranked batches need doubles in the kernels */
	if (index_on_device(ix, gp_query_work(ix, q), place, ctx) && (q->limit == 0 || (gp_cl_info() && gp_cl_info()->fp64))) {
		rc = ix->device ? GP_OK : index_upload(ix, NULL, ctx, err);
		if (rc == GP_OK && ix->device_shards) {
			rc = gp_split_index_query(ix, q, &ctx->budget, out, err, &last_device_failures);
		} else if (rc == GP_OK) {
			rc = gp_cl_index_query(ix, q, &ctx->budget, out, err);
		}
		/* shards: one over its part of the budget (or the shards' lists over it): the host
		 * answers, and names the size if the answers do not fit */
		int shard_refused = rc == GP_ENOMEM && gp_cl_device_count() > 1;
		if (!shard_refused && (rc == GP_OK || rc == GP_ENOMEM)) {
			if (rc == GP_OK) last_backend = *backend = "opencl";
			return rc;
		}
		if (rc == GP_EDEVICE) device_failed(err);
		memset(err, 0, sizeof(*err));
	}
	last_backend = *backend = "host";
	return gp_index_query_host(ix, q, &ctx->budget, out, err);
}

/* A ranked batch's IDFs, one a phrase of each tree (idf[idf_at[q] ..]), as the host's walk takes
 * them: a term's docs, or for a phrase of several items, ^ or a column set the docs that hold the
 * phrase alone, counted on the device in one batch; none for the phrases that never count. */
static int tree_idfs(const gp_index *ix, const gp_tree_batch *b, const gp_budget *budget, double **idf, uint64_t **idf_at,
                     gp_error *err)
{
	size_t total = 0, alone = 0;
	for (size_t q = 0; q < b->n_queries; q++) total += b->trees[q]->n_phrases;
	*idf = malloc((total + 1) * sizeof(double));
	*idf_at = malloc((b->n_queries + 1) * sizeof(uint64_t));
	gp_qtree *ones = calloc(total + 1, sizeof(gp_qtree));
	const gp_qtree **one_p = malloc((total + 1) * sizeof(gp_qtree *));
	size_t *one_at = malloc((total + 1) * sizeof(size_t));
	uint8_t *counted = NULL;
	uint32_t *leaf_of = NULL;
	int rc = *idf && *idf_at && ones && one_p && one_at ? GP_OK : GP_ENOMEM;
	size_t at = 0;
	for (size_t q = 0; q < b->n_queries && rc == GP_OK; q++) {
		const gp_qtree *t = b->trees[q];
		(*idf_at)[q] = at;
		free(counted);
		free(leaf_of);
		counted = calloc(t->n_phrases + 1, 1);
		leaf_of = calloc(t->n_phrases + 1, sizeof(uint32_t));
		if (!counted || !leaf_of) {
			rc = GP_ENOMEM;
			break;
		}
		if (t->n_nodes) gp_qtree_counted(t, t->root, counted);
		for (size_t n = 0; n < t->n_nodes; n++) {
			const gp_qt_node *nd = &t->nodes[n];
			if (nd->kind != GP_QT_NEAR && nd->kind != GP_QT_EMPTY) continue;
			for (uint32_t p = nd->first; p < nd->first + nd->n; p++) leaf_of[p] = (uint32_t)n;
		}
		for (uint32_t p = 0; p < t->n_phrases && rc == GP_OK; p++, at++) {
			const gp_qt_phrase *ph = &t->phrases[p];
			const gp_qt_node *leaf = &t->nodes[leaf_of[p]];
			uint64_t docs = 0;
			(*idf)[at] = NAN;
			if (!counted[p] || leaf->kind == GP_QT_EMPTY) {
				(*idf)[at] = gp_bm25_idf(ix->n_len, 0);
			} else if (ph->n == 1 && !ph->initial && !leaf->colset && !t->items[ph->first].prefix) {
				const gp_qt_item *it = &t->items[ph->first];
				uint32_t term;
				if ((rc = gp_index_find(ix, t->text + it->at, it->len, &term, err)) != GP_OK) break;
				if (term != GP_IX_NO_TERM) docs = gp_index_rank_df(ix, term);
				(*idf)[at] = gp_bm25_idf(ix->n_len, docs);
			} else {   /* counted below */
				gp_qtree_phrase_alone(t, p, leaf, &ones[alone]);
				one_p[alone] = &ones[alone];
				one_at[alone++] = at;
				if (ones[alone - 1].failed) rc = GP_ENOMEM;
			}
		}
	}
	if (rc == GP_OK) (*idf_at)[b->n_queries] = at;
	if (rc == GP_OK && alone) {
		gp_tree_programs p;
		gp_answers counts;
		rc = gp_tree_programs_build(ix, one_p, alone, 0, budget, &p, err);
		if (rc == GP_OK) {
			rc = gp_cl_tree_query(ix, &p, NULL, NULL, 1, budget, &counts, err);
			gp_tree_programs_free(&p);
			for (size_t i = 0; rc == GP_OK && i < alone; i++) (*idf)[one_at[i]] = gp_bm25_idf(ix->n_len, counts.at[i + 1] - counts.at[i]);
			if (rc == GP_OK) gp_answers_free(&counts);
		}
	}
	for (size_t i = 0; ones && i < alone; i++) gp_qtree_free(&ones[i]);
	free(ones);
	free(one_p);
	free(one_at);
	free(counted);
	free(leaf_of);
	if (rc != GP_OK) {
		free(*idf);
		free(*idf_at);
		*idf = NULL;
		*idf_at = NULL;
	}
	return rc;
}

/* Each tree's matches, all of them, beside its answers (out->matched): an unranked batch's are its
 * answers' counts, a ranked one's counted by a second, unranked batch of the same programs (under
 * the batch's filters). */
static int tree_totals(const gp_index *ix, const gp_tree_programs *p, const gp_tree_batch *b, const gp_budget *budget,
                       gp_answers *out, gp_error *err)
{
	const size_t nq = p->n_trees;
	const int ranked = b->limit > 0;
	gp_answers counts = {0};
	int rc = ranked ? gp_cl_tree_query(ix, p, NULL, b, 1, budget, &counts, err) : GP_OK;
	if (rc == GP_OK && !(out->matched = calloc(nq + 1, sizeof(uint64_t)))) rc = GP_ENOMEM;
	const gp_answers *from = ranked ? &counts : out;
	for (size_t q = 0; rc == GP_OK && q < nq; q++) out->matched[q] = from->at[q + 1] - from->at[q];
	if (ranked && counts.at) gp_answers_free(&counts);
	if (rc != GP_OK) gp_answers_free(out);
	return rc;
}

/* Whether the device's kernels may answer the batch's selection (filters, prior, order): they
 * read the attributes as doubles. */
static int tree_selection_on_device(const gp_index *ix, const gp_tree_batch *b)
{
	if (!b->n_filters && (b->limit == 0 || (b->prior_attr < 0 && b->order_attr < 0))) return 1;
	return ix->n_attrs && gp_cl_info() && gp_cl_info()->fp64;
}

/* Whether the device's kernel may rank the batch as the host would: by an attribute, or by
 * bm25() (with a prior or not) with doc lengths; doubles on the device, every column weight
 * within the host's bounds (0 to 1e6). *weighted: some weight is not 1. */
static int tree_rank_on_device(const gp_index *ix, const gp_tree_batch *b, int *weighted)
{
	*weighted = 0;
	if (b->count_only || (!ix->doc_len && b->order_attr < 0) || !gp_cl_info() || !gp_cl_info()->fp64) return 0;
	for (uint32_t c = 0; b->weights && c < b->n_weights; c++) {
		if (!(b->weights[c] >= 0.0 && b->weights[c] <= 1e6)) return 0;
		*weighted |= b->weights[c] != 1.0;
	}
	return 1;
}

int gp_index_tree_search(gp_index *ix, const gp_tree_batch *b, gp_placement place, const gp_ctx *ctx,
                         gp_answers *out, const char **backend, gp_error *err)
{
	memset(err, 0, sizeof(*err));
	memset(out, 0, sizeof(*out));
	gp_tree_programs p;
	const int ranked = b->limit > 0;
	int weighted = 0;
	int checked = gp_tree_batch_check(ix, b, err);
	if (checked != GP_OK) return checked;
	if (place != GP_PLACE_HOST && ix->n_postings && !ix->device_refused && tree_selection_on_device(ix, b) &&
	    (!ranked || tree_rank_on_device(ix, b, &weighted)) &&
	    gp_tree_programs_build(ix, b->trees, b->n_queries, (ranked ? GP_TP_RANKED : 0) | (weighted ? GP_TP_WEIGHTED : 0), &ctx->budget,
	                           &p, err) == GP_OK) {
		uint64_t work = 0;
		for (size_t i = 0; i < p.n_cover; i++) work += gp_index_df(ix, p.cover[i]);
		int rc = GP_EVALUE;
		if (index_on_device(ix, work, place, ctx)) {
			rc = ix->device ? GP_OK : index_upload(ix, NULL, ctx, err);
			/* one device's decoded lists (shards and compressed lists: the host) */
			if (rc == GP_OK && (ix->device_shards || ix->device_compressed)) rc = GP_EVALUE;
			double *idf = NULL;
			uint64_t *idf_at = NULL;
			/* ordered by an attribute: no IDFs (each tree's none) */
			if (rc == GP_OK && ranked && b->order_attr >= 0 && !(idf_at = calloc(b->n_queries + 1, sizeof(uint64_t)))) rc = GP_ENOMEM;
			else if (rc == GP_OK && ranked && b->order_attr < 0) rc = tree_idfs(ix, b, &ctx->budget, &idf, &idf_at, err);
			gp_tree_ranking rk = {b->limit, idf, idf_at, weighted ? b->weights : NULL, weighted ? b->n_weights : 0};
			if (rc == GP_OK) rc = gp_cl_tree_query(ix, &p, ranked ? &rk : NULL, b, b->count_only, &ctx->budget, out, err);
			free(idf);
			free(idf_at);
			if (rc == GP_OK && b->count_matches) rc = tree_totals(ix, &p, b, &ctx->budget, out, err);
			/* ordered: each answer's score its attribute's value (NaN: none), as the host's */
			for (uint64_t i = 0; rc == GP_OK && ranked && b->order_attr >= 0 && i < out->total; i++) {
				out->scores[i] = gp_index_attribute(ix, (uint32_t)b->order_attr, out->docs[i]);
			}
		}
		gp_tree_programs_free(&p);
		if (rc == GP_OK) {
			last_backend = *backend = "opencl";
			return rc;
		}
		/* past the budget on the device (its candidates' buffers), or refused there: the host's
		 * walk, which holds a cursor an item, answers (and names the size if it cannot either) */
		if (rc == GP_EDEVICE) device_failed(err);
	}
	memset(err, 0, sizeof(*err));
	last_backend = *backend = "host";
	return gp_index_tree_query_host_checked(ix, b, &ctx->budget, out, err);
}
