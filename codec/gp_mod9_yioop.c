/* Yioop's readers of MOD9 postings: slices, seeks and the pre-2019 form (gp_mod9_yioop.h). */
#include "gp_mod9_yioop.h"
#include "gp_mod9.h"
#include "gp_mod9_word.h"

#define FLAGS(w) ((w) >> 30)   /* 00 whole, 11 first, 10 middle, 01 last */

static uint32_t word_at(const uint8_t *sec, size_t w) { return gp_load_be32(sec + 4 * w); }

int gp_yioop_posting_at(const uint8_t *sec, size_t nwords, size_t w, size_t *start, size_t *end,
                        gp_error *err)
{
	if (w >= nwords) return gp_fail(err, GP_MOD9_NAME, 4 * w, "offset past the postings");
	size_t s = w;
	uint32_t f = FLAGS(word_at(sec, s));
	if (f == 1u || f == 2u) {
		/* inside a posting: back over its middle words to the first (getPostingAtOffset) */
		do {
			if (s == 0) return gp_fail(err, GP_MOD9_NAME, 4 * w, "no posting's first word before this word");
			f = FLAGS(word_at(sec, --s));
		} while (f == 2u);
		if (f != 3u) return gp_fail(err, GP_MOD9_NAME, 4 * s, "a middle word follows a word that ends a posting");
	}
	size_t e = s;
	while (FLAGS(word_at(sec, e)) >= 2u) {   /* 11 and 10 continue */
		if (++e == nwords) return gp_fail(err, GP_MOD9_NAME, 4 * s, "posting runs past the end of the postings");
	}
	*start = s;
	*end = e + 1;
	return GP_OK;
}

/* The first value of the posting at word s, in unpackPosting's order. */
static uint32_t first_value(const uint8_t *sec, size_t s)
{
	uint32_t w = word_at(sec, s), n = gp_mod9_word_count(w);
	return n ? gp_mod9_word_value(w, gp_mod9_slot_bits(w), n, 0) : 0u;
}

/* docIndexModified9: the highest non-empty slot of the first word (selector 00: the combined
 * test, whose own arithmetic differs from unpackPosting's), less one. */
static int64_t gallop_doc(uint32_t w)
{
	uint32_t bits = gp_mod9_slot_bits(w);
	if (bits == 28) {
		uint32_t v = w & 0x0FFFFFFFu;
		return (v & GP_MOD9_COMBINED_BIT) ? (int64_t)((v - GP_MOD9_COMBINED_BIT + (v & 0x1FFu)) >> 9) : (int64_t)v - 1;
	}
	uint32_t mask = (1u << bits) - 1u;
	for (int k = (int)gp_mod9_slots(bits) - 1; k >= 0; k--) {
		uint32_t x = (w >> ((uint32_t)k * bits)) & mask;
		if (x) return (int64_t)x - 1;
	}
	return 0;   /* Yioop's "shouldn't get here" */
}

int gp_yioop_posting_doc(const uint8_t *sec, size_t start, int reader, int64_t *doc, gp_error *err)
{
	if (reader == GP_YIOOP_GALLOP) {
		*doc = gallop_doc(word_at(sec, start));
		return GP_OK;
	}
	uint32_t v = first_value(sec, start);
	if (v == 0) return gp_fail(err, GP_MOD9_NAME, 4 * start, "posting without a doc (first value 0)");
	if (!(v & GP_MOD9_COMBINED_BIT)) {
		*doc = (int64_t)v - 1;
	} else if (reader == GP_YIOOP_LEGACY) {
		*doc = (int64_t)((v - (v & 1023u) - GP_MOD9_COMBINED_BIT) >> 9);
	} else {
		*doc = (int64_t)(v >> 9) - (1 << 18);
	}
	return GP_OK;
}

size_t gp_yioop_slice(const uint8_t *sec, size_t nwords, size_t from, size_t last, uint64_t limit,
                      int by_words, size_t *starts, size_t *ends, size_t room, size_t *next,
                      gp_error *err)
{
	size_t k = 0, at = from;
	uint64_t counted = 0;
	/* postingsSliceAscending: stop past `last` or once `limit` is reached */
	while (at <= last && counted < limit && k < room) {
		size_t s, e;
		if (gp_yioop_posting_at(sec, nwords, at, &s, &e, err) != GP_OK) return (size_t)-1;
		starts[k] = s;
		ends[k++] = e;
		counted += by_words ? e - s : 1;
		at = e;
	}
	*next = at;
	return k;
}

/* The doc of the posting holding word w, and that posting's first word. */
static int doc_near(const uint8_t *sec, size_t nwords, size_t w, int reader, size_t *start, int64_t *doc,
                    gp_error *err)
{
	size_t e;
	if (gp_yioop_posting_at(sec, nwords, w, start, &e, err) != GP_OK) return GP_EFORMAT;
	return gp_yioop_posting_doc(sec, *start, reader, doc, err);
}

/* nextPostingOffsetDocOffset (ascending), step for step: fail fast on the last posting, gallop
 * by word strides from 32, then its binary search. */
static int yioop_gallop(const uint8_t *sec, size_t nwords, size_t start, size_t end, int64_t target,
                        size_t *at, int64_t *found, gp_error *err)
{
	size_t s;
	int64_t d;
	if (doc_near(sec, nwords, end, GP_YIOOP_GALLOP, &s, &d, err) != GP_OK) return GP_EFORMAT;
	if (target > d) return 0;
	if (target == d) {
		*at = end;
		*found = d;
		return 1;
	}
	size_t current = start, stride = 32;
	for (;;) {
		if (doc_near(sec, nwords, current, GP_YIOOP_GALLOP, &s, &d, err) != GP_OK) return GP_EFORMAT;
		if (target <= d) break;
		current += stride;
		stride <<= 1;
		if (current > end) {
			current = end;
			break;
		}
	}
	if (target == d) {
		*at = current;
		*found = d;
		return 1;
	}
	size_t low = start, high = end;
	do {
		if (doc_near(sec, nwords, current, GP_YIOOP_GALLOP, &s, &d, err) != GP_OK) return GP_EFORMAT;
		if (target > d) {
			low = current;
			if (current >= end) return 0;
			if (current + 1 == high) low = ++current;
		} else if (target < d) {
			if (low == current) break;
			high = current;
		} else {
			break;
		}
		current = (low + high) >> 1;
	} while (current <= end);
	if (current > end) return 0;
	*at = current;
	*found = d;
	return 1;
}

int gp_yioop_seek(const uint8_t *sec, size_t nwords, size_t from, size_t last, int64_t doc,
                  int reader, size_t *at, int64_t *found_doc, gp_error *err)
{
	if (last >= nwords || from >= nwords) return gp_fail(err, GP_MOD9_NAME, 4 * (last > from ? last : from), "offset past the postings");
	if (from > last) return 0;
	if (reader == GP_YIOOP_GALLOP) return yioop_gallop(sec, nwords, from, last, doc, at, found_doc, err);
	/* docs never decrease along a list, so the words whose posting's doc is below `doc` come
	 * first: gallop from `from`, then halve, over word indices */
	size_t s;
	int64_t d;
	if (doc_near(sec, nwords, last, reader, &s, &d, err) != GP_OK) return GP_EFORMAT;
	if (d < doc) return 0;
	size_t lo = from, hi = last, stride = 1;   /* the answer's word is in [lo, hi] */
	while (lo + stride < hi) {
		if (doc_near(sec, nwords, lo + stride, reader, &s, &d, err) != GP_OK) return GP_EFORMAT;
		if (d >= doc) {
			hi = lo + stride;
			break;
		}
		lo += stride;
		stride <<= 1;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (doc_near(sec, nwords, mid, reader, &s, &d, err) != GP_OK) return GP_EFORMAT;
		if (d >= doc) hi = mid;
		else lo = mid + 1;
	}
	/* (when `from` lies inside the answer's posting, its first word is before `from`) */
	if (doc_near(sec, nwords, lo, reader, &s, &d, err) != GP_OK) return GP_EFORMAT;
	*at = s;
	*found_doc = d;
	return 1;
}

void gp_yioop_legacy_posting(int64_t *doc, int combined, int64_t *pos, size_t n)
{
	int64_t shift = -1;
	if (combined) {
		/* the value was ((2^18 + doc) << 9) + first gap: pre-2019 Yioop kept its low 10 bits */
		uint32_t v = (uint32_t)((((int64_t)1 << 18) + *doc) << 9) + (uint32_t)(n ? pos[0] : 0);
		uint32_t delta0 = v & 1023u;
		*doc = (int64_t)((v - delta0 - GP_MOD9_COMBINED_BIT) >> 9);
		shift = (int64_t)delta0 - 1 - (n ? pos[0] : 0);
	}
	for (size_t i = 0; i < n; i++) pos[i] += shift;
}
