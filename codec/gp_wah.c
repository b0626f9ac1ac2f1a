#include <string.h>

#include "gp_wah.h"
#include "gp_simd.h"

int gp_wah_check_header(const uint8_t *blob, size_t len, gp_wah_header *h, gp_error *err)
{
	if (len < GP_WAH_HEADER || memcmp(blob, "GPWH", 4) != 0) {
		return gp_fail(err, GP_WAH_NAME, 0, "magic is not GPWH (or the blob is shorter than its 16-byte header)");
	}
	h->w = blob[4];
	if (h->w != 32 && h->w != 64) {
		return gp_fail(err, GP_WAH_NAME, 4, "word size %u is not 32 or 64", (unsigned)h->w);
	}
	if (blob[5] || blob[6] || blob[7]) {
		return gp_fail(err, GP_WAH_NAME, 5, "reserved bytes 5-7 are not 0");
	}
	if ((len - GP_WAH_HEADER) % (h->w / 8) != 0) {
		return gp_fail(err, GP_WAH_NAME, len - (len - GP_WAH_HEADER) % (h->w / 8),
		               "length %zu is not the header plus whole %u-bit words", len, (unsigned)h->w);
	}
	h->nbits = gp_load_le64(blob + 8);
	if (h->nbits > ((uint64_t)1 << 63)) {
		/* rows are PHP ints: the last, nbits - 1, must not pass PHP_INT_MAX */
		return gp_fail(err, GP_WAH_NAME, 8, "nbits %llu is past 2^63 (its rows would not fit a 64-bit signed int)",
		               (unsigned long long)h->nbits);
	}
	h->groups = h->nbits / (h->w - 1) + (h->nbits % (h->w - 1) != 0);
	h->words = (len - GP_WAH_HEADER) / (h->w / 8);
	h->ones = 0;
	return GP_OK;
}

uint64_t gp_wah_word(const uint8_t *blob, const gp_wah_header *h, size_t i)
{
	const uint8_t *p = blob + GP_WAH_HEADER + (size_t)(h->w / 8) * i;
	return h->w == 32 ? gp_load_le32(p) : gp_load_le64(p);
}

/* Parts of a word: is it a fill, its fill bit, its run (fills) or its group bits (literals). */
#define WAH_FILL(h, x) (((x) >> ((h)->w - 1)) & 1)
#define WAH_FILL_BIT(h, x) (((x) >> ((h)->w - 2)) & 1)
#define WAH_RUN(h, x) ((x) & ((1ull << ((h)->w - 2)) - 1))
#define WAH_GROUP_MASK(h) ((1ull << ((h)->w - 1)) - 1)

/* The validating pass; built twice (gp_simd.h) for its popcounts, which the baseline x86-64 build
 * turns into calls. */
GP_ALWAYS_INLINE int wah_measure_body(const uint8_t *blob, size_t len, gp_wah_header *h,
                                      gp_error *err)
{
	uint64_t g = h->w - 1, seen = 0, tail = h->nbits % g; /* bits used in the last group */
	for (size_t i = 0; i < h->words; i++) {
		size_t at = GP_WAH_HEADER + (size_t)(h->w / 8) * i;
		uint64_t x = gp_wah_word(blob, h, i), run = WAH_FILL(h, x) ? WAH_RUN(h, x) : 1;
		if (run == 0) {
			return gp_fail(err, GP_WAH_NAME, at, "fill of length 0");
		}
		if (run > h->groups - seen) {
			return gp_fail(err, GP_WAH_NAME, at, "groups pass ceil(nbits/%u) = %llu",
			               (unsigned)g, (unsigned long long)h->groups);
		}
		seen += run;
		if (seen == h->groups && tail != 0) {
			uint64_t last = WAH_FILL(h, x) ? (WAH_FILL_BIT(h, x) ? WAH_GROUP_MASK(h) : 0) : x;
			if (last >> tail) {
				return gp_fail(err, GP_WAH_NAME, at, "bits set past nbits = %llu", (unsigned long long)h->nbits);
			}
		}
		h->ones += WAH_FILL(h, x) ? (WAH_FILL_BIT(h, x) ? run * g : 0)
		                          : (uint64_t)__builtin_popcountll(x & WAH_GROUP_MASK(h));
	}
	if (seen != h->groups) {
		return gp_fail(err, GP_WAH_NAME, len, "groups add up to %llu, ceil(nbits/%u) is %llu",
		               (unsigned long long)seen, (unsigned)g, (unsigned long long)h->groups);
	}
	return GP_OK;
}

GP_BUILD_TWICE(int, wah_measure, wah_measure_body,
               (const uint8_t *blob, size_t len, gp_wah_header *h, gp_error *err), (blob, len, h, err))

int gp_wah_measure(const uint8_t *blob, size_t len, gp_wah_header *h, gp_error *err)
{
	if (gp_wah_check_header(blob, len, h, err) != GP_OK) return GP_EFORMAT;
	return wah_measure(blob, len, h, err);
}

void gp_wah_rows(const uint8_t *blob, const gp_wah_header *h, int64_t *rows)
{
	uint64_t g = h->w - 1, row = 0;
	for (size_t i = 0; i < h->words; i++) {
		uint64_t x = gp_wah_word(blob, h, i);
		if (WAH_FILL(h, x)) {
			uint64_t span = WAH_RUN(h, x) * g;
			if (WAH_FILL_BIT(h, x)) {
				for (uint64_t r = 0; r < span && row + r < h->nbits; r++) *rows++ = (int64_t)(row + r);
			}
			row += span;
		} else {
			uint64_t bits = x & WAH_GROUP_MASK(h);
			while (bits) {
				*rows++ = (int64_t)(row + (uint64_t)__builtin_ctzll(bits));
				bits &= bits - 1;
			}
			row += g;
		}
	}
}

/* Sets (value 1) or clears (value 0) bits [from, from+count) of a 64-bit-word bitmap. */
static void bitmap_fill(uint64_t *bm, uint64_t from, uint64_t count, int value)
{
	while (count > 0) {
		uint64_t word = from / 64, off = from % 64, take = 64 - off < count ? 64 - off : count;
		uint64_t mask = (take == 64 ? ~0ull : ((1ull << take) - 1)) << off;
		if (off == 0 && count >= 64 * 8) {
			uint64_t whole = count / 64;
			memset(bm + word, value ? 0xFF : 0, whole * 8);
			from += whole * 64;
			count -= whole * 64;
			continue;
		}
		bm[word] = value ? bm[word] | mask : bm[word] & ~mask;
		from += take;
		count -= take;
	}
}

/* Combines the g bits `bits` at row `from` into the bitmap with op. */
static void bitmap_group(uint64_t *bm, uint64_t from, uint64_t bits, uint64_t g, uint64_t nbits, int op)
{
	uint64_t word = from / 64, off = from % 64;
	uint64_t mask = g == 64 ? ~0ull : (1ull << g) - 1;
	uint64_t nwords = (nbits + 63) / 64;
	for (int part = 0; part < 2 && word < nwords; part++, word++) {
		uint64_t m = part == 0 ? mask << off : (off ? mask >> (64 - off) : 0);
		uint64_t v = part == 0 ? bits << off : (off ? bits >> (64 - off) : 0);
		if (!m) break;
		if (op == GP_WAH_OR) bm[word] |= v & m;
		else if (op == GP_WAH_AND) bm[word] &= v | ~m;
		else bm[word] = (bm[word] & ~m) | (v & m);
	}
}

void gp_wah_apply(const uint8_t *blob, const gp_wah_header *h, uint64_t *bitmap, int op)
{
	uint64_t g = h->w - 1, row = 0;
	for (size_t i = 0; i < h->words; i++) {
		uint64_t x = gp_wah_word(blob, h, i);
		if (WAH_FILL(h, x)) {
			uint64_t span = WAH_RUN(h, x) * g, bit = WAH_FILL_BIT(h, x);
			if (row + span > h->nbits) span = h->nbits - row;
			if ((op == GP_WAH_OR && bit) || (op == GP_WAH_AND && !bit) || op == GP_WAH_COPY) {
				bitmap_fill(bitmap, row, span, (int)bit);
			}
			row += WAH_RUN(h, x) * g;
		} else {
			bitmap_group(bitmap, row, x & WAH_GROUP_MASK(h), g, h->nbits, op);
			row += g;
		}
	}
}

GP_ALWAYS_INLINE size_t bitmap_rows_body(const uint64_t *bitmap, uint64_t nbits, int64_t *rows)
{
	size_t n = 0, words = (size_t)((nbits + 63) / 64);
	for (size_t i = 0; i < words; i++) {
		uint64_t b = bitmap[i];
		if (!rows) {
			n += (size_t)__builtin_popcountll(b);
			continue;
		}
		while (b) {
			rows[n++] = (int64_t)(64 * (uint64_t)i + (uint64_t)__builtin_ctzll(b));
			b &= b - 1;
		}
	}
	return n;
}

GP_BUILD_TWICE(size_t, bitmap_rows, bitmap_rows_body,
               (const uint64_t *bitmap, uint64_t nbits, int64_t *rows), (bitmap, nbits, rows))

size_t gp_bitmap_rows(const uint64_t *bitmap, uint64_t nbits, int64_t *rows)
{
	return bitmap_rows(bitmap, nbits, rows);
}

/* Writes one word (or only counts it when out is NULL). */
static void put_word(uint8_t *out, size_t *at, uint32_t w, uint64_t x)
{
	if (out) {
		if (w == 32) gp_store_le32(out + *at, (uint32_t)x); else gp_store_le64(out + *at, x);
	}
	*at += w / 8;
}

static void put_fill(uint8_t *out, size_t *at, uint32_t w, uint64_t bit, uint64_t run)
{
	uint64_t max = (1ull << (w - 2)) - 1;
	while (run > 0) {
		uint64_t r = run < max ? run : max;
		if (r == 1) { /* a lone group is a literal */
			put_word(out, at, w, bit ? (1ull << (w - 1)) - 1 : 0);
		} else {
			put_word(out, at, w, (1ull << (w - 1)) | (bit << (w - 2)) | r);
		}
		run -= r;
	}
}

size_t gp_wah_encode(const int64_t *rows, size_t n, uint64_t nbits, uint32_t w, uint8_t *out)
{
	uint64_t g = w - 1, groups = nbits / g + (nbits % g != 0), full = (1ull << g) - 1;
	uint64_t k = 0;           /* next group to emit */
	uint64_t ones_run;
	size_t at = GP_WAH_HEADER, i = 0;
	if (out) {
		memcpy(out, "GPWH", 4);
		out[4] = (uint8_t)w;
		out[5] = out[6] = out[7] = 0;
		gp_store_le64(out + 8, nbits);
	}
	while (k < groups) {
		if (i >= n) { /* zeros to the end */
			put_fill(out, &at, w, 0, groups - k);
			k = groups;
			break;
		}
		uint64_t gk = (uint64_t)rows[i] / g;
		if (gk > k) {
			put_fill(out, &at, w, 0, gk - k);
			k = gk;
		}
		uint64_t bits = 0;
		while (i < n && (uint64_t)rows[i] / g == k) {
			bits |= 1ull << ((uint64_t)rows[i] % g);
			i++;
		}
		if (bits == full) { /* gather a run of all-1 groups */
			ones_run = 1;
			while (i + g <= n && (uint64_t)rows[i] == (k + ones_run) * g &&
			       (uint64_t)rows[i + g - 1] == (k + ones_run) * g + g - 1) {
				i += g;
				ones_run++;
			}
			put_fill(out, &at, w, 1, ones_run);
			k += ones_run;
		} else {
			put_word(out, &at, w, bits);
			k++;
		}
	}
	return at;
}

uint64_t gp_wah_estimate_rows(const uint8_t *blob, const gp_wah_header *h)
{
	size_t step = h->words / 64 + 1, sampled = 0;
	double rows = 0;   /* a fill's run may be near 2^62 groups: no integer overflow */
	for (size_t i = 0; i < h->words; i += step, sampled++) {
		uint64_t x = gp_wah_word(blob, h, i);
		if (!WAH_FILL(h, x)) rows += (double)__builtin_popcountll(x & WAH_GROUP_MASK(h));
		else if (WAH_FILL_BIT(h, x)) rows += (double)WAH_RUN(h, x) * (double)(h->w - 1);
	}
	double est = sampled ? rows / (double)sampled * (double)h->words : 0;
	return est < (double)h->nbits ? (uint64_t)est : h->nbits;
}

int gp_wah_check_rows(const int64_t *rows, size_t n, uint64_t nbits, size_t *at)
{
	for (size_t i = 0; i < n; i++) {
		if (rows[i] < 0 || (i > 0 && rows[i] <= rows[i - 1])) {
			*at = i;
			return GP_EVALUE;
		}
	}
	if (n && (uint64_t)rows[n - 1] >= nbits) {
		*at = n;
		return GP_EVALUE;
	}
	return GP_OK;
}
