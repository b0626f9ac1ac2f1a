/* Simple-9 selectors, shared by the host codec and the device kernels (C11 and OpenCL C). */
#ifndef GP_S9_WORD_H
#define GP_S9_WORD_H

#if !defined(__OPENCL_VERSION__) && !defined(__OPENCL_C_VERSION__) /* the device build concatenates it first */
#include "gp_mod9_word.h" /* GP_INLINE, gp_u32 */
#endif

/* selector s: count values of bits each; the first value in the most significant slot */
GP_INLINE gp_u32 gp_s9_count(gp_u32 s)
{
	return s == 0u ? 1u : s == 1u ? 2u : s == 2u ? 3u : s == 3u ? 4u : s == 4u ? 5u :
	       s == 5u ? 7u : s == 6u ? 9u : s == 7u ? 14u : s == 8u ? 28u : 0u;
}

GP_INLINE gp_u32 gp_s9_bits(gp_u32 s)
{
	return s == 0u ? 28u : s == 1u ? 14u : s == 2u ? 9u : s == 3u ? 7u : s == 4u ? 5u :
	       s == 5u ? 4u : s == 6u ? 3u : s == 7u ? 2u : 1u;
}

/* Value j (0 = most significant slot) of word w with selector s. */
GP_INLINE gp_u32 gp_s9_value(gp_u32 w, gp_u32 bits, gp_u32 j)
{
	return (w >> (28u - (j + 1u) * bits)) & ((1u << bits) - 1u);
}

/* The bits of w below its first `used` slots (unused slots and padding), which must be 0. */
GP_INLINE gp_u32 gp_s9_unused_bits(gp_u32 w, gp_u32 bits, gp_u32 used)
{
	return w & ((1u << (28u - used * bits)) - 1u);
}

#endif
