#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_common.h"
#include "gp_result.h"

int gp_fail(gp_error *err, const char *format, size_t offset, const char *rule, ...)
{
	if (err) {
		va_list ap;
		err->code = GP_EFORMAT;
		err->format = format;
		err->offset = offset;
		err->cl_status = 0;
		va_start(ap, rule);
		vsnprintf(err->rule, sizeof(err->rule), rule, ap);
		va_end(ap);
	}
	return GP_EFORMAT;
}

void *gp_alloc_array(size_t count, size_t size)
{
	if (size != 0 && count > SIZE_MAX / size) {
		return NULL;
	}
	/* malloc(0) may return NULL; one byte keeps "no elements" distinct from "no memory". */
	return malloc(count * size != 0 ? count * size : 1);
}

/* Reusable host buffers for the two largest result arrays: a fresh multi-megabyte malloc per call
 * costs a page fault per 4 KiB, as much as decoding into it. Kept up to GP_SCRATCH_KEEP bytes. */
#define GP_SCRATCH_KEEP ((size_t)256 << 20)
static struct { void *mem; size_t size; } scratch[GP_SCRATCH_COUNT];

void *gp_scratch(int slot, size_t count, size_t size)
{
	if (size != 0 && count > SIZE_MAX / size) return NULL;
	size_t bytes = count * size;
	if (bytes > GP_SCRATCH_KEEP) return gp_alloc_array(count, size);
	if (scratch[slot].size < bytes || !scratch[slot].mem) {
		void *mem = malloc(bytes ? bytes : 1);
		if (!mem) return NULL;
		free(scratch[slot].mem);
		scratch[slot].mem = mem;
		scratch[slot].size = bytes;
	}
	return scratch[slot].mem;
}

static void gp_free_unless_scratch(void *p)
{
	for (int s = 0; s < GP_SCRATCH_COUNT; s++) {
		if (p && p == scratch[s].mem) return;
	}
	free(p);
}

size_t gp_scratch_bytes(void)
{
	size_t held = 0;
	for (int s = 0; s < GP_SCRATCH_COUNT; s++) held += scratch[s].mem ? scratch[s].size : 0;
	return held;
}

void gp_scratch_trim(size_t keep)
{
	while (gp_scratch_bytes() > keep) {
		int largest = 0;
		for (int s = 1; s < GP_SCRATCH_COUNT; s++) {
			if (scratch[s].size > scratch[largest].size) largest = s;
		}
		free(scratch[largest].mem);
		scratch[largest].mem = NULL;
		scratch[largest].size = 0;
	}
}

void gp_scratch_release(void)
{
	for (int s = 0; s < GP_SCRATCH_COUNT; s++) {
		free(scratch[s].mem);
		scratch[s].mem = NULL;
		scratch[s].size = 0;
	}
}

/* Whether p lies in the memory r borrows (handed back, not freed). */
static int gp_result_lent(const gp_result *r, const void *p)
{
	const char *c = p, *lent = r->lent;
	return p && lent && c >= lent && c < lent + r->lent_bytes;
}

void gp_result_lend(gp_result *r, void *base, size_t bytes, void (*release)(void *lent))
{
	r->lent = base;
	r->lent_bytes = bytes;
	r->release = release;
}

void gp_result_free(gp_result *r)
{
	if (r->lent && r->release) r->release(r->lent);
	if (!gp_result_lent(r, r->v32)) gp_free_unless_scratch(r->v32);
	if (!gp_result_lent(r, r->v64)) gp_free_unless_scratch(r->v64);
	free(r->blob_values);
	free(r->blob_postings);
	if (!gp_result_lent(r, r->docs)) free(r->docs);
	if (!gp_result_lent(r, r->vstart)) free(r->vstart);
	if (!gp_result_lent(r, r->combined)) free(r->combined);
	if (!gp_result_lent(r, r->pos)) gp_free_unless_scratch(r->pos);
	if (!gp_result_lent(r, r->pos32)) free(r->pos32);
	const gp_budget *budget = r->budget;
	memset(r, 0, sizeof(*r));
	r->budget = budget;
}

int gp_check_result(const gp_result *r, uint64_t values, uint64_t postings, gp_error *err)
{
	const gp_budget *b = r->budget;
	if (!b) return GP_OK;
	/* C: a 32- or 64-bit value and a position per value; a doc, a value index and a form per
	 * posting; PHP: the arrays, at least */
	uint64_t c = gp_add_sat(gp_mul_sat(values, 12), gp_mul_sat(postings, 16));
	uint64_t php = postings ? gp_php_postings_floor(postings, values - (values >= postings ? postings : values), b->lists)
	                        : gp_php_lists_floor(values, b->lists);
	char what[120];
	snprintf(what, sizeof(what), "the decoded result (%llu values, %llu postings)",
	         (unsigned long long)values, (unsigned long long)postings);
	return gp_budget_check(b, php, c, what, err);
}
