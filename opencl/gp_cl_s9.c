/* Launcher for kernels/s9.cl: one blob or a batch, tiled (s9_tile_count, then s9_tile_decode),
 * the delta rules applied by the decode pass. */
#include "gp_cl_batch.h"
#include "../codec/gp_batch.h"
#include "../codec/gp_result.h"
#include "../codec/gp_s9.h"

/* The two passes over the tiles of s, words at `input`. One blob (tab NULL): its parameters as
 * given; a batch: each blob's tiles from tile_start, its parameters from tab. */
static int s9_passes(cl_mem input, cl_mem tab, cl_mem tile_start, cl_uint n_blobs, cl_uint base,
                     cl_uint nw, cl_uint n, cl_uint delta, const gp_cl_tile_sums *s, cl_mem out,
                     cl_uint out_at, cl_mem errbuf, gp_error *err)
{
	const int batch = tab != NULL;
	const cl_uint tiles = (cl_uint)s->tiles;
	const size_t part = s->wg * 4;
	cl_kernel k = gp_cl_kernel(batch ? GP_K_S9_TILE_COUNT_BATCH : GP_K_S9_TILE_COUNT);
	cl_int st = batch
		? gp_set_s9_tile_count_batch(k, &(gp_args_s9_tile_count_batch){
			.in = input, .tab = tab, .tile_start = tile_start, .n_blobs = n_blobs, .bt = s->bt,
			.tiles = tiles, .blocks = s->blocks, .tile_sums = s->sums, .block_sums = s->block_sums,
			.err = errbuf, .part_bytes = part})
		: gp_set_s9_tile_count(k, &(gp_args_s9_tile_count){
			.in = input, .base = base, .nw = nw, .bt = s->bt, .tiles = tiles, .blocks = s->blocks,
			.tile_sums = s->sums, .block_sums = s->block_sums, .err = errbuf, .part_bytes = part});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	if (gp_cl_tiled_count(s, k, err) != GP_OK) return GP_EDEVICE;
	const gp_local_s9_decode l = gp_local_of_s9_decode(s->wg, s->tile, gp_cl_stage_items(8));
	k = gp_cl_kernel(batch ? GP_K_S9_TILE_DECODE_BATCH : GP_K_S9_TILE_DECODE);
	st = batch
		? gp_set_s9_tile_decode_batch(k, &(gp_args_s9_tile_decode_batch){
			.in = input, .tab = tab, .tile_start = tile_start, .n_blobs = n_blobs, .bt = s->bt,
			.tiles = tiles, .blocks = s->blocks, .tile_sums = s->sums, .block_sums = s->block_sums,
			.out_all = out, .out_at = out_at, .err = errbuf, .offs_bytes = l.offs, .sums_bytes = l.sums,
			.part_c_bytes = l.part_c, .part_s_bytes = l.part_s, .stage_bytes = l.stage, .lay_bytes = l.lay})
		: gp_set_s9_tile_decode(k, &(gp_args_s9_tile_decode){
			.in = input, .base = base, .nw = nw, .n = n, .delta = delta, .bt = s->bt, .tiles = tiles,
			.blocks = s->blocks, .tile_sums = s->sums, .block_sums = s->block_sums, .out_all = out,
			.out_at = out_at, .err = errbuf, .offs_bytes = l.offs, .sums_bytes = l.sums, .part_c_bytes = l.part_c,
			.part_s_bytes = l.part_s, .stage_bytes = l.stage, .lay_bytes = l.lay});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_tiled_run(s, k, err);
}

/* One blob. */
static int s9_single(const uint8_t *blob, size_t len, cl_uint n, cl_uint delta, gp_result *r,
                     gp_error *err)
{
	/* 4 zero bytes ahead of the 12-byte header: the payload starts 16-byte aligned (uint4 reads) */
	cl_uint nw = (cl_uint)((len - GP_S9_HEADER) / 4), base = (4 + GP_S9_HEADER) / 4;
	gp_cl_tiled t;
	gp_cl_tiled_plan(&t, 4 + len, nw, gp_cl_tile_items(), 4);
	const int out = gp_cl_tiled_output(&t, (size_t)n * 8);
	if (gp_cl_tiled_send(&t, &blob, &len, 1, 4, NULL, NULL, err) != GP_OK ||
	    s9_passes(t.input, NULL, NULL, 1, base, nw, n, delta, &t.s, t.call.r[out].mem, (cl_uint)(t.out_at / 8), t.err,
	              err) != GP_OK) {
		return GP_EDEVICE;
	}
	return gp_cl_tiled_finish(&t, out, n, 64, r, err);
}

/* Blob i's row of a batch's table, its payload from word `base` of the input. */
static int s9_row(cl_uint *t, const uint8_t *blob, size_t len, cl_uint base, gp_error *err)
{
	size_t n;
	uint32_t delta;
	if (gp_s9_check_header(blob, len, &n, &delta, err) != GP_OK) return GP_EFORMAT;
	t[GP_BT_BASE] = base + GP_S9_HEADER / 4;
	t[GP_BT_N] = (cl_uint)n;
	t[GP_BT_S9_DELTA] = delta;
	t[GP_BT_ITEMS] = (cl_uint)((len - GP_S9_HEADER) / 4);
	return GP_OK;
}

/* A batch's passes, its input and tables on the device: the values into *out (64-bit). */
static int s9_batch_passes(const gp_cl_batch *b, cl_mem *out, gp_error *err)
{
	gp_cl_tile_sums s;
	cl_mem starts;
	if (gp_cl_blob_tiles(b->host_istart, b->n_blobs, gp_cl_tile_items(), 4, 256, GP_B_TILE_SUMS, GP_B_BLOCK_SUMS,
	                     &s, &starts, err) != GP_OK ||
	    !(*out = gp_cl_buffer(GP_B_OUT_64, (size_t)b->values * 8, err)) ||
	    (s.tiles > 0 && s9_passes(b->input, b->table, starts, b->n_blobs, 0, 0, 0, 0, &s, *out, 0, b->err, err) != GP_OK)) {
		return GP_EDEVICE;
	}
	return GP_OK;
}

/* A batch: the blobs back to back, each with tiles of its own. */
static int s9_batch(gp_cl_batch *b, const uint8_t *const *blobs, const size_t *lens,
                    gp_result *r, gp_error *err)
{
	cl_mem out;
	if (gp_cl_batch_upload(b, blobs, lens, err) != GP_OK || s9_batch_passes(b, &out, err) != GP_OK) return GP_EDEVICE;
	return gp_cl_batch_download(b, out, 64, r, err);
}

int gp_cl_s9_resident(const gp_cl_resident_lists *in, cl_mem *docs, gp_error *err)
{
	return gp_cl_batch_resident(in, s9_row, s9_batch_passes, docs, err);
}

int gp_cl_s9_decode(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	const uint8_t *const *blobs = in->blobs;
	const size_t *lens = in->lens;
	const size_t n_blobs = in->n_blobs;
	gp_cl_batch b;
	int rc = GP_EDEVICE;
	if (gp_cl_batch_init(&b, n_blobs, err) != GP_OK) return GP_EDEVICE;
	for (size_t i = 0; i < n_blobs; i++) {
		if (s9_row(b.host_table + GP_BT_STRIDE * i, blobs[i], lens[i], 0, err) != GP_OK) goto done;
	}
	if (n_blobs == 1 && b.host_table[GP_BT_N] > 0) {
		rc = s9_single(blobs[0], lens[0], b.host_table[GP_BT_N], b.host_table[GP_BT_S9_DELTA], r, err);
	} else {
		rc = s9_batch(&b, blobs, lens, r, err);
	}
done:
	gp_cl_batch_free(&b);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}
