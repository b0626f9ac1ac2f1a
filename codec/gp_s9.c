#include "gp_s9.h"
#include "gp_delta.h"
#include "gp_s9_word.h"
#include "gp_simd.h"

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

/* Per selector: the value count and bits, and per lane the shift and mask of values j = 0..27
 * (the first in the most significant slot; lanes past the count read 0). */
typedef struct s9_layout {
	gp_u32x8 shift[4], mask[4];
	uint32_t count, bits;
} s9_layout;

static s9_layout s9_layouts[16];

static const s9_layout *s9_layout_table(void)
{
	if (s9_layouts[8].count == 0) {
		for (uint32_t s = 0; s < 16; s++) {
			uint32_t c = s <= 8 ? gp_s9_count(s) : 0, bits = s <= 8 ? gp_s9_bits(s) : 1;
			uint32_t shift[32], mask[32];
			for (uint32_t j = 0; j < 32; j++) {
				shift[j] = j < c ? 28 - (j + 1) * bits : 0;
				mask[j] = j < c ? (1u << bits) - 1 : 0;
			}
			memcpy(s9_layouts[s].shift, shift, sizeof(shift));
			memcpy(s9_layouts[s].mask, mask, sizeof(mask));
			s9_layouts[s].bits = bits;
			s9_layouts[s].count = c; /* last: selector 8's count marks the table built */
		}
	}
	return s9_layouts;
}

/* Unpacks a measured blob's words eight values at a time into gaps (32 spare slots past the
 * last word's values), then applies the delta rule in the same pass: out[k] is the running sum
 * of the gaps (plus k for the strict rule), or the gap itself for delta 0. */
GP_ALWAYS_INLINE size_t s9_decode_body(const uint8_t *blob, size_t n, size_t words, uint32_t delta,
                                       int64_t *out)
{
	const s9_layout *layout = s9_layout_table();
	uint32_t gaps[32];
	int64_t step = delta == 2 ? 1 : 0, x = -step; /* the first value has no gap before it */
	size_t k = 0;
	for (size_t i = 0; i < words; i++) {
		uint32_t w = gp_load_le32(blob + GP_S9_HEADER + 4 * i);
		const s9_layout *lay = &layout[w >> 28];
		uint32_t c = i + 1 < words ? lay->count : (uint32_t)(n - k); /* the last word: the rest */
		if (delta == 0 && c <= 8 && k + 8 <= n) {
			/* values as stored: eight written whatever the count, no loop on it (1.0-1.3 ->
			 * 1.25-2.05 G values/s for values under 2^8 on one core of the development
			 * machine, measured interleaved; the running sums of the delta rules were slower
			 * done this way across the lanes) */
			gp_unpack8_i64(w, &lay->shift[0], &lay->mask[0], out + k);
			k += c;
			continue;
		}
		gp_unpack8(w, &lay->shift[0], &lay->mask[0], gaps);
		if (c > 8) {
			gp_unpack8(w, &lay->shift[1], &lay->mask[1], gaps + 8);
			if (c > 16) {
				gp_unpack8(w, &lay->shift[2], &lay->mask[2], gaps + 16);
				gp_unpack8(w, &lay->shift[3], &lay->mask[3], gaps + 24);
			}
		}
		if (delta == 0) {
			for (uint32_t j = 0; j < c; j++) out[k + j] = gaps[j];
		} else {
			for (uint32_t j = 0; j < c; j++) {
				x += (int64_t)gaps[j] + step;
				out[k + j] = x;
			}
		}
		k += c;
	}
	return k;
}

GP_BUILD_TWICE(size_t, s9_decode, s9_decode_body,
               (const uint8_t *blob, size_t n, size_t words, uint32_t delta, int64_t *out),
               (blob, n, words, delta, out))

void gp_s9_decode(const uint8_t *blob, size_t len, int64_t *out)
{
	s9_decode(blob, gp_load_le32(blob + 4), (len - GP_S9_HEADER) / 4, gp_load_le32(blob + 8), out);
}

size_t gp_s9_encode(const int64_t *x, size_t n, uint32_t delta, uint8_t *out, const char **why,
                    size_t *at)
{
	/* gaps under the delta rule, checked first so that nothing is half written */
	size_t pos = gp_delta_header(x, n, delta, GP_S9_MAX_VALUE, INT64_MAX, "GPS9", out, at);
	if (pos == 0) {
		*why = delta == 0 ? "values must be 0..2^28-1" :
		       delta == 1 ? "values must be non-decreasing from 0, gaps below 2^28" :
		       "values must be strictly increasing from 0, gaps below 2^28";
		return 0;
	}
	for (size_t i = 0; i < n;) {
		/* the densest selector whose slots hold the next values (all that are left, if fewer) */
		for (uint32_t s = 8;; s--) {
			uint32_t c = gp_s9_count(s), bits = gp_s9_bits(s), w = s << 28;
			size_t m = n - i < c ? n - i : c, j;
			for (j = 0; j < m; j++) {
				size_t k = i + j;
				int64_t v = gp_delta_stored(x, k, delta);
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
