/* libFuzzer harness for codec/gp_vbyte.c: the SIMD and the portable decoders against a reference
 * written from FORMATS.md (the same values, or an error at the same byte), then what decoded
 * re-encoded under the same delta rule to a blob that decodes to the same list. */
#include "fuzz_common.h"
#include "../codec/gp_vbyte.h"

/* FORMATS.md's VBYTE, value by value: GP_OK, or GP_EFORMAT with the offset of the first error. */
static int ref_vbyte(const uint8_t *d, size_t size, uint32_t *out, size_t *at)
{
	if (size < 12 || memcmp(d, "GPVB", 4) != 0) return *at = 0, GP_EFORMAT;
	uint32_t n = (uint32_t)d[4] | (uint32_t)d[5] << 8 | (uint32_t)d[6] << 16 | (uint32_t)d[7] << 24;
	uint32_t delta = (uint32_t)d[8] | (uint32_t)d[9] << 8 | (uint32_t)d[10] << 16 | (uint32_t)d[11] << 24;
	if (delta > 2) return *at = 8, GP_EFORMAT;
	if (n > size - 12) return *at = 4, GP_EFORMAT;
	size_t p = 12;
	int64_t x = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (p == size) return *at = 4, GP_EFORMAT;   /* fewer values than n */
		size_t start = p;
		uint64_t v = 0;
		for (unsigned b = 0;; b++) {
			if (b == 5 || p == size) return *at = start, GP_EFORMAT;
			v |= (uint64_t)(d[p] & 0x7F) << (7 * b);
			if (!(d[p++] & 0x80)) break;
		}
		if (v > UINT32_MAX) return *at = start, GP_EFORMAT;
		/* rule 0: x_i = v_i; 1: x_i = x_{i-1} + v_i; 2: x_0 = v_0, x_i = x_{i-1} + v_i + 1 */
		x = delta == 0 || i == 0 ? (int64_t)v : x + (int64_t)v + (delta == 2);
		if (x > (int64_t)UINT32_MAX) return *at = start, GP_EFORMAT;
		out[i] = (uint32_t)x;
	}
	if (p != size) return *at = p, GP_EFORMAT;
	return GP_OK;
}

static size_t vbyte_bound(size_t n) { return gp_vbyte_encode_bound(n); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const fuzz_bytes_codec codec = {ref_vbyte, gp_vbyte_decode, gp_vbyte_decode_portable, gp_vbyte_check_header,
	                                       gp_vbyte_encode, vbyte_bound};
	fuzz_bytes(&codec, data, size);
	return 0;
}
