/* A block of a version 2 list (docs/FORMATS.md, "Index files, version 2"): up to GP_BLOCK
 * postings, their docs Elias-Fano coded relative to the block's base (the doc after the block
 * before's last), so that a cursor finds the first doc at least x without decoding the block
 * (Vigna's quasi-succinct indices, partitioned), then per posting its position count, first
 * position and position gaps, bit-packed. The layout is what a block's header, its posting count
 * and its span (from the skip entries) say; gp_block_open computes it, and every reader goes
 * through it. A block is read only after its list was checked (gp_index_v2.c), so that the
 * inline readers below need no bounds of their own beyond the bit stream's end. */
#ifndef GP_BLOCK_H
#define GP_BLOCK_H

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define GP_BLOCK 128          /* postings a block, all but a list's last */
#define GP_BLOCK_HEADER 4     /* l, count bits, first-position bits, gap bits */

typedef struct gp_block {
	uint64_t base;            /* doc of value 0 */
	uint64_t span;            /* the last doc - base */
	uint32_t n;               /* postings */
	uint32_t l, bc, bf, bg;   /* widths: lower bits, position counts, first positions, gaps */
	uint32_t upper_words;     /* the upper bits: (span >> l) + n of them, in 64-bit words */
	const uint8_t *upper;     /* upper_words little-endian words */
	const uint8_t *bits;      /* the bit stream: lower bits, counts, firsts, gaps */
	size_t bits_len;          /* its bytes */
	uint64_t count_at, first_at, gaps_at;   /* the fields' first bits in it */
} gp_block;

/* Upper words a block needs. */
static inline uint64_t gp_block_upper_words(uint64_t span, uint32_t n, uint32_t l)
{
	return ((span >> l) + n + 63) / 64;
}

/* The lower-bit width the writer picks: floor(log2((span + 1) / n)), 0 below 2. */
static inline uint32_t gp_block_pick_l(uint64_t span, uint32_t n)
{
	uint64_t q = (span + 1) / n;
	uint32_t l = 0;
	while (l < 32 && (q >> (l + 1)) != 0) l++;
	return l;
}

/* The block's layout from its bytes [p, p + len), base, span and posting count; 0 when the bytes
 * cannot hold what the header says (widths past 32, the upper words or the fields' bits past
 * the end: the gaps' bits are checked by the list's check, which knows the counts). */
static inline int gp_block_open(gp_block *b, const uint8_t *p, size_t len, uint64_t base, uint64_t span, uint32_t n,
                                int positional)
{
	if (len < GP_BLOCK_HEADER || n == 0 || n > GP_BLOCK) return 0;
	b->base = base;
	b->span = span;
	b->n = n;
	b->l = p[0];
	b->bc = p[1];
	b->bf = p[2];
	b->bg = p[3];
	if (b->l > 32 || b->bc > 32 || b->bf > 32 || b->bg > 32) return 0;
	if (!positional && (b->bc | b->bf | b->bg)) return 0;
	uint64_t words = gp_block_upper_words(span, n, b->l);
	if (words > (len - GP_BLOCK_HEADER) / 8) return 0;
	b->upper_words = (uint32_t)words;
	b->upper = p + GP_BLOCK_HEADER;
	b->bits = b->upper + words * 8;
	b->bits_len = len - GP_BLOCK_HEADER - (size_t)words * 8;
	b->count_at = (uint64_t)n * b->l;
	b->first_at = b->count_at + (uint64_t)n * b->bc;
	b->gaps_at = b->first_at + (uint64_t)n * b->bf;
	return b->gaps_at <= (uint64_t)b->bits_len * 8;
}

/* w bits (0 to 32) of the stream from bit `at`, least significant first; bits past the stream's
 * end read as 0 (the list's check refuses a block whose fields run past it). */
static inline uint32_t gp_bits_get(const uint8_t *s, size_t len, uint64_t at, uint32_t w)
{
	if (w == 0) return 0;
	uint64_t byte = at >> 3, v = 0;
	if (byte + 8 <= len) {
		memcpy(&v, s + byte, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = __builtin_bswap64(v);
#endif
	} else {
		for (uint64_t k = 0; byte + k < len && k < 8; k++) v |= (uint64_t)s[byte + k] << (8 * k);
	}
	return (uint32_t)((v >> (at & 7)) & ((w == 32) ? 0xFFFFFFFFull : ((1ull << w) - 1)));
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(GP_NO_AVX2)
#define GP_BITS_AVX2 1
/* gp_bits_avx2.c: whether the processor has AVX2, and eight values at a time with it (w up to
 * 25; how many it unpacked from the first, a multiple of eight, 0 where it does not apply). */
extern int gp_bits_have_avx2;
uint32_t gp_bits_unpack_avx2(const uint8_t *s, size_t len, uint64_t at, uint32_t w, uint32_t n, uint32_t *out);
/* The same, each value written as *sum plus it and those before it (*sum left at the last). */
uint32_t gp_bits_unpack_sum_avx2(const uint8_t *s, size_t len, uint64_t at, uint32_t w, uint32_t n, uint32_t *sum,
                                 uint32_t *out);
#else
#define GP_BITS_AVX2 0
#endif

/* n values of w bits (1 to 32) from bit `at` of the stream into out: eight at a time with AVX2
 * where it applies, else a load and a shift each while eight bytes remain, the last ones byte by
 * byte. */
static inline void gp_bits_unpack(const uint8_t *s, size_t len, uint64_t at, uint32_t w, uint32_t n, uint32_t *out)
{
	const uint64_t mask = w == 32 ? 0xFFFFFFFFull : (1ull << w) - 1;
	uint32_t i = 0;
#if GP_BITS_AVX2
	if (n >= 16 && gp_bits_have_avx2) {
		i = gp_bits_unpack_avx2(s, len, at, w, n, out);
		at += (uint64_t)i * w;
		out += i;
		n -= i;
		i = 0;
	}
#endif
	if (len >= 8 && at <= (uint64_t)(len - 8) * 8) {
		/* values whose eight bytes lie within the stream: all of them, as a rule (no division) */
		uint64_t fast = at + (uint64_t)n * w <= (uint64_t)(len - 8) * 8 ? n : ((uint64_t)(len - 8) * 8 - at) / w + 1;
		if (fast > n) fast = n;
		for (; i < fast; i++) {
			uint64_t bit = at + (uint64_t)i * w, v;
			memcpy(&v, s + (bit >> 3), 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			v = __builtin_bswap64(v);
#endif
			out[i] = (uint32_t)((v >> (bit & 7)) & mask);
		}
	}
	for (; i < n; i++) out[i] = gp_bits_get(s, len, at + (uint64_t)i * w, w);
}

static inline uint64_t gp_block_word(const gp_block *b, uint64_t w)
{
	uint64_t v;
	memcpy(&v, b->upper + w * 8, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* Set bits of a word: the instruction where the build targets it, else without the library call
 * a compiler makes where POPCNT is not the baseline. */
static inline uint32_t gp_popcount64(uint64_t x)
{
#ifdef __POPCNT__
	return (uint32_t)__builtin_popcountll(x);
#else
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
	return (uint32_t)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* The position of the k-th (from 0) set bit of x (k below its set bits), without a loop over
 * bytes: the bytes' running counts, compared with k all at once (each byte's high bit set where
 * the count is at most k: they are a prefix), give the byte; then the bit within it. */
static inline uint32_t gp_select64(uint64_t x, uint32_t k)
{
	const uint64_t ones8 = 0x0101010101010101ull, high8 = 0x8080808080808080ull;
	uint64_t b = x - ((x >> 1) & 0x5555555555555555ull);
	b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
	b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full;
	const uint64_t sums = b * ones8;   /* byte j: the set bits of bytes 0..j (at most 64) */
	const uint64_t at_most_k = (((uint64_t)k * ones8 | high8) - sums) & high8;
	const uint32_t byte = (uint32_t)(((at_most_k >> 7) * ones8) >> 56);   /* how many: the byte */
	const uint32_t before = (uint32_t)(((sums << 8) >> (8 * byte)) & 0xFF);
	uint32_t v = (uint32_t)(x >> (8 * byte)) & 0xFF;
	for (k -= before; k > 0; k--) v &= v - 1;
	return 8 * byte + (uint32_t)__builtin_ctz(v);
}

/* The first set upper bit at or after bit `from`, or upper_words * 64 when none. */
static inline uint64_t gp_block_next_one(const gp_block *b, uint64_t from)
{
	uint64_t w = from >> 6;
	if (w >= b->upper_words) return (uint64_t)b->upper_words * 64;
	uint64_t x = gp_block_word(b, w) & (~0ull << (from & 63));
	while (x == 0) {
		if (++w == b->upper_words) return (uint64_t)b->upper_words * 64;
		x = gp_block_word(b, w);
	}
	return w * 64 + (uint64_t)__builtin_ctzll(x);
}

/* The position of the h-th (from 1) zero upper bit, or upper_words * 64 when there are fewer,
 * counted from word w on, before which `zeros` zero bits lie (h > zeros). */
static inline uint64_t gp_block_select_zero_from(const gp_block *b, uint64_t h, uint64_t w, uint64_t zeros)
{
	for (h -= zeros; w < b->upper_words; w++) {
		uint64_t z = ~gp_block_word(b, w);
		uint64_t c = gp_popcount64(z);
		if (c >= h) return w * 64 + gp_select64(z, (uint32_t)(h - 1));
		h -= c;
	}
	return (uint64_t)b->upper_words * 64;
}

/* Posting i's doc, its upper bit at `upos`. */
static inline uint64_t gp_block_doc(const gp_block *b, uint32_t i, uint64_t upos)
{
	return b->base + (((upos - i) << b->l) | gp_bits_get(b->bits, b->bits_len, (uint64_t)i * b->l, b->l));
}

/* The places of a byte's set bits (from its low byte up) and their count (index/gp_block.c). */
extern const uint64_t gp_byte_ones[256];
extern const uint8_t gp_byte_count[256];

#define GP_BLOCK_DOCS_ROOM (GP_BLOCK + 8)   /* gp_block_docs writes up to 7 values past n */

/* The block's docs into out[0 .. n) (room for GP_BLOCK_DOCS_ROOM). Where every doc fits in 32
 * bits (the high parts never decrease, so the last one's bounds them all) and SSE2 is there,
 * the upper bits are read a byte at a time: the byte's ones' places from a table give eight
 * high parts at once, joined to their lower bits and stored (the next byte's overwrite those
 * past its ones); else a set bit at a time, in 64 bits. A checked block has exactly n upper
 * bits set (the list's check counts them before it decodes: with fewer, the bound above does not
 * hold). Returns 0 when a doc passes 2^32 - 1 (what the list's check refuses: the docs as 32
 * bits would wrap). */
static inline int gp_block_docs(const gp_block *b, uint32_t *out)
{
	const uint32_t l = b->l, n = b->n;
	uint32_t low[GP_BLOCK_DOCS_ROOM];
	if (l) gp_bits_unpack(b->bits, b->bits_len, 0, l, n, low);
	else memset(low, 0, (size_t)n * sizeof(uint32_t));
	memset(low + n, 0, 8 * sizeof(uint32_t));
#ifdef __SSE2__
	uint64_t w = b->upper_words, top = 0;
	while (w > 0 && (top = gp_block_word(b, w - 1)) == 0) w--;
	const uint64_t last_high = w ? (w - 1) * 64 + 63 - (uint64_t)__builtin_clzll(top) - (n - 1) : 0;
	const uint64_t low_max = l == 32 ? 0xFFFFFFFFull : (1ull << l) - 1;
	if (last_high <= UINT32_MAX && b->base + ((last_high << l) | low_max) <= UINT32_MAX) {
		const __m128i zero = _mm_setzero_si128(), first4 = _mm_setr_epi32(0, 1, 2, 3), next4 = _mm_setr_epi32(4, 5, 6, 7);
		const __m128i shift = _mm_cvtsi32_si128((int)l), base = _mm_set1_epi32((int)(uint32_t)b->base);
		const uint32_t bytes = b->upper_words * 8;
		uint32_t i = 0;
		for (uint32_t y = 0; y < bytes && i < n; y++) {
			const uint8_t v = b->upper[y];
			/* posting i's high part is its bit's place less i */
			const __m128i places = _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)gp_byte_ones[v]), zero);
			const __m128i at = _mm_set1_epi32((int)(y * 8 - i));
			const __m128i h0 = _mm_add_epi32(_mm_unpacklo_epi16(places, zero), _mm_sub_epi32(at, first4));
			const __m128i h1 = _mm_add_epi32(_mm_unpackhi_epi16(places, zero), _mm_sub_epi32(at, next4));
			const __m128i l0 = _mm_loadu_si128((const __m128i *)(const void *)(low + i));
			const __m128i l1 = _mm_loadu_si128((const __m128i *)(const void *)(low + i + 4));
			_mm_storeu_si128((__m128i *)(void *)(out + i), _mm_add_epi32(_mm_or_si128(_mm_sll_epi32(h0, shift), l0), base));
			_mm_storeu_si128((__m128i *)(void *)(out + i + 4), _mm_add_epi32(_mm_or_si128(_mm_sll_epi32(h1, shift), l1), base));
			i += gp_byte_count[v];
		}
		/* an unchecked block's ones may be fewer than n (the list's check refuses it) */
		for (; i < n; i++) out[i] = (uint32_t)b->base + low[i];
		return 1;
	}
#endif
	uint32_t i = 0;
	uint64_t past = 0;
	for (uint64_t w = 0; w < b->upper_words && i < n; w++) {
		uint64_t x = gp_block_word(b, w);
		for (; x && i < n; x &= x - 1, i++) {
			const uint64_t d = b->base + (((w * 64 + (uint64_t)__builtin_ctzll(x) - i) << l) | low[i]);
			past |= d >> 32;
			out[i] = (uint32_t)d;
		}
	}
	for (; i < n; i++) out[i] = (uint32_t)b->base + low[i];
	return past == 0;
}

/* The block's position counts into counts[0 .. n) and, into gaps_before[0 .. n), the gaps of
 * the postings before each (what gp_block_positions takes); returns all its gaps. */
static inline uint64_t gp_block_counts(const gp_block *b, uint32_t *counts, uint64_t *gaps_before)
{
	if (b->bc == 0) memset(counts, 0, (size_t)b->n * sizeof(uint32_t));
	else gp_bits_unpack(b->bits, b->bits_len, b->count_at, b->bc, b->n, counts);
	uint64_t g = 0;
	for (uint32_t i = 0; i < b->n; i++) {
		gaps_before[i] = g;
		g += counts[i] ? counts[i] - 1 : 0;
	}
	return g;
}

/* Posting i's position count (0: a posting without positions). */
static inline uint32_t gp_block_count(const gp_block *b, uint32_t i)
{
	return gp_bits_get(b->bits, b->bits_len, b->count_at + (uint64_t)i * b->bc, b->bc);
}

/* Posting i's positions into out (room for its count), given the gaps of the postings before it
 * (gaps_before: the sum of their counts less one each, for those with positions). */
static inline void gp_block_positions(const gp_block *b, uint32_t i, uint64_t gaps_before, uint32_t count, int32_t *out)
{
	if (count == 0) return;
	uint32_t p = gp_bits_get(b->bits, b->bits_len, b->first_at + (uint64_t)i * b->bf, b->bf);
	uint32_t *gaps = (uint32_t *)out + 1;   /* the gaps unpacked in place, then summed */
	out[0] = (int32_t)p;
	if (count == 1) return;
	if (b->bg == 0) {
		for (uint32_t k = 1; k < count; k++) out[k] = (int32_t)p;
		return;
	}
	uint32_t k = 0;
	const uint64_t at = b->gaps_at + gaps_before * b->bg;
#if GP_BITS_AVX2
	if (count > 16 && gp_bits_have_avx2) k = gp_bits_unpack_sum_avx2(b->bits, b->bits_len, at, b->bg, count - 1, &p, gaps);
#endif
	if (k < count - 1) {
		gp_bits_unpack(b->bits, b->bits_len, at + (uint64_t)k * b->bg, b->bg, count - 1 - k, gaps + k);
		for (; k < count - 1; k++) {
			p += gaps[k];
			gaps[k] = p;
		}
	}
}

/* Posting i's first positions into out, one at a time up to the first past `upto` (or all
 * `count`): what a caller that needs only the positions up to a value decodes. How many. */
static inline uint32_t gp_block_positions_upto(const gp_block *b, uint32_t i, uint64_t gaps_before, uint32_t count,
                                               int64_t upto, int32_t *out)
{
	if (count == 0) return 0;
	uint32_t p = gp_bits_get(b->bits, b->bits_len, b->first_at + (uint64_t)i * b->bf, b->bf), m = 1;
	out[0] = (int32_t)p;
	for (; m < count && (int64_t)(int32_t)p <= upto; m++) {
		p += gp_bits_get(b->bits, b->bits_len, b->gaps_at + (gaps_before + m - 1) * b->bg, b->bg);
		out[m] = (int32_t)p;
	}
	return m;
}

#endif
