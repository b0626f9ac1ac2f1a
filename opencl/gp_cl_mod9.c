/* Launcher for kernels/mod9.cl: one blob or a batch of MOD9 blobs in one upload, one sequence of
 * launches and one download. Launch sizes come from the word count (a bound), never from a
 * result read back in the middle: kernels read the true totals from the scanned offsets. */
#include <stdlib.h>
#include <string.h>

#include "gp_cl_batch.h"
#include "../codec/gp_mod9.h"
#include "../codec/gp_result.h"

#define A(v) sizeof(v), (const void *)&(v)
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
	if (!(*blobs_mem = gp_cl_upload(GP_B_BLOBS, &bw, &bwlen, 1, bwlen, err)) ||
	    !(*first = gp_cl_buffer(GP_B_FIRST, (size_t)nw + 1, err))) {
		return GP_EDEVICE;
	}
	cl_int st = clEnqueueFillBuffer(gp_cl_queue(), *first, &zero, 1, 0, (size_t)nw + 1, 0, NULL, NULL);
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clEnqueueFillBuffer");
	cl_kernel k = gp_cl_kernel(GP_K_MARK_BLOB_STARTS);
	if (gp_cl_args(k, 3, A(*blobs_mem), A(nb), A(*first)) != CL_SUCCESS) {
		return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
	}
	return gp_cl_run(k, n_blobs, err);
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

/* One blob or a batch in VALUES or DOCS mode, tiled: a count pass, then a decode pass that writes
 * the values or the docs (kernels/mod9.cl). Docs come back as 32-bit values (a doc is below
 * 2^28), read from mapped memory like values, with r->docs left NULL. A batch's blobs are one
 * run of words with their first words marked; the decode pass leaves each blob's first offset
 * at its first word, gathered by mod9_blob_offsets. */
static int mod9_tiled(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                      const cl_uint *blob_words, const gp_mod9_counts *est, int mode, gp_result *r,
                      gp_error *err)
{
	const int docs = mode == GP_MODE_DOCS, batch = n_blobs > 1;
	const size_t per_word = docs ? 1 : GP_MOD9_MAX_PER_WORD;
	cl_uint nw = blob_words[n_blobs], nb = (cl_uint)n_blobs;
	cl_uint *meta = NULL;
	cl_mem out, first = NULL, word_off = NULL, blobs_mem = NULL, metabuf = NULL;
	gp_cl_tiled t;
	cl_kernel k;
	if (gp_cl_tiled_begin(&t, blobs, lens, n_blobs, 0, nw, gp_cl_tile_items(), 1, err) != GP_OK ||
	    !(out = gp_cl_buffer(GP_B_VALUES, (size_t)nw * per_word * 4, err))) {
		return GP_EDEVICE;
	}
	if (batch && (mod9_mark_firsts(blob_words, n_blobs, nw, &blobs_mem, &first, err) != GP_OK ||
	              !(word_off = gp_cl_buffer(GP_B_STARTS, ((size_t)nw + 1) * 4, err)) ||
	              !(metabuf = gp_cl_buffer(GP_B_META, 2 * (n_blobs + 1) * 4, err)))) {
		return GP_EDEVICE;
	}
	/* one blob: (words, n, bt, ...); a batch: (words, n, first, [word_off,] bt, ...) */
	static const gp_kernel_id count_k[2][2] = {
		{GP_K_MOD9_TILE_COUNT, GP_K_MOD9_TILE_COUNT_DOCS},
		{GP_K_MOD9_TILE_COUNT_BATCH, GP_K_MOD9_TILE_COUNT_DOCS_BATCH}};
	static const gp_kernel_id decode_k[2][2] = {
		{GP_K_MOD9_TILE_DECODE, GP_K_MOD9_TILE_DOCS},
		{GP_K_MOD9_TILE_DECODE_BATCH, GP_K_MOD9_TILE_DOCS_BATCH}};
	cl_uint a = 2 + batch;   /* the arguments after words, n and a batch's first[] */
	k = gp_cl_kernel(count_k[batch][docs]);
	if (gp_cl_args(k, 2, A(t.input), A(nw)) != CL_SUCCESS ||
	    (batch && gp_cl_args_at(k, 2, 1, A(first)) != CL_SUCCESS) ||
	    gp_cl_args_at(k, a, 4, A(t.s.bt), A(t.s.sums), A(t.s.block_sums), A(t.err)) != CL_SUCCESS) goto args;
	if (gp_cl_tiled_run(&t.s, k, err, a + 4, 2, t.s.wg * 4, (size_t)64 * 8) != GP_OK) return GP_EDEVICE;
	a = 2 + 2 * batch;       /* and word_off */
	k = gp_cl_kernel(decode_k[batch][docs]);
	if (gp_cl_args(k, 2, A(t.input), A(nw)) != CL_SUCCESS ||
	    (batch && gp_cl_args_at(k, 2, 2, A(first), A(word_off)) != CL_SUCCESS) ||
	    gp_cl_args_at(k, a, 5, A(t.s.bt), A(t.s.sums), A(t.s.block_sums), A(out), A(t.err)) != CL_SUCCESS) goto args;
	if (gp_cl_tiled_run(&t.s, k, err, a + 5, 4, GP_SKEWED(t.s.tile) * 4, t.s.wg * 4,
	                    t.s.wg * gp_cl_stage_items(4) * 4, (size_t)64 * 8) != GP_OK) {
		return GP_EDEVICE;
	}
	if (batch) {   /* blob b's values (or docs) begin at word_off[blob_words[b]] */
		k = gp_cl_kernel(GP_K_MOD9_BLOB_OFFSETS);
		if (gp_cl_args(k, 5, A(blobs_mem), A(nb), A(word_off), A(word_off), A(metabuf)) != CL_SUCCESS) goto args;
		if (gp_cl_run(k, n_blobs + 1, err) != GP_OK) return GP_EDEVICE;
	}
	/* the sizes come back with the error word (a flagged blob's sizes mean nothing): one blob's
	 * total after its tile sums, a batch's offsets from mod9_blob_offsets */
	size_t meta_n = batch ? 2 * (n_blobs + 1) : 1;
	size_t guess = gp_cl_guess(docs ? est->postings : est->values, (size_t)nw * per_word, 4) * 4;
	void *mapped = NULL;
	if (!(meta = gp_alloc_array(2 * (n_blobs + 1), sizeof(*meta)))) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	int rc = gp_cl_read_guessed(t.err, batch ? metabuf : t.s.sums, batch ? 0 : t.s.tiles * 4, meta_n * 4,
	                            meta, out, guess, &mapped, err);
	if (rc != GP_OK) goto done;
	size_t total = batch ? meta[2 * n_blobs] : meta[0];
	if (gp_check_result(r, total, 0, err) != GP_OK) {
		gp_cl_unmap(mapped);
		rc = GP_ENOMEM;
		goto done;
	}
	if (!batch) {   /* as a batch's: blob 0 from 0, then the totals */
		meta[2] = meta[3] = meta[0];
		meta[0] = meta[1] = 0;
	}
	if ((rc = mod9_result_offsets(r, meta, n_blobs, docs, err)) != GP_OK) {
		gp_cl_unmap(mapped);
		goto done;
	}
	r->n_postings = docs ? total : 0;
	rc = gp_cl_result_guessed(r, out, total, 32, mapped, guess, err);
done:
	free(meta);
	return rc;
args:
	return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
}


/* A POSTINGS result's host arrays for np postings (any held before are freed). */
static int mod9_posting_arrays(gp_result *r, size_t np)
{
	free(r->docs);
	free(r->vstart);
	free(r->combined);
	r->docs = gp_alloc_array(np, 8);
	r->vstart = gp_alloc_array(np + 1, 4);
	r->combined = gp_alloc_array(np, 1);
	return r->docs && r->vstart && r->combined ? GP_OK : GP_ENOMEM;
}

/* Enqueues, without waiting, the reads of np postings' docs, forms and first value indices. */
static cl_int mod9_posting_reads(cl_mem docs, cl_mem vstart, cl_mem comb, size_t np, gp_result *r)
{
	cl_command_queue q = gp_cl_queue();
	cl_int st = clEnqueueReadBuffer(q, vstart, CL_FALSE, 0, (np + 1) * 4, r->vstart, 0, NULL, NULL);
	if (st == CL_SUCCESS && np) st = clEnqueueReadBuffer(q, docs, CL_FALSE, 0, np * 8, r->docs, 0, NULL, NULL);
	if (st == CL_SUCCESS && np) st = clEnqueueReadBuffer(q, comb, CL_FALSE, 0, np, r->combined, 0, NULL, NULL);
	return st;
}

/* On a GPU, the second round trip of POSTINGS: the positions (pos_bytes of pos) and np
 * postings' docs, first value indices and forms in one download into the pinned staging
 * memory, lent to r. Read into arrays of our own instead, the host first had to fault in
 * pages it had never touched (malloc maps large arrays afresh on every call): 454 against
 * 1783 M values/s end to end for 64M values on the H100's host (docs/BENCHMARKS.md, seventh
 * session). */
static int mod9_postings_lend(gp_result *r, cl_mem pos, size_t pos_bytes, int wide, cl_mem docs,
                              cl_mem vstart, cl_mem comb, size_t np, gp_error *err)
{
	free(r->docs);   /* the arrays sized from the estimate */
	free(r->vstart);
	free(r->combined);
	r->docs = NULL;
	r->vstart = NULL;
	r->combined = NULL;
	const cl_mem srcs[4] = {pos, docs, vstart, comb};
	const size_t bytes[4] = {pos_bytes, np * 8, (np + 1) * 4, np};
	size_t at[4], total;
	uint8_t *base = gp_cl_download_parts(srcs, bytes, 4, at, &total, err);
	if (!base) return GP_EDEVICE;
	if (pos_bytes && wide) r->pos = (int64_t *)(base + at[0]);
	else if (pos_bytes) r->pos32 = (uint32_t *)(base + at[0]);
	r->vstart = (uint32_t *)(base + at[2]);
	if (np) {   /* an empty part would point past the lent memory */
		r->docs = (int64_t *)(base + at[1]);
		r->combined = base + at[3];
	}
	gp_result_lend(r, base, total, gp_cl_unmap);
	return GP_OK;
}

/* POSTINGS, one blob or a batch, tiled (kernels/mod9.cl): a count pass (values, postings and the
 * gap sums per tile), the carry of the gap sums across tiles (one work-group), then a decode
 * pass that writes every posting's doc, form and first value index and every value's running
 * position. The sizes come back with the error word; then docs, forms and first value indices
 * are read and the positions mapped, in one wait. */
/* The decode pass of POSTINGS (its other arguments set from `a` on): positions 32-bit into pos32,
 * or `wide`, 64-bit into pos64. */
static int mod9_postings_pass(cl_kernel k, cl_uint a, const gp_cl_tiled *t, cl_mem pos32, cl_mem pos64,
                              cl_uint wide, gp_error *err)
{
	if (gp_cl_args_at(k, a + 6, 3, A(pos32), A(pos64), A(wide)) != CL_SUCCESS) {
		return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
	}
	return gp_cl_tiled_run(&t->s, k, err, a + 15, 3, GP_SKEWED(t->s.tile) * 8, t->s.wg * 8, (size_t)64 * 8);
}

/* POSTINGS, one blob or a batch, tiled (kernels/mod9.cl): a count pass (values, postings and the
 * gap sums per tile), the carry of the gap sums across tiles (one work-group), then a decode
 * pass that writes every posting's doc, form and first value index and every value's running
 * position, 32-bit unless one does not fit (then the pass runs again, 64-bit). */
static int mod9_postings_tiled(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                               const cl_uint *blob_words, const gp_mod9_counts *est, gp_result *r,
                               gp_error *err)
{
	const int batch = n_blobs > 1;
	cl_uint nw = blob_words[n_blobs], nb = (cl_uint)n_blobs;
	cl_uint flag_at = 2 * nb + 2 * batch;   /* after the sizes: one blob's 2, a batch's 2 (nb + 1) */
	cl_uint *meta = NULL, zero = 0;
	cl_mem pos32, pos64 = NULL, docs, comb, vstart, seg, metabuf;
	cl_mem first = NULL, word_off = NULL, pword_off = NULL, blobs_mem = NULL;
	gp_cl_tiled t;
	cl_kernel k;
	if (gp_cl_tiled_begin(&t, blobs, lens, n_blobs, 0, nw, gp_cl_tile_items(), 2, err) != GP_OK ||
	    !(pos32 = gp_cl_buffer(GP_B_VALUES, (size_t)nw * GP_MOD9_MAX_PER_WORD * 4, err)) ||
	    !(docs = gp_cl_buffer(GP_B_DOCS, (size_t)nw * 8, err)) ||
	    !(comb = gp_cl_buffer(GP_B_COMBINED, (size_t)nw, err)) ||
	    !(vstart = gp_cl_buffer(GP_B_VSTART, ((size_t)nw + 1) * 4, err)) ||
	    !(seg = gp_cl_buffer(GP_B_GAP_CARRY, t.s.tiles * 8, err)) ||
	    !(metabuf = gp_cl_buffer(GP_B_META, ((size_t)flag_at + 1) * 4, err))) {
		return GP_EDEVICE;
	}
	cl_int st = clEnqueueFillBuffer(gp_cl_queue(), metabuf, &zero, 4, (size_t)flag_at * 4, 4, 0, NULL, NULL);
	if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clEnqueueFillBuffer");
	if (batch && (mod9_mark_firsts(blob_words, n_blobs, nw, &blobs_mem, &first, err) != GP_OK ||
	              !(word_off = gp_cl_buffer(GP_B_STARTS, ((size_t)nw + 1) * 4, err)) ||
	              !(pword_off = gp_cl_buffer(GP_B_POFF, ((size_t)nw + 1) * 4, err)))) {
		return GP_EDEVICE;
	}
	cl_uint tiles = (cl_uint)t.s.tiles, a = 2 + batch;   /* arguments after words, n, first[] */
	k = gp_cl_kernel(batch ? GP_K_MOD9_TILE_COUNT_POSTINGS_BATCH : GP_K_MOD9_TILE_COUNT_POSTINGS);
	if (gp_cl_args(k, 2, A(t.input), A(nw)) != CL_SUCCESS ||
	    (batch && gp_cl_args_at(k, 2, 1, A(first)) != CL_SUCCESS) ||
	    gp_cl_args_at(k, a, 7, A(t.s.bt), A(tiles), A(t.s.blocks), A(t.s.sums), A(t.s.block_sums),
	                  A(seg), A(t.err)) != CL_SUCCESS) goto args;
	if (gp_cl_tiled_run(&t.s, k, err, a + 7, 3, t.s.wg * 4, t.s.wg * 8, (size_t)64 * 8) != GP_OK) {
		return GP_EDEVICE;
	}
	gp_cl_tile_sums one = t.s;   /* the carry: one work-group */
	one.tiles = 1;
	k = gp_cl_kernel(GP_K_MOD9_GAP_CARRY);
	if (gp_cl_args(k, 2, A(seg), A(tiles)) != CL_SUCCESS) goto args;
	if (gp_cl_tiled_run(&one, k, err, 2, 1, t.s.wg * 8) != GP_OK) return GP_EDEVICE;
	a = 2 + 3 * batch;       /* and word_off, pword_off */
	k = gp_cl_kernel(batch ? GP_K_MOD9_TILE_POSTINGS_BATCH : GP_K_MOD9_TILE_POSTINGS);
	if (gp_cl_args(k, 2, A(t.input), A(nw)) != CL_SUCCESS ||
	    (batch && gp_cl_args_at(k, 2, 3, A(first), A(word_off), A(pword_off)) != CL_SUCCESS) ||
	    gp_cl_args_at(k, a, 6, A(t.s.bt), A(tiles), A(t.s.blocks), A(t.s.sums), A(t.s.block_sums),
	                  A(seg)) != CL_SUCCESS ||
	    gp_cl_args_at(k, a + 9, 6, A(flag_at), A(docs), A(comb), A(vstart), A(metabuf), A(t.err)) != CL_SUCCESS) goto args;
	if (mod9_postings_pass(k, a, &t, pos32, NULL, 0, err) != GP_OK) return GP_EDEVICE;
	if (batch) {   /* blob b's values and postings begin at word_off / pword_off[blob_words[b]] */
		cl_kernel ko = gp_cl_kernel(GP_K_MOD9_BLOB_OFFSETS);
		if (gp_cl_args(ko, 5, A(blobs_mem), A(nb), A(word_off), A(pword_off), A(metabuf)) != CL_SUCCESS) goto args;
		if (gp_cl_run(ko, n_blobs + 1, err) != GP_OK) return GP_EDEVICE;
	}
	/* The posting arrays and positions for the estimated counts (gp_cl_guess: small results)
	 * come back with the sizes, the wide flag and the error word in one round trip (a batch's
	 * per-blob offsets and totals, one blob's totals read as blob 1's start); what the estimate
	 * missed, a large result or 64-bit positions, in a second. */
	size_t np_g = gp_cl_guess(est->postings, nw, 13), nv_g = gp_cl_guess(est->values, (size_t)nw * GP_MOD9_MAX_PER_WORD, 4);
	if (np_g == 0 || nv_g == 0) np_g = nv_g = 0;   /* both or neither */
	cl_command_queue q = gp_cl_queue();
	void *mapped = NULL;
	int rc = GP_OK;
	if (!(meta = gp_alloc_array((size_t)flag_at + 1, sizeof(*meta))) || mod9_posting_arrays(r, np_g) != GP_OK) {
		rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
		goto done;
	}
	meta[0] = meta[1] = 0;
	if ((st = mod9_posting_reads(docs, vstart, comb, np_g, r)) != CL_SUCCESS) {
		clFinish(q);
		rc = gp_cl_fail(err, st, "clEnqueueReadBuffer");
		goto done;
	}
	rc = gp_cl_read_guessed(t.err, metabuf, 0, (batch ? flag_at + 1 : 3) * 4, batch ? meta : meta + 2,
	                        pos32, nv_g * 4, &mapped, err);
	if (rc != GP_OK) goto done;
	size_t nv = meta[2 * n_blobs], np = meta[2 * n_blobs + 1];
	const int wide = meta[batch ? flag_at : 2 + flag_at] != 0;   /* one blob's read lands at meta + 2 */
	if (gp_check_result(r, nv, np, err) != GP_OK) {
		gp_cl_unmap(mapped);
		rc = GP_ENOMEM;
		goto done;
	}
	if ((rc = mod9_result_offsets(r, meta, n_blobs, 1, err)) != GP_OK) {
		gp_cl_unmap(mapped);
		goto done;
	}
	r->value_bits = 32;
	r->n_values = nv;
	r->n_postings = np;
	r->backend = "opencl";
	if (wide) {   /* a position past 2^32 - 1: the pass again, 64-bit */
		gp_cl_unmap(mapped);
		mapped = NULL;
		nv_g = 0;
		if (!(pos64 = gp_cl_buffer(GP_B_POS, (size_t)nw * GP_MOD9_MAX_PER_WORD * 8, err)) ||
		    mod9_postings_pass(k, a, &t, NULL, pos64, 1, err) != GP_OK) {
			rc = GP_EDEVICE;
			goto done;
		}
	}
	if ((np > np_g || nv > nv_g) && gp_cl_staged()) {   /* the second round trip */
		gp_cl_unmap(mapped);   /* its memory is reused for the whole result */
		mapped = NULL;
		rc = mod9_postings_lend(r, wide ? pos64 : pos32, nv * (wide ? 8 : 4), wide, docs, vstart,
		                        comb, np, err);
		goto done;
	}
	int waiting = 0;
	if (np > np_g) {   /* the second round trip, for the posting arrays */
		if (mod9_posting_arrays(r, np) != GP_OK) {
			gp_cl_unmap(mapped);
			rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
			goto done;
		}
		if ((st = mod9_posting_reads(docs, vstart, comb, np, r)) != CL_SUCCESS) rc = gp_cl_fail(err, st, "clEnqueueReadBuffer");
		waiting = 1;
	}
	if (nv > nv_g) {   /* and for the positions: this blocking download brings both */
		if (rc == GP_OK && !(mapped = gp_cl_download_mapped(wide ? pos64 : pos32, nv * (wide ? 8 : 4), err))) rc = GP_EDEVICE;
		else waiting = 0;
	}
	if (rc == GP_OK && nv > 0) {
		if (wide) r->pos = mapped; else r->pos32 = mapped;
		gp_result_lend(r, mapped, nv * (wide ? 8 : 4), gp_cl_unmap);
	} else {
		gp_cl_unmap(mapped);
	}
	if (waiting || rc != GP_OK) {   /* the reads land before their arrays can be freed */
		st = clFinish(q);
		if (rc == GP_OK && st != CL_SUCCESS) rc = gp_cl_fail(err, st, "clFinish");
	}
done:
	free(meta);
	return rc;
args:
	return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
}

/* Empty input: nothing to launch. */
static int mod9_empty(size_t n_blobs, gp_result *r, gp_error *err)
{
	cl_uint *meta = gp_alloc_array(2 * (n_blobs + 1), sizeof(*meta));
	if (!meta) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	memset(meta, 0, 2 * (n_blobs + 1) * sizeof(*meta));
	int rc = mod9_result_offsets(r, meta, n_blobs, 1, err);
	free(meta);
	r->value_bits = 32;
	r->backend = "opencl";
	return rc;
}

int gp_cl_mod9_decode(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs, int mode,
                      const gp_mod9_counts *est, gp_result *r, gp_error *err)
{
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
	else if (mode == GP_MODE_POSTINGS) rc = mod9_postings_tiled(blobs, lens, n_blobs, blob_words, est, r, err);
	else rc = mod9_tiled(blobs, lens, n_blobs, blob_words, est, mode, r, err);
	free(blob_words);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}
