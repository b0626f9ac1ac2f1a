/* The C tests' small indexes, built as a face builds them (through include/gpupost.h and
 * include/gpupost_codec.h). */
#ifndef GP_TESTS_S9_INDEX_H
#define GP_TESTS_S9_INDEX_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/gpupost.h"
#include "../../include/gpupost_codec.h"

/* An S9 index of the given lists (docs non-decreasing), terms "t0", "t1", ... */
static gp_index *s9_index(size_t n, const int64_t *const *lists, const size_t *lens, const gp_budget *budget, gp_error *err)
{
	char names[16][24] = {{0}};
	const char *terms[16] = {0};
	size_t term_lens[16] = {0}, blob_lens[16] = {0};
	uint8_t *blobs[16] = {0};
	for (size_t t = 0; t < n && t < 16; t++) {
		snprintf(names[t], sizeof(names[t]), "t%zu", t);
		terms[t] = names[t];
		term_lens[t] = strlen(names[t]);
		blobs[t] = malloc(gp_s9_encode_bound(lens[t]));
		const char *why;
		size_t at;
		blob_lens[t] = gp_s9_encode(lists[t], lens[t], 1, blobs[t], &why, &at);
	}
	gp_index *ix = NULL;
	int rc = gp_index_build(GP_IX_S9, n, terms, term_lens, (const uint8_t *const *)blobs, blob_lens, budget, &ix, err);
	for (size_t t = 0; t < n; t++) free(blobs[t]);
	return rc == GP_OK ? ix : NULL;
}

#endif
