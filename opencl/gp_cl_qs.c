/* Launcher for kernels/qs.cl: one long list by tiles; a batch by popcounts, a scan and one
 * merged upper+lower decode that also checks the order. */
#include "gp_cl_batch.h"
#include "../codec/gp_result.h"
#include "../codec/gp_qs.h"

#define A(v) sizeof(v), (const void *)&(v)

/* One blob, tiled (qs_tile_count, then qs_tile_decode). */
static int qs_tiled(const uint8_t *blob, size_t len, const gp_qs_header *h, gp_result *r,
                    gp_error *err)
{
	cl_uint nl = (cl_uint)h->lower_words, nu = (cl_uint)h->upper_words, n = h->n, l = h->l, last = h->last;
	gp_cl_tiled t;
	cl_mem out;
	cl_kernel k;
	if (gp_cl_tiled_begin(&t, &blob, &len, 1, 0, nu, gp_cl_qs_items(), 1, err) != GP_OK ||
	    !(out = gp_cl_buffer(GP_B_VALUES, (size_t)n * 4, err))) {
		return GP_EDEVICE;
	}
	k = gp_cl_kernel(GP_K_QS_TILE_COUNT);
	if (gp_cl_args(k, 10, A(t.input), A(nl), A(nu), A(n), A(l), A(last), A(t.s.bt), A(t.s.sums),
	               A(t.s.block_sums), A(t.err)) != CL_SUCCESS) goto args;
	if (gp_cl_tiled_run(&t.s, k, err, 10, 1, t.s.wg * 4) != GP_OK) return GP_EDEVICE;
	k = gp_cl_kernel(GP_K_QS_TILE_DECODE);
	if (gp_cl_args(k, 11, A(t.input), A(nl), A(nu), A(n), A(l), A(last), A(t.s.bt), A(t.s.sums),
	               A(t.s.block_sums), A(out), A(t.err)) != CL_SUCCESS) goto args;
	if (gp_cl_tiled_run(&t.s, k, err, 11, 4, GP_SKEWED(t.s.tile) * 4, t.s.wg * 4,
	                    GP_SKEWED(t.s.wg * gp_cl_qs_stage_items()) * 4, (size_t)8) != GP_OK) {
		return GP_EDEVICE;
	}
	return gp_cl_tiled_finish(&t, out, n, 32, r, err);
args:
	return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
}

int gp_cl_qs_decode(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                    gp_result *r, gp_error *err)
{
	gp_cl_batch b;
	int rc = GP_EDEVICE;
	cl_mem rank, values;
	cl_kernel k;
	if (n_blobs == 1) {
		gp_qs_header h;
		if ((rc = gp_qs_check_header(blobs[0], lens[0], &h, err)) != GP_OK) return rc;
		if (h.n > 0) {
			rc = qs_tiled(blobs[0], lens[0], &h, r, err);
			if (rc != GP_OK) gp_result_free(r);
			return rc;
		}
	}
	if (gp_cl_batch_init(&b, n_blobs, err) != GP_OK) return GP_EDEVICE;
	for (size_t i = 0; i < n_blobs; i++) {
		cl_uint *t = b.host_table + GP_BT_STRIDE * i;
		gp_qs_header h;
		if (gp_qs_check_header(blobs[i], lens[i], &h, err) != GP_OK) goto done;
		t[GP_BT_BASE] = GP_QS_HEADER / 4;
		t[GP_BT_N] = h.n;
		t[GP_BT_PARAM] = h.l;
		t[GP_BT_LAST] = h.last;
		t[GP_BT_LOWER] = (cl_uint)h.lower_words;
		t[GP_BT_ITEMS] = (cl_uint)h.upper_words;
	}
	if (gp_cl_batch_upload(&b, blobs, lens, err) != GP_OK) goto done;
	if (gp_cl_batch_count(&b, GP_K_QS_COUNT, &rank, err) != GP_OK ||
	    !(values = gp_cl_buffer(GP_B_VALUES, (size_t)b.values * 4, err))) {
		goto done;
	}
	k = gp_cl_kernel(GP_K_QS_DECODE);
	if (gp_cl_args(k, 8, A(b.input), A(b.table), A(b.istart), A(b.n_blobs), A(b.items), A(rank),
	               A(values), A(b.err)) != CL_SUCCESS) goto args;
	if (gp_cl_run(k, b.items, err) != GP_OK) goto done;
	rc = gp_cl_batch_download(&b, values, 32, r, err);
	goto done;
args:
	gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
done:
	gp_cl_batch_free(&b);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}
