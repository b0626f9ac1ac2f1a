/* Launcher for kernels/wah.cl: each word's first group found by tiles, the structure verified,
 * then output words gathered (a batch's bitmaps, or one query bitmap combining all), then set rows. */
#include <stdlib.h>
#include <string.h>

#include "gp_cl_batch.h"
#include "../codec/gp_batch.h"
#include "../codec/gp_result.h"
#include "../codec/gp_wah.h"

/* Each word's first group within its blob (goff) by wah_tile_count and wah_tile_offsets, which
 * also verify each blob; for one blob and out_tiles > 0 they also find the first word of each of
 * the gather's tiles (tile_words). A batch's blobs have tiles of their own; a blob of no words
 * has none, and must have no groups (the dispatch sends one that has them to the host). Blocks
 * of at most 30 tiles, whose sums (each at most 2^32 / 31) cannot wrap. */
static int wah_first_groups(const gp_cl_batch *b, cl_mem goff, cl_uint out_tile, cl_uint out_tiles,
                            cl_mem tile_words, gp_error *err)
{
	gp_cl_tile_sums s;
	cl_kernel count, offsets;
	cl_mem tile_start;
	if (b->n_blobs == 1) {
		/* one tile at least: goff[0] is written for a blob of no words too */
		if (gp_cl_tile_sums_init(&s, b->items ? b->items : 1, gp_cl_tile_items(), 1, 30, GP_B_GROUP_TILE_SUMS,
		                         GP_B_GROUP_BLOCK_SUMS, err) != GP_OK) return GP_EDEVICE;
		count = gp_cl_kernel(GP_K_WAH_TILE_COUNT);
		offsets = gp_cl_kernel(GP_K_WAH_TILE_OFFSETS);
		cl_uint shift = 5;   /* out_tile is a power of two (wg and items are) */
		while (shift < 63 && (1ull << shift) < 32ull * out_tile) shift++;
		if (gp_set_wah_tile_count(count, &(gp_args_wah_tile_count){
		        .in = b->input, .t = b->table, .bt = s.bt, .tile_sums = s.sums,
		        .block_sums = s.block_sums, .err = b->err, .part_bytes = s.wg * 8}) != CL_SUCCESS ||
		    gp_set_wah_tile_offsets(offsets, &(gp_args_wah_tile_offsets){
		        .in = b->input, .t = b->table, .bt = s.bt, .tile_sums = s.sums,
		        .block_sums = s.block_sums, .goff = goff, .tile_shift = shift, .out_tiles = out_tiles,
		        .tile_words = tile_words, .err = b->err, .c_bytes = GP_SKEW(s.tile) * 8,
		        .part_bytes = s.wg * 8}) != CL_SUCCESS) goto args;
		if (gp_cl_tiled_run(&s, count, err) != GP_OK) return GP_EDEVICE;
		return gp_cl_tiled_run(&s, offsets, err);
	}
	if (gp_cl_blob_tiles(b->host_istart, b->n_blobs, gp_cl_tile_items(), 1, 30, GP_B_GROUP_TILE_SUMS,
	                               GP_B_GROUP_BLOCK_SUMS, &s, &tile_start, err) != GP_OK) return GP_EDEVICE;
	if (s.tiles == 0) return GP_OK;   /* no words at all */
	count = gp_cl_kernel(GP_K_WAH_TILE_COUNT_BATCH);
	offsets = gp_cl_kernel(GP_K_WAH_TILE_OFFSETS_BATCH);
	if (gp_set_wah_tile_count_batch(count, &(gp_args_wah_tile_count_batch){
	        .in = b->input, .tab = b->table, .tile_start = tile_start, .n_blobs = b->n_blobs, .bt = s.bt,
	        .tile_sums = s.sums, .block_sums = s.block_sums, .err = b->err,
	        .part_bytes = s.wg * 8}) != CL_SUCCESS ||
	    gp_set_wah_tile_offsets_batch(offsets, &(gp_args_wah_tile_offsets_batch){
	        .in = b->input, .tab = b->table, .tile_start = tile_start, .n_blobs = b->n_blobs,
	        .wstart = b->istart, .bt = s.bt, .tile_sums = s.sums, .block_sums = s.block_sums,
	        .goff = goff, .err = b->err, .c_bytes = GP_SKEW(s.tile) * 8,
	        .part_bytes = s.wg * 8}) != CL_SUCCESS) goto args;
	if (gp_cl_tiled_run(&s, count, err) != GP_OK) return GP_EDEVICE;
	return gp_cl_tiled_run(&s, offsets, err);
args:
	return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
}

/* Uploads the blobs with their table, then finds and verifies each word's first group (goff). For a gather of out_tile output words a tile
 * (0: none), *tile_words gets the word holding each tile's first bit. With rows_est, it gets the
 * set rows the host expects (gp_wah_estimate_rows) and their bound, the bitmaps' rows. */
static int wah_prepare(gp_cl_batch *b, const uint8_t *const *blobs, const size_t *lens,
                       size_t n_blobs, cl_mem *goff, cl_uint out_tile, cl_mem *tile_words,
                       size_t *rows_est, size_t *rows_bound, gp_error *err)
{
	if (gp_cl_batch_init(b, n_blobs, err) != GP_OK) return GP_EDEVICE;
	for (size_t i = 0; i < n_blobs; i++) {
		cl_uint *t = b->host_table + GP_BT_STRIDE * i;
		gp_wah_header h;
		if (gp_wah_check_header(blobs[i], lens[i], &h, err) != GP_OK || h.nbits >= 0xFFFFFFE0u) {
			return gp_cl_fail(err, CL_INVALID_VALUE, "WAH blob outside the device path's limits");
		}
		t[GP_BT_BASE] = GP_WAH_HEADER / 4;
		t[GP_BT_N] = (cl_uint)((h.nbits + 31) / 32);   /* output words */
		t[GP_BT_WAH_W] = h.w;
		t[GP_BT_WAH_NBITS] = (cl_uint)h.nbits;
		t[GP_BT_WAH_GROUPS] = (cl_uint)h.groups;
		t[GP_BT_ITEMS] = (cl_uint)h.words;
		if (rows_est) {
			*rows_est += gp_wah_estimate_rows(blobs[i], &h);
			*rows_bound += h.nbits;
		}
	}
	if (gp_cl_batch_upload(b, blobs, lens, err) != GP_OK) return GP_EDEVICE;
	size_t items1 = (size_t)b->items + 1;
	cl_uint out_tiles = out_tile ? (cl_uint)(((size_t)b->values + out_tile - 1) / out_tile) : 0;
	if (!(*goff = gp_cl_buffer(GP_B_WORD_GROUPS, items1 * 8, err))) return GP_EDEVICE;
	if (out_tile && !(*tile_words = gp_cl_buffer(GP_B_TILE_WORDS, (size_t)out_tiles * 4 + 4, err))) return GP_EDEVICE;
	if (n_blobs == 1) {   /* without a gather, goff stands in for the unused tile_words */
		return wah_first_groups(b, *goff, out_tile, out_tiles, out_tile ? *tile_words : *goff, err);
	}
	if (wah_first_groups(b, *goff, 0, 0, NULL, err) != GP_OK) return GP_EDEVICE;
	if (!out_tile) return GP_OK;
	cl_kernel k = gp_cl_kernel(GP_K_WAH_TILE_WORDS);
	cl_int st = gp_set_wah_tile_words(k, &(gp_args_wah_tile_words){
		.bt = b->table, .ostart = b->vstart, .wstart = b->istart, .goff = *goff, .n_blobs = b->n_blobs,
		.total = b->values, .tile = out_tile, .tile_words = *tile_words});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_run(k, out_tiles, err);
}

/* Set rows of `total` bitmap words, n_blobs bitmaps back to back (bitmap b at host_ostart[b],
 * and at ostart on the device), tiled: bitmap_tile_count stores each tile's set bits, then
 * bitmap_tile_rows writes each tile's rows into a rows buffer sized before the count is known,
 * so that nothing is read back between them; the counts come back with the results. A batch's
 * bitmaps have tiles of their own. At most 256 tiles a block, 32 * tile rows each: no sum
 * wraps. Rows the buffer gets: the bound (every bit a row, 256 bytes a word) when that is at
 * most GP_ROWS_BOUND_BYTES, or else what it holds already, at least a row a word; bitmaps with
 * more rows than that are decoded a second time into a buffer grown to fit (once: the buffer
 * keeps its size for the next call). */
#define GP_ROWS_BOUND_BYTES ((size_t)64 << 20)

/* The bitmaps a rows pass reads: one of `total` words, or a batch's, each from ostart with tiles
 * of its own from tile_start and its row count into blob_rows. */
typedef struct bitmap_set {
	cl_mem bitmap, ostart, tile_start, blob_rows;
	cl_uint total, n_blobs;
	gp_cl_tile_sums s;
} bitmap_set;

static int bitmap_count_pass(const bitmap_set *m, gp_error *err)
{
	const gp_cl_tile_sums *s = &m->s;
	const int batch = m->n_blobs > 1;
	cl_kernel k = gp_cl_kernel(batch ? GP_K_BITMAP_TILE_COUNT_BATCH : GP_K_BITMAP_TILE_COUNT);
	cl_int st = batch
		? gp_set_bitmap_tile_count_batch(k, &(gp_args_bitmap_tile_count_batch){
			.bitmap = m->bitmap, .ostart = m->ostart, .tile_start = m->tile_start, .n_blobs = m->n_blobs,
			.bt = s->bt, .tile_sums = s->sums, .block_sums = s->block_sums, .part_bytes = s->wg * 4})
		: gp_set_bitmap_tile_count(k, &(gp_args_bitmap_tile_count){
			.bitmap = m->bitmap, .total = m->total, .bt = s->bt, .tile_sums = s->sums,
			.block_sums = s->block_sums, .part_bytes = s->wg * 4});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_tiled_run(s, k, err);
}

static int bitmap_rows_pass(const bitmap_set *m, cl_mem rows, cl_ulong cap, gp_error *err)
{
	const gp_cl_tile_sums *s = &m->s;
	const int batch = m->n_blobs > 1;
	/* a tile's word offsets, its words, the group's counts */
	const size_t offs = GP_SKEW(s->tile) * 4, words = GP_SKEW(s->tile) * 4, part = s->wg * 4;
	cl_kernel k = gp_cl_kernel(batch ? GP_K_BITMAP_TILE_ROWS_BATCH : GP_K_BITMAP_TILE_ROWS);
	cl_int st = batch
		? gp_set_bitmap_tile_rows_batch(k, &(gp_args_bitmap_tile_rows_batch){
			.bitmap_all = m->bitmap, .ostart = m->ostart, .tile_start = m->tile_start,
			.n_blobs = m->n_blobs, .blob_rows = m->blob_rows, .bt = s->bt, .tile_sums = s->sums,
			.block_sums = s->block_sums, .rows = rows, .cap = cap, .offs_bytes = offs,
			.words_bytes = words, .part_bytes = part})
		: gp_set_bitmap_tile_rows(k, &(gp_args_bitmap_tile_rows){
			.bitmap_all = m->bitmap, .total = m->total, .bt = s->bt, .tile_sums = s->sums,
			.block_sums = s->block_sums, .rows = rows, .cap = cap, .offs_bytes = offs,
			.words_bytes = words, .part_bytes = part});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_tiled_run(s, k, err);
}

static int bitmap_tiles(const gp_result *r, cl_mem bitmap, cl_uint total, cl_mem ostart,
                        const cl_uint *host_ostart, cl_uint n_blobs, cl_mem errbuf, cl_mem *rows, cl_uint *blob_rows,
                        size_t *guess, void **mapped, gp_error *err)
{
	const int batch = n_blobs > 1;
	bitmap_set m = {.bitmap = bitmap, .ostart = ostart, .total = total, .n_blobs = n_blobs};
	size_t bound = (size_t)total * 32, held = gp_cl_buffer_capacity(GP_B_ROWS) / 8;
	size_t cap = bound * 8 <= GP_ROWS_BOUND_BYTES ? bound : held > total ? held : total;
	int rc = GP_OK;
	if (cap > bound) cap = bound;
	if (*guess > cap) *guess = cap;
	memset(blob_rows, 0, ((size_t)n_blobs + 1) * sizeof(*blob_rows));
	*mapped = NULL;
	if (total == 0) {
		*guess = 0;
		if (!(*rows = gp_cl_buffer(GP_B_ROWS, 8, err))) return GP_EDEVICE;
		return gp_cl_read_checked(errbuf, *rows, 0, 0, NULL, err);
	}
	if (batch) {
		if (gp_cl_blob_tiles(host_ostart, n_blobs, gp_cl_tile_items(), 1, 256, GP_B_TILE_SUMS, GP_B_BLOCK_SUMS,
		                     &m.s, &m.tile_start, err) != GP_OK ||
		    !(m.blob_rows = gp_cl_buffer(GP_B_BLOB_ROWS, ((size_t)n_blobs + 1) * 4, err))) {
			return GP_EDEVICE;
		}
	} else if (gp_cl_tile_sums_init(&m.s, total, gp_cl_tile_items(), 1, 256, GP_B_TILE_SUMS, GP_B_BLOCK_SUMS, err) != GP_OK) {
		return GP_EDEVICE;
	}
	if (bitmap_count_pass(&m, err) != GP_OK ||
	    !(*rows = gp_cl_buffer(GP_B_ROWS, cap * 8, err)) ||
	    bitmap_rows_pass(&m, *rows, cap, err) != GP_OK ||
	    (rc = gp_cl_read_guessed(errbuf, batch ? m.blob_rows : m.s.sums, batch ? 0 : m.s.tiles * 4,
	                             batch ? ((size_t)n_blobs + 1) * 4 : 4, batch ? blob_rows : &blob_rows[1],
	                             *rows, *guess * 8, mapped, err)) != GP_OK) {
		return rc == GP_OK ? GP_EDEVICE : rc;
	}
	/* a bitmap without tiles (no words) begins where the next one does */
	for (cl_uint i = n_blobs; batch && i-- > 0;) {
		if (host_ostart[i + 1] == host_ostart[i]) blob_rows[i] = blob_rows[i + 1];
	}
	cl_uint nrows = blob_rows[n_blobs];
	if (nrows <= cap) return GP_OK;
	gp_cl_unmap(*mapped);   /* decoded again below (the guess, at most cap, now falls short) */
	*mapped = NULL;
	if (gp_check_result(r, nrows, 0, err) != GP_OK) return GP_ENOMEM;   /* before growing */
	if (!(*rows = gp_cl_buffer(GP_B_ROWS, (size_t)nrows * 8, err))) return GP_EDEVICE;
	return bitmap_rows_pass(&m, *rows, nrows, err);
}

/* The set rows of the bitmaps (bitmap_tiles), downloaded into r: as many as guess (the rows
 * expected, 0 if unknown) with their count, the rest after it. */
static int bitmap_rows(cl_mem bitmap, cl_uint total, cl_mem ostart, const cl_uint *host_ostart,
                       cl_uint n_blobs, cl_mem errbuf, size_t guess, gp_result *r, gp_error *err)
{
	cl_mem rows = NULL;
	void *mapped = NULL;
	cl_uint nb1 = n_blobs + 1, *blob_rows = gp_alloc_array(nb1, sizeof(cl_uint));
	int rc;
	if (!blob_rows) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	rc = bitmap_tiles(r, bitmap, total, ostart, host_ostart, n_blobs, errbuf, &rows, blob_rows, &guess,
	                  &mapped, err);
	size_t nrows = blob_rows[n_blobs];
	if (rc == GP_OK && gp_check_result(r, nrows, 0, err) != GP_OK) rc = GP_ENOMEM;
	if (rc == GP_OK) {
		r->n_blobs = n_blobs;
		r->n_values = nrows;
		r->blob_values = gp_alloc_array(nb1, sizeof(size_t));
		r->blob_postings = gp_alloc_array(nb1, sizeof(size_t));
		if (!r->blob_values || !r->blob_postings) rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	}
	for (cl_uint i = 0; rc == GP_OK && i < nb1; i++) {
		r->blob_values[i] = blob_rows[i];
		r->blob_postings[i] = 0;
	}
	if (rc == GP_OK) rc = gp_cl_result_guessed(r, rows, nrows, 64, mapped, guess * 8, err);
	else gp_cl_unmap(mapped);
	free(blob_rows);
	return rc;
}

/* Uploads and verifies the blobs, then gathers every output word of every blob into bitmap
 * (rows_est, rows_bound: as wah_prepare). */
static int wah_gather_batch(gp_cl_batch *b, const uint8_t *const *blobs, const size_t *lens,
                            size_t n_blobs, cl_mem *bitmap, size_t *rows_est, size_t *rows_bound,
                            gp_error *err)
{
	cl_mem goff, tile_words;
	cl_kernel k;
	cl_uint tile = (cl_uint)(gp_cl_wg() * gp_cl_wah_items()), tiles, wmin = 64, cap;
	if (wah_prepare(b, blobs, lens, n_blobs, &goff, tile, &tile_words, rows_est, rows_bound, err) != GP_OK) {
		return GP_EDEVICE;
	}
	for (size_t i = 0; i < n_blobs; i++) {
		if (b->host_table[GP_BT_STRIDE * i + GP_BT_WAH_W] < wmin) wmin = b->host_table[GP_BT_STRIDE * i + GP_BT_WAH_W];
	}
	cap = (cl_uint)gp_wah_gather_cap(tile, wmin);   /* a tile's groups, and the words holding them */
	const gp_local_wah_gather l = gp_local_of_wah_gather(cap);
	tiles = (cl_uint)(((size_t)b->values + tile - 1) / tile);
	if (!(*bitmap = gp_cl_buffer(GP_B_BITMAP, (size_t)b->values * 4, err))) return GP_EDEVICE;
	k = gp_cl_kernel(GP_K_WAH_GATHER);
	cl_int st = gp_set_wah_gather(k, &(gp_args_wah_gather){
		.in = b->input, .bt = b->table, .ostart = b->vstart, .wstart = b->istart, .goff = goff,
		.n_blobs = b->n_blobs, .total = b->values, .tile_words = tile_words, .cap = cap,
		.bitmap = *bitmap, .win_bytes = l.win, .words_bytes = l.words, .gval_bytes = l.gval});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_run(k, (size_t)tiles * gp_cl_wg(), err);
}

int gp_cl_wah_rows(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	const uint8_t *const *blobs = in->blobs;
	const size_t *lens = in->lens;
	const size_t n_blobs = in->n_blobs;
	gp_cl_batch b;
	cl_mem bitmap;
	size_t est = 0, bound = 0;   /* rows expected: a small result comes back with its count */
	int rc = wah_gather_batch(&b, blobs, lens, n_blobs, &bitmap, &est, &bound, err);
	if (rc == GP_OK) {
		rc = bitmap_rows(bitmap, b.values, b.vstart, b.host_vstart, b.n_blobs, b.err,
		                 gp_cl_guess(est, bound, 8), r, err);
	}
	gp_cl_batch_free(&b);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}

int gp_cl_wah_decompress(const uint8_t *blob, size_t len, uint8_t *out, gp_error *err)
{
	gp_cl_batch b;
	cl_mem bitmap;
	gp_wah_header h;
	gp_wah_check_header(blob, len, &h, NULL);
	int rc = wah_gather_batch(&b, &blob, &len, 1, &bitmap, NULL, NULL, err);
	if (rc == GP_OK) rc = gp_cl_read_checked(b.err, bitmap, 0, (size_t)((h.nbits + 7) / 8), out, err);
	gp_cl_batch_free(&b);
	return rc;
}

int gp_cl_wah_query(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs, int op,
                    gp_result *r, gp_error *err)
{
	gp_cl_batch b;
	cl_mem goff, bitmap, none = NULL;
	cl_kernel k;
	cl_uint words;
	int rc = wah_prepare(&b, blobs, lens, n_blobs, &goff, 0, NULL, NULL, NULL, err);
	if (rc != GP_OK) goto done;
	rc = GP_EDEVICE;
	words = b.host_table[GP_BT_N]; /* all bitmaps have the same nbits (checked by the caller) */
	cl_uint range[2] = {0, words};
	if (!(bitmap = gp_cl_buffer(GP_B_BITMAP, (size_t)words * 4, err))) goto done;
	k = gp_cl_kernel(GP_K_WAH_QUERY);
	cl_int st = gp_set_wah_query(k, &(gp_args_wah_query){
		.in = b.input, .bt = b.table, .wstart = b.istart, .goff = goff, .n_blobs = b.n_blobs,
		.total = words, .op = (cl_uint)op, .bitmap = bitmap});
	if (st != CL_SUCCESS) {
		gp_cl_fail(err, st, "clSetKernelArg");
		goto done;
	}
	if (gp_cl_run(k, words, err) != GP_OK) goto done;
	rc = bitmap_rows(bitmap, words, none, range, 1, b.err, 0, r, err);
done:
	gp_cl_batch_free(&b);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}
