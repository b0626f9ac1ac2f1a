/* Launch shapes per device: the work-group size and the items each work-item takes in every
 * tiled kernel, chosen so that the kernels' local memory fits the device; and the environment's
 * overrides, read once when the device opens. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_cl_runtime.h"

/* What the largest users of local memory need (gp_cl_internal.h states each kernel's): the
 * decode passes of S9 (64-bit values) and MOD9 (32-bit), and wah_gather for 32-bit words. */
static size_t local_need_64(size_t wg, size_t tile_items, size_t stage)
{
	gp_local_s9_decode l = gp_local_of_s9_decode(wg, wg * tile_items, stage);
	/* with MOD9's layout table, the larger, so that either fits */
	return l.offs + l.sums + l.part_c + l.part_s + l.stage + (size_t)GP_MOD9_LAYOUTS * 8;
}

static size_t local_need_32(size_t wg, size_t tile_items, size_t stage)
{
	gp_local_mod9_decode l = gp_local_of_mod9_decode(wg, wg * tile_items, stage);
	return l.offs + l.part + l.stage + l.lay;
}

/* The byte formats' decode passes: GROUP_VARINT's or VBYTE's (each a tile's values staged
 * whole), whichever is larger */
static size_t local_need_bytes(size_t wg)
{
	gp_local_gvarint l = gp_local_of_gvarint(wg);
	gp_local_vbyte v = gp_local_of_vbyte(wg);
	size_t gv = l.items + l.segs + 2 * l.places + l.part + l.part_s + l.stage + l.found;
	size_t vb = v.part + v.part_s + v.stage;
	return gv > vb ? gv : vb;
}

static size_t local_need_wah(size_t wg, size_t items)
{
	gp_local_wah_gather l = gp_local_of_wah_gather(gp_wah_gather_cap(wg * items, 32));
	return l.win + l.words + l.gval;
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
	k->small_group = env_uint("GPUPOST_SMALL_GROUP");
	snprintf(k->cl_options, sizeof(k->cl_options), "%s", opts ? opts : "");
	k->upload_threads = env_uint("GPUPOST_UPLOAD_THREADS");
	k->upload_first_kb = env_uint("GPUPOST_UPLOAD_FIRST");
	k->upload_piece_kb = env_uint("GPUPOST_UPLOAD_PIECE");
	k->index_chunk_items = env_uint("GPUPOST_INDEX_CHUNK");
	k->index_no_prune = env_uint("GPUPOST_INDEX_NO_PRUNE");
	k->index_prune_min = env_uint("GPUPOST_INDEX_PRUNE_MIN");
	k->index_topk_tile = env_uint("GPUPOST_TOPK_TILE");
}

uint64_t gp_cl_index_topk_tile(void)
{
	/* a work-group's share: 64 candidates an item, few enough that a query of 100k candidates
	 * spreads over several compute units (at least 64: a tile holds k up to a 64th of it) */
	const unsigned t = gp_cl.knobs.index_topk_tile;
	return t == 0 ? 16384 : t < 64 ? 64 : t;
}

int gp_cl_index_prune(uint64_t postings)
{
	/* the pruning pass is a whole batch of its own (each query's rarest list, one round trip):
	 * it pays once the postings it keeps out of the candidates cost more than that round trip,
	 * which a GPU's throughput reaches at far more postings than a CPU device's */
	const uint64_t gpu_min = (uint64_t)1 << 20, cpu_min = (uint64_t)1 << 15;
	if (gp_cl.knobs.index_no_prune) return 0;
	if (gp_cl.knobs.index_prune_min) return postings >= gp_cl.knobs.index_prune_min;
	return postings >= (strcmp(gp_cl.info.type, "cpu") == 0 ? cpu_min : gpu_min);
}

size_t gp_cl_index_chunk_items(void)
{
	/* 12 bytes of device buffers a candidate: 1.5 GiB at most by default */
	return gp_cl.knobs.index_chunk_items ? gp_cl.knobs.index_chunk_items : (size_t)1 << 27;
}

/* The work-group size before the kernels are built: at most 256, a power of two, within the
 * device's limit and small enough that the largest local-memory users (s9_tile_decode:
 * tile_items words of offsets and sums per item, padded, two scans and the staging area;
 * wah_gather's windows) fit. Then the values staged per item: as many as still fit, at most 16
 * (64-bit) and 32 (32-bit). gp_cl_build lowers the work-group further to what every built kernel
 * allows. */
void gp_cl_choose_shape(gp_device_shape *s, size_t max_work_group, size_t local_mem, int cpu, const gp_cl_knobs *k)
{
	size_t wg = 256;
	if (max_work_group && max_work_group < wg) wg = max_work_group;
	while (wg > 1 && (wg & (wg - 1))) wg &= wg - 1;
	s->tile_items = k->tile_items == 4 || k->tile_items == 16 ? k->tile_items : 8;
	while (wg > 1 && local_mem &&
	       (local_need_64(wg, s->tile_items, 1) > local_mem || local_need_wah(wg, 1) > local_mem ||
	        local_need_bytes(wg) > local_mem)) {
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
	/* A call of one tile runs in the least group that holds it, from small_group up: on a CPU
	 * device (PoCL runs a group's work-items in loops between its barriers) 32 work-items cost
	 * far less than 256; on a GPU a group's items run at once, and a smaller group only gives
	 * each more words in turn, so the full one. */
	s->small_group = k->small_group >= 8 && k->small_group <= 256 && !(k->small_group & (k->small_group - 1))
	                 ? k->small_group : cpu ? 32 : wg;
}

size_t gp_cl_qs_items(void) { return gp_cl.shape.qs_items; }
size_t gp_cl_tile_items(void) { return gp_cl.shape.tile_items; }
size_t gp_cl_wah_items(void) { return gp_cl.shape.wah_items; }
size_t gp_cl_qs_stage_items(void) { return gp_cl.shape.stage_items_32 < 16 ? gp_cl.shape.stage_items_32 : 16; }

size_t gp_cl_stage_items(size_t value_bytes)
{
	return value_bytes == 8 ? gp_cl.shape.stage_items_64 : gp_cl.shape.stage_items_32;
}
