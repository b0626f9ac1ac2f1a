#include <stdlib.h>
#include <string.h>

#include "gp_batch.h"
#include "gp_mod9.h"
#include "gp_qs.h"
#include "gp_s9.h"
#include "gp_vbyte.h"
#include "gp_gvarint.h"
#include "gp_wah.h"

int gp_fail_nomem(gp_error *err)
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

/* The counts of a format's blob (validating it whole), for batch_measure. */
typedef int (*blob_count_fn)(const uint8_t *blob, size_t len, size_t *count, gp_error *err);

/* Every blob counted (validated whole) into the value offsets, and the total checked against
 * the budget before anything is sized from it. */
static int batch_measure(gp_result *r, const uint8_t *const *blobs, const size_t *lens,
                         size_t n_blobs, blob_count_fn count, gp_error *err)
{
	size_t nv = 0;
	if (gp_result_begin(r, n_blobs) != GP_OK) return gp_fail_nomem(err);
	for (size_t b = 0; b < n_blobs; b++) {
		size_t n;
		if (count(blobs[b], lens[b], &n, err) != GP_OK) {
			err->blob = b;
			return GP_EFORMAT;
		}
		r->blob_values[b] = nv;
		if (n > SIZE_MAX / 16 - nv) return gp_fail_nomem(err);
		nv += n;
	}
	r->blob_values[n_blobs] = nv;
	r->n_values = nv;
	return gp_check_result(r, nv, 0, err);
}

/* Host MOD9 values in one validating pass, into a buffer grown as the blobs need (each blob's
 * words, 24 values a word at most, and the 24 the fast decoder may write past its last): the
 * buffer is kept between calls, so a batch touches no more memory than its values. GP_EAGAIN
 * (the caller measures first instead) when a growth would not fit the budget. */
#define GP_EAGAIN 1
static int mod9_values_one_pass(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	size_t nv = 0, cap = 0, left = 0;
	for (size_t b = 0; b < in->n_blobs; b++) left += in->lens[b] / 4;
	for (size_t b = 0; b < in->n_blobs; b++) {
		size_t words = in->lens[b] / 4, need = nv + words * 24 + 24;
		left -= words;
		if (need > cap) {
			/* twice what it holds, within what the blobs left could still need */
			size_t want = cap * 2 > need ? cap * 2 : need;
			if (want > need + left * 24) want = need + left * 24;
			if (gp_budget_check(r->budget, 0, (uint64_t)want * 4, "", NULL) != GP_OK) return GP_EAGAIN;
			if (gp_array_grow(&r->values, GP_SCRATCH_VALUES, nv, want, 4, &cap) != GP_OK) return gp_fail_nomem(err);
		}
		size_t n = gp_mod9_decode_values_checked(in->blobs[b], in->lens[b], (uint32_t *)r->values.data + nv, err);
		if (n == (size_t)-1) {
			err->blob = b;
			return GP_EFORMAT;
		}
		r->blob_values[b] = nv;
		nv += n;
	}
	r->blob_values[in->n_blobs] = nv;
	r->n_values = nv;
	return gp_check_result(r, nv, 0, err);
}

int gp_mod9_decode_batch(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	const uint8_t *const *blobs = in->blobs;
	const size_t *lens = in->lens;
	const size_t n_blobs = in->n_blobs;
	const int mode = in->mode;
	size_t nv = 0, np = 0;
	if (gp_result_begin(r, n_blobs) != GP_OK) return gp_fail_nomem(err);
	if (mode == GP_MODE_VALUES) {
		int rc = mod9_values_one_pass(in, r, err);
		if (rc != GP_EAGAIN) return rc;
		gp_array_free(&r->values);
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
		if (gp_array_scratch(&r->values, GP_SCRATCH_VALUES, nv + 24, 4) != GP_OK) return gp_fail_nomem(err);
		for (size_t b = 0; b < n_blobs; b++) {
			gp_mod9_decode_values_checked(blobs[b], lens[b], (uint32_t *)r->values.data + r->blob_values[b], err);
		}
		return GP_OK;
	}
	if (nv > 0xFFFFFFFFu) return gp_fail_nomem(err); /* vstart holds 32-bit value indices */
	r->n_postings = np;
	if (gp_array_alloc(&r->docs, np, 8) != GP_OK) return gp_fail_nomem(err);
	const int full = mode == GP_MODE_POSTINGS;
	if (full && (gp_array_alloc(&r->vstart, np + 1, 4) != GP_OK || gp_array_alloc(&r->combined, np, 1) != GP_OK ||
	             gp_array_scratch(&r->pos, GP_SCRATCH_POS, nv, 8) != GP_OK)) {
		return gp_fail_nomem(err);
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

/* What batch_decode needs of a container format: a blob's count, the width of its values, and
 * the decode of one measured blob into out. */
typedef struct blob_codec {
	blob_count_fn count;
	unsigned width;
	int (*decode)(const uint8_t *blob, size_t len, void *out, gp_error *err);
} blob_codec;

static int batch_decode(const gp_batch_in *in, const blob_codec *c, gp_result *r, gp_error *err)
{
	int rc = batch_measure(r, in->blobs, in->lens, in->n_blobs, c->count, err);
	if (rc != GP_OK) return rc;
	if (gp_array_scratch(&r->values, GP_SCRATCH_VALUES, r->n_values, c->width) != GP_OK) return gp_fail_nomem(err);
	for (size_t b = 0; b < in->n_blobs; b++) {
		uint8_t *out = (uint8_t *)r->values.data + r->blob_values[b] * c->width;
		if (c->decode(in->blobs[b], in->lens[b], out, err) != GP_OK) {
			err->blob = b;
			return GP_EFORMAT;
		}
	}
	return GP_OK;
}

static int s9_count(const uint8_t *blob, size_t len, size_t *count, gp_error *err)
{
	uint32_t delta;
	return gp_s9_measure(blob, len, count, &delta, err);
}

static int s9_decode_one(const uint8_t *blob, size_t len, void *out, gp_error *err)
{
	(void)err;   /* measured whole: nothing left to fail */
	gp_s9_decode(blob, len, out);
	return GP_OK;
}

static int qs_count(const uint8_t *blob, size_t len, size_t *count, gp_error *err)
{
	gp_qs_header h;
	int rc = gp_qs_measure(blob, len, &h, err);
	*count = rc == GP_OK ? h.n : 0;
	return rc;
}

static int qs_decode_one(const uint8_t *blob, size_t len, void *out, gp_error *err)
{
	gp_qs_header h;
	gp_qs_check_header(blob, len, &h, NULL);
	return gp_qs_decode(blob, &h, out, err);
}

static int wah_count(const uint8_t *blob, size_t len, size_t *count, gp_error *err)
{
	gp_wah_header h;
	int rc = gp_wah_measure(blob, len, &h, err);
	*count = rc == GP_OK && h.ones <= SIZE_MAX / 16 ? (size_t)h.ones : SIZE_MAX / 16;
	return rc;
}

static int wah_rows_one(const uint8_t *blob, size_t len, void *out, gp_error *err)
{
	(void)err;
	gp_wah_header h;   /* measured: the header is all the decoder needs now */
	gp_wah_check_header(blob, len, &h, NULL);
	gp_wah_rows(blob, &h, out);
	return GP_OK;
}

/* VBYTE and GROUP_VARINT: the header gives the count (bounded by the bytes), the decode checks the
 * rest in its one pass. */
static int vbyte_count(const uint8_t *blob, size_t len, size_t *count, gp_error *err)
{
	uint32_t delta;
	return gp_vbyte_check_header(blob, len, count, &delta, err);
}

static int vbyte_decode_one(const uint8_t *blob, size_t len, void *out, gp_error *err)
{
	return gp_vbyte_decode(blob, len, out, err);
}

static int gvarint_count(const uint8_t *blob, size_t len, size_t *count, gp_error *err)
{
	uint32_t delta;
	return gp_gvarint_check_header(blob, len, count, &delta, err);
}

static int gvarint_decode_one(const uint8_t *blob, size_t len, void *out, gp_error *err)
{
	return gp_gvarint_decode(blob, len, out, err);
}

static const blob_codec s9_codec = {s9_count, 8, s9_decode_one};
static const blob_codec vbyte_codec = {vbyte_count, 4, vbyte_decode_one};
static const blob_codec gvarint_codec = {gvarint_count, 4, gvarint_decode_one};
static const blob_codec qs_codec = {qs_count, 4, qs_decode_one};
static const blob_codec wah_codec = {wah_count, 8, wah_rows_one};

int gp_s9_decode_batch(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	return batch_decode(in, &s9_codec, r, err);
}

int gp_qs_decode_batch(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	return batch_decode(in, &qs_codec, r, err);
}

int gp_wah_rows_batch(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	return batch_decode(in, &wah_codec, r, err);
}

int gp_vbyte_decode_batch(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	return batch_decode(in, &vbyte_codec, r, err);
}

int gp_gvarint_decode_batch(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	return batch_decode(in, &gvarint_codec, r, err);
}
