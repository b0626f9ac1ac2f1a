/* What the container formats (S9, QS) share on the device: blobs uploaded back to back, a
 * per-blob parameter table (GP_BT_* in kernels/gp_shared.h), and prefix arrays that map a work-item
 * or a value to its blob. Launch sizes and value offsets come from the headers, known on the
 * host before anything runs. */
#ifndef GP_CL_BATCH_H
#define GP_CL_BATCH_H

#include "gp_cl_call.h"
#include "gp_cl_internal.h"
#include "gp_cl_resident.h"


typedef struct gp_cl_batch {
	cl_mem input, table, istart, vstart, err;
	cl_uint n_blobs, items, values;
	cl_uint *host_table, *host_istart, *host_vstart;
} gp_cl_batch;

/* Allocates the host tables for n_blobs (zeroed); the caller fills host_table rows, then calls
 * gp_cl_batch_upload, which derives the prefix arrays from GP_BT_ITEMS and GP_BT_N. */
int gp_cl_batch_init(gp_cl_batch *b, size_t n_blobs, gp_error *err);
int gp_cl_batch_upload(gp_cl_batch *b, const uint8_t *const *blobs, const size_t *lens,
                       gp_error *err);
/* The same for the byte formats: each blob placed so that its payload (after `header` bytes)
 * begins a 16-byte unit, and its row's GP_BT_BASE set to that unit. */
int gp_cl_batch_upload_units(gp_cl_batch *b, const uint8_t *const *blobs, const size_t *lens, size_t header,
                             gp_error *err);
/* The same for blobs already on the device in `input` (an index's resident lists): the caller
 * set each row's GP_BT_BASE to its payload's first word there. */
int gp_cl_batch_on_device(gp_cl_batch *b, cl_mem input, gp_error *err);
/* A format's row of the table (blob at word `base` of the input) and its passes over a batch
 * whose input and tables are on the device (the output into *out). */
typedef int (*gp_cl_row_fn)(cl_uint *t, const uint8_t *blob, size_t len, cl_uint base, gp_error *err);
typedef int (*gp_cl_passes_fn)(const gp_cl_batch *b, cl_mem *out, gp_error *err);
/* Resident lists (gp_cl_resident.h) decoded by a format's row and passes. */
int gp_cl_batch_resident(const gp_cl_resident_lists *in, gp_cl_row_fn row, gp_cl_passes_fn passes,
                         cl_mem *out, gp_error *err);
/* After the launches: the error word errbuf and `bytes` of mem at offset (the sizes a decode
 * found) into dst, in one round trip; GP_EFORMAT when a kernel flagged the input (dst then means
 * nothing). */
int gp_cl_read_checked(cl_mem errbuf, cl_mem mem, size_t offset, size_t bytes, void *dst,
                       gp_error *err);
void gp_cl_batch_free(gp_cl_batch *b);
/* The values of a result, n of them in `values`, downloaded through the mapped staging memory
 * and lent to r (handed back by gp_result_free). */
int gp_cl_result_values(struct gp_result *r, cl_mem values, size_t n, int value_bits,
                        gp_error *err);
/* For decodes whose sizes are found on the device (MOD9, WAH rows): the error word and `bytes`
 * of sizes (at `offset` of `sizes`) into dst, and the first `guess` bytes of `values` downloaded
 * as gp_cl_download_mapped does (*mapped; NULL when guess is 0), in one round trip. The guess is
 * what the host expects the decode to have written; GP_EFORMAT when a kernel flagged the input
 * (nothing then stays mapped). */
int gp_cl_read_guessed(cl_mem errbuf, cl_mem sizes, size_t offset, size_t bytes, void *dst,
                       cl_mem values, size_t guess, void **mapped, gp_error *err);
/* The outputs (of elem_bytes each) to bring back with the sizes, from the host's estimate: an
 * eighth and 1024 more, at most `bound`, and 0 (the sizes first, then exactly the result: two
 * round trips) when that is over GP_CL_GUESS_BYTES. Above that size a round trip (tens of
 * microseconds) costs less than reading an eighth too much, or everything again on a miss. */
#define GP_CL_GUESS_BYTES ((size_t)1 << 20)
size_t gp_cl_guess(size_t estimate, size_t bound, size_t elem_bytes);
/* Then the n values of the result: lent from *mapped when the guess covered them, else
 * downloaded again (a second round trip). */
int gp_cl_result_guessed(struct gp_result *r, cl_mem values, size_t n, int value_bits,
                         void *mapped, size_t guess, gp_error *err);
/* After the launches: the values (value_bits 32 or 64, b->values of them) downloaded into r
 * with the per-blob offsets, the error word read along (GP_EFORMAT when flagged). */
int gp_cl_batch_download(const gp_cl_batch *b, cl_mem values, int value_bits,
                         struct gp_result *r, gp_error *err);
/* Fills the per-blob value offsets of a result from the batch. */
int gp_cl_batch_result_offsets(const gp_cl_batch *b, struct gp_result *r, gp_error *err);

/* The sums of a tiled pair of passes (gp_tile_total_put and gp_tile_offset_* in
 * kernels/scan.cl): one tile of wg * per_item items per work-group of gp_cl_wg() items; a count
 * pass fills `counters` arrays of tiles + 1 per-tile sums and of `blocks` block sums (bt tiles a
 * block, about sqrt(tiles) and at most max_bt), from which each group of the next pass finds
 * its tile's offset. */
typedef struct gp_cl_tile_sums {
	cl_mem sums, block_sums;
	size_t wg, tile, tiles;
	cl_uint bt, blocks;
} gp_cl_tile_sums;

/* Sizes the sums for `items` items into buffers sums_id and blocks_id, the block sums zeroed. */
int gp_cl_tile_sums_init(gp_cl_tile_sums *s, size_t items, size_t per_item, size_t counters,
                         cl_uint max_bt, gp_buffer_id sums_id, gp_buffer_id blocks_id, gp_error *err);

/* Blobs decoded by tiles, each with tiles of its own: blob i covers items item_start[i] ..
 * item_start[i+1], wg * per_item items a tile. tile_start (n_blobs + 1 uints, uploaded) gets
 * each blob's first tile, s the sums sized for them all (as gp_cl_tile_sums_init). */
int gp_cl_blob_tiles(const cl_uint *item_start, cl_uint n_blobs, size_t per_item, size_t counters,
                     cl_uint max_bt, gp_buffer_id sums_id, gp_buffer_id blocks_id,
                     gp_cl_tile_sums *s, cl_mem *tile_start, gp_error *err);
/* One blob (or MOD9's batch) decoded by tiles (the *_tile_count / *_tile_decode kernels): the
 * blob on the device whole, a tile of wg * per_item words. A decode call's (gp_cl_tiled_plan)
 * has its blob, error word and sums as regions of the call (gp_cl_call.h). One tile goes
 * without the count pass (gp_cl_tiled_count); its decode pass starts the error word itself, and
 * that word is then the tile sums' word 0 (the pass writes only word 1 there, its total): one
 * read brings back both. */
typedef struct gp_cl_tiled {
	cl_mem input, err;
	gp_cl_tile_sums s;
	gp_cl_call call;
	int r_in, r_err, r_sums, r_blocks;
	int r_out;          /* the output's region (gp_cl_tiled_output), -1 before */
	size_t out_at;      /* the output's first byte in it: after the sums when one tile runs alone */
} gp_cl_tiled;

/* A decode call's regions for `in_bytes` of blobs (region 0) and the sums of `words` words: the
 * caller then adds its own (tables, outputs) and calls gp_cl_tiled_send. */
void gp_cl_tiled_plan(gp_cl_tiled *t, size_t in_bytes, size_t words, size_t per_item, size_t counters);
/* Whether the plan of `words` at per_item an item is one tile (its decode pass then runs alone). */
int gp_cl_tiled_fits_one(size_t words, size_t per_item);
/* The call's output region of `bytes` (after the plan, before the send): one tile alone writes
 * its output after its error word and sums in their region (out_at bytes in, 16-byte aligned),
 * so that one read brings back both; several tiles, a region of its own (out_at 0). A decode
 * pass writes the output from element out_at / element size of that region's buffer. */
int gp_cl_tiled_output(gp_cl_tiled *t, size_t bytes);
/* Opens the call, zeroes the control words and block sums but the error word (set to
 * GP_ERR_NONE), and sends the blobs back to
 * back after `lead` zero bytes (< 16: one blob's payload then starts 16-byte aligned, read as
 * uint4s) with the tables the caller set between `fill` (called after the open, may be NULL)
 * and the send. */
int gp_cl_tiled_send(gp_cl_tiled *t, const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                     size_t lead, void (*fill)(gp_cl_call *c, void *arg), void *arg, gp_error *err);
/* The tile sums of words already on the device in `input` (an index's lists), in buffer slots,
 * the block sums zeroed there. */
int gp_cl_tiled_on_device(gp_cl_tiled *t, cl_mem input, size_t words, size_t per_item, size_t counters,
                          gp_error *err);
/* The call's one wait (gp_cl_call_receive), then its error word: GP_EFORMAT when a kernel
 * flagged the input. The output region's bytes count from the output's first (out_at): a tile
 * alone's sums come back with its output, which every call reads. */
int gp_cl_tiled_receive(gp_cl_tiled *t, const int *regions, const size_t *bytes, size_t n, gp_error *err);
/* A second read of the output's first `bytes` (gp_cl_call_receive_more); its host copy after
 * either read: gp_cl_tiled_out_host. */
int gp_cl_tiled_receive_more(gp_cl_tiled *t, size_t bytes, gp_error *err);
uint8_t *gp_cl_tiled_out_host(const gp_cl_tiled *t);
/* Launches kernel k (its arguments set) over the tiles of s: a group of s->wg items a tile. */
int gp_cl_tiled_run(const gp_cl_tile_sums *s, cl_kernel k, gp_error *err);
/* The same for a count pass, which one tile does without: a decode pass launched alone finds
 * its offset 0 and checks the input itself (kernels/mod9.cl, s9.cl, qs.cl), so that a small
 * call is one launch. */
int gp_cl_tiled_count(const gp_cl_tile_sums *s, cl_kernel k, gp_error *err);
/* After the decode kernel of a call: the n values of the blob (in output region out) lent to r,
 * the error word read along (GP_EFORMAT when flagged). */
int gp_cl_tiled_finish(gp_cl_tiled *t, int out, size_t n, int value_bits, struct gp_result *r,
                       gp_error *err);
/* r's values: n of value_bits at `values` in the call's mirror (lent until the next call). */
void gp_cl_call_lend(struct gp_result *r, void *values, size_t n, int value_bits);

#endif
