#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_common.h"
#include "gp_delta.h"
#include "gp_result.h"

char *gp_printable(const char *bytes, size_t len, size_t most, char *out, size_t cap)
{
	size_t o = 0;
	if (cap == 0) return out;
	for (size_t i = 0; i < len && i < most; i++) {
		unsigned char c = (unsigned char)bytes[i];
		int printable = c >= 0x20 && c < 0x7F && c != '\\';
		if (o + (printable ? 1 : 4) + 4 > cap) break;
		if (printable) out[o++] = (char)c;
		else o += (size_t)snprintf(out + o, cap - o, "\\x%02X", c);
	}
	if (len > most && o + 4 <= cap) o += (size_t)snprintf(out + o, cap - o, "...");
	out[o] = '\0';
	return out;
}

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
 * costs a page fault per 4 KiB, as much as decoding into it. Kept up to GP_SCRATCH_KEEP bytes
 * each, and between calls up to what gp_scratch_trim allows. */
#define GP_SCRATCH_KEEP ((size_t)256 << 20)
static struct { void *mem; size_t size; } scratch[GP_SCRATCH_COUNT];

void gp_array_set(gp_array *a, void *data, unsigned width, gp_owner owner)
{
	a->data = data;
	a->width = width;
	a->owner = data ? owner : GP_OWN_NONE;
}

void gp_array_free(gp_array *a)
{
	if (a->owner == GP_OWN_HEAP) free(a->data);
	memset(a, 0, sizeof(*a));
}

int gp_array_alloc(gp_array *a, size_t count, unsigned width)
{
	gp_array_free(a);
	void *p = gp_alloc_array(count, width);
	if (!p) return GP_ENOMEM;
	gp_array_set(a, p, width, GP_OWN_HEAP);
	return GP_OK;
}

int gp_array_scratch(gp_array *a, int slot, size_t count, unsigned width)
{
	if (width != 0 && count > SIZE_MAX / width) return GP_ENOMEM;
	size_t bytes = count * width;
	if (bytes > GP_SCRATCH_KEEP) return gp_array_alloc(a, count, width);
	if (scratch[slot].size < bytes || !scratch[slot].mem) {
		void *mem = malloc(bytes ? bytes : 1);
		if (!mem) return GP_ENOMEM;
		free(scratch[slot].mem);
		scratch[slot].mem = mem;
		scratch[slot].size = bytes;
	}
	gp_array_set(a, scratch[slot].mem, width, GP_OWN_SCRATCH);
	return GP_OK;
}

int gp_array_grow(gp_array *a, int slot, size_t keep, size_t count, unsigned width, size_t *capacity)
{
	if (width == 0 || count > SIZE_MAX / width) return GP_ENOMEM;
	size_t bytes = count * width;
	if (a->owner == GP_OWN_SCRATCH || !a->data) {
		if (scratch[slot].mem && scratch[slot].size >= bytes) {
			gp_array_set(a, scratch[slot].mem, width, GP_OWN_SCRATCH);
			*capacity = scratch[slot].size / width;
			return GP_OK;
		}
		if (bytes <= GP_SCRATCH_KEEP) {   /* the kept buffer grows, its contents with it */
			void *mem = realloc(scratch[slot].mem, bytes ? bytes : 1);
			if (!mem) return GP_ENOMEM;
			scratch[slot].mem = mem;
			scratch[slot].size = bytes;
			gp_array_set(a, mem, width, GP_OWN_SCRATCH);
			*capacity = count;
			return GP_OK;
		}
	}
	/* past what is kept between calls: a buffer of this result's own */
	void *mem = gp_alloc_array(count, width);
	if (!mem) return GP_ENOMEM;
	if (keep && a->data) memcpy(mem, a->data, keep * width);
	gp_array_free(a);
	gp_array_set(a, mem, width, GP_OWN_HEAP);
	*capacity = count;
	return GP_OK;
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
	gp_scratch_trim(0);
}

int gp_result_begin(gp_result *r, size_t n_blobs)
{
	r->n_blobs = n_blobs;
	r->blob_values = calloc(n_blobs + 1, sizeof(size_t));
	r->blob_postings = calloc(n_blobs + 1, sizeof(size_t));
	return r->blob_values && r->blob_postings ? GP_OK : GP_ENOMEM;
}

void gp_result_lend(gp_result *r, void *base, void (*release)(void *lent))
{
	r->lent = base;
	r->release = release;
}

/* A borrowed array's first count elements copied into a HEAP array of its own. */
static int gp_array_keep(gp_array *a, size_t count)
{
	if (a->owner != GP_OWN_LENT && a->owner != GP_OWN_SCRATCH) return GP_OK;
	void *copy = gp_alloc_array(count ? count : 1, a->width);
	if (!copy) return GP_ENOMEM;
	memcpy(copy, a->data, count * a->width);
	gp_array_set(a, copy, a->width, GP_OWN_HEAP);
	return GP_OK;
}

int gp_result_own(gp_result *r)
{
	size_t np = r->n_postings, nv = r->n_values;
	if (gp_array_keep(&r->values, nv) != GP_OK || gp_array_keep(&r->docs, np) != GP_OK ||
	    gp_array_keep(&r->vstart, r->vstart.data ? np + 1 : 0) != GP_OK ||
	    gp_array_keep(&r->combined, np) != GP_OK || gp_array_keep(&r->pos, nv) != GP_OK) {
		return GP_ENOMEM;
	}
	if (r->lent && r->release) r->release(r->lent);
	r->lent = NULL;
	r->release = NULL;
	return GP_OK;
}

void gp_result_free(gp_result *r)
{
	gp_result *next = r->next;
	while (next) {   /* the parts after this one (a call split over devices) */
		gp_result *after = next->next;
		next->next = NULL;
		gp_result_free(next);
		free(next);
		next = after;
	}
	gp_array_free(&r->values);
	gp_array_free(&r->docs);
	gp_array_free(&r->vstart);
	gp_array_free(&r->combined);
	gp_array_free(&r->pos);
	if (r->lent && r->release) r->release(r->lent);
	free(r->blob_values);
	free(r->blob_postings);
	const gp_budget *budget = r->budget;
	memset(r, 0, sizeof(*r));
	r->budget = budget;
}

int gp_check_result(const gp_result *r, uint64_t values, uint64_t postings, gp_error *err)
{
	const gp_budget *b = r->budget;
	if (!b) return GP_OK;
	/* C: a 32- or 64-bit value and a position per value; a doc, a value index and a form per
	 * posting; the face's copies: their floor */
	uint64_t c = gp_add_sat(gp_mul_sat(values, 12), gp_mul_sat(postings, 16));
	uint64_t face = postings ? gp_face_postings_floor(b, postings, values - (values >= postings ? postings : values), b->lists)
	                         : gp_face_lists_floor(b, values, b->lists);
	char what[120];
	snprintf(what, sizeof(what), "the decoded result (%llu values, %llu postings)",
	         (unsigned long long)values, (unsigned long long)postings);
	return gp_budget_check(b, face, c, what, err);
}

size_t gp_delta_check(const int64_t *x, size_t n, uint32_t delta, uint64_t max_stored, uint64_t max_value)
{
	for (size_t i = 0; i < n; i++) {
		if (x[i] < 0 || (uint64_t)x[i] > max_value) return i;
		int64_t v = gp_delta_stored(x, i, delta);   /* both non-negative: no overflow */
		if (v < 0 || (uint64_t)v > max_stored) return i;
	}
	return n;
}

size_t gp_delta_header(const int64_t *x, size_t n, uint32_t delta, uint64_t max_stored, uint64_t max_value,
                       const char *magic, uint8_t *out, size_t *at)
{
	if ((*at = gp_delta_check(x, n, delta, max_stored, max_value)) < n) return 0;
	memcpy(out, magic, 4);
	gp_store_le32(out + 4, (uint32_t)n);
	gp_store_le32(out + 8, delta);
	return GP_DELTA_HEADER;
}
