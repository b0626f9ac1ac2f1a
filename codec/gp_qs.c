#include <math.h>
#include <string.h>

#include "gp_qs.h"
#include "gp_simd.h"

static size_t upper_bits(uint32_t last, size_t n, uint32_t l)
{
	return n == 0 ? 0 : (size_t)(last >> l) + n;
}

size_t gp_qs_encoded_size(uint32_t last, size_t n, uint32_t l)
{
	return GP_QS_HEADER + 4 * (((uint64_t)n * l + 31) / 32) + 4 * ((upper_bits(last, n, l) + 31) / 32);
}

int gp_qs_check_header(const uint8_t *blob, size_t len, gp_qs_header *h, gp_error *err)
{
	if (len < GP_QS_HEADER || blob[0] != 'G' || blob[1] != 'P' || blob[2] != 'Q' || blob[3] != 'S') {
		return gp_fail(err, GP_QS_NAME, 0, "magic is not GPQS (or the blob is shorter than its 16-byte header)");
	}
	if (blob[4] != 1) {
		return gp_fail(err, GP_QS_NAME, 4, "version %u is not 1", (unsigned)blob[4]);
	}
	h->l = blob[5];
	if (h->l > 31) {
		return gp_fail(err, GP_QS_NAME, 5, "lower-bit width l = %u is above 31", (unsigned)h->l);
	}
	if (blob[6] != 0 || blob[7] != 0) {
		return gp_fail(err, GP_QS_NAME, 6, "reserved bytes 6-7 are not 0");
	}
	h->n = gp_load_le32(blob + 8);
	h->last = gp_load_le32(blob + 12);
	if (h->n == 0 && h->last != 0) {
		return gp_fail(err, GP_QS_NAME, 12, "last is %u for an empty list (must be 0)", (unsigned)h->last);
	}
	h->lower_words = (size_t)(((uint64_t)h->n * h->l + 31) / 32);
	h->upper_words = (upper_bits(h->last, h->n, h->l) + 31) / 32;
	uint64_t want = GP_QS_HEADER + 4 * ((uint64_t)h->lower_words + h->upper_words);
	if ((uint64_t)len != want) {
		return gp_fail(err, GP_QS_NAME, 8, "length %zu, but n = %u, l = %u and last = %u make it %llu",
		               len, (unsigned)h->n, (unsigned)h->l, (unsigned)h->last, (unsigned long long)want);
	}
	return GP_OK;
}

/* Set bits of the upper array; built twice (gp_simd.h) for the popcounts, which the baseline
 * x86-64 build turns into calls. */
GP_ALWAYS_INLINE size_t qs_upper_ones_body(const uint8_t *upper, size_t words)
{
	size_t set = 0;
	for (size_t j = 0; j < words; j++) set += (size_t)__builtin_popcount(gp_load_le32(upper + 4 * j));
	return set;
}

GP_BUILD_TWICE(size_t, qs_upper_ones, qs_upper_ones_body, (const uint8_t *upper, size_t words),
               (upper, words))

int gp_qs_measure(const uint8_t *blob, size_t len, gp_qs_header *h, gp_error *err)
{
	if (gp_qs_check_header(blob, len, h, err) != GP_OK) return GP_EFORMAT;
	const uint8_t *upper = blob + GP_QS_HEADER + 4 * h->lower_words;
	uint64_t lower_bits = (uint64_t)h->n * h->l;
	if (lower_bits % 32 != 0 && (gp_load_le32(upper - 4) >> (lower_bits % 32)) != 0) {
		return gp_fail(err, GP_QS_NAME, (size_t)(upper - blob) - 4,
		               "lower bits set past bit %llu, n * l - 1", (unsigned long long)lower_bits - 1);
	}
	size_t nbits = upper_bits(h->last, h->n, h->l), set = qs_upper_ones(upper, h->upper_words);
	if (h->upper_words > 0) {
		size_t valid = nbits - 32 * (h->upper_words - 1); /* 1..32 bits of the last word count */
		if (valid < 32 && (gp_load_le32(upper + 4 * (h->upper_words - 1)) >> valid) != 0) {
			return gp_fail(err, GP_QS_NAME, (size_t)(upper - blob) + 4 * (h->upper_words - 1),
			               "upper bits set past bit %zu, (last >> l) + n - 1", nbits - 1);
		}
	}
	if (set != h->n) {
		return gp_fail(err, GP_QS_NAME, (size_t)(upper - blob),
		               "upper bits hold %zu set bits, n is %u", set, (unsigned)h->n);
	}
	if (h->n > 0) {
		/* the highest set bit is element n-1's: (x >> l) + n - 1 */
		size_t j = h->upper_words - 1;
		uint32_t w;
		while ((w = gp_load_le32(upper + 4 * j)) == 0) j--;
		size_t top = 32 * j + 31 - (size_t)__builtin_clz(w);
		uint64_t hi = top - (h->n - 1);
		const uint8_t *lower = blob + GP_QS_HEADER;
		uint64_t lo = 0;
		if (h->l) {
			uint64_t bit = (uint64_t)(h->n - 1) * h->l, word = bit / 32;
			uint64_t win = gp_load_le32(lower + 4 * word);
			if (word + 1 < h->lower_words) win |= (uint64_t)gp_load_le32(lower + 4 * word + 4) << 32;
			lo = (win >> (bit % 32)) & ((1ull << h->l) - 1);
		}
		if (((hi << h->l) | lo) != h->last) {
			return gp_fail(err, GP_QS_NAME, 12, "last = %u, but the list ends with %llu",
			               (unsigned)h->last, (unsigned long long)((hi << h->l) | lo));
		}
	}
	return GP_OK;
}

/* Whether out[a..b) decreases anywhere from out[a - 1] on (a >= 1): eight pairs compared at
 * once. */
GP_ALWAYS_INLINE uint32_t qs_decreases(const uint32_t *out, size_t a, size_t b)
{
	uint32_t dec = 0;
	size_t k = a;
#if defined(__GNUC__)
	gp_u32x8 acc = {0, 0, 0, 0, 0, 0, 0, 0};
	for (; k + 8 <= b; k += 8) {
		gp_u32x8 x, y;
		memcpy(&x, out + k, sizeof x);
		memcpy(&y, out + k - 1, sizeof y);
		acc |= (gp_u32x8)(x < y);
	}
	for (int j = 0; j < 8; j++) dec |= acc[j];
#endif
	for (; k < b; k++) dec |= out[k] < out[k - 1];
	return dec;
}

/* Elements in upper-bit order, the upper bits 64 at a time; the lower bits read as a stream (a
 * 64-bit buffer refilled 32 bits at a time: the n * l bits of the lower array, never past it).
 * Returns whether the list decreases somewhere (the caller names the element); that is checked
 * apart from the loop, a few thousand values at a time while they are in cache (with 32-bit
 * arithmetic: 0.85 -> 1.07-1.09 G values/s for a mean gap of 16 on one core of the development
 * machine, the two versions alternated in one process). */
GP_ALWAYS_INLINE uint32_t qs_decode_body(const uint8_t *blob, const gp_qs_header *h, uint32_t *out)
{
	const uint8_t *lower = blob + GP_QS_HEADER, *upper = lower + 4 * h->lower_words;
	uint32_t l = h->l, mask = l ? (uint32_t)((1ull << l) - 1) : 0, dec = 0, have = 0;
	uint64_t buf = 0;
	size_t i = 0, next = 0, n = h->n, checked = 1;
	for (size_t j = 0; j < h->upper_words && i < n; j += 2) {
		/* 64 upper bits at a time; hb: the high part of the next value less its bit position
		 * (32-bit arithmetic: a measured blob's values are below 2^32) */
		uint64_t w = gp_load_le32(upper + 4 * j);
		if (j + 1 < h->upper_words) w |= (uint64_t)gp_load_le32(upper + 4 * j + 4) << 32;
		uint32_t hb = (uint32_t)(32 * j - i);
		for (; w; w &= w - 1, i++, hb--) {
			if (have < l) {
				buf |= (uint64_t)gp_load_le32(lower + 4 * next++) << have;
				have += 32;
			}
			out[i] = ((hb + (uint32_t)__builtin_ctzll(w)) << l) | ((uint32_t)buf & mask);
			buf >>= l;
			have -= l;
		}
		if (i >= checked + 4096) {
			dec |= qs_decreases(out, checked, i);
			checked = i;
		}
	}
	if (i > checked) dec |= qs_decreases(out, checked, i);
	return dec;
}

GP_BUILD_TWICE(uint32_t, qs_decode, qs_decode_body,
               (const uint8_t *blob, const gp_qs_header *h, uint32_t *out), (blob, h, out))

int gp_qs_decode(const uint8_t *blob, const gp_qs_header *h, uint32_t *out, gp_error *err)
{
	if (qs_decode(blob, h, out)) {
		for (size_t i = 1; i < h->n; i++) {
			if (out[i] < out[i - 1]) {
				return gp_fail(err, GP_QS_NAME, GP_QS_HEADER + (size_t)((uint64_t)i * h->l / 32) * 4,
				               "the list decreases at element %zu (lower bits out of order)", i);
			}
		}
	}
	return GP_OK;
}

uint32_t gp_qs_choose_l(uint32_t last, size_t n, double c)
{
	uint32_t l = 0;
	if (n == 0) return 0;
	double v = c * (double)last / (double)n;
	while (l < 31 && ldexp(1.0, (int)l + 1) <= v) l++;
	return l;
}

void gp_qs_encode(const uint32_t *x, size_t n, uint32_t l, uint8_t *out)
{
	uint32_t last = n ? x[n - 1] : 0;
	size_t lower_words = (size_t)(((uint64_t)n * l + 31) / 32);
	uint8_t *lower = out + GP_QS_HEADER, *upper = lower + 4 * lower_words;
	out[0] = 'G'; out[1] = 'P'; out[2] = 'Q'; out[3] = 'S';
	out[4] = 1;
	out[5] = (uint8_t)l;
	gp_store_le32(out + 8, (uint32_t)n);
	gp_store_le32(out + 12, last);
	for (size_t i = 0; i < n; i++) {
		if (l) {
			uint64_t lo = x[i] & (uint32_t)((1ull << l) - 1), bit = (uint64_t)i * l;
			for (uint32_t b = 0; b < l; b++, bit++) {
				if ((lo >> b) & 1) lower[bit / 8] |= (uint8_t)(1u << (bit % 8));
			}
		}
		size_t ub = (size_t)(x[i] >> l) + i;
		upper[ub / 8] |= (uint8_t)(1u << (ub % 8));
	}
}

int gp_qs_check_values(const int64_t *values, size_t n, size_t *at)
{
	if (n > UINT32_MAX) {
		*at = n;
		return GP_EVALUE;
	}
	for (size_t i = 0; i < n; i++) {
		if (values[i] < 0 || values[i] > (int64_t)UINT32_MAX || (i > 0 && values[i] < values[i - 1])) {
			*at = i;
			return GP_EVALUE;
		}
	}
	return GP_OK;
}
