/* Launcher for the prefix sums of kernels/scan.cl: one tile pass, the tile totals scanned the
 * same way (recursively, in a scratch buffer), one pass adding each tile's offset. */
#include "gp_cl.h"

static size_t scan_scratch_elems(size_t n, size_t tile)
{
	size_t total = 0;
	do {
		n = (n + tile - 1) / tile;
		total += n;
	} while (n > 1);
	return total;
}

static int scan_level(gp_kernel_id tile_k, gp_kernel_id add_k, size_t esz, cl_mem in,
                      cl_uint in_off, cl_mem out, cl_uint out_off, size_t n, cl_uint inclusive,
                      cl_mem scratch, cl_uint scratch_off, gp_error *err)
{
	size_t wg = gp_cl_wg(), tile = wg * GP_SCAN_ITEMS, tiles = (n + tile - 1) / tile;
	cl_kernel k = gp_cl_kernel(tile_k);
	cl_uint nn = (cl_uint)n;
	cl_int st = GP_CL_ARG(k, 0, in);
	st |= GP_CL_ARG(k, 1, in_off);
	st |= GP_CL_ARG(k, 2, out);
	st |= GP_CL_ARG(k, 3, out_off);
	st |= GP_CL_ARG(k, 4, nn);
	st |= GP_CL_ARG(k, 5, scratch);
	st |= GP_CL_ARG(k, 6, scratch_off);
	st |= GP_CL_ARG(k, 7, inclusive);
	st |= clSetKernelArg(k, 8, (tile + tile / 32 + wg) * esz, NULL);
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg(scan_tile)");
	if (gp_cl_run(k, tiles * wg, err) != GP_OK) return GP_EDEVICE;
	if (tiles > 1) {
		cl_uint next = scratch_off + (cl_uint)tiles;
		if (scan_level(tile_k, add_k, esz, scratch, scratch_off, scratch, scratch_off, tiles, 0,
		               scratch, next, err) != GP_OK) {
			return GP_EDEVICE;
		}
		k = gp_cl_kernel(add_k);
		st = GP_CL_ARG(k, 0, out);
		st |= GP_CL_ARG(k, 1, out_off);
		st |= GP_CL_ARG(k, 2, nn);
		st |= GP_CL_ARG(k, 3, scratch);
		st |= GP_CL_ARG(k, 4, scratch_off);
		if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg(scan_add)");
		if (gp_cl_run(k, tiles * wg, err) != GP_OK) return GP_EDEVICE;
	}
	return GP_OK;
}

static int gp_cl_scan(gp_kernel_id tile_k, gp_kernel_id add_k, size_t esz, cl_mem in, cl_mem out,
                      size_t n, int inclusive, gp_error *err)
{
	size_t tile = gp_cl_wg() * GP_SCAN_ITEMS;
	cl_mem scratch;
	if (n == 0) return GP_OK;
	if (n > 0xFFFFFFFFu) return gp_cl_fail(err, CL_INVALID_VALUE, "scan of 2^32 or more elements");
	scratch = gp_cl_buffer(GP_B_SCRATCH, scan_scratch_elems(n, tile) * esz, err);
	if (!scratch) return GP_EDEVICE;
	return scan_level(tile_k, add_k, esz, in, 0, out, 0, n, inclusive ? 1u : 0u, scratch, 0, err);
}

int gp_cl_scan_u32(cl_mem in, cl_mem out, size_t n, int inclusive, gp_error *err)
{
	return gp_cl_scan(GP_K_SCAN_TILE_U32, GP_K_SCAN_ADD_U32, sizeof(cl_uint), in, out, n,
	                  inclusive, err);
}

int gp_cl_scan_i64(cl_mem in, cl_mem out, size_t n, int inclusive, gp_error *err)
{
	return gp_cl_scan(GP_K_SCAN_TILE_I64, GP_K_SCAN_ADD_I64, sizeof(cl_long), in, out, n,
	                  inclusive, err);
}

int gp_cl_prefix_sum(const int64_t *in, size_t n, int inclusive, int64_t *out, gp_error *err)
{
	const uint8_t *part = (const uint8_t *)in;
	size_t bytes = n * sizeof(int64_t);
	cl_mem buf;
	cl_int st;
	if (n == 0) return GP_OK;
	buf = gp_cl_upload(GP_B_WSUM, &part, &bytes, 1, bytes, err);
	if (!buf || gp_cl_scan_i64(buf, buf, n, inclusive, err) != GP_OK) return GP_EDEVICE;
	st = clEnqueueReadBuffer(gp_cl_queue(), buf, CL_TRUE, 0, bytes, out, 0, NULL, NULL);
	return st == CL_SUCCESS ? GP_OK : gp_cl_fail(err, st, "clEnqueueReadBuffer");
}
