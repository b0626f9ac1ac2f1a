#include "gp_s9.h"
#include "gp_s9_word.h"

int gp_s9_check_header(const uint8_t *blob, size_t len, size_t *n, uint32_t *delta, gp_error *err)
{
	if (len < GP_S9_HEADER || blob[0] != 'G' || blob[1] != 'P' || blob[2] != 'S' || blob[3] != '9') {
		return gp_fail(err, GP_S9_NAME, 0, "magic is not GPS9 (or the blob is shorter than its 12-byte header)");
	}
	if (len % 4 != 0) {
		return gp_fail(err, GP_S9_NAME, len - len % 4, "length %zu is not a whole number of 32-bit words", len);
	}
	*n = gp_load_le32(blob + 4);
	*delta = gp_load_le32(blob + 8);
	size_t words = (len - GP_S9_HEADER) / 4;
	if (*delta > 2) {
		return gp_fail(err, GP_S9_NAME, 8, "delta rule %u is not 0, 1 or 2", (unsigned)*delta);
	}
	if ((*n == 0) != (words == 0) || *n > 28 * words) {
		return gp_fail(err, GP_S9_NAME, 4, "value count %zu does not fit %zu words", *n, words);
	}
	return GP_OK;
}

int gp_s9_measure(const uint8_t *blob, size_t len, size_t *n, uint32_t *delta, gp_error *err)
{
	if (gp_s9_check_header(blob, len, n, delta, err) != GP_OK) return GP_EFORMAT;
	size_t words = (len - GP_S9_HEADER) / 4, seen = 0;
	for (size_t i = 0; i < words; i++) {
		size_t at = GP_S9_HEADER + 4 * i;
		uint32_t w = gp_load_le32(blob + at), s = w >> 28, c = gp_s9_count(s);
		if (s > 8) {
			return gp_fail(err, GP_S9_NAME, at, "selector %u is above 8", (unsigned)s);
		}
		if (i + 1 < words) {
			seen += c;
			if (seen >= *n) {
				return gp_fail(err, GP_S9_NAME, at, "words hold more values than n = %zu", *n);
			}
		} else {
			size_t rest = *n - seen;
			if (rest > c) {
				return gp_fail(err, GP_S9_NAME, 4, "words hold %zu values, n says %zu", seen + c, *n);
			}
			if (gp_s9_unused_bits(w, gp_s9_bits(s), (uint32_t)rest) != 0) {
				return gp_fail(err, GP_S9_NAME, at, "unused slots of the last word are not 0");
			}
		}
	}
	return GP_OK;
}

/* Writes the c values of a full word; constant arguments let the compiler unroll each case. */
#define S9_UNPACK(c, bits)                                                           \
	do {                                                                           \
		for (uint32_t j = 0; j < (c); j++)                                         \
			out[k + j] = (w >> (28 - (j + 1) * (bits))) & ((1u << (bits)) - 1);     \
	} while (0)

void gp_s9_decode(const uint8_t *blob, size_t len, int64_t *out)
{
	size_t n = gp_load_le32(blob + 4), words = (len - GP_S9_HEADER) / 4, k = 0;
	uint32_t delta = gp_load_le32(blob + 8);
	/* every word but the last is full (measured): unpack those whole, the last slot by slot */
	for (size_t i = 0; i + 1 < words; i++) {
		uint32_t w = gp_load_le32(blob + GP_S9_HEADER + 4 * i);
		switch (w >> 28) {
		case 0: S9_UNPACK(1, 28); k += 1; break;
		case 1: S9_UNPACK(2, 14); k += 2; break;
		case 2: S9_UNPACK(3, 9); k += 3; break;
		case 3: S9_UNPACK(4, 7); k += 4; break;
		case 4: S9_UNPACK(5, 5); k += 5; break;
		case 5: S9_UNPACK(7, 4); k += 7; break;
		case 6: S9_UNPACK(9, 3); k += 9; break;
		case 7: S9_UNPACK(14, 2); k += 14; break;
		default: S9_UNPACK(28, 1); k += 28; break;
		}
	}
	if (words > 0) {
		uint32_t w = gp_load_le32(blob + GP_S9_HEADER + 4 * (words - 1)), bits = gp_s9_bits(w >> 28);
		for (uint32_t j = 0; k < n; j++, k++) out[k] = gp_s9_value(w, bits, j);
	}
	/* the delta rule: a running sum (plus the index for the strict rule) */
	if (delta != 0) {
		int64_t x = 0, step = delta == 2 ? 1 : 0;
		for (size_t i = 0; i < n; i++) {
			x += out[i] + (i ? step : 0);
			out[i] = x;
		}
	}
}

size_t gp_s9_encode(const int64_t *x, size_t n, uint32_t delta, uint8_t *out, const char **why,
                    size_t *at)
{
	size_t pos = GP_S9_HEADER;
	/* gaps under the delta rule, checked first so that nothing is half written */
	for (size_t i = 0; i < n; i++) {
		int64_t prev = i == 0 ? 0 : x[i - 1];
		int64_t v = delta == 0 || i == 0 ? x[i] : x[i] - prev - (delta == 2 ? 1 : 0);
		if (x[i] < 0 || v < 0 || v > (int64_t)GP_S9_MAX_VALUE) {
			*why = delta == 0 ? "values must be 0..2^28-1" :
			       delta == 1 ? "values must be non-decreasing from 0, gaps below 2^28" :
			       "values must be strictly increasing from 0, gaps below 2^28";
			*at = i;
			return 0;
		}
	}
	out[0] = 'G'; out[1] = 'P'; out[2] = 'S'; out[3] = '9';
	gp_store_le32(out + 4, (uint32_t)n);
	gp_store_le32(out + 8, delta);
	for (size_t i = 0; i < n;) {
		/* the densest selector whose slots hold the next values (all that are left, if fewer) */
		for (uint32_t s = 8;; s--) {
			uint32_t c = gp_s9_count(s), bits = gp_s9_bits(s), w = s << 28;
			size_t m = n - i < c ? n - i : c, j;
			for (j = 0; j < m; j++) {
				size_t k = i + j;
				int64_t v = delta == 0 || k == 0 ? x[k] : x[k] - x[k - 1] - (delta == 2 ? 1 : 0);
				if ((uint64_t)v >> bits) break;
				w |= (uint32_t)v << (28 - (j + 1) * bits);
			}
			if (j == m) {
				gp_store_le32(out + pos, w);
				pos += 4;
				i += m;
				break;
			}
		}
	}
	return pos;
}
