/* Bit-packed values unpacked eight at a time with AVX2 (gp_block.h's gp_bits_unpack and
 * gp_bits_unpack_sum call it on x86-64 where the processor has AVX2, checked once at load).
 * Eight values of w bits take w whole bytes, so the place of each within its bytes repeats every
 * eight: one shuffle gathers each value's four bytes from two 16-byte loads, one variable shift
 * and a mask finish it. Values up to 25 bits (with their shift within a byte, they fit in 32). */
#include "gp_block.h"

#if GP_BITS_AVX2
#include <immintrin.h>

int gp_bits_have_avx2;

__attribute__((constructor)) static void gp_bits_detect(void)
{
	__builtin_cpu_init();
	gp_bits_have_avx2 = __builtin_cpu_supports("avx2") != 0;
}

/* What every group of eight values from bit `at` on shares: the shuffle, shifts and mask, where
 * the high four's bytes start, and the first group's bytes; groups: how many fit the stream. */
typedef struct unpack8 {
	__m256i shuffle, shift, mask;
	uint32_t hi_at, groups;
	const uint8_t *p;
} unpack8;

__attribute__((target("avx2"))) static inline int unpack8_plan(unpack8 *u, const uint8_t *s, size_t len, uint64_t at,
                                                             uint32_t w, uint32_t n)
{
	if (w == 0 || w > 25 || n < 8) return 0;
	/* value k of eight at bit sh + k w of their first byte: its byte, relative to the first's for
	 * the low four and to the fifth's for the high four (each half's 16 bytes hold its four) */
	const __m256i k = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	const __m256i bit = _mm256_add_epi32(_mm256_set1_epi32((int)(at & 7)), _mm256_mullo_epi32(k, _mm256_set1_epi32((int)w)));
	const uint32_t hi_at = (uint32_t)((at & 7) + 4 * w) >> 3;
	const __m256i rel = _mm256_sub_epi32(_mm256_srli_epi32(bit, 3), _mm256_setr_epi32(0, 0, 0, 0, (int)hi_at, (int)hi_at, (int)hi_at, (int)hi_at));
	u->shuffle = _mm256_add_epi32(_mm256_mullo_epi32(rel, _mm256_set1_epi32(0x01010101)), _mm256_set1_epi32(0x03020100));
	u->shift = _mm256_and_si256(bit, _mm256_set1_epi32(7));
	u->mask = _mm256_set1_epi32((int)((1u << w) - 1));
	u->hi_at = hi_at;
	/* groups while both loads lie within the stream */
	const uint64_t first = at >> 3;
	if (first + hi_at + 16 > len) return 0;
	const uint64_t room = (len - 16 - hi_at - first) / w + 1;
	u->groups = room < n / 8 ? (uint32_t)room : n / 8;
	u->p = s + first;
	return u->groups > 0;
}

/* Group g's eight values. */
__attribute__((target("avx2"))) static inline __m256i unpack8_group(const unpack8 *u, uint32_t w, uint32_t g)
{
	const uint8_t *p = u->p + (size_t)g * w;
	__m128i lo = _mm_loadu_si128((const __m128i *)p), hi = _mm_loadu_si128((const __m128i *)(p + u->hi_at));
	__m256i v = _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1), u->shuffle);
	return _mm256_and_si256(_mm256_srlv_epi32(v, u->shift), u->mask);
}

__attribute__((target("avx2"))) uint32_t gp_bits_unpack_avx2(const uint8_t *s, size_t len, uint64_t at, uint32_t w,
                                                             uint32_t n, uint32_t *out)
{
	unpack8 u;
	if (!unpack8_plan(&u, s, len, at, w, n)) return 0;
	for (uint32_t g = 0; g < u.groups; g++) _mm256_storeu_si256((__m256i *)(out + 8 * g), unpack8_group(&u, w, g));
	return u.groups * 8;
}

__attribute__((target("avx2"))) uint32_t gp_bits_unpack_sum_avx2(const uint8_t *s, size_t len, uint64_t at, uint32_t w,
                                                                 uint32_t n, uint32_t *sum, uint32_t *out)
{
	unpack8 u;
	if (!unpack8_plan(&u, s, len, at, w, n)) return 0;
	__m256i carry = _mm256_set1_epi32((int)*sum);
	const __m256i last = _mm256_set1_epi32(7);
	for (uint32_t g = 0; g < u.groups; g++) {
		__m256i v = unpack8_group(&u, w, g);
		/* running sums within each half, then the low half's total into the high half */
		v = _mm256_add_epi32(v, _mm256_slli_si256(v, 4));
		v = _mm256_add_epi32(v, _mm256_slli_si256(v, 8));
		v = _mm256_add_epi32(v, _mm256_permute2x128_si256(_mm256_shuffle_epi32(v, 0xFF), v, 0x08));
		v = _mm256_add_epi32(v, carry);
		_mm256_storeu_si256((__m256i *)(out + 8 * g), v);
		carry = _mm256_permutevar8x32_epi32(v, last);
	}
	*sum = (uint32_t)_mm256_extract_epi32(carry, 0);
	return u.groups * 8;
}
#endif
