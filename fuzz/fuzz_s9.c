/* libFuzzer harness for codec/gp_s9.c: validation, decoding, and re-encoding what decoded (same
 * delta rule) to a blob that decodes to the same list. */
#include "fuzz_common.h"
#include "../codec/gp_s9.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n;
	uint32_t delta;
	gp_error err;
	if (gp_s9_measure(data, size, &n, &delta, &err) != GP_OK) {
		FUZZ_CHECK(err.offset <= size);
		return 0;
	}
	int64_t *x = fuzz_alloc(n * sizeof(int64_t));
	gp_s9_decode(data, size, x);
	uint8_t *enc = fuzz_alloc(gp_s9_encode_bound(n));
	const char *why;
	size_t at, len = gp_s9_encode(x, n, delta, enc, &why, &at);
	FUZZ_CHECK(len > 0);
	size_t n2;
	uint32_t d2;
	FUZZ_CHECK(gp_s9_measure(enc, len, &n2, &d2, &err) == GP_OK && n2 == n && d2 == delta);
	int64_t *y = fuzz_alloc(n * sizeof(int64_t));
	gp_s9_decode(enc, len, y);
	FUZZ_CHECK(memcmp(x, y, n * sizeof(int64_t)) == 0);
	free(y);
	free(enc);
	free(x);
	return 0;
}
