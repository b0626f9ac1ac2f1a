/* Lists already on the device (GpuPost\Index's compressed lists, kernels/index.cl) decoded by
 * the formats' own tiled passes, the output left on the device for the index's kernels: n
 * blobs, blob i's bytes at blobs[i] on the host (its header is read there) and from word
 * word_at[i] of `input` on the device. Lists an index accepted: no error is read back. */
#ifndef GP_CL_RESIDENT_H
#define GP_CL_RESIDENT_H

#include "gp_cl_internal.h"

typedef struct gp_cl_resident_lists {
	cl_mem input;
	const uint8_t *const *blobs;
	const size_t *lens;
	const cl_uint *word_at;
	size_t n;
} gp_cl_resident_lists;

/* S9: the docs, 64-bit (GP_B_OUT_64), blob after blob. */
int gp_cl_s9_resident(const gp_cl_resident_lists *in, cl_mem *docs, gp_error *err);
/* QS: the docs, 32-bit (GP_B_OUT_32), blob after blob. */
int gp_cl_qs_resident(const gp_cl_resident_lists *in, cl_mem *docs, gp_error *err);

/* MOD9: the blobs' words gathered back to back in `words` (GP_B_INPUT, blob_words[i] the first
 * of blob i, n + 1 entries), decoded DOCS (`postings` 0: o->docs32, 32-bit) or POSTINGS
 * (o->docs, o->vstart, o->combined and o->pos32 as gpu_decode_postings lays them out), for at
 * most `values` values. */
typedef struct gp_cl_mod9_out {
	cl_mem docs32, docs, vstart, combined, pos32;
} gp_cl_mod9_out;
int gp_cl_mod9_resident(cl_mem words, const cl_uint *blob_words, size_t n, int postings,
                        size_t values, gp_cl_mod9_out *o, gp_error *err);

#endif
