/* Launcher for kernels/qs.cl: one blob or a batch, tiled (qs_tile_count, then qs_tile_decode). */
#include "gp_cl_batch.h"
#include "../codec/gp_batch.h"
#include "../codec/gp_result.h"
#include "../codec/gp_qs.h"

/* The two passes over the tiles of s, words at `input`. One blob (tab NULL): its header h; a
 * batch: each blob's tiles from tile_start, its parameters from tab. */
static int qs_passes(cl_mem input, cl_mem tab, cl_mem tile_start, cl_uint n_blobs, const gp_qs_header *h,
                     const gp_cl_tile_sums *s, cl_mem out, cl_uint out_at, cl_mem errbuf, gp_error *err)
{
	const int batch = tab != NULL;
	cl_uint nl = 0, nu = 0, n = 0, l = 0, last = 0;
	if (h) {
		nl = (cl_uint)h->lower_words;
		nu = (cl_uint)h->upper_words;
		n = h->n;
		l = h->l;
		last = h->last;
	}
	const size_t part = s->wg * 4;
	cl_kernel k = gp_cl_kernel(batch ? GP_K_QS_TILE_COUNT_BATCH : GP_K_QS_TILE_COUNT);
	cl_int st = batch
		? gp_set_qs_tile_count_batch(k, &(gp_args_qs_tile_count_batch){
			.in = input, .tab = tab, .tile_start = tile_start, .n_blobs = n_blobs, .bt = s->bt,
			.tile_sums = s->sums, .block_sums = s->block_sums, .err = errbuf, .part_bytes = part})
		: gp_set_qs_tile_count(k, &(gp_args_qs_tile_count){
			.in = input, .nl = nl, .nu = nu, .n = n, .l = l, .last = last, .bt = s->bt,
			.tile_sums = s->sums, .block_sums = s->block_sums, .err = errbuf, .part_bytes = part});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	if (gp_cl_tiled_count(s, k, err) != GP_OK) return GP_EDEVICE;
	/* decode: a tile's upper words' offsets, the group's counts, the staged values, the carry */
	const size_t offs = GP_SKEW(s->wg * gp_cl_qs_items()) * 4,
	             stage = GP_SKEW(s->wg * gp_cl_qs_stage_items()) * 4, carry = 8;
	k = gp_cl_kernel(batch ? GP_K_QS_TILE_DECODE_BATCH : GP_K_QS_TILE_DECODE);
	st = batch
		? gp_set_qs_tile_decode_batch(k, &(gp_args_qs_tile_decode_batch){
			.in = input, .tab = tab, .tile_start = tile_start, .n_blobs = n_blobs, .bt = s->bt,
			.tile_sums = s->sums, .block_sums = s->block_sums, .out = out, .err = errbuf,
			.offs_bytes = offs, .part_bytes = part, .stage_bytes = stage, .carry_bytes = carry})
		: gp_set_qs_tile_decode(k, &(gp_args_qs_tile_decode){
			.in = input, .nl = nl, .nu = nu, .n = n, .l = l, .last = last, .bt = s->bt,
			.tile_sums = s->sums, .block_sums = s->block_sums, .out = out, .out_at = out_at, .err = errbuf,
			.offs_bytes = offs, .part_bytes = part, .stage_bytes = stage, .carry_bytes = carry});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_tiled_run(s, k, err);
}

/* One blob. */
static int qs_single(const uint8_t *blob, size_t len, const gp_qs_header *h, gp_result *r,
                     gp_error *err)
{
	gp_cl_tiled t;
	gp_cl_tiled_plan(&t, len, h->upper_words, gp_cl_qs_items(), 1);
	const int out = gp_cl_tiled_output(&t, (size_t)h->n * 4);
	if (gp_cl_tiled_send(&t, &blob, &len, 1, 0, NULL, NULL, err) != GP_OK ||
	    qs_passes(t.input, NULL, NULL, 1, h, &t.s, t.call.r[out].mem, (cl_uint)(t.out_at / 4), t.err, err) != GP_OK) {
		return GP_EDEVICE;
	}
	return gp_cl_tiled_finish(&t, out, h->n, 32, r, err);
}

/* Blob i's row of a batch's table, its payload from word `base` of the input. */
static int qs_row(cl_uint *t, const uint8_t *blob, size_t len, cl_uint base, gp_error *err)
{
	gp_qs_header h;
	if (gp_qs_check_header(blob, len, &h, err) != GP_OK) return GP_EFORMAT;
	t[GP_BT_BASE] = base + GP_QS_HEADER / 4;
	t[GP_BT_N] = h.n;
	t[GP_BT_QS_L] = h.l;
	t[GP_BT_QS_LAST] = h.last;
	t[GP_BT_QS_LOWER] = (cl_uint)h.lower_words;
	t[GP_BT_ITEMS] = (cl_uint)h.upper_words;
	return GP_OK;
}

/* A batch's passes, its input and tables on the device: the values into *out (32-bit). */
static int qs_batch_passes(const gp_cl_batch *b, cl_mem *out, gp_error *err)
{
	gp_cl_tile_sums s;
	cl_mem starts;
	if (gp_cl_blob_tiles(b->host_istart, b->n_blobs, gp_cl_qs_items(), 1, 256, GP_B_TILE_SUMS, GP_B_BLOCK_SUMS,
	                     &s, &starts, err) != GP_OK ||
	    !(*out = gp_cl_buffer(GP_B_OUT_32, (size_t)b->values * 4, err)) ||
	    (s.tiles > 0 && qs_passes(b->input, b->table, starts, b->n_blobs, NULL, &s, *out, 0, b->err, err) != GP_OK)) {
		return GP_EDEVICE;
	}
	return GP_OK;
}

/* A batch: the blobs back to back, each with tiles of its own. */
static int qs_batch(gp_cl_batch *b, const uint8_t *const *blobs, const size_t *lens,
                    gp_result *r, gp_error *err)
{
	cl_mem out;
	if (gp_cl_batch_upload(b, blobs, lens, err) != GP_OK || qs_batch_passes(b, &out, err) != GP_OK) return GP_EDEVICE;
	return gp_cl_batch_download(b, out, 32, r, err);
}

int gp_cl_qs_resident(const gp_cl_resident_lists *in, cl_mem *docs, gp_error *err)
{
	return gp_cl_batch_resident(in, qs_row, qs_batch_passes, docs, err);
}

int gp_cl_qs_decode(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	const uint8_t *const *blobs = in->blobs;
	const size_t *lens = in->lens;
	const size_t n_blobs = in->n_blobs;
	gp_cl_batch b;
	gp_qs_header h;
	int rc = GP_EDEVICE;
	if (n_blobs == 1) {
		if ((rc = gp_qs_check_header(blobs[0], lens[0], &h, err)) != GP_OK) return rc;
		if (h.n > 0) {
			rc = qs_single(blobs[0], lens[0], &h, r, err);
			if (rc != GP_OK) gp_result_free(r);
			return rc;
		}
	}
	if (gp_cl_batch_init(&b, n_blobs, err) != GP_OK) return GP_EDEVICE;
	for (size_t i = 0; i < n_blobs; i++) {
		if (qs_row(b.host_table + GP_BT_STRIDE * i, blobs[i], lens[i], 0, err) != GP_OK) goto done;
	}
	rc = qs_batch(&b, blobs, lens, r, err);
done:
	gp_cl_batch_free(&b);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}
