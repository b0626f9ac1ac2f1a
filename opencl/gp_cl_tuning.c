/* Launch shapes per device: the work-group size and the items each work-item takes in every
 * tiled kernel, chosen so that the kernels' local memory fits the device; and the environment's
 * overrides, read once when the device opens. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_cl_runtime.h"

/* The selector layouts the tiled MOD9 and S9 passes keep in local memory (64 and 16 uint2s). */
#define GP_LAYOUT_TABLE (64 * 8)

/* Local memory of the tiled decoders for a work-group of wg taking `tile_items` words an item and
 * staging `stage` values: s9_tile_decode (64-bit values, offsets and sums per word) and
 * mod9_tile_decode (32-bit values, offsets per word), the largest users of each staging width. */
static size_t local_need_64(size_t wg, size_t tile_items, size_t stage)
{
	size_t tile = wg * tile_items;
	return (tile + tile / 32) * (4 + 8) + wg * (4 + 8) + wg * stage * 8 + GP_LAYOUT_TABLE;
}

static size_t local_need_32(size_t wg, size_t tile_items, size_t stage)
{
	size_t tile = wg * tile_items;
	return (tile + tile / 32) * 4 + wg * 4 + wg * stage * 4 + GP_LAYOUT_TABLE;
}

/* wah_gather of 31-bit groups: the words behind a tile of `items` output words an item, their
 * first groups, and the tile's groups expanded. */
static size_t local_need_wah(size_t wg, size_t items)
{
	return (32 * wg * items / 31 + 4) * (4 + 8 + 8);
}

static unsigned env_uint(const char *name)
{
	const char *v = getenv(name);
	return v && atoi(v) > 0 ? (unsigned)atoi(v) : 0u;
}

void gp_cl_knobs_read(gp_cl_knobs *k)
{
	const char *opts = getenv("GPUPOST_CL_OPTIONS");
	memset(k, 0, sizeof(*k));
	k->profile = (int)env_uint("GPUPOST_PROFILE");
	k->tile_items = env_uint("GPUPOST_TILE_ITEMS");
	k->wah_items = env_uint("GPUPOST_WAH_ITEMS");
	k->stage_items_32 = env_uint("GPUPOST_STAGE_ITEMS_32");
	k->qs_items = env_uint("GPUPOST_QS_ITEMS");
	snprintf(k->cl_options, sizeof(k->cl_options), "%s", opts ? opts : "");
	k->upload_threads = env_uint("GPUPOST_UPLOAD_THREADS");
	k->upload_first_kb = env_uint("GPUPOST_UPLOAD_FIRST");
	k->upload_piece_kb = env_uint("GPUPOST_UPLOAD_PIECE");
}

/* The work-group size before the kernels are built: at most 256, a power of two, within the
 * device's limit and small enough that the largest local-memory users (s9_tile_decode:
 * tile_items words of offsets and sums per item, padded, two scans and the staging area;
 * wah_gather's windows) fit. Then the values staged per item: as many as still fit, at most 16
 * (64-bit) and 32 (32-bit). gp_cl_build lowers the work-group further to what every built kernel
 * allows. */
void gp_cl_choose_shape(gp_cl_shape *s, size_t max_work_group, size_t local_mem, const gp_cl_knobs *k)
{
	size_t wg = 256;
	if (max_work_group && max_work_group < wg) wg = max_work_group;
	while (wg > 1 && (wg & (wg - 1))) wg &= wg - 1;
	s->tile_items = k->tile_items == 4 || k->tile_items == 16 ? k->tile_items : 8;
	while (wg > 1 && local_mem &&
	       (local_need_64(wg, s->tile_items, 1) > local_mem || local_need_wah(wg, 1) > local_mem)) {
		wg /= 2;
	}
	s->wah_items = k->wah_items == 4 || k->wah_items == 16 ? k->wah_items : 8;
	while (s->wah_items > 1 && local_mem && local_need_wah(wg, s->wah_items) > local_mem) s->wah_items /= 2;
	s->stage_items_64 = 16;
	s->stage_items_32 = 32;
	while (s->stage_items_64 > 1 && local_mem && local_need_64(wg, s->tile_items, s->stage_items_64) > local_mem) {
		s->stage_items_64 /= 2;
	}
	while (s->stage_items_32 > 1 && local_mem && local_need_32(wg, s->tile_items, s->stage_items_32) > local_mem) {
		s->stage_items_32 /= 2;
	}
	/* the knobs replace the choices, within what local memory holds */
	s->qs_items = 2;
	if (k->stage_items_32 >= 1 && k->stage_items_32 <= 64 &&
	    local_need_32(wg, s->tile_items, k->stage_items_32) <= local_mem) {
		s->stage_items_32 = k->stage_items_32;
	}
	if (k->qs_items >= 1 && k->qs_items <= GP_SCAN_ITEMS) s->qs_items = k->qs_items;
	s->work_group = wg;
}

size_t gp_cl_qs_items(void) { return gp_cl.shape.qs_items; }
size_t gp_cl_tile_items(void) { return gp_cl.shape.tile_items; }
size_t gp_cl_wah_items(void) { return gp_cl.shape.wah_items; }
size_t gp_cl_qs_stage_items(void) { return gp_cl.shape.stage_items_32 < 16 ? gp_cl.shape.stage_items_32 : 16; }

size_t gp_cl_stage_items(size_t value_bytes)
{
	return value_bytes == 8 ? gp_cl.shape.stage_items_64 : gp_cl.shape.stage_items_32;
}
