/* libFuzzer harness for codec/gp_gvarint.c: the SIMD and the portable decoders against a
 * reference written from FORMATS.md (the same values, or an error at the same byte), then what
 * decoded re-encoded under the same delta rule to a blob that decodes to the same list. */
#include "fuzz_common.h"
#include "../codec/gp_gvarint.h"

/* FORMATS.md's GROUP_VARINT, group by group: GP_OK, or GP_EFORMAT with the offset of the first
 * error. */
static int ref_gvarint(const uint8_t *d, size_t size, uint32_t *out, size_t *at)
{
	if (size < 12 || memcmp(d, "GPGV", 4) != 0) return *at = 0, GP_EFORMAT;
	uint32_t n = (uint32_t)d[4] | (uint32_t)d[5] << 8 | (uint32_t)d[6] << 16 | (uint32_t)d[7] << 24;
	uint32_t delta = (uint32_t)d[8] | (uint32_t)d[9] << 8 | (uint32_t)d[10] << 16 | (uint32_t)d[11] << 24;
	if (delta > 2) return *at = 8, GP_EFORMAT;
	if (((size_t)n + 3) / 4 * 5 > size - 12) return *at = 4, GP_EFORMAT;
	size_t p = 12;
	int64_t x = 0;
	for (uint32_t g = 0; g < (n + 3) / 4; g++) {
		size_t start = p;
		if (p == size) return *at = start, GP_EFORMAT;
		unsigned sel = d[p++], need = 0;
		for (unsigned j = 0; j < 4; j++) need += ((sel >> (2 * j)) & 3) + 1;
		if (size - p < need) return *at = start, GP_EFORMAT;
		for (unsigned j = 0; j < 4; j++) {
			unsigned bytes = ((sel >> (2 * j)) & 3) + 1;
			uint64_t v = 0;
			for (unsigned b = 0; b < bytes; b++) v |= (uint64_t)d[p++] << (8 * b);
			uint32_t i = 4 * g + j;
			if (i >= n) {
				if (bytes != 1 || v != 0) return *at = start, GP_EFORMAT;
				continue;
			}
			/* rule 0: x_i = v_i; 1: x_i = x_{i-1} + v_i; 2: x_0 = v_0, x_i = x_{i-1} + v_i + 1 */
			x = delta == 0 || i == 0 ? (int64_t)v : x + (int64_t)v + (delta == 2);
			if (x > (int64_t)UINT32_MAX) return *at = start, GP_EFORMAT;
			out[i] = (uint32_t)x;
		}
	}
	if (p != size) return *at = p, GP_EFORMAT;
	return GP_OK;
}

static size_t gvarint_bound(size_t n) { return gp_gvarint_encode_bound(n); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const fuzz_bytes_codec codec = {ref_gvarint, gp_gvarint_decode, gp_gvarint_decode_portable, gp_gvarint_check_header,
	                                       gp_gvarint_encode, gvarint_bound};
	fuzz_bytes(&codec, data, size);
	return 0;
}
