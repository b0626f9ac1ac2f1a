/* The one shape every decoder, host or device, fills in: flat C arrays for a batch of blobs,
 * sliced per blob by offset tables. The PHP glue turns it into arrays and frees it. */
#ifndef GP_RESULT_H
#define GP_RESULT_H

#include "gp_common.h"
#include "gp_budget.h"

/* Output modes (GPUPOST_VALUES, GPUPOST_DOCS, GPUPOST_POSTINGS). */
enum { GP_MODE_VALUES = 0, GP_MODE_DOCS = 1, GP_MODE_POSTINGS = 2 };

/* Who frees an array of a result. */
typedef enum {
	GP_OWN_NONE = 0,   /* no array */
	GP_OWN_HEAP,       /* malloc'd for this result: freed with it */
	GP_OWN_SCRATCH,    /* a buffer kept between calls (gp_scratch): never freed with a result */
	GP_OWN_LENT        /* the producer's memory (the device's pinned staging): handed back once,
	                    * by the result's release */
} gp_owner;

/* One array of a result: its elements, their width in bytes (1, 4 or 8) and its owner. */
typedef struct gp_array {
	void *data;
	unsigned width;
	gp_owner owner;
} gp_array;

static inline uint32_t gp_array_u32(const gp_array *a, size_t i) { return ((const uint32_t *)a->data)[i]; }
static inline int64_t gp_array_i64(const gp_array *a, size_t i) { return ((const int64_t *)a->data)[i]; }

/* A result, batch-shaped (a single call is a batch of one), as its output mode fills it:
 * VALUES: values, blob b owning [blob_values[b], blob_values[b + 1]);
 * DOCS: docs, blob b owning [blob_postings[b], blob_postings[b + 1]);
 * POSTINGS: docs, vstart, combined and pos: posting p's values are [vstart[p], vstart[p + 1])
 * (indices into the blob's values), the first value is the doc and, in the combined form
 * (combined[p] = 1), also the first gap, so the positions of p are pos[vstart[p] + !combined[p]
 * .. vstart[p + 1]). The glue turns it into PHP arrays and frees it. */
typedef struct gp_result {
	size_t n_blobs;
	size_t n_values, n_postings;
	size_t *blob_values;      /* n_blobs + 1 */
	size_t *blob_postings;    /* n_blobs + 1 */
	gp_array values;          /* VALUES: n_values, 32-bit (MOD9, QS) or 64-bit (S9, WAH rows) */
	gp_array docs;            /* DOCS, POSTINGS: n_postings docs, 32- or 64-bit */
	gp_array vstart;          /* POSTINGS: n_postings + 1 32-bit first value indices */
	gp_array combined;        /* POSTINGS: n_postings 8-bit forms */
	gp_array pos;             /* POSTINGS: n_values running positions, 32- or 64-bit */

	const char *backend;      /* "host" or "opencl": who produced it */
	const gp_budget *budget;  /* what the call may build (kept by gp_result_free) */

	/* the producer's memory the GP_OWN_LENT arrays lie in, and how it is handed back */
	void *lent;
	void (*release)(void *lent);

	/* a batch split over several devices: the part holding the blobs after these (malloc'd,
	 * freed with this one), NULL in the last part or a result of one part */
	struct gp_result *next;
} gp_result;

/* The part of a result holding its blob *b, with *b made the blob's index in that part. */
static inline const gp_result *gp_result_part(const gp_result *r, size_t *b)
{
	while (*b >= r->n_blobs && r->next) {
		*b -= r->n_blobs;
		r = r->next;
	}
	return r;
}

/* The per-blob offsets of a result of n_blobs blobs, zeroed: GP_ENOMEM when they cannot be had. */
int gp_result_begin(gp_result *r, size_t n_blobs);

/* Frees what the result owns (its HEAP arrays, its offsets, its later parts), hands back what
 * it borrowed, and clears it (keeping its budget). */
void gp_result_free(gp_result *r);
/* r's arrays made its own: what it borrowed (LENT, SCRATCH) copied to the heap and handed back,
 * so that the producer may be used again while r is held. GP_ENOMEM when the copies cannot be
 * had (r is unchanged but for the arrays already copied). */
int gp_result_own(gp_result *r);
/* r borrows memory from its producer: release(base) hands it back when r is freed; the arrays
 * set with GP_OWN_LENT lie in it. */
void gp_result_lend(gp_result *r, void *base, void (*release)(void *lent));

/* a->data becomes data, of `width`-byte elements, owned by `owner`. */
void gp_array_set(gp_array *a, void *data, unsigned width, gp_owner owner);
/* A new HEAP array of count elements (GP_ENOMEM when it cannot be had; a HEAP array held before
 * is freed first). */
int gp_array_alloc(gp_array *a, size_t count, unsigned width);
void gp_array_free(gp_array *a);

/* A reusable buffer for a result's values (GP_SCRATCH_VALUES) or positions (GP_SCRATCH_POS):
 * valid until the next call that asks for the same slot; the array is SCRATCH-owned, unless it is
 * too large to keep (then HEAP). GP_ENOMEM when it cannot be had. */
enum { GP_SCRATCH_VALUES, GP_SCRATCH_POS, GP_SCRATCH_COUNT };
int gp_array_scratch(gp_array *a, int slot, size_t count, unsigned width);
/* Grows a (from gp_array_scratch of the same slot, or empty) to at least count elements, keeping
 * its first `keep`; *capacity gets the elements it can hold now. GP_ENOMEM when it cannot. */
int gp_array_grow(gp_array *a, int slot, size_t keep, size_t count, unsigned width, size_t *capacity);
void gp_scratch_release(void);
/* Bytes the scratch buffers hold; frees the largest until at most keep bytes are held. */
size_t gp_scratch_bytes(void);
void gp_scratch_trim(size_t keep);

/* The budget check of a decode (gp_budget.h) once its counts are known and before anything is
 * sized from them: `values` values (DOCS: the docs) and, in POSTINGS mode, `postings` postings
 * over them; the C buffers for them and a floor of the face's copies against r->budget.
 * GP_ENOMEM with err naming the sizes when over. */
int gp_check_result(const gp_result *r, uint64_t values, uint64_t postings, gp_error *err);

/* Allocation that refuses sizes whose byte count would overflow size_t. */
void *gp_alloc_array(size_t count, size_t size);

#endif
