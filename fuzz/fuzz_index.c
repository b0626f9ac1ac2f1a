/* libFuzzer harness for index/: the file reader on any bytes, and (first byte odd) the same bytes
 * with their checksums made right, so that the structure and the lists behind them are explored;
 * with bit 1 of the first byte set, the Yioop IndexShard reader instead (with bit 3 too, a
 * Yioop bundle of that shard as two generations, the bytes its dictionary file too (read when the
 * shard has no dictionary of its own), and the bytes as a bundle's generation.txt; with
 * bit 4 as well, the bytes as a Yioop web archive, record after record). A custom mutator knows
 * both layouts: it repeats and overlaps sections and dictionary records, and makes the counts
 * lie, checksums recomputed, beside libFuzzer's own byte mutations.
 * A file that loads is queried (AND, OR, phrase over its first terms, ranked where it can be) and
 * each answer checked against the lists; a version 2 file's answers from its lists in place equal
 * those from the same lists decoded; saved, and loading the saved file gives the same file again. */
#include "fuzz_common.h"
#include "../query/gp_query.h"
#include "../index/gp_list_cursor.h"
#include "../index/gp_index_file.h"
#include "../index/gp_yioop_archive.h"
#include "../index/gp_yioop_search.h"
#include <sys/mman.h>
#include <unistd.h>


/* Yioop's search over a bundle that loads (index/gp_yioop_search.c), with a face of C's own
 * (decimals rounded by printf, an insertion sort) */
static double c_round_decimal(double v, int places)
{
	char text[512];
	snprintf(text, sizeof(text), "%.*f", places, v);
	return strtod(text, NULL);
}

static void c_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *), void (*swap)(void *, void *))
{
	char *b = base;
	for (size_t i = 1; i < n; i++) {
		for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--) swap(b + (j - 1) * size, b + j * size);
	}
}

/* word structs over the index's first terms: conjunctions, a repeated word, a negated word, a
 * quote with and without a "*" gap, a generation left unseen, walk order; every answer's pages
 * hold docs of the bundle, as many members as the walk saw at most */
static void check_yioop_search(const gp_index *ix, const gp_budget *budget, uint8_t seed)
{
	const uint32_t n = ix->n_terms < 4 ? ix->n_terms : 4;
	if (n == 0) return;
	const gp_yioop_face face = {c_round_decimal, c_sort};
	const int32_t quote[] = {0, 1, 1, 1}, star[] = {0, 1, -1, -1, 1, 1};
	const size_t quote_at[] = {0, 2}, star_at[] = {0, 3};
	const uint32_t seen[] = {0, 2};
	/* words that meet: the terms holding the first term's first doc (the first 4), then others */
	uint32_t meet[4] = {0, 0, 0, 0};
	size_t n_meet = 0;
	if (ix->docs && ix->list_at[1] > ix->list_at[0]) {
		const uint32_t d = ix->docs[ix->list_at[0]];
		for (uint32_t t = 0; t < ix->n_terms && n_meet < 4; t++) {
			const uint64_t at = gp_index_list_from(ix, t, d);
			if (at < ix->list_at[t + 1] && ix->docs[at] == d) meet[n_meet++] = t;
		}
	}
	for (uint32_t t = 0; n_meet < 4; t++) meet[n_meet++] = t % n;
	for (int k = 0; k < 6; k++) {
		uint32_t words[4] = {meet[0], meet[1], k == 2 ? meet[0] : meet[2], meet[3]}, negated[1] = {n - 1};
		const uint32_t *gens[5] = {seen, NULL, NULL, NULL, NULL};
		const size_t n_gens[5] = {2, 0, 0, 0, 0};
		gp_yioop_query q = {words, k == 0 ? 1 : 2 + (seed + k) % 3, negated, k == 3, NULL, NULL, 0, 1.0,
		                    k == 4 ? gens : NULL, n_gens};
		if (k == 1) q.quote_pairs = quote, q.quote_at = quote_at, q.n_quotes = 1;
		if (k == 5) q.quote_pairs = star, q.quote_at = star_at, q.n_quotes = 1;
		gp_yioop_result r;
		gp_error err;
		/* a second disjunct: the words the other way round, weighed apart */
		uint32_t swapped[4] = {words[1], words[0], words[3], words[2]};
		gp_yioop_query qs[2] = {q, {swapped, 2, NULL, 0, NULL, NULL, 0, 0.5, NULL, NULL}};
		int rc = gp_yioop_search(ix, qs, k == 2 ? 2 : 1, 1 + seed % 7, k == 5, &face, budget, &r, &err);
		FUZZ_CHECK(rc == GP_OK || rc == GP_ENOMEM);
		if (rc == GP_OK && !r.why) {
			size_t members = 0;
			for (size_t i = 0; i < r.n_pages; i++) {
				FUZZ_CHECK(r.pages[i].n_members > 0 && r.pages[i].first + r.pages[i].n_members <= r.n_members);
				members += r.pages[i].n_members;
			}
			FUZZ_CHECK(members == r.n_members && members <= r.matches);
			for (size_t m = 0; m < r.n_members; m++) FUZZ_CHECK(r.members[m] < ix->yioop->n_docs);
		}
		gp_yioop_result_free(&r);
	}
}

/* Version 2: each list's checksum in the term table (section 6) over its bytes in section 7,
 * then section 8's: each group of terms' whose offsets lie in order within section 2, the doc
 * lengths' head and chunks'. */
static void fix_v2_checksums(uint8_t *f, size_t len, uint32_t sections)
{
	uint8_t *sec[9] = {0};
	uint64_t sec_len[9] = {0};
	for (uint32_t i = 0; i < sections; i++) {
		uint8_t *e = f + 64 + 24 * (size_t)i;
		uint64_t off = gp_load_le64(e + 8), n = gp_load_le64(e + 16);
		uint32_t id = gp_load_le32(e);
		if (off > len || n > len - off || id > 8) continue;
		sec[id] = f + off;
		sec_len[id] = n;
	}
	uint8_t *table = sec[6], *lists = sec[7], *at = sec[1], *terms = sec[2], *checks = sec[8], *lengths = sec[5];
	if (!table || !lists) return;
	uint64_t n = sec_len[6] / 40;
	for (uint64_t t = 0; t < n; t++) {
		uint64_t a = gp_load_le64(table + 40 * t), b = t + 1 < n ? gp_load_le64(table + 40 * (t + 1)) : sec_len[7];
		if (a <= b && b <= sec_len[7]) gp_store_le32(table + 40 * t + 28, gp_crc32c(0, lists + a, (size_t)(b - a)));
	}
	if (!checks || sec_len[8] < GP_V2_CHECKS_HEAD || !at || sec_len[1] < (n + 1) * 8 || !terms || n > UINT32_MAX) return;
	uint32_t gt = gp_load_le32(checks), ct = gp_load_le32(checks + 4);
	if (!gt || (gt & (gt - 1)) || gt > 65536 || !ct || (ct & (ct - 1))) return;
	uint64_t groups = (n + gt - 1) / gt;
	for (uint32_t g = 0; g < groups && GP_V2_CHECKS_HEAD + 4 * ((uint64_t)g + 1) <= sec_len[8]; g++) {
		uint32_t first, end, cover;
		gp_v2_group_span((uint32_t)n, (uint32_t)__builtin_ctz(gt), g, &first, &end, &cover);
		uint64_t o0 = gp_load_le64(at + 8 * (size_t)first), o1 = gp_load_le64(at + 8 * (size_t)cover);
		if (o0 > o1 || o1 > sec_len[2]) continue;
		gp_store_le32(checks + GP_V2_CHECKS_HEAD + 4 * (size_t)g, gp_index_v2_group_crc(at, terms, table, first, end, cover));
	}
	if (!lengths || sec_len[5] < GP_IXF_LENGTHS_HEAD) return;
	gp_store_le32(checks + 24, gp_crc32c(0, lengths, GP_IXF_LENGTHS_HEAD));
	uint64_t docs = (sec_len[5] - GP_IXF_LENGTHS_HEAD) / 4;
	for (uint64_t c = 0; c * ct < docs && GP_V2_CHECKS_HEAD + 4 * (groups + c + 1) <= sec_len[8]; c++) {
		uint64_t m = docs - c * ct < ct ? docs - c * ct : ct;
		gp_store_le32(checks + GP_V2_CHECKS_HEAD + 4 * (groups + c), gp_crc32c(0, lengths + GP_IXF_LENGTHS_HEAD + 4 * c * ct, (size_t)m * 4));
	}
}

/* the checksums of docs/FORMATS.md recomputed in place (version 2: the lists' and section 8's
 * own too, and none for section 7) */
static void fix_checksums(uint8_t *f, size_t len)
{
	if (len < 64) return;
	uint32_t sections = gp_load_le32(f + 44);
	if (sections == 0 || (uint64_t)sections * 24 > len - 64) return;
	int v2 = gp_load_le32(f + 8) == 2;
	if (v2) fix_v2_checksums(f, len, sections);
	for (uint32_t i = 0; i < sections; i++) {
		uint8_t *e = f + 64 + 24 * (size_t)i;
		uint64_t off = gp_load_le64(e + 8), n = gp_load_le64(e + 16);
		if (v2 && gp_load_le32(e) == 7) gp_store_le32(e + 4, 0);
		else if (off <= len && n <= len - off) gp_store_le32(e + 4, gp_crc32(0, f + off, (size_t)n));
	}
	gp_store_le32(f + 48, gp_crc32(0, f + 64, (size_t)sections * 24));
	gp_store_le32(f + 60, gp_crc32(0, f, 60));
}

/* Whether doc d is in term t's list (a list the queries checked). */
static int in_list(const gp_index *ix, uint32_t t, uint32_t d)
{
	gp_list_cursor c;
	gp_cursor_open(&c, ix, t);
	gp_cursor_geq(&c, d);
	return c.i < c.n && c.doc == d;
}

struct answers_kept {
	gp_answers a[6];
	int rc[6];
};

/* AND, OR and phrase over the first terms (ranked too where the index has doc lengths); each
 * answer checked against the lists; the answers kept in `keep` (NULL: not). */
static void check_queries(const gp_index *ix, struct answers_kept *keep)
{
	uint32_t n = ix->n_terms < 3 ? ix->n_terms : 3;
	if (n == 0) return;
	uint32_t terms[3] = {0, n > 1 ? 1 : 0, n > 2 ? 2 : 0};
	uint64_t at[2] = {0, n};
	for (int k = 0; k < 6; k++) {
		int op = GP_IX_OR + k % 3, ranked = k >= 3;
		gp_query_batch q = {.op = op, .n_queries = 1, .terms = terms, .at = at, .limit = ranked ? 2 : 0};
		gp_answers a;
		gp_error err;
		gp_budget b = {UINT64_MAX, (uint64_t)1 << 30, 1, NULL};
		if (keep) keep->rc[k] = GP_EVALUE;
		if (ranked && (!ix->doc_len || op == GP_IX_PHRASE)) continue;
		int rc = gp_index_query_host(ix, &q, &b, &a, &err);
		if (keep) keep->rc[k] = rc;
		if (rc != GP_OK) continue;
		for (uint64_t i = 1; i < a.total && !ranked; i++) FUZZ_CHECK(a.docs[i - 1] < a.docs[i]);
		/* each answer is in every list (AND, phrase) or in one (OR) */
		for (uint64_t i = 0; i < a.total; i++) {
			uint32_t in = 0;
			for (uint32_t t = 0; t < n; t++) in += in_list(ix, terms[t], a.docs[i]);
			FUZZ_CHECK(op == GP_IX_OR ? in > 0 : in == n);
		}
		if (op == GP_IX_OR && !ranked) {
			uint64_t sum = 0;
			for (uint32_t t = 0; t < n; t++) sum += gp_index_df(ix, terms[t]);
			FUZZ_CHECK(a.total <= sum);
			FUZZ_CHECK(a.total >= gp_index_df(ix, terms[0]));
		}
		if (keep) keep->a[k] = a;
		else gp_answers_free(&a);
	}
}

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* A gpupost index file's structure mutated: a section table entry copied over another (a section
 * twice), pointed into another's bytes (overlap), or a count of the header or a section length
 * made to lie; the checksums then made right (flag bit 0). */
static size_t mutate_index_file(uint8_t *f, size_t len, unsigned r)
{
	if (len < 64) return len;
	uint32_t n = gp_load_le32(f + 44);
	if (n == 0 || (uint64_t)n * 24 > len - 64) return len;
	uint8_t *a = f + 64 + 24 * (size_t)((r >> 4) % n), *b = f + 64 + 24 * (size_t)((r >> 12) % n);
	switch (r % 6) {
	case 0: memcpy(a, b, 24); break;                                              /* a section repeated */
	case 1: gp_store_le64(a + 8, gp_load_le64(b + 8) + ((r >> 20) % 16)); break;   /* overlapping */
	case 2: gp_store_le64(a + 16, gp_load_le64(a + 16) + ((r >> 20) % 64) - 32); break;   /* a length lies */
	case 3: gp_store_le32(f + 20 + 4 * ((r >> 20) % 6), (r >> 8) % 5 == 0 ? UINT32_MAX : gp_load_le32(f + 20 + 4 * ((r >> 20) % 6)) + ((r >> 24) % 8) - 4); break;
	case 4: gp_store_le32(f + 44, n + 1 + (r >> 20) % 3); break;                  /* more sections than written */
	default: gp_store_le32(a, (r >> 20) % 7); break;                             /* another id */
	}
	fix_checksums(f, len);
	return len;
}

/* A Yioop shard's structure mutated: a dictionary record's list pointed at another's (overlap,
 * repeated lists), a header length made to lie, a doc record's key count changed. */
static size_t mutate_yioop_shard(uint8_t *f, size_t len, unsigned r)
{
	if (len < 40) return len;
	uint64_t dict_at = 40 + (uint64_t)gp_load_be32(f), words = gp_load_be32(f + 4), n = words / 32;
	if (r % 3 == 0 || n == 0 || dict_at + words > len) {
		uint8_t *h = f + 4 * ((r >> 4) % 10);
		gp_store_be32(h, gp_load_be32(h) + ((r >> 8) % 64) - 32);
		return len;
	}
	uint8_t *a = f + dict_at + 32 * ((r >> 4) % n), *b = f + dict_at + 32 * ((r >> 12) % n);
	if (r % 3 == 1) {
		memcpy(a + 24, b + 24, 8);   /* the same list twice */
	} else {
		gp_store_be32(a + 24, gp_load_be32(b + 24) + 4 * ((r >> 20) % 4));   /* overlapping */
		gp_store_be32(a + 28, gp_load_be32(a + 28) + 4 * ((r >> 24) % 4));
	}
	return len;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	if (size < 2 || seed % 3 != 0) return LLVMFuzzerMutate(data, size, max_size);
	unsigned r = seed / 3;
	if (data[0] & 2) return 1 + mutate_yioop_shard(data + 1, size - 1, r);
	data[0] |= 1;   /* the checksums are made right again when the input runs */
	return 1 + mutate_index_file(data + 1, size - 1, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_index *ix;
	gp_error err;
	gp_budget budget = {(uint64_t)256 << 20, (uint64_t)256 << 20, 1, NULL};
	if (size < 1) return 0;
	uint8_t *f = fuzz_alloc(size);
	memcpy(f, data + 1, size - 1);
	if (data[0] & 1) fix_checksums(f, size - 1);
	/* bit 2: the own format read in place, as from a mapping (the harness keeps the bytes, in
	 * ASan's sight, and frees them itself) */
	int rc;
	if ((data[0] & 26) == 26) {
		/* bits 1, 3 and 4: the bytes as a Yioop web archive, its records read one after another */
		int fd = memfd_create("fuzz_archive", 0);
		FUZZ_CHECK(fd >= 0 && write(fd, f, size - 1) == (ssize_t)(size - 1));
		uint64_t at = 0;
		for (int k = 0; k < 64 && at < size - 1; k++) {
			uint8_t *text;
			size_t len;
			uint64_t next;
			rc = gp_yioop_archive_record(fd, size - 1, at, &budget, &text, &len, &next, &err);
			if (rc != GP_OK) {
				FUZZ_CHECK(err.code == rc && (rc != GP_EFORMAT || err.offset <= size - 1));
				break;
			}
			FUZZ_CHECK(next > at + GP_YIOOP_ARCHIVE_PREFIX && next <= size - 1 && text[len] == 0);
			free(text);
			at = next;
		}
		close(fd);
		free(f);
		return 0;
	}
	if ((data[0] & 10) == 10) {
		/* bits 1 and 3: a Yioop bundle whose generations 0 and 2 are these bytes, generation 1
		 * without a file yet; its lists are the shard's twice, the second time moved up. The
		 * bytes are read as a generation.txt too. */
		int64_t active;
		if (gp_yioop_generation_info((const char *)f, size - 1, &active, &err) == GP_OK) FUZZ_CHECK(active >= 0);
		else FUZZ_CHECK(err.code == GP_EFORMAT && err.offset <= size - 1);
		const uint8_t *files[3] = {f, NULL, f};
		const size_t lens[3] = {size - 1, 0, size - 1};
		uint64_t base[4];
		size_t bad;
		gp_index *shard = NULL;
		int one = gp_index_yioop_load(f, size - 1, &budget, &shard, &err);
		/* the bytes as the bundle's one dictionary file too: what a shard without its own reads */
		rc = gp_index_yioop_bundle_load(3, files, lens, 1, files, lens, &budget, &ix, base, &bad, &err);
		if (rc != GP_OK) FUZZ_CHECK(bad == SIZE_MAX || bad == 0 || bad == 2 || bad == 3);
		if (rc == GP_OK) FUZZ_CHECK(base[1] == base[2] && base[3] == 2 * base[1] && ix->n_attrs == 3);
		if (rc == GP_OK) check_yioop_search(ix, &budget, data[0]);
		if (rc == GP_OK && one == GP_OK) {
			FUZZ_CHECK(ix->n_terms == shard->n_terms && ix->n_postings == 2 * shard->n_postings &&
			           ix->n_positions == 2 * shard->n_positions);
		}
		if (shard) gp_index_unref(shard);
	} else {
		rc = data[0] & 2 ? gp_index_yioop_load(f, size - 1, &budget, &ix, &err)
		   : data[0] & 4 ? gp_index_load_mapped(f, size - 1, &budget, &ix, &err)
		   : gp_index_load(f, size - 1, &budget, &ix, &err);
	}
	if (rc == GP_OK && ix->mapped) FUZZ_CHECK(ix->mapped == f && (ix->v2 || ix->blobs_borrowed));
	if (rc != GP_OK) {
		FUZZ_CHECK(err.code != GP_OK);
		FUZZ_CHECK(err.code != GP_EFORMAT || err.offset <= size - 1);
		free(f);
		return 0;
	}
	/* a version 2 file: its lists walked in place, then (all of them checked) decoded, and the
	 * same queries answered the same */
	struct answers_kept before;
	memset(&before, 0, sizeof(before));
	check_queries(ix, ix->v2 ? &before : NULL);
	if (ix->v2 && gp_index_verify(ix, &err) == GP_OK) {
		FUZZ_CHECK(gp_index_v2_materialize(ix, &budget, &err) == GP_OK);
		struct answers_kept after;
		memset(&after, 0, sizeof(after));
		check_queries(ix, &after);
		for (int k = 0; k < 6; k++) {
			FUZZ_CHECK(before.rc[k] == after.rc[k]);
			if (before.rc[k] != GP_OK) continue;
			FUZZ_CHECK(before.a[k].total == after.a[k].total);
			FUZZ_CHECK(!before.a[k].total || memcmp(before.a[k].docs, after.a[k].docs, before.a[k].total * 4) == 0);
			gp_answers_free(&after.a[k]);
		}
	}
	for (int k = 0; k < 6; k++) if (before.rc[k] == GP_OK && before.a[k].at) gp_answers_free(&before.a[k]);
	fuzz_file one = {0}, two = {0};
	FUZZ_CHECK(gp_index_save(ix, GP_INDEX_FILE_VERSION, fuzz_collect, &one, &err) == GP_OK);
	gp_index *back;
	FUZZ_CHECK(gp_index_load(one.p, one.n, &budget, &back, &err) == GP_OK);
	FUZZ_CHECK(back->n_terms == ix->n_terms && back->n_postings == ix->n_postings && back->n_docs == ix->n_docs);
	FUZZ_CHECK(gp_index_save(back, GP_INDEX_FILE_VERSION, fuzz_collect, &two, &err) == GP_OK);
	FUZZ_CHECK(one.n == two.n && memcmp(one.p, two.p, one.n) == 0);
	gp_index_unref(back);
	if (ix->mapped == f) ix->mapped = NULL;   /* the harness's bytes, freed below */
	gp_index_unref(ix);
	free(one.p);
	free(two.p);
	free(f);
	return 0;
}
