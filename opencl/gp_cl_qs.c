/* Launcher for kernels/qs.cl: popcounts, scan, one merged upper+lower decode, order check. */
#include "gp_cl_batch.h"
#include "../codec/gp_result.h"
#include "../codec/gp_qs.h"

#define A(v) sizeof(v), (const void *)&(v)

int gp_cl_qs_decode(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                    gp_result *r, gp_error *err)
{
	gp_cl_batch b;
	int rc = GP_EDEVICE;
	cl_mem rank, values;
	cl_kernel k;
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
	k = gp_cl_kernel(GP_K_QS_CHECK_ORDER);
	if (gp_cl_args(k, 5, A(values), A(b.vstart), A(b.n_blobs), A(b.values), A(b.err)) != CL_SUCCESS) goto args;
	if (gp_cl_run(k, b.values, err) != GP_OK) goto done;
	rc = gp_cl_batch_download(&b, values, 32, r, err);
	goto done;
args:
	gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
done:
	gp_cl_batch_free(&b);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}
