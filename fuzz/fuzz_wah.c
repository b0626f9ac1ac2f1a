/* libFuzzer harness for codec/gp_wah.c: validation, set rows, the bitmap operations (COPY then
 * OR/AND with itself must not change it), and re-encoding the rows to an equivalent bitmap. */
#include "fuzz_common.h"
#include "../codec/gp_wah.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_wah_header h;
	gp_error err;
	/* the device path's estimate reads any blob whose header passed: within nbits */
	if (gp_wah_check_header(data, size, &h, NULL) == GP_OK) FUZZ_CHECK(gp_wah_estimate_rows(data, &h) <= h.nbits);
	if (gp_wah_measure(data, size, &h, &err) != GP_OK) {
		FUZZ_CHECK(err.offset <= size);
		return 0;
	}
	if (h.nbits > ((uint64_t)1 << 24)) return 0; /* keep the bitmap small; validation ran */
	int64_t *rows = fuzz_alloc((size_t)h.ones * sizeof(int64_t));
	gp_wah_rows(data, &h, rows);
	for (uint64_t i = 0; i < h.ones; i++) {
		FUZZ_CHECK(rows[i] >= 0 && (uint64_t)rows[i] < h.nbits && (i == 0 || rows[i] > rows[i - 1]));
	}
	size_t words = (size_t)(h.nbits / 64 + 1);
	uint64_t *bm = calloc(words, 8), *bm2 = calloc(words, 8);
	FUZZ_CHECK(bm && bm2);
	gp_wah_apply(data, &h, bm, GP_WAH_COPY);
	FUZZ_CHECK(gp_bitmap_rows(bm, h.nbits, NULL) == h.ones);
	memcpy(bm2, bm, words * 8);
	gp_wah_apply(data, &h, bm2, GP_WAH_OR);
	gp_wah_apply(data, &h, bm2, GP_WAH_AND);
	FUZZ_CHECK(memcmp(bm, bm2, words * 8) == 0);
	int64_t *rows2 = fuzz_alloc((size_t)h.ones * sizeof(int64_t));
	gp_bitmap_rows(bm, h.nbits, rows2);
	FUZZ_CHECK(memcmp(rows, rows2, (size_t)h.ones * sizeof(int64_t)) == 0);
	/* encode the rows again: a valid bitmap with the same rows */
	size_t len = gp_wah_encode(rows, (size_t)h.ones, h.nbits, h.w, NULL);
	uint8_t *enc = fuzz_alloc(len);
	FUZZ_CHECK(gp_wah_encode(rows, (size_t)h.ones, h.nbits, h.w, enc) == len);
	gp_wah_header h2;
	FUZZ_CHECK(gp_wah_measure(enc, len, &h2, &err) == GP_OK && h2.ones == h.ones);
	FUZZ_CHECK(len <= size); /* the encoder's fills are never longer than any valid input */
	gp_wah_rows(enc, &h2, rows2);
	FUZZ_CHECK(memcmp(rows, rows2, (size_t)h.ones * sizeof(int64_t)) == 0);
	free(enc);
	free(rows2);
	free(bm2);
	free(bm);
	free(rows);
	return 0;
}
