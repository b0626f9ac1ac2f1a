/* The one shape every decoder, host or device, fills in: flat C arrays for a batch of blobs,
 * sliced per blob by offset tables. The PHP glue turns it into arrays and frees it. */
#ifndef GP_RESULT_H
#define GP_RESULT_H

#include "gp_common.h"
#include "gp_budget.h"

/* Output modes (GPUPOST_VALUES, GPUPOST_DOCS, GPUPOST_POSTINGS). */
enum { GP_MODE_VALUES = 0, GP_MODE_DOCS = 1, GP_MODE_POSTINGS = 2 };

typedef struct gp_result {
	size_t n_blobs;
	/* Values of all blobs, blob b owning [blob_values[b], blob_values[b+1]). Exactly one of
	 * v32 / v64 is used, as value_bits says (MOD9 and QS values fit 32 bits; S9 running sums and
	 * WAH row numbers need 64). */
	int value_bits;
	uint32_t *v32;
	int64_t *v64;
	size_t n_values;
	size_t *blob_values;      /* n_blobs + 1 */

	/* Postings (MOD9 DOCS and POSTINGS modes), blob b owning [blob_postings[b], ...[b+1]). */
	size_t n_postings;
	size_t *blob_postings;    /* n_blobs + 1 */
	int64_t *docs;            /* n_postings; in DOCS mode NULL when the docs are the values
	                           * (v32, blob_values = blob_postings): the device's one-list decode */
	/* POSTINGS mode only. Posting p's values are [vstart[p], vstart[p+1]) (indices into the
	 * values); pos[j] is the running position at value j within its posting. The first value is
	 * the doc; in the combined form (combined[p] = 1) it also carries the first gap, so the
	 * positions of p are pos[vstart[p] + !combined[p] .. vstart[p+1]). */
	uint32_t *vstart;         /* n_postings + 1 */
	uint8_t *combined;        /* n_postings */
	int64_t *pos;             /* n_values */
	uint32_t *pos32;          /* or, instead, 32-bit (the device's, when every one fits) */

	const char *backend;      /* "host" or "opencl": who produced it */
	const gp_budget *budget;  /* what the call may build (kept by gp_result_free) */

	/* Arrays that live in memory lent by their producer (the device's pinned staging buffer):
	 * those within [lent, lent + lent_bytes) are handed back by release instead of freed. */
	void *lent;
	size_t lent_bytes;
	void (*release)(void *lent);
} gp_result;

void gp_result_free(gp_result *r);
/* r borrows [base, base + bytes) from its producer: the arrays there are handed back by
 * release(base) instead of freed. */
void gp_result_lend(gp_result *r, void *base, size_t bytes, void (*release)(void *lent));

/* A reusable buffer for a result's values (GP_SCRATCH_VALUES) or positions (GP_SCRATCH_POS):
 * valid until the next call that asks for the same slot, never freed by gp_result_free. */
enum { GP_SCRATCH_VALUES, GP_SCRATCH_POS, GP_SCRATCH_COUNT };
void *gp_scratch(int slot, size_t count, size_t size);
void gp_scratch_release(void);
/* Bytes the scratch buffers hold; frees the largest until at most keep bytes are held. */
size_t gp_scratch_bytes(void);
void gp_scratch_trim(size_t keep);

/* The budget check of a decode (gp_budget.h) once its counts are known and before anything is
 * sized from them: `values` values (DOCS: the docs) and, in POSTINGS mode, `postings` postings
 * over them; the C buffers for them and a floor of their PHP arrays against r->budget.
 * GP_ENOMEM with err naming the sizes when over. */
int gp_check_result(const gp_result *r, uint64_t values, uint64_t postings, gp_error *err);

/* Allocation that refuses sizes whose byte count would overflow size_t. */
void *gp_alloc_array(size_t count, size_t size);

#endif
