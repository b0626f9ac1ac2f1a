/* Launcher for kernels/s9.cl: count, scan, decode, and for delta blobs a scan of the gaps. */
#include "gp_cl_batch.h"
#include "../codec/gp_result.h"
#include "../codec/gp_s9.h"

#define A(v) sizeof(v), (const void *)&(v)

/* One blob, tiled (s9_tile_count, then s9_tile_decode). */
static int s9_tiled(const uint8_t *blob, size_t len, cl_uint n, cl_uint delta, gp_result *r,
                    gp_error *err)
{
	/* 4 zero bytes ahead of the 12-byte header: the payload starts 16-byte aligned (uint4 reads) */
	cl_uint nw = (cl_uint)((len - GP_S9_HEADER) / 4), base = (4 + GP_S9_HEADER) / 4, tiles;
	gp_cl_tiled t;
	cl_mem out;
	cl_kernel k;
	if (gp_cl_tiled_begin(&t, &blob, &len, 1, 4, nw, gp_cl_tile_items(), 4, err) != GP_OK ||
	    !(out = gp_cl_buffer(GP_B_POS, (size_t)n * 8, err))) {
		return GP_EDEVICE;
	}
	tiles = (cl_uint)t.s.tiles;
	k = gp_cl_kernel(GP_K_S9_TILE_COUNT);
	if (gp_cl_args(k, 9, A(t.input), A(base), A(nw), A(t.s.bt), A(tiles), A(t.s.blocks), A(t.s.sums),
	               A(t.s.block_sums), A(t.err)) != CL_SUCCESS) goto args;
	if (gp_cl_tiled_run(&t.s, k, err, 9, 1, t.s.wg * 4) != GP_OK) return GP_EDEVICE;
	k = gp_cl_kernel(GP_K_S9_TILE_DECODE);
	if (gp_cl_args(k, 12, A(t.input), A(base), A(nw), A(n), A(delta), A(t.s.bt), A(tiles),
	               A(t.s.blocks), A(t.s.sums), A(t.s.block_sums), A(out), A(t.err)) != CL_SUCCESS) goto args;
	if (gp_cl_tiled_run(&t.s, k, err, 12, 6, GP_SKEWED(t.s.tile) * 4, GP_SKEWED(t.s.tile) * 8, t.s.wg * 4,
	                    t.s.wg * 8, t.s.wg * gp_cl_stage_items(8) * 8, (size_t)16 * 8) != GP_OK) {
		return GP_EDEVICE;
	}
	return gp_cl_tiled_finish(&t, out, n, 64, r, err);
args:
	return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
}

int gp_cl_s9_decode(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                    gp_result *r, gp_error *err)
{
	gp_cl_batch b;
	int any_delta = 0, rc = GP_EDEVICE;
	cl_mem off, raw, sums = NULL;
	cl_kernel k;
	if (gp_cl_batch_init(&b, n_blobs, err) != GP_OK) return GP_EDEVICE;
	for (size_t i = 0; i < n_blobs; i++) {
		cl_uint *t = b.host_table + GP_BT_STRIDE * i;
		size_t n;
		uint32_t delta;
		if (gp_s9_check_header(blobs[i], lens[i], &n, &delta, err) != GP_OK) goto done;
		t[GP_BT_BASE] = GP_S9_HEADER / 4;
		t[GP_BT_N] = (cl_uint)n;
		t[GP_BT_PARAM] = delta;
		t[GP_BT_ITEMS] = (cl_uint)((lens[i] - GP_S9_HEADER) / 4);
		any_delta |= delta != 0;
	}
	if (n_blobs == 1 && b.host_table[GP_BT_N] > 0) {
		rc = s9_tiled(blobs[0], lens[0], b.host_table[GP_BT_N], b.host_table[GP_BT_PARAM], r, err);
		goto done;
	}
	if (gp_cl_batch_upload(&b, blobs, lens, err) != GP_OK) goto done;
	if (gp_cl_batch_count(&b, GP_K_S9_COUNT, &off, err) != GP_OK ||
	    !(raw = gp_cl_buffer(GP_B_POS, (size_t)b.values * 8, err)) ||
	    (any_delta && !(sums = gp_cl_buffer(GP_B_WSUM, (size_t)b.values * 8, err)))) {
		goto done;
	}
	k = gp_cl_kernel(GP_K_S9_DECODE);
	if (gp_cl_args(k, 8, A(b.input), A(b.table), A(b.istart), A(b.n_blobs), A(b.items), A(off),
	               A(raw), A(b.err)) != CL_SUCCESS) goto args;
	if (gp_cl_run(k, b.items, err) != GP_OK) goto done;
	if (any_delta) {
		if (gp_cl_scan_i64(raw, sums, b.values, 1, err) != GP_OK) goto done;
		k = gp_cl_kernel(GP_K_S9_DELTA);
		if (gp_cl_args(k, 6, A(raw), A(sums), A(b.table), A(b.vstart), A(b.n_blobs), A(b.values)) != CL_SUCCESS) goto args;
		if (gp_cl_run(k, b.values, err) != GP_OK) goto done;
	}
	rc = gp_cl_batch_download(&b, raw, 64, r, err);
	goto done;
args:
	gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
done:
	gp_cl_batch_free(&b);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}
