/* Launcher for kernels/gvarint.cl: one blob in a call of its own (its payload 16-byte aligned
 * after 4 zero bytes), or a batch whose payloads each begin a 16-byte unit. One pass (gv_decode):
 * the tiles find where the chain of groups enters them and the sums before them by a chained scan
 * over a status buffer zeroed first (a tile's map, state and sums); one tile alone needs none. */
#include "gp_cl_batch.h"
#include "../codec/gp_batch.h"
#include "../codec/gp_gvarint.h"
#include "../codec/gp_result.h"

/* A batch or one blob (tab NULL: its payload at unit `vec`, len bytes, n values under `delta`). */
typedef struct gv_launch {
	cl_mem input, tab, tile_start, out, err;
	cl_uint n_blobs, vec, len, n, delta, out_at;
	const gp_cl_tile_sums *s;
} gv_launch;

static int gv_pass(const gv_launch *g, gp_error *err)
{
	const int batch = g->tab != NULL;
	const gp_cl_tile_sums *s = g->s;
	const gp_local_gvarint l = gp_local_of_gvarint(s->wg);
	/* a counter, each tile's state and sums (64-bit), then its map (kernels/gvarint.cl); zeroed (a
	 * tile alone reads none of it) */
	const size_t status_bytes = (1 + 3 * s->tiles) * 8 + s->tiles * GP_GV_ENTRIES * 4;
	cl_mem status = gp_cl_buffer(GP_B_GV_STATUS, s->tiles > 1 ? status_bytes : 8, err);
	if (!status || (s->tiles > 1 && gp_cl_fill_u32(status, 0, status_bytes, err) != GP_OK)) return GP_EDEVICE;
	cl_kernel k = gp_cl_kernel(batch ? GP_K_GV_DECODE_BATCH : GP_K_GV_DECODE);
	cl_int st = batch
		? gp_set_gv_decode_batch(k, &(gp_args_gv_decode_batch){
			.in = g->input, .tab = g->tab, .tile_start = g->tile_start, .n_blobs = g->n_blobs, .status = status,
			.out_all = g->out, .err = g->err, .ib_bytes = l.items,
			.segs_bytes = l.segs, .ientry_bytes = l.places, .ibefore_bytes = l.places, .part_bytes = l.part,
			.part_s_bytes = l.part_s, .stage_bytes = l.stage, .bc_bytes = l.found})
		: gp_set_gv_decode(k, &(gp_args_gv_decode){
			.in = g->input, .vec = g->vec, .len = g->len, .n = g->n, .delta = g->delta, .status = status,
			.out_all = g->out, .out_at = g->out_at, .err = g->err, .ib_bytes = l.items,
			.segs_bytes = l.segs, .ientry_bytes = l.places, .ibefore_bytes = l.places, .part_bytes = l.part,
			.part_s_bytes = l.part_s, .stage_bytes = l.stage, .bc_bytes = l.found});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_tiled_run(s, k, err);
}

static int gv_single(const uint8_t *blob, size_t len, size_t n, uint32_t delta, gp_result *r, gp_error *err)
{
	const size_t payload = len - GP_GVARINT_HEADER;
	gp_cl_tiled t;
	/* 4 zero bytes ahead of the 12-byte header: the payload begins 16-byte unit 1 */
	gp_cl_tiled_plan(&t, (4 + len + 15) / 16 * 16, payload, GP_GV_ITEM, 1);
	const int out = gp_cl_tiled_output(&t, n * 4);
	if (gp_cl_tiled_send(&t, &blob, &len, 1, 4, NULL, NULL, err) != GP_OK) return GP_EDEVICE;
	gv_launch g = {.input = t.input, .out = t.call.r[out].mem, .err = t.err, .n_blobs = 1, .vec = 1,
	               .len = (cl_uint)payload, .n = (cl_uint)n, .delta = delta, .out_at = (cl_uint)(t.out_at / 4),
	               .s = &t.s};
	if (gv_pass(&g, err) != GP_OK) return GP_EDEVICE;
	return gp_cl_tiled_finish(&t, out, n, 32, r, err);
}

static int gv_batch(gp_cl_batch *b, const gp_batch_in *in, gp_result *r, gp_error *err)
{
	gp_cl_tile_sums s;
	cl_mem starts, out;
	if (gp_cl_batch_upload_units(b, in->blobs, in->lens, GP_GVARINT_HEADER, err) != GP_OK ||
	    gp_cl_blob_tiles(b->host_istart, b->n_blobs, GP_GV_ITEM, 1, 256, GP_B_TILE_SUMS,
	                     GP_B_BLOCK_SUMS, &s, &starts, err) != GP_OK ||
	    !(out = gp_cl_buffer(GP_B_OUT_32, (size_t)b->values * 4, err))) {
		return GP_EDEVICE;
	}
	gv_launch g = {.input = b->input, .tab = b->table, .tile_start = starts, .out = out, .err = b->err,
	               .n_blobs = b->n_blobs, .s = &s};
	if (s.tiles > 0 && gv_pass(&g, err) != GP_OK) return GP_EDEVICE;
	return gp_cl_batch_download(b, out, 32, r, err);
}

int gp_cl_gvarint_decode(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	gp_cl_batch b;
	int rc = GP_EDEVICE;
	if (gp_cl_batch_init(&b, in->n_blobs, err) != GP_OK) return GP_EDEVICE;
	for (size_t i = 0; i < in->n_blobs; i++) {
		size_t n;
		uint32_t delta;
		if (gp_gvarint_check_header(in->blobs[i], in->lens[i], &n, &delta, err) != GP_OK) goto done;
		if (in->lens[i] >= 0xFFFFFFF0u) {
			gp_cl_fail(err, CL_INVALID_BUFFER_SIZE, "GROUP_VARINT blob too large for one launch");
			goto done;
		}
		cl_uint *t = b.host_table + GP_BT_STRIDE * i;
		t[GP_BT_N] = (cl_uint)n;
		t[GP_BT_BYTE_DELTA] = delta;
		t[GP_BT_BYTES] = t[GP_BT_ITEMS] = (cl_uint)(in->lens[i] - GP_GVARINT_HEADER);
	}
	if (in->n_blobs == 1 && b.host_table[GP_BT_BYTES] > 0) {
		rc = gv_single(in->blobs[0], in->lens[0], b.host_table[GP_BT_N], b.host_table[GP_BT_BYTE_DELTA], r, err);
	} else {
		rc = gv_batch(&b, in, r, err);
	}
done:
	gp_cl_batch_free(&b);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}
