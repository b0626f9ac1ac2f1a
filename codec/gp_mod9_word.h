/* One Yioop modified-9 word: its slot layout, how many values it holds, and value j.
 * Written in the subset shared by C11 and OpenCL C 1.2: the host codec includes it, and the
 * build prepends it to the device kernels, so host and device read a word the same way. */
#ifndef GP_MOD9_WORD_H
#define GP_MOD9_WORD_H

#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define GP_INLINE inline
typedef uint gp_u32;
typedef ulong gp_u64;
#define GP_POPCOUNT32(x) ((gp_u32)popcount((gp_u32)(x)))
#else
#include <stdint.h>
#define GP_INLINE static inline
typedef uint32_t gp_u32;
typedef uint64_t gp_u64;
#define GP_POPCOUNT32(x) ((gp_u32)__builtin_popcount((unsigned)(x)))
#endif



/* Slot width from bits 29..24 (Yioop tests 111111, 111110, 11110, 1110, 1101, 1100 in that
 * order; the comparisons below are that order). Selector 00 is one 28-bit value. */
GP_INLINE gp_u32 gp_mod9_slot_bits(gp_u32 w)
{
	gp_u32 sel = (w >> 24) & 63u;
	if (sel < 16u) return 28u;
	if (sel < 32u) return 14u;
	if (sel < 48u) return 9u;
	if (sel == 63u) return 1u;
	if (sel >= 62u) return 2u;
	if (sel >= 60u) return 3u;
	if (sel >= 56u) return 4u;
	if (sel >= 52u) return 5u;
	return 6u;
}

GP_INLINE gp_u32 gp_mod9_slots(gp_u32 bits)
{
	/* 28->1 14->2 9->3 6->4 5->5 4->6 3->7 2->12 1->24 */
	return bits == 28u ? 1u : bits == 14u ? 2u : bits == 9u ? 3u : bits == 6u ? 4u :
	       bits == 5u ? 5u : bits == 4u ? 6u : bits == 3u ? 7u : bits == 2u ? 12u : 24u;
}

/* A 1 at the lowest bit of each of the word's slots (slots * bits <= 28 bits). */
GP_INLINE gp_u32 gp_mod9_slot_ones32(gp_u32 bits)
{
	switch (bits) {
	case 1u: return 0xFFFFFFu;   /* 24 x 1 */
	case 2u: return 0x555555u;   /* 12 x 2 */
	case 3u: return 0x49249u;    /* 7 x 3 */
	case 4u: return 0x111111u;   /* 6 x 4 */
	case 5u: return 0x108421u;   /* 5 x 5 */
	case 6u: return 0x41041u;    /* 4 x 6 */
	case 9u: return 0x40201u;    /* 3 x 9 */
	default: return 0x4001u;     /* 2 x 14 */
	}
}

/* Values in the word: selector 00 always yields one (even 0); the others read slots from the
 * lowest up and stop at the first empty one. Branch-free and in 32 bits: the borrow trick flags
 * the lowest all-zero slot, and the slots below that one are counted by their lowest bits (all
 * of them when no slot is empty). */
GP_INLINE gp_u32 gp_mod9_count_in(gp_u32 w, gp_u32 bits, gp_u32 low)
{
	gp_u32 x = w & (low * ((1u << bits) - 1u));   /* the data bits: every slot all ones */
	gp_u32 zero = (x - low) & ~x & (low << (bits - 1u));
	return GP_POPCOUNT32(low & (((zero & (0u - zero)) >> (bits - 1u)) - 1u));
}

GP_INLINE gp_u32 gp_mod9_word_count(gp_u32 w)
{
	gp_u32 bits = gp_mod9_slot_bits(w);
	if (bits == 28u) return 1u;
	return gp_mod9_count_in(w, bits, gp_mod9_slot_ones32(bits));
}

/* Value j of the `count` values of w, in Yioop's order: the highest non-empty slot first. */
GP_INLINE gp_u32 gp_mod9_word_value(gp_u32 w, gp_u32 bits, gp_u32 count, gp_u32 j)
{
	if (bits == 28u) return w & 0x0FFFFFFFu;
	return (w >> ((count - 1u - j) * bits)) & ((1u << bits) - 1u);
}

/* Flags (bits 31-30): 00 whole posting, 11 first, 10 middle, 01 last word of a posting. A word
 * continues the posting of the word before it when that word's flags are 11 or 10. */
#define GP_MOD9_CONTINUES(prev_word) ((((prev_word) >> 31) & 1u) != 0u)
#define GP_MOD9_BAD_START(word) ((((word) >> 30) == 1u) || (((word) >> 30) == 2u))
/* A word that breaks the flag rules: a posting's first word flagged 01 or 10, or the last word
 * of a blob (or a batch's blob) leaving a posting open. */
#define GP_MOD9_FLAGS_BAD(is_start, is_last, word) \
	(((is_start) && GP_MOD9_BAD_START(word)) || ((is_last) && GP_MOD9_CONTINUES(word)))

/* The combined doc form (Yioop's packPosting for 2^15 <= doc < 2^18, first gap < 1024). */
#define GP_MOD9_COMBINED_BIT 0x08000000u

#endif
