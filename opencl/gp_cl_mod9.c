/* Launcher for kernels/mod9.cl: a whole batch of MOD9 blobs in one upload, one sequence of
 * launches and one download. Launch sizes come from the word count (a bound), never from a
 * result read back in the middle: kernels read the true totals from the scanned offsets. */
#include <stdlib.h>
#include <string.h>

#include "gp_cl_batch.h"
#include "../codec/gp_result.h"

#define A(v) sizeof(v), (const void *)&(v)
#define GP_MOD9_MAX_PER_WORD 24

/* One blob or a batch in VALUES or DOCS mode, tiled: a count pass, then a decode pass that writes
 * the values or the docs (kernels/mod9.cl). Docs come back as 32-bit values (a doc is below
 * 2^28), read from mapped memory like values, with r->docs left NULL. A batch's blobs are one
 * run of words with their first words marked; the decode pass leaves each blob's first offset
 * at its first word, gathered by mod9_blob_offsets. */
static int mod9_tiled(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs,
                      const cl_uint *blob_words, int mode, gp_result *r, gp_error *err)
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
	if (batch) {
		const uint8_t *bw = (const uint8_t *)blob_words;
		size_t bwlen = (n_blobs + 1) * sizeof(*blob_words);
		cl_uchar zero = 0;
		if (!(blobs_mem = gp_cl_upload(GP_B_BLOBS, &bw, &bwlen, 1, bwlen, err)) ||
		    !(first = gp_cl_buffer(GP_B_FIRST, (size_t)nw + 1, err)) ||
		    !(word_off = gp_cl_buffer(GP_B_STARTS, ((size_t)nw + 1) * 4, err)) ||
		    !(metabuf = gp_cl_buffer(GP_B_META, 2 * (n_blobs + 1) * 4, err))) {
			return GP_EDEVICE;
		}
		cl_int st = clEnqueueFillBuffer(gp_cl_queue(), first, &zero, 1, 0, (size_t)nw + 1, 0, NULL, NULL);
		if (st != CL_SUCCESS) return gp_cl_fail(err, st, "clEnqueueFillBuffer");
		k = gp_cl_kernel(GP_K_MARK_BLOB_STARTS);
		if (gp_cl_args(k, 3, A(blobs_mem), A(nb), A(first)) != CL_SUCCESS) goto args;
		if (gp_cl_run(k, n_blobs, err) != GP_OK) return GP_EDEVICE;
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
	if (!(meta = gp_alloc_array(meta_n, sizeof(*meta)))) return gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
	int rc = gp_cl_read_checked(t.err, batch ? metabuf : t.s.sums, batch ? 0 : t.s.tiles * 4, meta_n * 4,
	                            meta, err);
	if (rc != GP_OK) goto done;
	size_t total = batch ? meta[2 * n_blobs] : meta[0];
	if (gp_check_result(total, 0, err) != GP_OK) {
		rc = GP_ENOMEM;
		goto done;
	}
	r->n_blobs = n_blobs;
	r->blob_values = gp_alloc_array(n_blobs + 1, sizeof(size_t));
	r->blob_postings = gp_alloc_array(n_blobs + 1, sizeof(size_t));
	if (!r->blob_values || !r->blob_postings) {
		rc = gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
		goto done;
	}
	for (size_t b = 0; b <= n_blobs; b++) {
		r->blob_values[b] = batch ? meta[2 * b] : b ? total : 0;
		r->blob_postings[b] = docs ? r->blob_values[b] : 0;
	}
	r->n_postings = docs ? total : 0;
	rc = gp_cl_result_values(r, out, total, 32, err);
done:
	free(meta);
	return rc;
args:
	return gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
}

int gp_cl_mod9_decode(const uint8_t *const *blobs, const size_t *lens, size_t n_blobs, int mode,
                      gp_result *r, gp_error *err)
{
	size_t total = 0;
	cl_uint *blob_words = NULL, *meta = NULL, errword = 0;
	cl_uint nb = (cl_uint)n_blobs, nw;
	cl_mem input, blobs_mem, first, counts, starts, voff, poff, errbuf, metabuf, values;
	cl_mem vstart = NULL, heads = NULL, docs = NULL, comb = NULL, wsum = NULL, pos = NULL;
	int rc = GP_EDEVICE;

	for (size_t b = 0; b < n_blobs; b++) total += lens[b];
	/* offsets are 32-bit: at most 24 values a word, one doc */
	if (total / 4 >= 0xFFFFFFFFu / (mode == GP_MODE_DOCS ? 1 : GP_MOD9_MAX_PER_WORD) || n_blobs >= 0x7FFFFFFFu) {
		return gp_cl_fail(err, CL_INVALID_BUFFER_SIZE, "MOD9 batch too large for one launch");
	}
	nw = (cl_uint)(total / 4);
	size_t nw1 = (size_t)nw + 1, cap = (size_t)nw * GP_MOD9_MAX_PER_WORD;

	blob_words = gp_alloc_array(n_blobs + 1, sizeof(*blob_words));
	meta = gp_alloc_array(2 * (n_blobs + 1), sizeof(*meta));
	if (!blob_words || !meta) {
		gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc");
		goto done;
	}
	blob_words[0] = 0;
	for (size_t b = 0; b < n_blobs; b++) blob_words[b + 1] = blob_words[b] + (cl_uint)(lens[b] / 4);
	if (mode != GP_MODE_POSTINGS && nw > 0) {
		rc = mod9_tiled(blobs, lens, n_blobs, blob_words, mode, r, err);
		goto done;
	}

	{
		const uint8_t *bw = (const uint8_t *)blob_words;
		size_t bwlen = (n_blobs + 1) * sizeof(*blob_words);
		if (!(input = gp_cl_upload(GP_B_INPUT, blobs, lens, n_blobs, total, err))) goto done;
		if (!(blobs_mem = gp_cl_upload(GP_B_BLOBS, &bw, &bwlen, 1, bwlen, err))) goto done;
	}
	if (!(first = gp_cl_buffer(GP_B_FIRST, nw1, err)) ||
	    !(counts = gp_cl_buffer(GP_B_COUNTS, nw1 * 4, err)) ||
	    !(starts = gp_cl_buffer(GP_B_STARTS, nw1 * 4, err)) ||
	    !(voff = gp_cl_buffer(GP_B_OFFSETS, nw1 * 4, err)) ||
	    !(poff = gp_cl_buffer(GP_B_POFF, nw1 * 4, err)) ||
	    !(errbuf = gp_cl_buffer(GP_B_ERR, 4, err)) ||
	    !(metabuf = gp_cl_buffer(GP_B_META, 2 * (n_blobs + 1) * 4, err)) ||
	    !(values = gp_cl_buffer(GP_B_VALUES, cap * 4, err))) {
		goto done;
	}
	if (mode != GP_MODE_VALUES &&
	    (!(vstart = gp_cl_buffer(GP_B_VSTART, nw1 * 4, err)) ||
	     !(heads = gp_cl_buffer(GP_B_HEADS, nw1 * 4, err)) ||
	     !(docs = gp_cl_buffer(GP_B_DOCS, nw1 * 8, err)) ||
	     !(comb = gp_cl_buffer(GP_B_COMBINED, nw1, err)))) {
		goto done;
	}
	if (mode == GP_MODE_POSTINGS &&
	    (!(wsum = gp_cl_buffer(GP_B_WSUM, nw1 * 8, err)) ||
	     !(pos = gp_cl_buffer(GP_B_POS, cap * 8, err)))) {
		goto done;
	}

	/* Blob boundaries, counts and starts, then the offsets they scan to. */
	{
		cl_uchar zero = 0;
		cl_int st = clEnqueueFillBuffer(gp_cl_queue(), first, &zero, 1, 0, nw1, 0, NULL, NULL);
		if (st != CL_SUCCESS) { gp_cl_fail(err, st, "clEnqueueFillBuffer"); goto done; }
	}
	if (gp_cl_fill_u32(errbuf, 0xFFFFFFFFu, 4, err) != GP_OK) goto done;
	cl_kernel k = gp_cl_kernel(GP_K_MARK_BLOB_STARTS);
	if (gp_cl_args(k, 3, A(blobs_mem), A(nb), A(first)) != CL_SUCCESS ||
	    gp_cl_run(k, n_blobs, err) != GP_OK) goto launch_failed;
	k = gp_cl_kernel(GP_K_MOD9_COUNT);
	if (gp_cl_args(k, 6, A(input), A(nw), A(first), A(counts), A(starts), A(errbuf)) != CL_SUCCESS ||
	    gp_cl_run(k, nw1, err) != GP_OK) goto launch_failed;
	if (gp_cl_scan_u32(counts, voff, nw1, 0, err) != GP_OK ||
	    gp_cl_scan_u32(starts, poff, nw1, 0, err) != GP_OK) goto done;
	k = gp_cl_kernel(GP_K_MOD9_SCATTER);
	if (gp_cl_args(k, 4, A(input), A(nw), A(voff), A(values)) != CL_SUCCESS ||
	    gp_cl_run(k, nw, err) != GP_OK) goto launch_failed;

	if (mode != GP_MODE_VALUES) {
		k = gp_cl_kernel(GP_K_MOD9_HEADS);
		if (gp_cl_args(k, 6, A(nw), A(starts), A(voff), A(poff), A(vstart), A(heads)) != CL_SUCCESS ||
		    gp_cl_run(k, nw1, err) != GP_OK) goto launch_failed;
		k = gp_cl_kernel(GP_K_MOD9_DOCS);
		if (gp_cl_args(k, 8, A(values), A(vstart), A(poff), A(heads), A(nw), A(docs), A(comb),
		               A(errbuf)) != CL_SUCCESS ||
		    gp_cl_run(k, nw, err) != GP_OK) goto launch_failed;
	}
	if (mode == GP_MODE_POSTINGS) {
		k = gp_cl_kernel(GP_K_MOD9_WORD_GAPS);
		if (gp_cl_args(k, 7, A(input), A(nw), A(voff), A(poff), A(starts), A(vstart), A(wsum)) != CL_SUCCESS ||
		    gp_cl_run(k, nw1, err) != GP_OK) goto launch_failed;
		if (gp_cl_scan_i64(wsum, wsum, nw1, 0, err) != GP_OK) goto done;
		k = gp_cl_kernel(GP_K_MOD9_POSITIONS);
		if (gp_cl_args(k, 9, A(input), A(nw), A(voff), A(poff), A(starts), A(vstart), A(heads),
		               A(wsum), A(pos)) != CL_SUCCESS ||
		    gp_cl_run(k, nw, err) != GP_OK) goto launch_failed;
	}
	k = gp_cl_kernel(GP_K_MOD9_BLOB_OFFSETS);
	if (gp_cl_args(k, 5, A(blobs_mem), A(nb), A(voff), A(poff), A(metabuf)) != CL_SUCCESS ||
	    gp_cl_run(k, n_blobs + 1, err) != GP_OK) goto launch_failed;

	/* The download: error word and sizes first, then exactly the arrays the mode needs. */
	if (gp_cl_read(errbuf, 4, &errword, err) != GP_OK ||
	    gp_cl_read(metabuf, 2 * (n_blobs + 1) * 4, meta, err) != GP_OK) goto done;
	if (errword != 0xFFFFFFFFu) {
		rc = GP_EFORMAT;
		goto done;
	}
	size_t nv = meta[2 * n_blobs], np = meta[2 * n_blobs + 1];
	if (gp_check_result(mode == GP_MODE_DOCS ? np : nv, mode == GP_MODE_POSTINGS ? np : 0, err) != GP_OK) {
		rc = GP_ENOMEM;
		goto done;
	}
	r->n_blobs = n_blobs;
	r->value_bits = 32;
	r->n_values = nv;
	r->n_postings = mode == GP_MODE_VALUES ? 0 : np;
	r->blob_values = gp_alloc_array(n_blobs + 1, sizeof(size_t));
	r->blob_postings = gp_alloc_array(n_blobs + 1, sizeof(size_t));
	if (!r->blob_values || !r->blob_postings) { gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc"); goto done; }
	for (size_t b = 0; b <= n_blobs; b++) {
		r->blob_values[b] = meta[2 * b];
		r->blob_postings[b] = mode == GP_MODE_VALUES ? 0 : meta[2 * b + 1];
	}
	if (mode == GP_MODE_VALUES) {
		if (gp_cl_result_values(r, values, nv, 32, err) != GP_OK) goto done;
	} else {
		if (!(r->docs = gp_alloc_array(np, 8))) { gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc"); goto done; }
		if (gp_cl_read(docs, np * 8, r->docs, err) != GP_OK) goto done;
	}
	if (mode == GP_MODE_POSTINGS) {
		r->vstart = gp_alloc_array(np + 1, 4);
		r->combined = gp_alloc_array(np, 1);
		r->pos = gp_scratch(GP_SCRATCH_POS, nv, 8);
		if (!r->vstart || !r->combined || !r->pos) { gp_cl_fail(err, CL_OUT_OF_HOST_MEMORY, "malloc"); goto done; }
		if (gp_cl_read(vstart, (np + 1) * 4, r->vstart, err) != GP_OK ||
		    gp_cl_read(comb, np, r->combined, err) != GP_OK ||
		    gp_cl_read(pos, nv * 8, r->pos, err) != GP_OK) goto done;
	}
	r->backend = "opencl";
	rc = GP_OK;
	goto done;

launch_failed:
	if (!err || err->format == NULL) gp_cl_fail(err, CL_INVALID_KERNEL_ARGS, "clSetKernelArg");
done:
	free(blob_words);
	free(meta);
	if (rc != GP_OK) gp_result_free(r);
	return rc;
}
