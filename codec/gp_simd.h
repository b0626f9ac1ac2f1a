/* Eight 32-bit lanes for the host decoders, and the choice between two builds of a decoder.
 * With GCC or Clang on x86 a decoder body is compiled twice, once for AVX2 (a lane operation is
 * one instruction: the per-lane shifts of an unpack are vpsrlvd) and once for the baseline; the
 * AVX2 build runs where the CPU has it. Elsewhere the lanes are a plain loop. */
#ifndef GP_SIMD_H
#define GP_SIMD_H

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define GP_ALWAYS_INLINE static inline __attribute__((always_inline))
typedef uint32_t gp_u32x8 __attribute__((vector_size(32)));
#else
#define GP_ALWAYS_INLINE static inline
typedef struct { uint32_t v[8]; } gp_u32x8;
#endif

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define GP_HAVE_AVX2_BUILD 1
#define GP_TARGET_AVX2 __attribute__((target("avx2,popcnt,bmi,bmi2")))
static inline int gp_cpu_has_avx2(void)
{
	static int has = -1;
	if (has < 0) {
		has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") &&
		      __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
	}
	return has;
}
#else
#define GP_HAVE_AVX2_BUILD 0
#define GP_TARGET_AVX2
static inline int gp_cpu_has_avx2(void) { return 0; }
#endif

#if GP_HAVE_AVX2_BUILD
#include <immintrin.h>

/* Inclusive prefix sums of eight 32-bit lanes (the byte-aligned decoders' delta rules). */
GP_TARGET_AVX2 static inline __m256i gp_prefix8_avx2(__m256i x)
{
	x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
	x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
	__m256i mid = _mm256_shuffle_epi32(x, 0xFF);   /* each half's last lane, across its half */
	return _mm256_add_epi32(x, _mm256_permute2x128_si256(mid, mid, 0x08));   /* the low half's into the high */
}

/* The first `count` (1..8) of eight stored values, each below 2^24 (their sums cannot wrap 32
 * bits), under delta rule `delta` from the running value *run (gp_delta.h) into out[0..8) (all
 * eight lanes are written; those past count mean nothing); 0 when the run would pass 2^32-1
 * (nothing written: the caller decodes them one by one to name the value). */
GP_TARGET_AVX2 static inline int gp_delta_lanes_avx2(__m256i v, unsigned count, uint32_t delta, int64_t *run,
                                                    uint32_t *out)
{
	if (delta != 0) {
		if (delta == 2) v = _mm256_add_epi32(v, _mm256_set1_epi32(1));
		v = gp_prefix8_avx2(v);
		uint32_t last = count == 8 ? (uint32_t)_mm256_extract_epi32(v, 7)
		                           : (uint32_t)_mm256_cvtsi256_si32(_mm256_permutevar8x32_epi32(v, _mm256_set1_epi32((int)count - 1)));
		int64_t next = *run + last;
		if (next > (int64_t)UINT32_MAX) return 0;
		v = _mm256_add_epi32(v, _mm256_set1_epi32((int)(uint32_t)*run));
		*run = next;
	}
	_mm256_storeu_si256((__m256i *)out, v);
	return 1;
}
#endif

/* Defines `static ret name params`: the always-inline `body` (called with `args`) compiled once
 * for AVX2 and once for the baseline, the AVX2 build run where the CPU has it. */
#if GP_HAVE_AVX2_BUILD
#define GP_BUILD_TWICE(ret, name, body, params, args)                                        \
	GP_TARGET_AVX2 static ret name##_avx2 params { return body args; }                      \
	static ret name##_plain params { return body args; }                                    \
	static ret name params { return gp_cpu_has_avx2() ? name##_avx2 args : name##_plain args; }
#else
#define GP_BUILD_TWICE(ret, name, body, params, args) \
	static ret name params { return body args; }
#endif

/* out[j] = (x >> shift[j]) & mask[j] for the eight lanes (shifts below 32). */
GP_ALWAYS_INLINE void gp_unpack8(uint32_t x, const gp_u32x8 *shift, const gp_u32x8 *mask,
                                 uint32_t *out)
{
#if defined(__GNUC__)
	gp_u32x8 v = {x, x, x, x, x, x, x, x};
	v = (v >> *shift) & *mask;
	memcpy(out, &v, sizeof v);
#else
	for (int j = 0; j < 8; j++) out[j] = (x >> shift->v[j]) & mask->v[j];
#endif
}

/* The same eight values widened to 64 bits (S9's values): out[0..8). */
GP_ALWAYS_INLINE void gp_unpack8_i64(uint32_t x, const gp_u32x8 *shift, const gp_u32x8 *mask,
                                     int64_t *out)
{
#if defined(__GNUC__)
	typedef uint32_t u32x4 __attribute__((vector_size(16)));
	typedef int64_t i64x4 __attribute__((vector_size(32)));
	gp_u32x8 v = {x, x, x, x, x, x, x, x};
	v = (v >> *shift) & *mask;
	u32x4 lo = {v[0], v[1], v[2], v[3]}, hi = {v[4], v[5], v[6], v[7]};
	i64x4 a = __builtin_convertvector(lo, i64x4), b = __builtin_convertvector(hi, i64x4);
	memcpy(out, &a, sizeof a);
	memcpy(out + 4, &b, sizeof b);
#else
	for (int j = 0; j < 8; j++) out[j] = (x >> shift->v[j]) & mask->v[j];
#endif
}

#endif
