/* libFuzzer harness for codec/gp_qs.c: validation and decoding; a valid blob re-encoded with its
 * own l must come out byte for byte (Elias-Fano is unique given n, l and the list). */
#include "fuzz_common.h"
#include "../codec/gp_qs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_qs_header h;
	gp_error err;
	if (gp_qs_measure(data, size, &h, &err) != GP_OK) {
		FUZZ_CHECK(err.offset <= size);
		return 0;
	}
	uint32_t *x = fuzz_alloc((size_t)h.n * sizeof(uint32_t));
	if (gp_qs_decode(data, &h, x, &err) != GP_OK) {
		free(x);
		return 0;
	}
	FUZZ_CHECK(h.n == 0 || x[h.n - 1] == h.last);
	size_t len = gp_qs_encoded_size(h.last, h.n, h.l);
	FUZZ_CHECK(len == size);
	uint8_t *enc = calloc(1, len);
	FUZZ_CHECK(enc != NULL);
	gp_qs_encode(x, h.n, h.l, enc);
	FUZZ_CHECK(memcmp(enc, data, size) == 0);
	free(enc);
	free(x);
	return 0;
}
