/* Launcher for kernels/mod9.cl: one blob or a batch of MOD9 blobs in one upload, one sequence of
 * launches and one download. Launch sizes come from the word count (a bound), never from a
 * result read back in the middle: kernels read the true totals from the scanned offsets. */
#include <stdlib.h>
#include <string.h>

#include "gp_cl_batch.h"
#include "../codec/gp_mod9.h"
#include "../codec/gp_batch.h"
#include "../codec/gp_result.h"

#define GP_MOD9_MAX_PER_WORD 24

/* A batch's blob table uploaded and its blobs' first words marked in first[] (nw + 1 bytes,
 * zero-filled first). */
static int mod9_mark_firsts(const cl_uint *blob_words, size_t n_blobs, cl_uint nw, cl_mem *blobs_mem,
                            cl_mem *first, gp_error *err)
{
	const uint8_t *bw = (const uint8_t *)blob_words;
	size_t bwlen = (n_blobs + 1) * sizeof(*blob_words);
	cl_uint nb = (cl_uint)n_blobs;
	cl_uchar zero = 0;
	if (!(*blobs_mem = gp_cl_upload(GP_B_BLOB_STARTS, &bw, &bwlen, 1, bwlen, err)) ||
	    !(*first = gp_cl_buffer(GP_B_FIRST_WORDS, (size_t)nw + 1, err))) {
		return GP_EDEVICE;
	}
	cl_int st = clEnqueueFillBuffer(gp_cl_queue(), *first, &zero, 1, 0, (size_t)nw + 1, 0, NULL, NULL);
	GP_TRACE("fill enqueued");
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clEnqueueFillBuffer");
	cl_kernel k = gp_cl_kernel(GP_K_MARK_BLOB_STARTS);
	st = gp_set_mark_blob_starts(k, &(gp_args_mark_blob_starts){
		.blob_words = *blobs_mem, .n_blobs = nb, .first = *first});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_run(k, n_blobs, err);
}

/* What every tiled MOD9 pass reads: the words (t), their count, and a batch's first-word marks
 * and the offsets its decode passes leave at each blob's first word. */
typedef struct mod9_pass {
	const gp_cl_tiled *t;
	cl_uint nw, out_at;   /* out_at: the decode pass's first output element */
	int batch;
	cl_mem first, word_off, pword_off, blobs_mem;
} mod9_pass;

/* The DOCS kernels take the VALUES kernels' parameters, so one setter serves both (a test build
 * checks that their lists are the same: gp_cl_program.c). */

/* The count pass of VALUES or DOCS: each tile's values (or postings). */
static int mod9_count(const mod9_pass *p, int docs, gp_error *err)
{
	const gp_cl_tiled *t = p->t;
	const size_t part = t->s.wg * 4, lay = (size_t)GP_MOD9_LAYOUTS * 8;   /* group counts; selector layouts */
	cl_kernel k = gp_cl_kernel(p->batch ? (docs ? GP_K_MOD9_TILE_COUNT_DOCS_BATCH : GP_K_MOD9_TILE_COUNT_BATCH)
	                                    : (docs ? GP_K_MOD9_TILE_COUNT_DOCS : GP_K_MOD9_TILE_COUNT));
	cl_int st = p->batch
		? gp_set_mod9_tile_count_batch(k, &(gp_args_mod9_tile_count_batch){
			.words = t->input, .n = p->nw, .first = p->first, .bt = t->s.bt, .tile_sums = t->s.sums,
			.block_sums = t->s.block_sums, .err = t->err, .part_bytes = part, .lay_bytes = lay})
		: gp_set_mod9_tile_count(k, &(gp_args_mod9_tile_count){
			.words = t->input, .n = p->nw, .bt = t->s.bt, .tile_sums = t->s.sums,
			.block_sums = t->s.block_sums, .err = t->err, .part_bytes = part, .lay_bytes = lay});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_tiled_count(&t->s, k, err);
}

/* The decode pass of VALUES or DOCS into out. */
static int mod9_decode(const mod9_pass *p, int docs, cl_mem out, gp_error *err)
{
	const gp_cl_tiled *t = p->t;
	const gp_local_mod9_decode l = gp_local_of_mod9_decode(t->s.wg, t->s.tile, gp_cl_stage_items(4));
	cl_kernel k = gp_cl_kernel(p->batch ? (docs ? GP_K_MOD9_TILE_DOCS_BATCH : GP_K_MOD9_TILE_DECODE_BATCH)
	                                    : (docs ? GP_K_MOD9_TILE_DOCS : GP_K_MOD9_TILE_DECODE));
	cl_int st = p->batch
		? gp_set_mod9_tile_decode_batch(k, &(gp_args_mod9_tile_decode_batch){
			.words = t->input, .n = p->nw, .first = p->first, .word_off = p->word_off, .bt = t->s.bt,
			.tile_sums = t->s.sums, .block_sums = t->s.block_sums, .out = out, .out_at = p->out_at,
			.err = t->err, .offs_bytes = l.offs, .part_bytes = l.part, .stage_bytes = l.stage, .lay_bytes = l.lay})
		: gp_set_mod9_tile_decode(k, &(gp_args_mod9_tile_decode){
			.words = t->input, .n = p->nw, .bt = t->s.bt, .tile_sums = t->s.sums,
			.block_sums = t->s.block_sums, .out = out, .out_at = p->out_at, .err = t->err, .offs_bytes = l.offs,
			.part_bytes = l.part, .stage_bytes = l.stage, .lay_bytes = l.lay});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_tiled_run(&t->s, k, err);
}

/* A batch's per-blob offsets: blob b's values and postings begin at voff / poff[blob_words[b]]. */
static int mod9_blob_offsets(cl_mem blobs_mem, size_t n_blobs, cl_mem voff, cl_mem poff, cl_mem out,
                             gp_error *err)
{
	cl_kernel k = gp_cl_kernel(GP_K_MOD9_BLOB_OFFSETS);
	cl_int st = gp_set_mod9_blob_offsets(k, &(gp_args_mod9_blob_offsets){
		.blob_words = blobs_mem, .n_blobs = (cl_uint)n_blobs, .voff = voff, .poff = poff, .out = out});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_run(k, n_blobs + 1, err);
}

/* The per-blob offsets of a result from meta: 2 entries a blob (where its values and its
 * postings begin) and the totals after them. */
static int mod9_result_offsets(gp_result *r, const cl_uint *meta, size_t n_blobs, int postings,
                               gp_error *err)
{
	r->n_blobs = n_blobs;
	r->blob_values = gp_alloc_array(n_blobs + 1, sizeof(size_t));
	r->blob_postings = gp_alloc_array(n_blobs + 1, sizeof(size_t));
	if (!r->blob_values || !r->blob_postings) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	for (size_t b = 0; b <= n_blobs; b++) {
		r->blob_values[b] = meta[2 * b];
		r->blob_postings[b] = postings ? meta[2 * b + 1] : 0;
	}
	return GP_OK;
}

/* A batch's tables in its call, made on the host: the marks of the blobs' first words (first[],
 * nw + 1 bytes) and where each blob's words begin (for mod9_blob_offsets). */
typedef struct mod9_tables {
	const cl_uint *blob_words;
	size_t n_blobs;
	int r_first, r_words;
} mod9_tables;

static void mod9_tables_add(mod9_tables *m, gp_cl_call *c, const cl_uint *blob_words, size_t n_blobs)
{
	m->blob_words = blob_words;
	m->n_blobs = n_blobs;
	m->r_first = gp_cl_call_add(c, GP_IO_IN, (size_t)blob_words[n_blobs] + 1);
	m->r_words = gp_cl_call_add(c, GP_IO_IN, (n_blobs + 1) * sizeof(cl_uint));
}

static void mod9_tables_fill(gp_cl_call *c, void *arg)
{
	const mod9_tables *m = arg;
	uint8_t *first = c->r[m->r_first].host;
	memset(first, 0, (size_t)m->blob_words[m->n_blobs] + 1);
	for (size_t b = 0; b < m->n_blobs; b++) first[m->blob_words[b]] = 1;
	memcpy(c->r[m->r_words].host, m->blob_words, (m->n_blobs + 1) * sizeof(cl_uint));
}

/* One blob or a batch in VALUES or DOCS mode, tiled: a count pass, then a decode pass that writes
 * the values or the docs (kernels/mod9.cl). Docs come back as 32-bit values (a doc is below
 * 2^28), lent like values and handed over as r->docs. A batch's blobs are one run of words with
 * their first words marked; the decode pass leaves each blob's first offset at its first word,
 * gathered by mod9_blob_offsets. The sizes come back with the error word and as many outputs as
 * the host expects (gp_cl_guess), in the call's one read. */
static int mod9_tiled(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                      const cl_uint *blob_words, const gp_mod9_counts *est, int mode, gp_result *r,
                      gp_error *err)
{
	const int docs = mode == GP_MODE_DOCS, batch = n_blobs > 1;
	const size_t per_word = docs ? 1 : GP_MOD9_MAX_PER_WORD;
	const cl_uint nw = blob_words[n_blobs];
	cl_uint one[4];
	cl_mem word_off = NULL;
	gp_cl_tiled t;
	mod9_tables m = {0};
	int r_meta = -1;
	gp_cl_tiled_plan(&t, (size_t)nw * 4, nw, gp_cl_tile_items(), 1);
	if (batch) {
		mod9_tables_add(&m, &t.call, blob_words, n_blobs);
		r_meta = gp_cl_call_add(&t.call, GP_IO_OUT, 2 * (n_blobs + 1) * sizeof(cl_uint));
	}
	const int out = gp_cl_tiled_output(&t, (size_t)nw * per_word * 4);
	if (gp_cl_tiled_send(&t, blobs, lens, n_blobs, 0, batch ? mod9_tables_fill : NULL, &m, err) != GP_OK ||
	    (batch && !(word_off = gp_cl_buffer(GP_B_WORD_VALUE_OFFSETS, ((size_t)nw + 1) * 4, err)))) {
		return GP_EDEVICE;
	}
	const gp_cl_region *reg = t.call.r;
	mod9_pass p = {.t = &t, .nw = nw, .out_at = (cl_uint)(t.out_at / 4), .batch = batch,
	               .first = batch ? reg[m.r_first].mem : NULL, .word_off = word_off};
	if (mod9_count(&p, docs, err) != GP_OK || mod9_decode(&p, docs, reg[out].mem, err) != GP_OK ||
	    (batch && mod9_blob_offsets(reg[m.r_words].mem, n_blobs, word_off, word_off, reg[r_meta].mem, err) != GP_OK)) {
		return GP_EDEVICE;
	}
	size_t guess = gp_cl_guess(docs ? est->postings : est->values, (size_t)nw * per_word, 4) * 4;
	/* the sizes (a tile alone: in the output's region), then the output */
	const int sizes = batch ? r_meta : t.r_sums, back[2] = {sizes, out};
	const size_t back_bytes[2] = {batch ? 2 * (n_blobs + 1) * sizeof(cl_uint) : (t.s.tiles + 1) * 4, guess};
	int rc = sizes == out ? gp_cl_tiled_receive(&t, &out, &guess, 1, err) : gp_cl_tiled_receive(&t, back, back_bytes, 2, err);
	if (rc != GP_OK) return rc;
	/* a batch's offsets from mod9_blob_offsets; one blob's total after its tile sums, as a
	 * batch's: blob 0 from 0, then the totals */
	const cl_uint *meta = batch ? (const cl_uint *)reg[r_meta].host : one;
	one[0] = one[1] = 0;
	one[2] = one[3] = gp_cl_call_u32(&t.call, t.r_sums, t.s.tiles);
	size_t total = meta[2 * n_blobs], bytes = total * 4;
	if (gp_check_result(r, total, 0, err) != GP_OK) return GP_ENOMEM;
	if ((rc = mod9_result_offsets(r, meta, n_blobs, docs, err)) != GP_OK) return rc;
	if (bytes > guess && gp_cl_tiled_receive_more(&t, bytes, err) != GP_OK) return GP_EDEVICE;
	gp_cl_call_lend(r, gp_cl_tiled_out_host(&t), total, 32);
	r->n_postings = docs ? total : 0;
	if (docs) {   /* the docs came back as the values, 32-bit (a doc is below 2^28) */
		r->docs = r->values;
		memset(&r->values, 0, sizeof(r->values));
		r->n_values = 0;
	}
	return GP_OK;
}

/* On a GPU, the second round trip of POSTINGS: the positions (pos_bytes of pos) and np
 * postings' docs, first value indices and forms in one download into the pinned staging
 * memory, lent to r: arrays of our own would make the host fault in pages it never touched
 * (malloc maps large arrays afresh on every call), as costly as the transfer
 * (docs/BENCHMARKS.md). */
static int mod9_postings_lend(gp_result *r, cl_mem pos, size_t pos_bytes, int wide, cl_mem docs,
                              cl_mem vstart, cl_mem comb, size_t np, gp_error *err)
{
	gp_array_free(&r->docs);   /* the arrays sized from the estimate */
	gp_array_free(&r->vstart);
	gp_array_free(&r->combined);
	const cl_mem srcs[4] = {pos, docs, vstart, comb};
	const size_t bytes[4] = {pos_bytes, np * 8, (np + 1) * 4, np};
	size_t at[4], total;
	uint8_t *base = gp_cl_download_parts(srcs, bytes, 4, at, &total, err);
	if (!base) return GP_EDEVICE;
	gp_array_set(&r->pos, pos_bytes ? base + at[0] : NULL, wide ? 8 : 4, GP_OWN_LENT);
	gp_array_set(&r->vstart, base + at[2], 4, GP_OWN_LENT);
	if (np) {   /* an empty part would point past the lent memory */
		gp_array_set(&r->docs, base + at[1], 8, GP_OWN_LENT);
		gp_array_set(&r->combined, base + at[3], 1, GP_OWN_LENT);
	}
	gp_result_lend(r, base, gp_cl_unmap);
	return GP_OK;
}

/* The count pass of POSTINGS: each tile's values, postings and gap sums (into seg). */
static int mod9_count_postings(const mod9_pass *p, cl_mem seg, gp_error *err)
{
	const gp_cl_tiled *t = p->t;
	const cl_uint tiles = (cl_uint)t->s.tiles;
	const size_t part = t->s.wg * 4, lpart = t->s.wg * 8, lay = (size_t)GP_MOD9_LAYOUTS * 8;
	cl_kernel k = gp_cl_kernel(p->batch ? GP_K_MOD9_TILE_COUNT_POSTINGS_BATCH : GP_K_MOD9_TILE_COUNT_POSTINGS);
	cl_int st = p->batch
		? gp_set_mod9_tile_count_postings_batch(k, &(gp_args_mod9_tile_count_postings_batch){
			.words = t->input, .n = p->nw, .first = p->first, .bt = t->s.bt, .tiles = tiles,
			.blocks = t->s.blocks, .tile_sums = t->s.sums, .block_sums = t->s.block_sums, .seg = seg,
			.err = t->err, .part_bytes = part, .lpart_bytes = lpart, .lay_bytes = lay})
		: gp_set_mod9_tile_count_postings(k, &(gp_args_mod9_tile_count_postings){
			.words = t->input, .n = p->nw, .bt = t->s.bt, .tiles = tiles, .blocks = t->s.blocks,
			.tile_sums = t->s.sums, .block_sums = t->s.block_sums, .seg = seg, .err = t->err,
			.part_bytes = part, .lpart_bytes = lpart, .lay_bytes = lay});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	if (t->s.tiles == 1) return GP_OK;   /* the decode pass runs alone (gp_cl_tiled_count) */
	if (gp_cl_tiled_run(&t->s, k, err) != GP_OK) return GP_EDEVICE;
	/* the carry of the gap sums across tiles: one work-group */
	gp_cl_tile_sums one = t->s;
	one.tiles = 1;
	k = gp_cl_kernel(GP_K_MOD9_GAP_CARRY);
	st = gp_set_mod9_gap_carry(k, &(gp_args_mod9_gap_carry){.seg = seg, .tiles = tiles, .a_bytes = lpart});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_tiled_run(&one, k, err);
}

/* Where the decode pass of POSTINGS writes: positions 32-bit into pos32, or (`wide`) 64-bit
 * into pos64; docs, forms, first value indices; the sizes and the wide flag (at flag_at) into
 * totals. */
typedef struct mod9_postings_out {
	cl_mem seg, pos32, pos64, docs, combined, vstart, totals;
	cl_uint wide, flag_at;
	cl_uint pos_at, docs_at, combined_at, vstart_at, totals_at;       /* elements into each */
} mod9_postings_out;

static int mod9_postings_pass(const mod9_pass *p, const mod9_postings_out *o, gp_error *err)
{
	const gp_cl_tiled *t = p->t;
	const cl_uint tiles = (cl_uint)t->s.tiles;
	/* a tile's running positions, the group's sums, the selector layouts */
	const size_t offs = GP_SKEW(t->s.tile) * 8, part = t->s.wg * 8, lay = (size_t)GP_MOD9_LAYOUTS * 8;
	cl_kernel k = gp_cl_kernel(p->batch ? GP_K_MOD9_TILE_POSTINGS_BATCH : GP_K_MOD9_TILE_POSTINGS);
	cl_int st = p->batch
		? gp_set_mod9_tile_postings_batch(k, &(gp_args_mod9_tile_postings_batch){
			.words = t->input, .n = p->nw, .first = p->first, .word_off = p->word_off,
			.pword_off = p->pword_off, .bt = t->s.bt, .tiles = tiles, .blocks = t->s.blocks,
			.tile_sums = t->s.sums, .block_sums = t->s.block_sums, .seg = o->seg, .pos32 = o->pos32,
			.pos64 = o->pos64, .pos_at = o->pos_at, .wide = o->wide, .flag_at = o->flag_at,
			.docs = o->docs, .docs_at = o->docs_at, .combined = o->combined,
			.combined_at = o->combined_at, .vstart = o->vstart, .vstart_at = o->vstart_at,
			.totals = o->totals, .totals_at = o->totals_at, .err = t->err,
			.offs_bytes = offs, .part_bytes = part, .lay_bytes = lay})
		: gp_set_mod9_tile_postings(k, &(gp_args_mod9_tile_postings){
			.words = t->input, .n = p->nw, .bt = t->s.bt, .tiles = tiles, .blocks = t->s.blocks,
			.tile_sums = t->s.sums, .block_sums = t->s.block_sums, .seg = o->seg, .pos32 = o->pos32,
			.pos64 = o->pos64, .pos_at = o->pos_at, .wide = o->wide, .flag_at = o->flag_at,
			.docs = o->docs, .docs_at = o->docs_at, .combined = o->combined,
			.combined_at = o->combined_at, .vstart = o->vstart, .vstart_at = o->vstart_at,
			.totals = o->totals, .totals_at = o->totals_at, .err = t->err,
			.offs_bytes = offs, .part_bytes = part, .lay_bytes = lay});
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clSetKernelArg");
	return gp_cl_tiled_run(&t->s, k, err);
}

/* POSTINGS' buffers and a batch's first-word marks and offsets, for the words of t (blob b's
 * from blob_words[b]) and at most `values` values. */
static int mod9_postings_setup(const gp_cl_tiled *t, const cl_uint *blob_words, size_t n_blobs, size_t values,
                               mod9_pass *p, mod9_postings_out *o, gp_error *err)
{
	const int batch = n_blobs > 1;
	const cl_uint nw = blob_words[n_blobs], zero = 0;
	memset(p, 0, sizeof(*p));
	memset(o, 0, sizeof(*o));
	p->t = t;
	p->nw = nw;
	p->batch = batch;
	o->flag_at = 2 * (cl_uint)n_blobs + 2 * batch;   /* after the sizes: one blob's 2, a batch's 2 (nb + 1) */
	if (!(o->pos32 = gp_cl_buffer(GP_B_OUT_32, values * 4, err)) ||
	    !(o->docs = gp_cl_buffer(GP_B_DOCS, (size_t)nw * 8, err)) ||
	    !(o->combined = gp_cl_buffer(GP_B_COMBINED, (size_t)nw, err)) ||
	    !(o->vstart = gp_cl_buffer(GP_B_POSTING_STARTS, ((size_t)nw + 1) * 4, err)) ||
	    !(o->seg = gp_cl_buffer(GP_B_GAP_CARRY, t->s.tiles * 8, err)) ||
	    !(o->totals = gp_cl_buffer(GP_B_SIZES, ((size_t)o->flag_at + 1) * 4, err))) {
		return GP_EDEVICE;
	}
	cl_int st = clEnqueueFillBuffer(gp_cl_queue(), o->totals, &zero, 4, (size_t)o->flag_at * 4, 4, 0, NULL, NULL);
	GP_TRACE("fill enqueued");
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clEnqueueFillBuffer");
	if (batch && (mod9_mark_firsts(blob_words, n_blobs, nw, &p->blobs_mem, &p->first, err) != GP_OK ||
	              !(p->word_off = gp_cl_buffer(GP_B_WORD_VALUE_OFFSETS, ((size_t)nw + 1) * 4, err)) ||
	              !(p->pword_off = gp_cl_buffer(GP_B_WORD_POSTING_OFFSETS, ((size_t)nw + 1) * 4, err)))) {
		return GP_EDEVICE;
	}
	return GP_OK;
}

/* One blob in one tile: the decode pass alone writes the error word and the sizes (its sums'
 * region: error word, values, postings, the wide flag) and after them the posting arrays and
 * the positions, in one region, brought back by one read that takes the posting arrays' bounds
 * whole (a tile holds at most a few thousand words) and the positions the host expects; what
 * the guess missed, in a second. Four reads fewer than a region each. */
typedef struct mod9_one_layout {
	size_t docs, combined, pos, end;   /* byte offsets from the output's start; vstart at 0 */
} mod9_one_layout;

static mod9_one_layout mod9_one_layout_of(cl_uint nw, size_t max_values)
{
	mod9_one_layout l;
	l.docs = (((size_t)nw + 1) * 4 + 7) & ~(size_t)7;
	l.combined = l.docs + (size_t)nw * 8;
	l.pos = (l.combined + nw + 3) & ~(size_t)3;
	l.end = l.pos + max_values * 4;
	return l;
}

static int mod9_postings_one(const uint8_t *blob, size_t len, cl_uint nw, const gp_mod9_counts *est,
                             gp_result *r, gp_error *err)
{
	const size_t max_values = (size_t)nw * GP_MOD9_MAX_PER_WORD;
	const mod9_one_layout l = mod9_one_layout_of(nw, max_values);
	gp_cl_tiled t;
	mod9_pass p = {.t = &t, .nw = nw};
	gp_cl_tiled_plan(&t, (size_t)nw * 4, nw, gp_cl_tile_items(), 2);
	const int all = gp_cl_tiled_output(&t, l.end);
	if (gp_cl_tiled_send(&t, &blob, &len, 1, 0, NULL, NULL, err) != GP_OK) return GP_EDEVICE;
	cl_mem m = t.call.r[all].mem;
	const size_t at = t.out_at;
	mod9_postings_out o = {.totals = m, .vstart = m, .docs = m, .combined = m, .pos32 = m, .flag_at = 2,
	                       .totals_at = 1, .vstart_at = (cl_uint)(at / 4), .docs_at = (cl_uint)((at + l.docs) / 8),
	                       .combined_at = (cl_uint)(at + l.combined), .pos_at = (cl_uint)((at + l.pos) / 4)};
	if (!(o.seg = gp_cl_buffer(GP_B_GAP_CARRY, 8, err)) || mod9_postings_pass(&p, &o, err) != GP_OK) return GP_EDEVICE;
	const size_t nv_g = gp_cl_guess(est->values, max_values, 4);
	size_t want = l.pos + nv_g * 4;
	int rc = gp_cl_tiled_receive(&t, &all, &want, 1, err);
	if (rc != GP_OK) return rc;
	const cl_uint *head = (const cl_uint *)t.call.r[all].host;   /* error word, values, postings, wide */
	const size_t nv = head[1], np = head[2];
	const cl_uint meta[4] = {0, 0, head[1], head[2]};
	const int wide = head[3] != 0;
	if (gp_check_result(r, nv, np, err) != GP_OK) return GP_ENOMEM;
	if ((rc = mod9_result_offsets(r, meta, 1, 1, err)) != GP_OK) return rc;
	r->n_values = nv;
	r->n_postings = np;
	r->backend = "opencl";
	void *pos64 = NULL;
	if (wide) {   /* a position past 2^32 - 1: the pass again, 64-bit, the positions downloaded */
		o.pos32 = NULL;
		o.pos_at = 0;
		o.wide = 1;
		if (!(o.pos64 = gp_cl_buffer(GP_B_OUT_64, max_values * 8, err)) || mod9_postings_pass(&p, &o, err) != GP_OK ||
		    !(pos64 = gp_cl_download_mapped(o.pos64, nv * 8, err))) {
			return GP_EDEVICE;
		}
	} else if (nv > nv_g && gp_cl_tiled_receive_more(&t, l.pos + nv * 4, err) != GP_OK) {
		return GP_EDEVICE;
	}
	uint8_t *out = gp_cl_tiled_out_host(&t);   /* the mirror may have moved */
	gp_array_set(&r->vstart, out, 4, GP_OWN_LENT);
	if (np) {
		gp_array_set(&r->docs, out + l.docs, 8, GP_OWN_LENT);
		gp_array_set(&r->combined, out + l.combined, 1, GP_OWN_LENT);
	}
	if (pos64) {
		gp_array_set(&r->pos, nv ? pos64 : NULL, 8, GP_OWN_LENT);
		gp_result_lend(r, pos64, gp_cl_unmap);
	} else {
		if (nv) gp_array_set(&r->pos, out + l.pos, 4, GP_OWN_LENT);
		gp_result_lend(r, t.call.host, gp_cl_call_return);
	}
	return GP_OK;
}

/* POSTINGS, one blob or a batch, tiled (kernels/mod9.cl): a count pass (values, postings and the
 * gap sums per tile), the carry of the gap sums across tiles (one work-group), then a decode
 * pass that writes every posting's doc, form and first value index and every value's running
 * position, 32-bit unless one does not fit (then the pass runs again, 64-bit). The posting
 * arrays and positions the host expects (gp_cl_guess: small results) come back with the sizes,
 * the wide flag and the error word in the call's one read (a batch's per-blob offsets and
 * totals, one blob's totals read as blob 1's start); what the guess missed, in a second. */
static int mod9_postings_tiled(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                               const cl_uint *blob_words, const gp_mod9_counts *est, gp_result *r,
                               gp_error *err)
{
	const int batch = n_blobs > 1;
	const cl_uint nw = blob_words[n_blobs], nb = (cl_uint)n_blobs;
	const size_t max_values = (size_t)nw * GP_MOD9_MAX_PER_WORD;
	gp_cl_tiled t;
	mod9_tables m = {0};
	mod9_pass p = {.t = &t, .nw = nw, .batch = batch};
	mod9_postings_out o = {.flag_at = 2 * nb + 2 * batch};   /* after the sizes: one blob's 2, a batch's 2 (nb + 1) */
	gp_cl_tiled_plan(&t, (size_t)nw * 4, nw, gp_cl_tile_items(), 2);
	if (batch) mod9_tables_add(&m, &t.call, blob_words, n_blobs);
	/* one tile: the decode pass starts the wide flag itself */
	const int r_totals = gp_cl_call_add(&t.call, t.s.tiles == 1 ? GP_IO_RESULT : GP_IO_CTRL, ((size_t)o.flag_at + 1) * 4);
	/* the outputs, the positions (the largest) last: a read of their first bytes takes the others whole */
	const int out[4] = {gp_cl_call_add(&t.call, GP_IO_OUT, ((size_t)nw + 1) * 4), gp_cl_call_add(&t.call, GP_IO_OUT, (size_t)nw * 8),
	                    gp_cl_call_add(&t.call, GP_IO_OUT, nw), gp_cl_call_add(&t.call, GP_IO_OUT, max_values * 4)};
	if (gp_cl_tiled_send(&t, blobs, lens, n_blobs, 0, batch ? mod9_tables_fill : NULL, &m, err) != GP_OK) return GP_EDEVICE;
	const gp_cl_region *reg = t.call.r;
	o.totals = reg[r_totals].mem;
	o.vstart = reg[out[0]].mem;
	o.docs = reg[out[1]].mem;
	o.combined = reg[out[2]].mem;
	o.pos32 = reg[out[3]].mem;
	if (!(o.seg = gp_cl_buffer(GP_B_GAP_CARRY, t.s.tiles * 8, err)) ||
	    (batch && (!(p.word_off = gp_cl_buffer(GP_B_WORD_VALUE_OFFSETS, ((size_t)nw + 1) * 4, err)) ||
	               !(p.pword_off = gp_cl_buffer(GP_B_WORD_POSTING_OFFSETS, ((size_t)nw + 1) * 4, err))))) {
		return GP_EDEVICE;
	}
	p.first = batch ? reg[m.r_first].mem : NULL;
	if (mod9_count_postings(&p, o.seg, err) != GP_OK || mod9_postings_pass(&p, &o, err) != GP_OK ||
	    (batch && mod9_blob_offsets(reg[m.r_words].mem, n_blobs, p.word_off, p.pword_off, o.totals, err) != GP_OK)) {
		return GP_EDEVICE;
	}
	size_t np_g = gp_cl_guess(est->postings, nw, 13), nv_g = gp_cl_guess(est->values, max_values, 4);
	if (np_g == 0 || nv_g == 0) np_g = nv_g = 0;   /* both or neither */
	size_t want[4] = {np_g ? (np_g + 1) * 4 : 0, np_g * 8, np_g, nv_g * 4};
	int rc = gp_cl_tiled_receive(&t, out, want, 4, err);
	if (rc != GP_OK) return rc;
	const cl_uint *totals = (const cl_uint *)reg[r_totals].host;
	cl_uint one[4] = {0, 0, totals[0], totals[1]};
	const cl_uint *meta = batch ? totals : one;
	const size_t nv = meta[2 * n_blobs], np = meta[2 * n_blobs + 1];
	const int wide = totals[o.flag_at] != 0;
	if (gp_check_result(r, nv, np, err) != GP_OK) return GP_ENOMEM;
	if ((rc = mod9_result_offsets(r, meta, n_blobs, 1, err)) != GP_OK) return rc;
	r->n_values = nv;
	r->n_postings = np;
	r->backend = "opencl";
	if (wide) {   /* a position past 2^32 - 1: the pass again, 64-bit, and the result downloaded */
		o.pos32 = NULL;
		o.wide = 1;
		if (!(o.pos64 = gp_cl_buffer(GP_B_OUT_64, max_values * 8, err)) || mod9_postings_pass(&p, &o, err) != GP_OK) {
			return GP_EDEVICE;
		}
		return mod9_postings_lend(r, o.pos64, nv * 8, 1, o.docs, o.vstart, o.combined, np, err);
	}
	size_t need[4] = {(np + 1) * 4, np * 8, np, nv * 4};
	if ((np > np_g || nv > nv_g) && gp_cl_call_receive_more(&t.call, out, need, 4, err) != GP_OK) return GP_EDEVICE;
	gp_array_set(&r->vstart, reg[out[0]].host, 4, GP_OWN_LENT);
	if (np) {
		gp_array_set(&r->docs, reg[out[1]].host, 8, GP_OWN_LENT);
		gp_array_set(&r->combined, reg[out[2]].host, 1, GP_OWN_LENT);
	}
	if (nv) gp_array_set(&r->pos, reg[out[3]].host, 4, GP_OWN_LENT);
	gp_result_lend(r, t.call.host, gp_cl_call_return);
	return GP_OK;
}

/* Empty input: nothing to launch. */
static int mod9_empty(size_t n_blobs, gp_result *r, gp_error *err)
{
	cl_uint *meta = gp_alloc_array(2 * (n_blobs + 1), sizeof(*meta));
	if (!meta) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	memset(meta, 0, 2 * (n_blobs + 1) * sizeof(*meta));
	int rc = mod9_result_offsets(r, meta, n_blobs, 1, err);
	free(meta);
	r->backend = "opencl";
	return rc;
}

int gp_cl_mod9_decode(const gp_batch_in *in, gp_result *r, gp_error *err)
{
	const uint8_t *const *blobs = in->blobs;
	const size_t *lens = in->lens;
	const size_t n_blobs = in->n_blobs;
	const int mode = in->mode;
	const gp_mod9_counts *est = &in->est;
	size_t total = 0;
	int rc;
	for (size_t b = 0; b < n_blobs; b++) total += lens[b];
	/* offsets are 32-bit: at most 24 values a word, one doc */
	if (total / 4 >= 0xFFFFFFFFu / (mode == GP_MODE_DOCS ? 1 : GP_MOD9_MAX_PER_WORD) || n_blobs >= 0x7FFFFFFFu) {
		return gp_cl_fail(err, CL_INVALID_BUFFER_SIZE, "MOD9 batch too large for one launch");
	}
	cl_uint *blob_words = gp_alloc_array(n_blobs + 1, sizeof(*blob_words));
	if (!blob_words) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	blob_words[0] = 0;
	for (size_t b = 0; b < n_blobs; b++) blob_words[b + 1] = blob_words[b] + (cl_uint)(lens[b] / 4);
	if (blob_words[n_blobs] == 0) rc = mod9_empty(n_blobs, r, err);
	else if (mode == GP_MODE_POSTINGS && n_blobs == 1 && gp_cl_tiled_fits_one(blob_words[1], gp_cl_tile_items())) {
		rc = mod9_postings_one(blobs[0], lens[0], blob_words[1], est, r, err);
	} else if (mode == GP_MODE_POSTINGS) rc = mod9_postings_tiled(blobs, lens, n_blobs, blob_words, est, r, err);
	else rc = mod9_tiled(blobs, lens, n_blobs, blob_words, est, mode, r, err);
	free(blob_words);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}

int gp_cl_mod9_resident(cl_mem words, const cl_uint *blob_words, size_t n, int postings, size_t values,
                        gp_cl_mod9_out *out, gp_error *err)
{
	const cl_uint nw = blob_words[n];
	gp_cl_tiled t;
	mod9_pass p = {.t = &t, .nw = nw, .batch = n > 1};
	memset(out, 0, sizeof(*out));
	if (gp_cl_tiled_on_device(&t, words, nw, gp_cl_tile_items(), postings ? 2 : 1, err) != GP_OK) return GP_EDEVICE;
	if (postings) {
		mod9_postings_out o;
		if (mod9_postings_setup(&t, blob_words, n, values, &p, &o, err) != GP_OK ||
		    mod9_count_postings(&p, o.seg, err) != GP_OK || mod9_postings_pass(&p, &o, err) != GP_OK) {
			return GP_EDEVICE;
		}
		out->docs = o.docs;
		out->vstart = o.vstart;
		out->combined = o.combined;
		out->pos32 = o.pos32;
		return GP_OK;
	}
	/* DOCS: at most a doc a word */
	if (p.batch && (mod9_mark_firsts(blob_words, n, nw, &p.blobs_mem, &p.first, err) != GP_OK ||
	                !(p.word_off = gp_cl_buffer(GP_B_WORD_VALUE_OFFSETS, ((size_t)nw + 1) * 4, err)))) {
		return GP_EDEVICE;
	}
	if (!(out->docs32 = gp_cl_buffer(GP_B_OUT_32, (size_t)nw * 4, err)) || mod9_count(&p, 1, err) != GP_OK ||
	    mod9_decode(&p, 1, out->docs32, err) != GP_OK) {
		return GP_EDEVICE;
	}
	return GP_OK;
}
