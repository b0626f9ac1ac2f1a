/* Launcher for kernels/vbyte.cl: one blob in a call of its own (its payload 16-byte aligned after
 * 4 zero bytes), or a batch whose payloads each begin a 16-byte unit; a count pass (values and
 * value sums per tile) unless one tile does it all, then the decode pass. */
#include "gp_cl_batch.h"
#include "../codec/gp_batch.h"
#include "../codec/gp_result.h"
#include "../codec/gp_vbyte.h"

/* The two passes over the tiles of s. One blob (tab NULL): its payload at unit `vec`, len bytes,
 * n values under `delta`; a batch: each blob's tiles from tile_start, its parameters from tab. */
static int vb_passes(cl_mem input, cl_mem tab, cl_mem tile_start, cl_uint n_blobs, cl_uint vec, cl_uint len,
                     cl_uint n, cl_uint delta, const gp_cl_tile_sums *s, cl_mem out, cl_uint out_at, cl_mem errbuf,
                     gp_error *err)
{
	const int batch = tab != NULL;
	const cl_uint tiles = (cl_uint)s->tiles;
	const gp_local_vbyte l = gp_local_of_vbyte(s->wg);
	cl_kernel k = gp_cl_kernel(batch ? GP_K_VB_TILE_COUNT_BATCH : GP_K_VB_TILE_COUNT);
	cl_int st = batch
		? gp_set_vb_tile_count_batch(k, &(gp_args_vb_tile_count_batch){
			.in = input, .tab = tab, .tile_start = tile_start, .n_blobs = n_blobs, .bt = s->bt, .tiles = tiles,
			.blocks = s->blocks, .tile_sums = s->sums, .block_sums = s->block_sums, .part_bytes = l.part})
		: gp_set_vb_tile_count(k, &(gp_args_vb_tile_count){
			.in = input, .vec = vec, .len = len, .delta = delta, .bt = s->bt, .tiles = tiles, .blocks = s->blocks,
			.tile_sums = s->sums, .block_sums = s->block_sums, .part_bytes = l.part});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	if (gp_cl_tiled_count(s, k, err) != GP_OK) return GP_EDEVICE;
	k = gp_cl_kernel(batch ? GP_K_VB_TILE_DECODE_BATCH : GP_K_VB_TILE_DECODE);
	st = batch
		? gp_set_vb_tile_decode_batch(k, &(gp_args_vb_tile_decode_batch){
			.in = input, .tab = tab, .tile_start = tile_start, .n_blobs = n_blobs, .bt = s->bt, .tiles = tiles,
			.blocks = s->blocks, .tile_sums = s->sums, .block_sums = s->block_sums, .out_all = out, .err = errbuf,
			.part_bytes = l.part, .part_s_bytes = l.part_s, .stage_bytes = l.stage})
		: gp_set_vb_tile_decode(k, &(gp_args_vb_tile_decode){
			.in = input, .vec = vec, .len = len, .n = n, .delta = delta, .bt = s->bt, .tiles = tiles,
			.blocks = s->blocks, .tile_sums = s->sums, .block_sums = s->block_sums, .out_all = out, .out_at = out_at,
			.err = errbuf, .part_bytes = l.part, .part_s_bytes = l.part_s, .stage_bytes = l.stage});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_tiled_run(s, k, err);
}

static int vb_single(const uint8_t *blob, size_t len, size_t n, uint32_t delta, gp_result *r, gp_error *err)
{
	const size_t payload = len - GP_VBYTE_HEADER;
	gp_cl_tiled t;
	/* 4 zero bytes ahead of the 12-byte header: the payload begins 16-byte unit 1 */
	gp_cl_tiled_plan(&t, (4 + len + 15) / 16 * 16, payload, GP_VB_ITEM, GP_BYTE_COUNTERS);
	const int out = gp_cl_tiled_output(&t, n * 4);
	if (gp_cl_tiled_send(&t, &blob, &len, 1, 4, NULL, NULL, err) != GP_OK ||
	    vb_passes(t.input, NULL, NULL, 1, 1, (cl_uint)payload, (cl_uint)n, delta, &t.s, t.call.r[out].mem,
	              (cl_uint)(t.out_at / 4), t.err, err) != GP_OK) {
		return GP_EDEVICE;
	}
	return gp_cl_tiled_finish(&t, out, n, 32, r, err);
}

static int vb_batch_passes(const gp_cl_batch *b, cl_mem *out, gp_error *err)
{
	gp_cl_tile_sums s;
	cl_mem starts;
	if (gp_cl_blob_tiles(b->host_istart, b->n_blobs, GP_VB_ITEM, GP_BYTE_COUNTERS, 256, GP_B_TILE_SUMS,
	                     GP_B_BLOCK_SUMS, &s, &starts, err) != GP_OK ||
	    !(*out = gp_cl_buffer(GP_B_OUT_32, (size_t)b->values * 4, err)) ||
	    (s.tiles > 0 && vb_passes(b->input, b->table, starts, b->n_blobs, 0, 0, 0, 0, &s, *out, 0, b->err, err) != GP_OK)) {
		return GP_EDEVICE;
	}
	return GP_OK;
}

int gp_cl_vbyte_decode(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	gp_cl_batch b;
	cl_mem out;
	int rc = GP_EDEVICE;
	if (gp_cl_batch_init(&b, in->n_blobs, err) != GP_OK) return GP_EDEVICE;
	for (size_t i = 0; i < in->n_blobs; i++) {
		size_t n;
		uint32_t delta;
		if (gp_vbyte_check_header(in->blobs[i], in->lens[i], &n, &delta, err) != GP_OK) goto done;
		if (in->lens[i] >= 0xFFFFFFF0u) {
			gp_cl_fail(err, CL_INVALID_BUFFER_SIZE, "VBYTE blob too large for one launch");
			goto done;
		}
		cl_uint *t = b.host_table + GP_BT_STRIDE * i;
		t[GP_BT_N] = (cl_uint)n;
		t[GP_BT_BYTE_DELTA] = delta;
		t[GP_BT_BYTES] = t[GP_BT_ITEMS] = (cl_uint)(in->lens[i] - GP_VBYTE_HEADER);
	}
	if (in->n_blobs == 1 && b.host_table[GP_BT_BYTES] > 0) {
		rc = vb_single(in->blobs[0], in->lens[0], b.host_table[GP_BT_N], b.host_table[GP_BT_BYTE_DELTA], r, err);
	} else if (gp_cl_batch_upload_units(&b, in->blobs, in->lens, GP_VBYTE_HEADER, err) == GP_OK &&
	           vb_batch_passes(&b, &out, err) == GP_OK) {
		rc = gp_cl_batch_download(&b, out, 32, r, err);
	}
done:
	gp_cl_batch_free(&b);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}
