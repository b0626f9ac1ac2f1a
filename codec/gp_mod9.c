#include <string.h>

#include "gp_mod9.h"
#include "gp_mod9_word.h"
#include "gp_simd.h"

/* The validating count pass; built twice (gp_simd.h) for its popcounts, which the baseline x86-64
 * build turns into calls. */
GP_ALWAYS_INLINE int mod9_measure_body(const uint8_t *blob, size_t len, int postings,
                                       gp_mod9_counts *counts, gp_error *err)
{
	size_t nwords = len / 4, values = 0, nposting = 0, posting_start = 0, posting_values = 0;
	int continues = 0;

	if (len % 4 != 0) {
		return gp_fail(err, GP_MOD9_NAME, len - len % 4,
		               "length %zu is not a multiple of 4", len);
	}
	for (size_t i = 0; i < nwords; i++) {
		uint32_t w = gp_load_be32(blob + 4 * i);
		uint32_t n = gp_mod9_word_count(w);
		if (!continues) {
			if (GP_MOD9_BAD_START(w)) {
				return gp_fail(err, GP_MOD9_NAME, 4 * i,
				               "a posting starts with flags %u%u (only 00 or 11 may start one)",
				               (unsigned)(w >> 31), (unsigned)((w >> 30) & 1));
			}
			if (postings && nposting > 0 && posting_values == 0) {
				return gp_fail(err, GP_MOD9_NAME, posting_start, "posting has no values");
			}
			nposting++;
			posting_start = 4 * i;
			posting_values = 0;
			if (postings && n > 0 && (w & 0x30000000u) == 0 && (w & GP_MOD9_MAX_VALUE) == 0) {
				return gp_fail(err, GP_MOD9_NAME, 4 * i,
				               "posting's first value is 0 (no doc can be read from it)");
			}
		} else if (postings && posting_values == 0 && n > 0 && (w & 0x30000000u) == 0 &&
		           (w & GP_MOD9_MAX_VALUE) == 0) {
			return gp_fail(err, GP_MOD9_NAME, 4 * i,
			               "posting's first value is 0 (no doc can be read from it)");
		}
		posting_values += n;
		values += n;
		continues = GP_MOD9_CONTINUES(w);
	}
	if (continues) {
		return gp_fail(err, GP_MOD9_NAME, len - 4,
		               "last word has flags 1x: its posting runs past the end of the blob");
	}
	if (postings && nposting > 0 && posting_values == 0) {
		return gp_fail(err, GP_MOD9_NAME, posting_start, "posting has no values");
	}
	counts->words = nwords;
	counts->values = values;
	counts->postings = nposting;
	return GP_OK;
}

GP_BUILD_TWICE(int, mod9_measure, mod9_measure_body,
               (const uint8_t *blob, size_t len, int postings, gp_mod9_counts *counts, gp_error *err),
               (blob, len, postings, counts, err))

int gp_mod9_measure(const uint8_t *blob, size_t len, int postings, gp_mod9_counts *counts,
                    gp_error *err)
{
	return mod9_measure(blob, len, postings, counts, err);
}

void gp_mod9_estimate(const uint8_t *blob, size_t len, gp_mod9_counts *est)
{
	size_t nwords = len / 4, step = nwords / 64 + 1, sampled = 0, values = 0, starts = 0;
	/* one word from each stretch of `step`, at a place that varies from stretch to stretch: a
	 * fixed stride would see only one kind of word of a blob whose postings all take the same
	 * number of words (a doc word, then a positions word, ...) */
	for (size_t at = 0; at < nwords; at += step, sampled++) {
		/* a blob of at most 64 words is read whole, without a division a word */
		size_t i = step == 1 ? at : at + (size_t)((sampled * 2654435761u) >> 7) % step;
		if (i >= nwords) i = nwords - 1;
		uint32_t w = gp_load_be32(blob + 4 * i);
		values += gp_mod9_word_count(w);
		starts += (w >> 30) == 0u || (w >> 30) == 3u;   /* flags 00 or 11 begin a posting */
	}
	est->words = nwords;
	est->values = sampled ? values * nwords / sampled : 0;
	est->postings = sampled ? starts * nwords / sampled : 0;
}

/* The layout of a word by its bits 29..24, as a table (built once from gp_mod9_word.h): slot
 * width and count, the ones and data bits of the count trick, and per lane the shift and mask that unpack value j from a
 * word shifted so that value j sits in slot slots-1-j (lanes past the slots read slot 0). */
typedef struct mod9_layout {
	gp_u32x8 shift[3], mask;
	uint32_t bits, slots, ones, data_mask, at_least; /* at_least: 1 for the 28-bit layout */
} mod9_layout;

static mod9_layout layouts[64];

static const mod9_layout *mod9_layouts(void)
{
	if (layouts[63].bits == 0) {
		for (uint32_t sel = 0; sel < 64; sel++) {
			mod9_layout *lay = &layouts[sel];
			uint32_t bits = gp_mod9_slot_bits(sel << 24), slots = gp_mod9_slots(bits);
			uint32_t shift[24], mask[8];
			for (uint32_t j = 0; j < 24; j++) shift[j] = j < slots ? (slots - 1 - j) * bits : 0;
			for (uint32_t j = 0; j < 8; j++) mask[j] = bits == 28 ? 0x0FFFFFFFu : (1u << bits) - 1;
			memcpy(lay->shift, shift, sizeof(shift));
			memcpy(&lay->mask, mask, sizeof(mask));
			lay->slots = slots;
			lay->ones = bits == 28 ? 1u : gp_mod9_slot_ones32(bits);
			lay->data_mask = lay->ones * ((1u << bits) - 1u);
			lay->at_least = bits == 28;
			lay->bits = bits; /* last: the table counts as built once bits[63] is set */
		}
	}
	return layouts;
}

/* The fast host decoder: a table for the layout, the count by the borrow trick, and eight
 * values written at a time whatever the count (values holds 24 per word, so the lanes past the
 * last value fit). Returns the number of values; *bad and *continues for the caller's checks. */
GP_ALWAYS_INLINE size_t mod9_decode_body(const uint8_t *blob, size_t nwords, uint32_t *values,
                                         uint32_t *bad_out, uint32_t *continues_out)
{
	const mod9_layout *layout = mod9_layouts();
	uint32_t *out = values;
	uint32_t continues = 0, bad = 0;
	for (size_t i = 0; i < nwords; i++) {
		uint32_t w = gp_load_be32(blob + 4 * i);
		bad |= !continues & GP_MOD9_BAD_START(w);
		continues = GP_MOD9_CONTINUES(w);
		const mod9_layout *lay = &layout[(w >> 24) & 63];
		/* the count as gp_mod9_word_count finds it, from the table: no branch on the layout */
		uint32_t bits = lay->bits, slots = lay->slots, low = lay->ones, d = w & lay->data_mask;
		uint32_t zero = (d - low) & ~d & (low << (bits - 1));
		uint32_t n = slots, x = w;
		/* a word with an empty slot (a posting's last): its count, and its values moved up so
		 * that value j sits in slot slots-1-j. Full words skip both (1.20 -> 1.65 G values/s
		 * for d-gaps 1..255 on one core of the development machine, measured interleaved). */
		if (__builtin_expect(zero != 0, 0)) {
			n = (uint32_t)__builtin_popcount(low & (((zero & (0u - zero)) >> (bits - 1)) - 1u)) | lay->at_least;
			x = (uint32_t)((uint64_t)w << ((slots - n) * bits));
		}
		gp_unpack8(x, &lay->shift[0], &lay->mask, out);
		if (n > 8) {
			gp_unpack8(x, &lay->shift[1], &lay->mask, out + 8);
			gp_unpack8(x, &lay->shift[2], &lay->mask, out + 16);
		}
		out += n;
	}
	*bad_out = bad;
	*continues_out = continues;
	return (size_t)(out - values);
}

GP_BUILD_TWICE(size_t, mod9_decode, mod9_decode_body,
               (const uint8_t *blob, size_t nwords, uint32_t *values, uint32_t *bad, uint32_t *continues),
               (blob, nwords, values, bad, continues))

size_t gp_mod9_decode_values_checked(const uint8_t *blob, size_t len, uint32_t *values,
                                     gp_error *err)
{
	uint32_t bad, continues;
	size_t n;
	n = mod9_decode(blob, len / 4, values, &bad, &continues);
	if (bad || continues || len % 4 != 0) {
		gp_mod9_counts c;
		gp_mod9_measure(blob, len, 0, &c, err); /* names the offset and the rule */
		return (size_t)-1;
	}
	return n;
}

void gp_mod9_decode_values(const uint8_t *blob, size_t len, uint32_t *values)
{
	size_t nwords = len / 4;
	for (size_t i = 0; i < nwords; i++) {
		uint32_t w = gp_load_be32(blob + 4 * i);
		uint32_t bits = gp_mod9_slot_bits(w);
		uint32_t n = gp_mod9_word_count(w);
		for (uint32_t j = 0; j < n; j++) {
			*values++ = gp_mod9_word_value(w, bits, n, j);
		}
	}
}

/* Returns the postings it wrote. */
GP_ALWAYS_INLINE size_t mod9_decode_postings_body(const uint8_t *blob, size_t len, int64_t *docs,
                                                uint32_t *vstart, uint8_t *combined, int64_t *pos,
                                                uint32_t vbase)
{
	size_t nwords = len / 4, p = 0;
	uint32_t v = vbase;
	int continues = 0, want_doc = 0;
	int64_t running = 0;

	for (size_t i = 0; i < nwords; i++) {
		uint32_t w = gp_load_be32(blob + 4 * i);
		uint32_t bits = gp_mod9_slot_bits(w);
		uint32_t n = gp_mod9_word_count(w);
		if (!continues) {
			if (vstart) vstart[p] = v;
			want_doc = 1;
			p++;
		}
		for (uint32_t j = 0; j < n; j++, v++) {
			uint32_t x = gp_mod9_word_value(w, bits, n, j);
			if (want_doc) {
				/* Yioop's unpackPosting: doc and first gap share the value in combined form. */
				int is_combined = (x & GP_MOD9_COMBINED_BIT) != 0;
				int64_t doc = is_combined ? (int64_t)(x >> 9) - (1 << 18) : (int64_t)x - 1;
				docs[p - 1] = doc;
				running = is_combined ? (int64_t)x - (((int64_t)(1 << 18) + doc) << 9) : 0;
				if (combined) combined[p - 1] = (uint8_t)is_combined;
				want_doc = 0;
			} else {
				running += x;
			}
			if (pos) pos[v] = running;
		}
		continues = GP_MOD9_CONTINUES(w);
	}
	if (vstart) vstart[p] = v;
	return p;
}

GP_BUILD_TWICE(size_t, mod9_decode_postings, mod9_decode_postings_body,
               (const uint8_t *blob, size_t len, int64_t *docs, uint32_t *vstart, uint8_t *combined,
                int64_t *pos, uint32_t vbase),
               (blob, len, docs, vstart, combined, pos, vbase))

void gp_mod9_decode_postings(const uint8_t *blob, size_t len, int64_t *docs, uint32_t *vstart,
                             uint8_t *combined, int64_t *pos, uint32_t vbase)
{
	(void)mod9_decode_postings(blob, len, docs, vstart, combined, pos, vbase);
}

/* Yioop's MOD9_PACK_POSSIBILITIES: values of a given bit length that fit one word. */
static const uint8_t pack_possibilities[32] = {
	0, 24, 12, 7, 6, 5, 4, 3, 3, 3, 2, 2, 2, 2, 2, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

static uint32_t pack_word(uint32_t continue_bits, uint32_t count, const uint32_t *list,
                          uint32_t n)
{
	/* Yioop's MOD9_NUM_ELTS_CODES and MOD9_NUM_BITS_CODES, folded into one switch. */
	uint32_t code, bits, out = 0;
	switch (count) {
	case 24: code = 63; bits = 1; break;
	case 12: code = 62; bits = 2; break;
	case 7: code = 60; bits = 3; break;
	case 6: code = 56; bits = 4; break;
	case 5: code = 52; bits = 5; break;
	case 4: code = 48; bits = 6; break;
	case 3: code = 32; bits = 9; break;
	case 2: code = 16; bits = 14; break;
	default: code = 0; bits = 28; break;
	}
	for (uint32_t i = 0; i < n; i++) {
		out = (out << bits) + list[i];
	}
	return out + (((continue_bits << 6) + code) << 24);
}

size_t gp_mod9_encode_values(const uint32_t *values, size_t n, uint8_t *out)
{
	/* A line-by-line port of encodeModified9, so that its width quirk comes out the same. */
	uint32_t cnt = 0, cur_size = 1, cur_len = 1, continue_bits = 3, npack = 0;
	uint32_t pack[24];
	size_t written = 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t elt = values[i], old_len = cur_len;
		while (elt > cur_size) {
			cur_len++;
			cur_size = (1u << cur_len) - 1;
		}
		if (cnt < pack_possibilities[cur_len]) {
			pack[npack++] = elt;
			cnt++;
		} else {
			gp_store_be32(out + written,
			              pack_word(continue_bits, pack_possibilities[old_len], pack, npack));
			written += 4;
			continue_bits = 2;
			pack[0] = elt;
			npack = 1;
			cur_size = 1;
			cur_len = 1;
			cnt = 1;
			while (elt > cur_size) { /* the quirk: one bit more than needed */
				cur_size = (1u << cur_len) - 1;
				cur_len++;
			}
		}
	}
	continue_bits = continue_bits == 3 ? 0 : 1;
	gp_store_be32(out + written, pack_word(continue_bits, pack_possibilities[cur_len], pack, npack));
	return written + 4;
}

size_t gp_mod9_posting_values(int64_t doc, const int64_t *positions, size_t n, int combine,
                              uint32_t *values, const char **why)
{
	int64_t last = 0;
	if (doc < 0) {
		*why = "doc index must be >= 0";
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		int64_t gap = positions[i] - last;
		if (positions[i] <= last || gap > (int64_t)GP_MOD9_MAX_VALUE) {
			*why = "positions must be strictly increasing integers >= 1, gaps below 2^28";
			return 0;
		}
		values[i + 1] = (uint32_t)gap;
		last = positions[i];
	}
	if (combine && doc >= (1 << 15) && n > 0 && values[1] < (1 << 10) && doc < (1 << 18)) {
		uint64_t v = (((uint64_t)(1 << 18) + (uint64_t)doc) << 9) + values[1];
		if (v > GP_MOD9_MAX_VALUE) {
			*why = "doc and first gap do not fit the combined form's 28 bits";
			return 0;
		}
		values[1] = (uint32_t)v;
		memmove(values, values + 1, n * sizeof(*values));
		return n;
	}
	if (doc + 1 >= (int64_t)GP_MOD9_COMBINED_BIT) {
		/* Yioop's decoder would read such a value as the combined form */
		*why = "doc index must be below 2^27 - 1";
		return 0;
	}
	values[0] = (uint32_t)(doc + 1);
	return n + 1;
}

int gp_mod9_check_values(const int64_t *values, size_t n, size_t *at)
{
	for (size_t i = 0; i < n; i++) {
		if (values[i] < 1 || values[i] > (int64_t)GP_MOD9_MAX_VALUE) {
			*at = i;
			return GP_EVALUE;
		}
	}
	return GP_OK;
}
