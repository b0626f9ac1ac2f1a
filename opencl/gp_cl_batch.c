#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "gp_cl_batch.h"
#include "../codec/gp_result.h"

int gp_cl_batch_init(gp_cl_batch *b, size_t n_blobs, gp_error *err)
{
	memset(b, 0, sizeof(*b));
	if (n_blobs >= 0x7FFFFFFFu / GP_BT_STRIDE) {
		return gp_cl_fail(err, CL_INVALID_VALUE, "batch of too many blobs for one launch");
	}
	b->n_blobs = (cl_uint)n_blobs;
	b->host_table = calloc(n_blobs * GP_BT_STRIDE + 1, sizeof(cl_uint));
	b->host_istart = calloc(n_blobs + 1, sizeof(cl_uint));
	b->host_vstart = calloc(n_blobs + 1, sizeof(cl_uint));
	if (!b->host_table || !b->host_istart || !b->host_vstart) {
		gp_cl_batch_free(b);
		return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	}
	return GP_OK;
}

/* The prefix arrays and offsets of a batch's table; lens NULL: the bases are the caller's
 * (blobs already on the device), else each blob's base moves past the blobs before it. */
static int batch_layout(gp_cl_batch *b, const size_t *lens, uint64_t *bytes_out, gp_error *err)
{
	uint64_t items = 0, values = 0, bytes = 0;
	for (cl_uint i = 0; i < b->n_blobs; i++) {
		cl_uint *t = b->host_table + GP_BT_STRIDE * i;
		b->host_istart[i] = (cl_uint)items;
		b->host_vstart[i] = (cl_uint)values;
		t[GP_BT_VALUES] = (cl_uint)values;
		if (lens) t[GP_BT_BASE] += (cl_uint)(bytes / 4); /* the caller set the header's size in words */
		items += t[GP_BT_ITEMS];
		values += t[GP_BT_N];
		bytes += lens ? lens[i] : 0;
		if (items >= 0xFFFFFFFFu || values >= 0xFFFFFFFFu || bytes / 4 >= 0xFFFFFFFFu) {
			return gp_cl_fail(err, CL_INVALID_BUFFER_SIZE, "batch too large for one launch");
		}
	}
	b->host_istart[b->n_blobs] = b->items = (cl_uint)items;
	b->host_vstart[b->n_blobs] = b->values = (cl_uint)values;
	*bytes_out = bytes;
	return GP_OK;
}

/* The table, the prefix arrays and the zeroed error word. */
static int batch_tables(gp_cl_batch *b, gp_error *err)
{
	const uint8_t *parts[3] = {(const uint8_t *)b->host_table, (const uint8_t *)b->host_istart,
	                           (const uint8_t *)b->host_vstart};
	size_t sizes[3] = {(size_t)b->n_blobs * GP_BT_STRIDE * 4, ((size_t)b->n_blobs + 1) * 4,
	                   ((size_t)b->n_blobs + 1) * 4};
	if (!(b->table = gp_cl_upload(GP_B_BLOB_TABLE, &parts[0], &sizes[0], 1, sizes[0], err)) ||
	    !(b->istart = gp_cl_upload(GP_B_BLOB_STARTS, &parts[1], &sizes[1], 1, sizes[1], err)) ||
	    !(b->vstart = gp_cl_upload(GP_B_BLOB_VALUE_STARTS, &parts[2], &sizes[2], 1, sizes[2], err)) ||
	    !(b->err = gp_cl_buffer(GP_B_ERR, 4, err))) {
		return GP_EDEVICE;
	}
	return gp_cl_fill_u32(b->err, GP_ERR_NONE, 4, err);
}

int gp_cl_batch_upload(gp_cl_batch *b, const uint8_t *const *blobs, const size_t *lens,
                       gp_error *err)
{
	uint64_t bytes;
	if (batch_layout(b, lens, &bytes, err) != GP_OK) return GP_EDEVICE;
	if (!(b->input = gp_cl_upload(GP_B_INPUT, blobs, lens, b->n_blobs, (size_t)bytes, err))) return GP_EDEVICE;
	return batch_tables(b, err);
}

int gp_cl_batch_upload_units(gp_cl_batch *b, const uint8_t *const *blobs, const size_t *lens, size_t header,
                             gp_error *err)
{
	static const uint8_t zeros[16];
	uint64_t at = 0, bytes;
	const uint8_t **parts = gp_alloc_array(2 * (size_t)b->n_blobs + 1, sizeof(*parts));
	size_t *sizes = gp_alloc_array(2 * (size_t)b->n_blobs + 1, sizeof(*sizes));
	int rc = GP_EDEVICE;
	if (!parts || !sizes) {
		gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
		goto done;
	}
	for (cl_uint i = 0; i < b->n_blobs; i++) {
		size_t pad = (size_t)((16 - (at + header) % 16) % 16);
		parts[2 * i] = zeros;
		sizes[2 * i] = pad;
		parts[2 * i + 1] = blobs[i];
		sizes[2 * i + 1] = lens[i];
		at += pad;
		b->host_table[GP_BT_STRIDE * i + GP_BT_BASE] = (cl_uint)((at + header) / 16);
		at += lens[i];
		if (at >= (uint64_t)0xFFFFFFFFu * 16) {
			gp_cl_fail(err, CL_INVALID_BUFFER_SIZE, "batch too large for one launch");
			goto done;
		}
	}
	parts[2 * b->n_blobs] = zeros;   /* the last unit whole */
	sizes[2 * b->n_blobs] = (size_t)((16 - at % 16) % 16);
	if (batch_layout(b, NULL, &bytes, err) == GP_OK &&
	    (b->input = gp_cl_upload(GP_B_INPUT, parts, sizes, 2 * (size_t)b->n_blobs + 1, (size_t)(at + sizes[2 * b->n_blobs]),
	                             err)) != NULL) {
		rc = batch_tables(b, err);
	}
done:
	free(parts);
	free(sizes);
	return rc;
}

int gp_cl_batch_on_device(gp_cl_batch *b, cl_mem input, gp_error *err)
{
	uint64_t bytes;
	if (batch_layout(b, NULL, &bytes, err) != GP_OK) return GP_EDEVICE;
	b->input = input;
	return batch_tables(b, err);
}

int gp_cl_batch_resident(const gp_cl_resident_lists *in, gp_cl_row_fn row, gp_cl_passes_fn passes,
                         cl_mem *out, gp_error *err)
{
	gp_cl_batch b;
	int rc = GP_EDEVICE;
	if (gp_cl_batch_init(&b, in->n, err) != GP_OK) return GP_EDEVICE;
	for (size_t i = 0; i < in->n; i++) {
		if (row(b.host_table + GP_BT_STRIDE * i, in->blobs[i], in->lens[i], in->word_at[i], err) != GP_OK) goto done;
	}
	if (gp_cl_batch_on_device(&b, in->input, err) == GP_OK && passes(&b, out, err) == GP_OK) rc = GP_OK;
done:
	gp_cl_batch_free(&b);
	return rc;
}

int gp_cl_blob_tiles(const cl_uint *item_start, cl_uint n_blobs, size_t per_item, size_t counters,
                     cl_uint max_bt, gp_buffer_id sums_id, gp_buffer_id blocks_id,
                     gp_cl_tile_sums *s, cl_mem *tile_start, gp_error *err)
{
	size_t tile = gp_cl_wg() * per_item, tiles = 0;
	cl_uint *start = gp_alloc_array((size_t)n_blobs + 1, sizeof(cl_uint));
	if (!start) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	for (cl_uint i = 0; i < n_blobs; i++) {
		start[i] = (cl_uint)tiles;
		tiles += (item_start[i + 1] - item_start[i] + tile - 1) / tile;
	}
	start[n_blobs] = (cl_uint)tiles;
	const uint8_t *bytes = (const uint8_t *)start;
	size_t len = ((size_t)n_blobs + 1) * sizeof(cl_uint);
	int rc = (*tile_start = gp_cl_upload(GP_B_TILE_STARTS, &bytes, &len, 1, len, err)) != NULL &&
	         gp_cl_tile_sums_init(s, tiles * tile, per_item, counters, max_bt, sums_id, blocks_id, err) == GP_OK
	         ? GP_OK : GP_EDEVICE;
	free(start);
	return rc;
}

/* The error word's read is enqueued without waiting, ahead of a blocking command that then
 * brings it back with the results (the in-order queue runs them in turn): one round trip. The
 * queue is drained before `word` goes out of scope whatever happens. */
static cl_int gp_cl_err_read(cl_mem errbuf, cl_uint *word)
{
	cl_int st = clEnqueueReadBuffer(gp_cl_queue(), errbuf, CL_FALSE, 0, 4, word, 0, NULL, NULL);
	GP_TRACE("error word read enqueued");
	return st;
}

/* The word is read through its pointer after the wait, not before. */
static int gp_cl_err_verdict(int rc, const cl_uint *word, int waited, gp_error *err)
{
	if (!waited || rc != GP_OK) {
		cl_int st = clFinish(gp_cl_queue());
		GP_TRACE("clFinish");
		if (rc == GP_OK && st != CL_SUCCESS) rc = gp_cl_fail(err, st, "clFinish");
	}
	return rc == GP_OK && *word != GP_ERR_NONE ? GP_EFORMAT : rc;
}

int gp_cl_read_checked(cl_mem errbuf, cl_mem mem, size_t offset, size_t bytes, void *dst, gp_error *err)
{
	void *none;
	return gp_cl_read_guessed(errbuf, mem, offset, bytes, dst, NULL, 0, &none, err);
}

/* gp_cl_result_values with the error word read along. */
static int gp_cl_values_checked(cl_mem errbuf, gp_result *r, cl_mem values, size_t n,
                                int value_bits, gp_error *err)
{
	cl_uint word = 0;
	cl_int st = gp_cl_err_read(errbuf, &word);
	int rc = st == CL_SUCCESS ? gp_cl_result_values(r, values, n, value_bits, err)
	                          : gp_cl_fail(err, st, "clEnqueueReadBuffer");
	return gp_cl_err_verdict(rc, &word, n > 0, err);
}

int gp_cl_read_guessed(cl_mem errbuf, cl_mem sizes, size_t offset, size_t bytes, void *dst,
                       cl_mem values, size_t guess, void **mapped, gp_error *err)
{
	cl_uint word = 0;
	*mapped = NULL;
	cl_int st = gp_cl_err_read(errbuf, &word);
	int rc = st == CL_SUCCESS ? GP_OK : gp_cl_fail(err, st, "clEnqueueReadBuffer");
	if (rc == GP_OK && guess == 0) {   /* the sizes' read is the blocking one */
		rc = gp_cl_read_at(sizes, offset, bytes, dst, err);
		return gp_cl_err_verdict(rc, &word, bytes > 0, err);
	}
	if (rc == GP_OK && (st = clEnqueueReadBuffer(gp_cl_queue(), sizes, CL_FALSE, offset, bytes, dst, 0, NULL, NULL)) != CL_SUCCESS) {
		rc = gp_cl_fail(err, st, "clEnqueueReadBuffer");
	}
	GP_TRACE("sizes read enqueued");
	if (rc == GP_OK && !(*mapped = gp_cl_download_mapped(values, guess, err))) rc = GP_EDEVICE;
	rc = gp_cl_err_verdict(rc, &word, *mapped != NULL, err);
	if (rc != GP_OK && *mapped) {
		gp_cl_unmap(*mapped);
		*mapped = NULL;
	}
	return rc;
}

size_t gp_cl_guess(size_t estimate, size_t bound, size_t elem_bytes)
{
	size_t g = estimate + estimate / 8 + 1024;
	if (g > bound) g = bound;
	return g <= GP_CL_GUESS_BYTES / elem_bytes ? g : 0;
}

/* r's values become the n at mapped (lent: handed back by gp_result_free). */
static void gp_cl_result_lend(gp_result *r, void *mapped, size_t n, int value_bits)
{
	r->n_values = n;
	gp_array_set(&r->values, n > 0 ? mapped : NULL, (unsigned)value_bits / 8, GP_OWN_LENT);
	if (n > 0) gp_result_lend(r, mapped, gp_cl_unmap);
	r->backend = "opencl";
}

int gp_cl_result_values(gp_result *r, cl_mem values, size_t n, int value_bits, gp_error *err)
{
	void *dst = NULL;
	if (n > 0 && !(dst = gp_cl_download_mapped(values, n * (value_bits == 64 ? 8 : 4), err))) return GP_EDEVICE;
	gp_cl_result_lend(r, dst, n, value_bits);
	return GP_OK;
}

int gp_cl_result_guessed(gp_result *r, cl_mem values, size_t n, int value_bits, void *mapped,
                         size_t guess, gp_error *err)
{
	if (n * (value_bits == 64 ? 8 : 4) > guess) return gp_cl_result_values(r, values, n, value_bits, err);
	gp_cl_result_lend(r, n > 0 ? mapped : NULL, n, value_bits);
	if (n == 0 && mapped) gp_cl_unmap(mapped);
	return GP_OK;
}

int gp_cl_batch_download(const gp_cl_batch *b, cl_mem values, int value_bits, gp_result *r,
                         gp_error *err)
{
	if (gp_cl_batch_result_offsets(b, r, err) != GP_OK) return GP_EDEVICE;
	return gp_cl_values_checked(b->err, r, values, b->values, value_bits, err);
}

int gp_cl_batch_result_offsets(const gp_cl_batch *b, gp_result *r, gp_error *err)
{
	r->n_blobs = b->n_blobs;
	r->n_values = b->values;
	r->blob_values = gp_alloc_array((size_t)b->n_blobs + 1, sizeof(size_t));
	r->blob_postings = gp_alloc_array((size_t)b->n_blobs + 1, sizeof(size_t));
	if (!r->blob_values || !r->blob_postings) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	for (cl_uint i = 0; i <= b->n_blobs; i++) {
		r->blob_values[i] = b->host_vstart[i];
		r->blob_postings[i] = 0;
	}
	return GP_OK;
}

void gp_cl_batch_free(gp_cl_batch *b)
{
	free(b->host_table);
	free(b->host_istart);
	free(b->host_vstart);
	b->host_table = b->host_istart = b->host_vstart = NULL;
}

/* The shape of the sums for `items` items: tiles, blocks of about sqrt(tiles) tiles (a decode
 * group then reads at most 2 sqrt(tiles) sums); the bytes of the tile sums and block sums. */
static void tile_sums_shape(gp_cl_tile_sums *s, size_t items, size_t per_item, size_t counters, cl_uint max_bt,
                            size_t wg, size_t *sum_bytes, size_t *block_bytes)
{
	s->wg = wg;
	s->tile = s->wg * per_item;
	s->tiles = (items + s->tile - 1) / s->tile;
	for (s->bt = 1; s->bt < max_bt && (size_t)s->bt * s->bt < s->tiles; s->bt++) continue;
	s->blocks = (cl_uint)((s->tiles + s->bt - 1) / s->bt);
	*sum_bytes = counters * (s->tiles + 1) * 4;
	*block_bytes = counters * ((size_t)s->blocks + 1) * 4;   /* never 0 bytes */
}

int gp_cl_tile_sums_init(gp_cl_tile_sums *s, size_t items, size_t per_item, size_t counters,
                         cl_uint max_bt, gp_buffer_id sums_id, gp_buffer_id blocks_id, gp_error *err)
{
	size_t sum_bytes, block_bytes;
	tile_sums_shape(s, items, per_item, counters, max_bt, gp_cl_wg(), &sum_bytes, &block_bytes);
	if (!(s->sums = gp_cl_buffer(sums_id, sum_bytes, err)) ||
	    !(s->block_sums = gp_cl_buffer(blocks_id, block_bytes, err))) {
		return GP_EDEVICE;
	}
	return gp_cl_fill_u32(s->block_sums, 0, block_bytes, err);
}

int gp_cl_tiled_on_device(gp_cl_tiled *t, cl_mem input, size_t words, size_t per_item, size_t counters,
                          gp_error *err)
{
	t->input = input;
	/* at most 256 tiles a block, so that S9's 32-bit block sums cannot overflow */
	if (gp_cl_tile_sums_init(&t->s, words, per_item, counters, 256, GP_B_TILE_SUMS, GP_B_BLOCK_SUMS, err) != GP_OK ||
	    !(t->err = gp_cl_buffer(GP_B_ERR, 4, err))) {
		return GP_EDEVICE;
	}
	return gp_cl_fill_u32(t->err, GP_ERR_NONE, 4, err);
}

int gp_cl_tiled_fits_one(size_t words, size_t per_item)
{
	return words <= gp_cl_call_wg(words, per_item) * per_item;
}

void gp_cl_tiled_plan(gp_cl_tiled *t, size_t in_bytes, size_t words, size_t per_item, size_t counters)
{
	size_t sum_bytes, block_bytes;
	memset(t, 0, sizeof(*t));
	/* at most 256 tiles a block, so that S9's 32-bit block sums cannot overflow */
	tile_sums_shape(&t->s, words, per_item, counters, 256, gp_cl_call_wg(words, per_item), &sum_bytes, &block_bytes);
	gp_cl_call_init(&t->call);
	t->r_in = gp_cl_call_add(&t->call, GP_IO_IN, in_bytes);
	const int alone = t->s.tiles == 1;
	t->r_err = alone ? -1 : gp_cl_call_add(&t->call, GP_IO_CTRL, 4);
	t->r_sums = gp_cl_call_add(&t->call, alone ? GP_IO_RESULT : GP_IO_OUT, sum_bytes);   /* a decode's sizes after them */
	/* zeroed for the count pass's sums */
	t->r_blocks = gp_cl_call_add(&t->call, alone ? GP_IO_DEVICE : GP_IO_IN, block_bytes);
	t->r_out = -1;
}

int gp_cl_tiled_output(gp_cl_tiled *t, size_t bytes)
{
	if (t->s.tiles != 1) {
		t->out_at = 0;
		return t->r_out = gp_cl_call_add(&t->call, GP_IO_OUT, bytes);
	}
	gp_cl_region *r = &t->call.r[t->r_sums];
	t->out_at = (r->bytes + 15) & ~(size_t)15;
	r->io = GP_IO_OUT;   /* read as far as the host expects, the sums with it */
	r->bytes = t->out_at + bytes;
	return t->r_out = t->r_sums;
}

int gp_cl_tiled_send(gp_cl_tiled *t, const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                     size_t lead, void (*fill)(gp_cl_call *c, void *arg), void *arg, gp_error *err)
{
	gp_cl_call *c = &t->call;
	if (gp_cl_call_open(c, err) != GP_OK) return GP_EDEVICE;
	for (unsigned i = 0; i < c->n; i++) {
		if (c->r[i].io == GP_IO_CTRL) memset(c->r[i].host, 0, c->r[i].bytes);
	}
	memset(c->r[t->r_blocks].host, 0, c->r[t->r_blocks].bytes);
	if (t->r_err >= 0) *(cl_uint *)c->r[t->r_err].host = GP_ERR_NONE;
	if (fill) fill(c, arg);
	t->input = c->r[t->r_in].mem;
	t->err = c->r[t->r_err >= 0 ? t->r_err : t->r_sums].mem;
	t->s.sums = c->r[t->r_sums].mem;
	t->s.block_sums = c->r[t->r_blocks].mem;
	return gp_cl_call_send(c, blobs, lens, n_blobs, lead, err);
}

int gp_cl_tiled_receive(gp_cl_tiled *t, const int *regions, const size_t *bytes, size_t n, gp_error *err)
{
	size_t len[GP_CL_CALL_REGIONS];
	for (size_t i = 0; i < n && i < GP_CL_CALL_REGIONS; i++) len[i] = bytes[i] + (regions[i] == t->r_out ? t->out_at : 0);
	if (gp_cl_call_receive(&t->call, regions, len, n, err) != GP_OK) return GP_EDEVICE;
	return gp_cl_call_u32(&t->call, t->r_err >= 0 ? t->r_err : t->r_sums, 0) == GP_ERR_NONE ? GP_OK : GP_EFORMAT;
}

int gp_cl_tiled_receive_more(gp_cl_tiled *t, size_t bytes, gp_error *err)
{
	size_t len = t->out_at + bytes;
	return gp_cl_call_receive_more(&t->call, &t->r_out, &len, 1, err);
}

uint8_t *gp_cl_tiled_out_host(const gp_cl_tiled *t)
{
	return t->call.r[t->r_out].host + t->out_at;
}

void gp_cl_call_lend(gp_result *r, void *values, size_t n, int value_bits)
{
	r->n_values = n;
	gp_array_set(&r->values, n > 0 ? values : NULL, (unsigned)value_bits / 8, GP_OWN_LENT);
	if (n > 0) gp_result_lend(r, values, gp_cl_call_return);
	r->backend = "opencl";
}

int gp_cl_tiled_run(const gp_cl_tile_sums *s, cl_kernel k, gp_error *err)
{
	return gp_cl_run_groups(k, s->tiles * s->wg, s->wg, err);
}

int gp_cl_tiled_count(const gp_cl_tile_sums *s, cl_kernel k, gp_error *err)
{
	return s->tiles == 1 ? GP_OK : gp_cl_tiled_run(s, k, err);
}

int gp_cl_tiled_finish(gp_cl_tiled *t, int out, size_t n, int value_bits, gp_result *r, gp_error *err)
{
	r->n_blobs = 1;
	r->blob_values = gp_alloc_array(2, sizeof(size_t));
	r->blob_postings = gp_alloc_array(2, sizeof(size_t));
	if (!r->blob_values || !r->blob_postings) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	r->blob_values[0] = 0;
	r->blob_values[1] = n;
	r->blob_postings[0] = r->blob_postings[1] = 0;
	size_t bytes = n * ((size_t)value_bits / 8);
	int rc = gp_cl_tiled_receive(t, &out, &bytes, 1, err);
	if (rc == GP_OK) gp_cl_call_lend(r, gp_cl_tiled_out_host(t), n, value_bits);
	return rc;
}
