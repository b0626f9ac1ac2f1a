/* libFuzzer harness for codec/gp_mod9.c: validation, both value decoders (they must agree), the
 * posting decoder, and encode-then-decode round trips of values and postings built from the
 * input. */
#include "fuzz_common.h"
#include "../codec/gp_mod9.h"
#include "../codec/gp_mod9_yioop.h"

static void check_blob(const uint8_t *data, size_t size)
{
	gp_mod9_counts c;
	gp_error err;
	uint32_t *bounded = fuzz_alloc((size / 4 * 24 + 1) * sizeof(uint32_t));
	size_t n = gp_mod9_decode_values_checked(data, size, bounded, &err);
	if (gp_mod9_measure(data, size, 0, &c, &err) != GP_OK) {
		FUZZ_CHECK(n == (size_t)-1);
		FUZZ_CHECK(err.offset <= size);
		free(bounded);
		return;
	}
	FUZZ_CHECK(n == c.values);
	uint32_t *values = fuzz_alloc(c.values * sizeof(uint32_t));
	gp_mod9_decode_values(data, size, values);
	FUZZ_CHECK(memcmp(values, bounded, c.values * sizeof(uint32_t)) == 0);

	/* values of 1..2^28-1 re-encode to a blob that decodes to the same values */
	int encodable = 1;
	for (size_t i = 0; i < c.values; i++) encodable &= values[i] >= 1;
	if (encodable) {
		uint8_t *enc = fuzz_alloc(gp_mod9_encode_bound(c.values));
		size_t len = gp_mod9_encode_values(values, c.values, enc);
		gp_mod9_counts c2;
		FUZZ_CHECK(gp_mod9_measure(enc, len, 0, &c2, &err) == GP_OK && c2.values == c.values);
		uint32_t *again = fuzz_alloc(c.values * sizeof(uint32_t));
		gp_mod9_decode_values(enc, len, again);
		FUZZ_CHECK(memcmp(again, values, c.values * sizeof(uint32_t)) == 0);
		free(again);
		free(enc);
	}
	if (gp_mod9_measure(data, size, 1, &c, &err) == GP_OK) {
		int64_t *docs = fuzz_alloc(c.postings * sizeof(int64_t));
		uint32_t *vstart = fuzz_alloc((c.postings + 1) * sizeof(uint32_t));
		uint8_t *comb = fuzz_alloc(c.postings);
		int64_t *pos = fuzz_alloc(c.values * sizeof(int64_t));
		gp_mod9_decode_postings(data, size, docs, vstart, comb, pos, 0);
		FUZZ_CHECK(vstart[c.postings] == c.values);
		for (size_t p = 0; p < c.postings; p++) {
			FUZZ_CHECK(docs[p] >= 0 && vstart[p] < vstart[p + 1]);
		}
		free(docs);
		free(vstart);
		free(comb);
		free(pos);
	}
	free(values);
	free(bounded);
}

/* The input as a posting: a doc and strictly increasing positions; encode and decode back. */
static void check_posting(const uint8_t *data, size_t size)
{
	if (size < 4) return;
	int64_t doc = (int64_t)(gp_load_le32(data) % 300000u);
	size_t n = (size - 4) / 2;
	int64_t *pos = fuzz_alloc((n + 1) * sizeof(int64_t)), p = 0;
	for (size_t i = 0; i < n; i++) {
		p += 1 + (data[4 + 2 * i] | (data[5 + 2 * i] << 8));
		pos[i] = p;
	}
	uint32_t *vals = fuzz_alloc((n + 1) * sizeof(uint32_t));
	const char *why = NULL;
	size_t nv = gp_mod9_posting_values(doc, pos, n, 1, vals, &why);
	if (nv > 0) {
		uint8_t *enc = fuzz_alloc(gp_mod9_encode_bound(nv));
		size_t len = gp_mod9_encode_values(vals, nv, enc);
		gp_mod9_counts c;
		gp_error err;
		FUZZ_CHECK(gp_mod9_measure(enc, len, 1, &c, &err) == GP_OK && c.postings == 1);
		int64_t d;
		uint32_t vs[2];
		uint8_t comb;
		int64_t *out = fuzz_alloc(c.values * sizeof(int64_t));
		gp_mod9_decode_postings(enc, len, &d, vs, &comb, out, 0);
		/* Yioop's combined form reads a first gap of 512..1023 back as doc + 1 */
		int ambiguous = doc >= 32768 && doc < 262144 && n > 0 && pos[0] >= 512 && pos[0] < 1024;
		if (!ambiguous) {
			FUZZ_CHECK(d == doc);
			FUZZ_CHECK(vs[1] - vs[0] - (comb ? 0 : 1) == n);
			for (size_t i = 0; i < n; i++) FUZZ_CHECK(out[vs[0] + (comb ? 0 : 1) + i] == pos[i]);
		}
		free(out);
		free(enc);
	}
	free(vals);
	free(pos);
}

/* Yioop's readers over the bytes as a postings section, from places the first words pick: each
 * slice's postings lie inside it, one after another, each checked and decoded; a seek lands on
 * a posting inside the range whose doc is at least the target (unpackPosting's, the pre-2019
 * form's) or repeats Yioop's search (docIndexModified9's). */
static void check_yioop(const uint8_t *data, size_t size)
{
	size_t nwords = size / 4;
	if (nwords < 4) return;
	size_t from = gp_load_le32(data) % nwords, last = gp_load_le32(data + 4) % nwords;
	uint64_t limit = gp_load_le32(data + 8) % 300 + 1;
	int64_t target = gp_load_le32(data + 12) % 70000;
	size_t room = last >= from ? last - from + 1 : 0, next;
	size_t *starts = fuzz_alloc((room + 1) * sizeof(size_t)), *ends = fuzz_alloc((room + 1) * sizeof(size_t));
	gp_error err;
	size_t k = gp_yioop_slice(data, nwords, from, last, limit, data[0] & 1, starts, ends, room, &next, &err);
	if (k != (size_t)-1) {
		for (size_t i = 0; i < k; i++) {
			FUZZ_CHECK(starts[i] < ends[i] && ends[i] <= nwords && (i == 0 || starts[i] == ends[i - 1]));
			FUZZ_CHECK(i == 0 ? starts[i] <= from : starts[i] <= last);
			gp_mod9_counts c;
			if (gp_mod9_measure(data + 4 * starts[i], 4 * (ends[i] - starts[i]), 1, &c, &err) == GP_OK) {
				FUZZ_CHECK(c.postings == 1);
				int64_t doc, *pos = fuzz_alloc((c.values + 1) * sizeof(int64_t));
				uint32_t vstart[2];
				uint8_t combined;
				gp_mod9_decode_postings(data + 4 * starts[i], 4 * (ends[i] - starts[i]), &doc, vstart, &combined, pos, 0);
				FUZZ_CHECK(vstart[1] <= c.values);
				size_t first = combined ? 0 : 1;
				if (vstart[1] >= first) gp_yioop_legacy_posting(&doc, combined, pos + first, vstart[1] - first);
				free(pos);
			}
		}
		FUZZ_CHECK(next == (k ? ends[k - 1] : from));
	}
	for (int reader = GP_YIOOP_UNPACK; reader <= GP_YIOOP_LEGACY; reader++) {
		size_t at;
		int64_t doc;
		int rc = gp_yioop_seek(data, nwords, from, last, target, reader, &at, &doc, &err);
		if (rc == 1) {
			FUZZ_CHECK(at <= last);
			if (reader != GP_YIOOP_GALLOP) FUZZ_CHECK(doc >= target);
		}
	}
	free(starts);
	free(ends);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the device path's estimate reads any blob, valid or not: at most 24 values a word */
	gp_mod9_counts est;
	gp_mod9_estimate(data, size, &est);
	FUZZ_CHECK(est.words == size / 4 && est.values <= 24 * est.words && est.postings <= est.words);
	check_blob(data, size);
	check_posting(data, size);
	check_yioop(data, size);
	return 0;
}
