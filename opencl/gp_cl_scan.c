/* Launcher for the prefix sums of kernels/scan.cl: one tile pass, the tile totals scanned the
 * same way (recursively, in a scratch buffer), one pass adding each tile's offset. */
#include "gp_cl_internal.h"

static size_t scan_scratch_elems(size_t n, size_t tile)
{
	size_t total = 0;
	do {
		n = (n + tile - 1) / tile;
		total += n;
	} while (n > 1);
	return total;
}

/* The kernels of one element type: their setters take the same fields. */
typedef struct scan_kernels {
	gp_kernel_id tile, add;
	size_t esz;
} scan_kernels;

static int scan_level(const scan_kernels *sk, cl_mem in, cl_uint in_off, cl_mem out, cl_uint out_off,
                      size_t n, cl_uint inclusive, cl_mem scratch, cl_uint scratch_off, gp_error *err)
{
	size_t wg = gp_cl_wg(), tile = wg * GP_SCAN_ITEMS, tiles = (n + tile - 1) / tile;
	gp_args_scan_tile_u32 t = {
		.in = in, .in_off = in_off, .out = out, .out_off = out_off, .n = (cl_uint)n,
		.sums = scratch, .sums_off = scratch_off, .inclusive = inclusive,
		.lds_bytes = (tile + tile / 32 + wg) * sk->esz,
	};
	/* the 64-bit kernels take the 32-bit ones' parameters (checked in test builds: gp_cl_program.c) */
	if (gp_set_scan_tile_u32(gp_cl_kernel(sk->tile), &t) != CL_SUCCESS) {
		return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg(scan_tile)");
	}
	if (gp_cl_run(gp_cl_kernel(sk->tile), tiles * wg, err) != GP_OK) return GP_EDEVICE;
	if (tiles > 1) {
		cl_uint next = scratch_off + (cl_uint)tiles;
		if (scan_level(sk, scratch, scratch_off, scratch, scratch_off, tiles, 0, scratch, next, err) != GP_OK) {
			return GP_EDEVICE;
		}
		gp_args_scan_add_u32 a = {
			.out = out, .out_off = out_off, .n = (cl_uint)n, .offsets = scratch, .offsets_off = scratch_off,
		};
		if (gp_set_scan_add_u32(gp_cl_kernel(sk->add), &a) != CL_SUCCESS) {
			return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg(scan_add)");
		}
		if (gp_cl_run(gp_cl_kernel(sk->add), tiles * wg, err) != GP_OK) return GP_EDEVICE;
	}
	return GP_OK;
}

static int gp_cl_scan(const scan_kernels *sk, cl_mem in, cl_mem out, size_t n, int inclusive,
                      gp_error *err)
{
	size_t tile = gp_cl_wg() * GP_SCAN_ITEMS;
	cl_mem scratch;
	if (n == 0) return GP_OK;
	if (n > 0xFFFFFFFFu) return gp_cl_fail(err, CL_INVALID_VALUE, "scan of 2^32 or more elements");
	scratch = gp_cl_buffer(GP_B_SCAN_SUMS, scan_scratch_elems(n, tile) * sk->esz, err);
	if (!scratch) return GP_EDEVICE;
	return scan_level(sk, in, 0, out, 0, n, inclusive ? 1u : 0u, scratch, 0, err);
}

int gp_cl_scan_u32(cl_mem in, cl_mem out, size_t n, int inclusive, gp_error *err)
{
	static const scan_kernels u32 = {GP_K_SCAN_TILE_U32, GP_K_SCAN_ADD_U32, sizeof(cl_uint)};
	return gp_cl_scan(&u32, in, out, n, inclusive, err);
}

int gp_cl_scan_i64(cl_mem in, cl_mem out, size_t n, int inclusive, gp_error *err)
{
	static const scan_kernels i64 = {GP_K_SCAN_TILE_I64, GP_K_SCAN_ADD_I64, sizeof(cl_long)};
	return gp_cl_scan(&i64, in, out, n, inclusive, err);
}

int gp_cl_prefix_sum(const int64_t *in, size_t n, int inclusive, int64_t *out, gp_error *err)
{
	const uint8_t *part = (const uint8_t *)in;
	size_t bytes = n * sizeof(int64_t);
	if (n == 0) return GP_OK;
	cl_mem buf = gp_cl_upload(GP_B_SCAN_DATA, &part, &bytes, 1, bytes, err);
	if (!buf || gp_cl_scan_i64(buf, buf, n, inclusive, err) != GP_OK) return GP_EDEVICE;
	return gp_cl_read(buf, bytes, out, err);
}
