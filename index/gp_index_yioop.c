/* A Yioop IndexShard file (Yioop 2019-2021, docs/FORMATS.md section 6) read into an index: its
 * dictionary's word ids are the terms, each term's run of the postings section its MOD9 list,
 * the doc records give the docs' lengths. Everything is checked before it is used: the file may
 * be any bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_index.h"
#include "gp_yioop_shard.h"
#include "../codec/gp_mod9.h"

#define YS_NAME GP_YIOOP_SHARD_NAME
#define YS_HEADER 40      /* ten big-endian u32 */
#define YS_KEY GP_YIOOP_KEY
#define YS_RECORD GP_YIOOP_RECORD
#define YS_DOC_UNIT 16    /* a doc's index is its record's offset / 16 */

void gp_yioop_postings_free(gp_yioop_postings *p)
{
	free(p->docs);
	free(p->pos);
	free(p->vstart);
	free(p->values);
	free(p->combined);
	memset(p, 0, sizeof(*p));
}

int gp_yioop_postings_decode(const uint8_t *blob, size_t len, gp_yioop_postings *p, gp_error *err)
{
	memset(p, 0, sizeof(*p));
	if (gp_mod9_measure(blob, len, 1, &p->c, err) != GP_OK) return GP_EFORMAT;
	p->docs = malloc((p->c.postings + 1) * sizeof(*p->docs));
	p->pos = malloc((p->c.values + 1) * sizeof(*p->pos));
	p->vstart = malloc((p->c.postings + 1) * sizeof(*p->vstart));
	p->values = malloc((p->c.values + 2) * sizeof(*p->values));
	p->combined = malloc(p->c.postings + 1);
	if (!p->docs || !p->pos || !p->vstart || !p->values || !p->combined) {
		gp_yioop_postings_free(p);
		return gp_index_fail_nomem(err, "a Yioop list decoded");
	}
	gp_mod9_decode_postings(blob, len, p->docs, p->vstart, p->combined, p->pos, 0);
	return GP_OK;
}

size_t gp_yioop_posting_long(gp_yioop_postings *p, size_t i, int64_t shift, uint8_t *out, const char **why)
{
	size_t first = p->vstart[i] + (p->combined[i] ? 0 : 1), n = p->vstart[i + 1] - first;
	size_t k = gp_mod9_posting_values(p->docs[i] + shift, p->pos + first, n, 0, p->values, why);
	return k ? gp_mod9_encode_values(p->values, k, out) : 0;
}

/* Yioop's combined form keeps 9 bits of a first gap it accepts below 1024: a posting of doc d
 * (2^15 <= d < 2^18) whose first position is 512..1023 reads back as doc d + 1, first position
 * less 512. Doc records take at least two 16-byte units, so d + 1 is no record's start while d
 * is one: such a list is decoded, those postings put back (doc d, positions + 512: what Yioop
 * meant to store) and the list written again in the long form (*out, malloc'd). Returns 1 when
 * it did, 0 when the list needs nothing (or holds a doc it cannot explain: adopting the lengths
 * names it), GP_EFORMAT or GP_ENOMEM. */
static int repair_list(const uint8_t *blob, size_t len, const uint32_t *table, size_t n_docs,
                       uint8_t **out, size_t *out_len, gp_error *err)
{
	gp_yioop_postings p;
	int rc = gp_yioop_postings_decode(blob, len, &p, err), found = 0;
	if (rc != GP_OK) return rc;
	uint8_t *enc = NULL;
	for (size_t i = 0; i < p.c.postings; i++) {
		int64_t d = p.docs[i];
		if (d < 0 || (size_t)d >= n_docs || table[d] != GP_IX_NO_LENGTH) continue;
		int after_record = d >= 1 && table[d - 1] != GP_IX_NO_LENGTH;
		int increasing = i == 0 || p.docs[i - 1] < d - 1;
		if (p.combined[i] && d > (1 << 15) && d <= (1 << 18) && after_record && increasing) {
			p.docs[i] = d - 1;
			for (uint32_t v = p.vstart[i]; v < p.vstart[i + 1]; v++) p.pos[v] += 512;
			found = 1;
		}
	}
	rc = 0;
	if (!found) goto done;
	/* every posting in the long form: at most one word a value and one more */
	size_t cap = 4 * (p.c.values + 2 * p.c.postings) + 8, at = 0;
	if (!(enc = malloc(cap))) {
		rc = gp_index_fail_nomem(err, "a repaired list");
		goto done;
	}
	for (size_t i = 0; i < p.c.postings; i++) {
		const char *why;
		size_t first = p.vstart[i] + (p.combined[i] ? 0 : 1);
		if (at + gp_mod9_encode_bound(p.vstart[i + 1] - first + 1) > cap) goto done;   /* left as Yioop wrote it */
		size_t n = gp_yioop_posting_long(&p, i, 0, enc + at, &why);
		if (n == 0) goto done;
		at += n;
	}
	*out = enc;
	*out_len = at;
	enc = NULL;
	rc = 1;
done:
	gp_yioop_postings_free(&p);
	free(enc);
	return rc;
}

static int list_order(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* No two dictionary records' lists share a byte (Yioop writes each word's postings once): the
 * lists are then read, repaired and decoded in time bounded by the postings' size, however many
 * records name them. */
static int check_lists_apart(const uint8_t *file, size_t dict_at, const uint8_t *const *blobs, const size_t *lens,
                             size_t n, size_t postings_at, gp_error *err)
{
	uint64_t *span = malloc((n + 1) * 3 * sizeof(uint64_t));   /* start, end, record */
	if (!span) return gp_index_fail_nomem(err, "the shard's dictionary");
	for (size_t i = 0; i < n; i++) {
		span[3 * i] = (uint64_t)(blobs[i] - file);
		span[3 * i + 1] = span[3 * i] + lens[i];
		span[3 * i + 2] = i;
	}
	qsort(span, n, 3 * sizeof(uint64_t), list_order);
	for (size_t i = 1; i < n; i++) {
		if (span[3 * i] < span[3 * (i - 1) + 1]) {
			uint64_t a = span[3 * (i - 1) + 2], b = span[3 * i + 2], later = a > b ? a : b, start = span[3 * i] - postings_at;
			free(span);
			return gp_fail(err, YS_NAME, dict_at == SIZE_MAX ? 4 : dict_at + YS_RECORD * later + YS_KEY + 4, "the lists of dictionary records "
			               "%llu and %llu overlap (at byte %llu of the postings)", (unsigned long long)(a < b ? a : b),
			               (unsigned long long)later, (unsigned long long)start);
		}
	}
	free(span);
	return GP_OK;
}

void gp_yioop_shard_free(gp_yioop_shard *s)
{
	free(s->terms);
	free(s->term_lens);
	free(s->blobs);
	free(s->lens);
	free(s->table);
	free(s->summary);
	free(s->list_at);
	free(s->orig_lens);
	for (size_t i = 0; s->owned && i < s->n; i++) free(s->owned[i]);
	free(s->owned);
	memset(s, 0, sizeof(*s));
}

int gp_yioop_shard_read(const uint8_t *file, size_t len, const uint8_t *dict, size_t dict_records,
                        const gp_budget *budget, int want_summary, gp_yioop_shard *s, gp_error *err)
{
	memset(s, 0, sizeof(*s));
	if (len < YS_HEADER) return gp_fail(err, YS_NAME, 0, "shorter than its 40-byte header");
	uint32_t h[10];
	for (int i = 0; i < 10; i++) h[i] = gp_load_be32(file + 4 * i);
	const uint64_t prefixes_len = h[0], words_len = h[1], postings_len = h[2], docs_len = h[3];
	if (YS_HEADER + prefixes_len + words_len + postings_len + docs_len != len) {
		return gp_fail(err, YS_NAME, 0, "the header's section lengths (%llu, %llu, %llu, %llu) and its 40 bytes "
		               "do not add up to the file's %zu bytes", (unsigned long long)prefixes_len,
		               (unsigned long long)words_len, (unsigned long long)postings_len,
		               (unsigned long long)docs_len, len);
	}
	/* a shard saved without its dictionary takes the one given (its bundle's entries for it) */
	const int outside = words_len == 0 && dict;
	if (words_len == 0 && !dict) {
		return gp_fail(err, YS_NAME, 4, "no dictionary (a shard saved without it: its index bundle's dictionary holds it)");
	}
	if (words_len % YS_RECORD) return gp_fail(err, YS_NAME, 4, "dictionary length %llu is not a multiple of 32", (unsigned long long)words_len);
	if (postings_len % 4) return gp_fail(err, YS_NAME, 8, "postings length %llu is not a multiple of 4", (unsigned long long)postings_len);
	if (docs_len % YS_DOC_UNIT) return gp_fail(err, YS_NAME, 12, "doc records' length %llu is not a multiple of 16", (unsigned long long)docs_len);
	const size_t dict_at = YS_HEADER + (size_t)prefixes_len, postings_at = dict_at + (size_t)words_len;
	const size_t docs_at = postings_at + (size_t)postings_len;
	const size_t n = outside ? dict_records : (size_t)(words_len / YS_RECORD), n_docs = (size_t)(docs_len / YS_DOC_UNIT);
	const uint8_t *records = outside ? dict : file + dict_at;
	s->dict_at = dict_at;
	s->outside = outside;
	s->docs = file + docs_at;
	memcpy(s->header, h, sizeof(s->header));
	s->postings_at = postings_at;

	if (gp_budget_check(budget, 0, (uint64_t)n * (2 * sizeof(void *) + 4 * sizeof(size_t)) +
	                    (uint64_t)n_docs * (want_summary ? 8 : 4), "the shard's dictionary and doc lengths", err) != GP_OK) {
		return GP_ENOMEM;
	}
	s->terms = malloc((n + 1) * sizeof(*s->terms));
	s->term_lens = malloc((n + 1) * sizeof(*s->term_lens));
	s->blobs = malloc((n + 1) * sizeof(*s->blobs));
	s->lens = malloc((n + 1) * sizeof(*s->lens));
	s->table = malloc((n_docs + 1) * sizeof(*s->table));
	s->summary = want_summary ? malloc((n_docs + 1) * sizeof(*s->summary)) : NULL;
	s->owned = calloc(n + 1, sizeof(*s->owned));   /* the lists written again */
	s->list_at = malloc((n + 1) * sizeof(*s->list_at));
	s->orig_lens = malloc((n + 1) * sizeof(*s->orig_lens));
	if (!s->terms || !s->term_lens || !s->blobs || !s->lens || !s->table || !s->owned || !s->list_at || !s->orig_lens ||
	    (want_summary && !s->summary)) {
		return gp_index_fail_nomem(err, "the shard's dictionary");
	}
	s->n = n;
	s->n_docs = n_docs;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *r = records + YS_RECORD * i;
		/* an entry of the bundle's dictionary has no byte in the file: its header's words_len */
		const size_t gen_at = outside ? 4 : dict_at + YS_RECORD * i + YS_KEY, list_at = outside ? 4 : gen_at + 4;
		uint32_t generation = gp_load_be32(r + YS_KEY), off = gp_load_be32(r + YS_KEY + 4);
		uint32_t ln = gp_load_be32(r + YS_KEY + 8);
		if (generation & 0x80000000u) {
			/* packWords' one-posting record: 24 bytes where the dictionary's stride is 32 */
			return gp_fail(err, YS_NAME, gen_at, "a one-posting dictionary record (Yioop writes it 8 bytes short)");
		}
		if (ln & 0x80000000u) ln &= 0xFFFFu;   /* the high half holds the doc count */
		if (ln == 0 || ln % 4 || off % 4 || (uint64_t)off + ln > postings_len) {
			char word[2 * YS_KEY + 1] = "";
			for (size_t k = 0; outside && k < YS_KEY; k++) snprintf(word + 2 * k, 3, "%02x", r[k]);
			return gp_fail(err, YS_NAME, list_at, "list at offset %u, %u bytes, is not whole words within the "
			               "%llu bytes of postings%s%s%s", off, ln, (unsigned long long)postings_len,
			               outside ? " (the bundle dictionary's entry for word id " : "", word, outside ? ")" : "");
		}
		s->terms[i] = (const char *)r;
		s->term_lens[i] = YS_KEY;
		s->blobs[i] = file + postings_at + off;
		s->list_at[i] = postings_at + off;
		s->lens[i] = s->orig_lens[i] = ln;
	}
	int rc = check_lists_apart(file, outside ? SIZE_MAX : dict_at, s->blobs, s->lens, n, postings_at, err);
	if (rc != GP_OK) return rc;
	/* the doc records: offset (4), length << 8 | key count (4), the keys (8 each), padded to 16 */
	for (size_t d = 0; d < n_docs; d++) s->table[d] = GP_IX_NO_LENGTH;
	for (size_t at = 0; at < docs_len;) {
		uint32_t doc_int = gp_load_be32(file + docs_at + at + 4), keys = doc_int & 255u;
		uint64_t record = 8 + 8 * (uint64_t)keys + (keys % 2 ? 0 : 8);
		if (at + record > docs_len) {
			return gp_fail(err, YS_NAME, docs_at + at + 4, "doc record of %u keys runs past the doc records", keys);
		}
		/* the 24-bit length field: bit 23 flags a link, bits 19-22 an archive crawl's rank */
		uint32_t tokens = (doc_int >> 8) & 0x7FFFFu;
		s->table[at / YS_DOC_UNIT] = tokens ? tokens : 1u;
		if (s->summary) s->summary[at / YS_DOC_UNIT] = gp_load_be32(file + docs_at + at);
		at += (size_t)record;
	}
	for (size_t i = 0; i < n; i++) {
		rc = repair_list(s->blobs[i], s->lens[i], s->table, n_docs, &s->owned[i], &s->lens[i], err);
		if (rc == GP_EFORMAT) {
			char rule[sizeof(err->rule)];
			memcpy(rule, err->rule, sizeof(rule));
			rc = gp_fail(err, YS_NAME, (size_t)(s->blobs[i] - file) + err->offset, "%.140s (the list of dictionary record %zu)", rule, i);
			err->blob = i;
		}
		if (rc < 0) return rc;
		if (rc == 1) s->blobs[i] = s->owned[i];
	}
	return GP_OK;
}

int gp_index_yioop_load(const uint8_t *file, size_t len, const gp_budget *budget, gp_index **out,
                        gp_error *err)
{
	memset(err, 0, sizeof(*err));
	*out = NULL;
	gp_yioop_shard s;
	int rc = gp_yioop_shard_read(file, len, NULL, 0, budget, 0, &s, err);
	if (rc != GP_OK) goto done;
	const size_t n = s.n, dict_at = s.dict_at, postings_at = s.postings_at;
	gp_budget room;   /* the index is built beside the file's image */
	rc = gp_index_build(GP_IX_MOD9, n, s.terms, s.term_lens, s.blobs, s.lens, gp_budget_beside(budget, len, &room), out, err);
	if (rc == GP_EFORMAT) {
		/* the byte of the file, the term by its place in the dictionary */
		size_t t = err->blob < n ? err->blob : 0;
		char rule[sizeof(err->rule)];
		memcpy(rule, err->rule, sizeof(rule));
		size_t where = s.owned[t] ? (size_t)gp_load_be32(file + dict_at + YS_RECORD * t + YS_KEY + 4) + postings_at
		                          : (size_t)(s.blobs[t] - file) + err->offset;
		gp_fail(err, YS_NAME, where, "%.140s (the list of dictionary record %zu)", rule, t);
		err->blob = t;
		goto done;
	}
	if (rc == GP_EVALUE) {   /* a key twice, or more postings than an index holds */
		char rule[sizeof(err->rule)];
		memcpy(rule, err->rule, sizeof(rule));
		rc = gp_fail(err, YS_NAME, dict_at, "%s", rule);
	}
	if (rc != GP_OK) goto done;
	rc = gp_index_adopt_lengths(*out, s.table, (uint32_t)s.n_docs, 1.2, 0.75, err);
	if (rc == GP_OK) {
		s.table = NULL;   /* the index's now */
	} else if (rc == GP_EVALUE) {
		char rule[sizeof(err->rule)];
		memcpy(rule, err->rule, sizeof(rule));
		size_t t = err->blob < n ? err->blob : 0;
		size_t where = postings_at + gp_load_be32(file + dict_at + YS_RECORD * t + YS_KEY + 4);
		rc = gp_fail(err, YS_NAME, where, "a posting's doc is not the start of a doc record: %.140s", rule);
		err->blob = t;
	}
	if (rc != GP_OK) {
		gp_index_unref(*out);
		*out = NULL;
	}
done:
	gp_yioop_shard_free(&s);
	return rc;
}
