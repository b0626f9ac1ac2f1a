/* The engine's tests in C, without PHP (tests/c/run.sh builds and runs them under ASan and UBSan):
 * what the engine promises its faces, checked through include/gpupost.h alone. Each test prints
 * one line; the last line counts them ("N passed, N failed"); the exit status is the failures'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/gpupost.h"
#include "../../include/gpupost_codec.h"
#include "check.h"
#include "s9_index.h"


static int collect(void *ctx, const void *bytes, size_t len)
{
	struct { uint8_t *p; size_t n; } *b = ctx;
	uint8_t *p = realloc(b->p, b->n + len);
	if (!p) return -1;
	memcpy(p + b->n, bytes, len);
	b->p = p;
	b->n += len;
	return 0;
}

/* An index saved and loaded again is the same index: the same file byte for byte, the same
 * answers. */
static int test_save_load(void)
{
	int64_t a[] = {1, 2, 2, 5, 9}, b[] = {2, 5, 7};
	const int64_t *lists[] = {a, b};
	size_t lens[] = {5, 3};
	gp_error err;
	gp_index *ix = s9_index(2, lists, lens, NULL, &err), *back = NULL;
	CHECK(ix && ix->n_docs == 5 && gp_index_df(ix, 0) == 4);   /* the two 2s are one doc */
	struct { uint8_t *p; size_t n; } one = {0}, two = {0};
	CHECK(gp_index_save(ix, GP_INDEX_FILE_VERSION, collect, &one, &err) == GP_OK);
	CHECK(gp_index_load(one.p, one.n, NULL, &back, &err) == GP_OK);
	CHECK(gp_index_save(back, GP_INDEX_FILE_VERSION, collect, &two, &err) == GP_OK);
	CHECK(one.n == two.n && memcmp(one.p, two.p, one.n) == 0);
	uint32_t terms[] = {0, 1};
	uint64_t at[] = {0, 2};
	gp_query_batch q = {GP_IX_AND, 1, terms, at, 0, 0};
	gp_answers x, y;
	CHECK(gp_index_query_host(ix, &q, NULL, &x, &err) == GP_OK && gp_index_query_host(back, &q, NULL, &y, &err) == GP_OK);
	CHECK(x.total == 2 && y.total == 2 && x.docs[0] == 2 && x.docs[1] == 5 && y.docs[0] == 2 && y.docs[1] == 5);
	gp_answers_free(&x);
	gp_answers_free(&y);
	gp_index_unref(ix);
	gp_index_unref(back);
	free(one.p);
	free(two.p);
	return 1;
}

/* The distinct docs, by a bitmap for dense docs and by a union of the lists for sparse ones,
 * equal a count by hand. */
static int test_doc_count(void)
{
	int64_t dense[] = {0, 1, 3, 4, 8}, dense2[] = {1, 2, 8, 9}, sparse[] = {0, 5, 1 << 27, (1 << 27) + 5};
	int64_t sparse2[] = {5, (1 << 27) + 5, (1 << 27) + 6};
	const int64_t *d[] = {dense, dense2}, *s[] = {sparse, sparse2};
	size_t dl[] = {5, 4}, sl[] = {4, 3};
	gp_error err;
	gp_index *a = s9_index(2, d, dl, NULL, &err), *b = s9_index(2, s, sl, NULL, &err);
	CHECK(a && b);
	CHECK(a->n_docs == 7);    /* 0 1 2 3 4 8 9 */
	CHECK(b->n_docs == 5);    /* 0 5 2^27 2^27+5 2^27+6: the union, no bitmap of 2^27 bits */
	gp_index_unref(a);
	gp_index_unref(b);
	return 1;
}

/* An OR over an empty list and a term the index lacks: the other list's docs, counted the same. */
static int test_empty_lists(void)
{
	int64_t a[] = {3, 4};
	const int64_t *lists[] = {a, a};
	size_t lens[] = {2, 0};
	gp_error err;
	gp_index *ix = s9_index(2, lists, lens, NULL, &err);
	CHECK(ix && gp_index_df(ix, 1) == 0);
	uint32_t terms[] = {1, GP_IX_NO_TERM, 0, 1};
	uint64_t at[] = {0, 2, 4};
	for (int count_only = 0; count_only < 2; count_only++) {
		gp_query_batch q = {GP_IX_OR, 2, terms, at, count_only, 0};
		gp_answers x;
		CHECK(gp_index_query_host(ix, &q, NULL, &x, &err) == GP_OK);
		CHECK(x.at[1] == 0 && x.at[2] == 2 && (count_only || (x.docs[0] == 3 && x.docs[1] == 4)));
		gp_answers_free(&x);
	}
	gp_index_unref(ix);
	return 1;
}

/* A batch the engine cannot answer is refused before any list is read: a ranked query on an index
 * without doc lengths (the ranking reads them), an unknown operator. */
static int test_batch_refused(void)
{
	int64_t a[] = {3, 4};
	const int64_t *lists[] = {a};
	size_t lens[] = {2};
	gp_error err;
	gp_index *ix = s9_index(1, lists, lens, NULL, &err);
	CHECK(ix && !ix->doc_len);
	uint32_t terms[] = {0};
	uint64_t at[] = {0, 1};
	gp_answers x;
	gp_query_batch ranked = {GP_IX_AND, 1, terms, at, 0, 10}, unknown = {9, 1, terms, at, 0, 0}, phrase = {GP_IX_PHRASE, 1, terms, at, 0, 10};
	CHECK(gp_index_query_host(ix, &ranked, NULL, &x, &err) == GP_EVALUE && err.code == GP_EVALUE && strstr(err.rule, "doc lengths"));
	CHECK(gp_index_query_host(ix, &unknown, NULL, &x, &err) == GP_EVALUE && strstr(err.rule, "operator"));
	CHECK(gp_index_query_host(ix, &phrase, NULL, &x, &err) == GP_OK);   /* a phrase is not ranked: its limit is not the ranking's */
	gp_answers_free(&x);
	/* with lengths: ranked answers, but never a ranked count (its ranking would write the docs a
	 * count does not keep) */
	uint32_t docs[] = {3, 4}, lens_of[] = {5, 6};
	CHECK(gp_index_set_lengths(ix, docs, lens_of, 2, 1.2, 0.75, NULL, &err) == GP_OK);
	CHECK(gp_index_query_host(ix, &ranked, NULL, &x, &err) == GP_OK && x.at[1] == 2);
	gp_answers_free(&x);
	gp_query_batch ranked_count = {GP_IX_OR, 1, terms, at, 1, 20000};
	CHECK(gp_index_query_host(ix, &ranked_count, NULL, &x, &err) == GP_EVALUE && strstr(err.rule, "count takes no limit"));
	gp_index_unref(ix);
	return 1;
}

/* The budget: without a face only C bytes count and the limits are named by their roles; with
 * one, its costs count against the room and its names appear. */
static uint64_t face_list(uint64_t n) { return 1000 + n; }
static uint64_t face_map(uint64_t n) { return 2000 + n; }
static uint64_t face_floor(uint64_t a, uint64_t b) { return a + b; }
static uint64_t face_postings(uint64_t a, uint64_t b, uint64_t c) { return a + b + c; }

static int test_budget_face(void)
{
	const gp_face face = {face_list, face_map, face_floor, face_postings, "the face's heap", "its room", "its cap"};
	gp_budget none = {500, 1 << 20, 1, NULL}, with = {500, 1 << 20, 1, &face};
	gp_error err;
	int64_t a[] = {1, 2, 3};
	const int64_t *lists[] = {a};
	size_t lens[] = {3};
	gp_index *ix = s9_index(1, lists, lens, NULL, &err);
	CHECK(ix);
	uint32_t terms[] = {0};
	uint64_t at[] = {0, 1};
	gp_query_batch q = {GP_IX_AND, 1, terms, at, 0, 0};
	gp_answers x;
	CHECK(gp_index_query_host(ix, &q, &none, &x, &err) == GP_OK && x.total == 3);   /* 12 C bytes: fits */
	gp_answers_free(&x);
	CHECK(gp_index_query_host(ix, &q, &with, &x, &err) == GP_ENOMEM);               /* a list costs 1003 */
	CHECK(strstr(err.rule, "the face's heap") && strstr(err.rule, "its room (500)"));
	gp_budget capped = {UINT64_MAX, 8, 1, NULL};
	CHECK(gp_index_query_host(ix, &q, &capped, &x, &err) == GP_ENOMEM && strstr(err.rule, "the cap on a call's results (8)"));
	gp_index_unref(ix);
	return 1;
}

/* An index file whose section table names the lists' bytes twice is refused, naming the entries,
 * before their checksums are computed again. */
static int test_sections_apart(void)
{
	int64_t a[] = {1, 2, 3};
	const int64_t *lists[] = {a};
	size_t lens[] = {3};
	gp_error err;
	gp_index *ix = s9_index(1, lists, lens, NULL, &err), *back = NULL;
	struct { uint8_t *p; size_t n; } f = {0};
	CHECK(ix && gp_index_save(ix, GP_INDEX_FILE_VERSION, collect, &f, &err) == GP_OK);
	uint32_t n = gp_load_le32(f.p + 44);
	memcpy(f.p + 64 + 24, f.p + 64 + 24 * 3, 24);   /* entry 1 names entry 3's section */
	gp_store_le32(f.p + 48, gp_crc32(0, f.p + 64, 24 * (size_t)n));
	gp_store_le32(f.p + 60, gp_crc32(0, f.p, 60));
	CHECK(gp_index_load(f.p, f.n, NULL, &back, &err) == GP_EFORMAT && strstr(err.rule, "overlap"));
	gp_index_unref(ix);
	free(f.p);
	return 1;
}

/* Every term is found, and no other, whatever its bytes (zeros included). */
static int test_dictionary(void)
{
	enum { N = 3000 };
	char (*names)[6] = malloc(N * sizeof(*names));
	const char **terms = malloc(N * sizeof(char *));
	size_t *term_lens = malloc(N * sizeof(size_t)), *lens = calloc(N, sizeof(size_t));
	const uint8_t **blobs = malloc(N * sizeof(uint8_t *));
	for (size_t t = 0; t < N; t++) {
		memcpy(names[t], (char[]){0, (char)(t & 255), (char)(t >> 8), 0, 'x', 0}, 6);
		terms[t] = names[t];
		term_lens[t] = 5;
		blobs[t] = (const uint8_t *)"";
	}
	gp_index *ix = NULL;
	gp_error err;
	int ok = gp_index_build(GP_IX_MOD9, N, terms, term_lens, blobs, lens, NULL, &ix, &err) == GP_OK;
	for (size_t t = 0; ok && t < N; t++) ok = gp_index_lookup(ix, names[t], 5) == t;
	ok = ok && gp_index_lookup(ix, "\0\0\0\0y", 5) == GP_IX_NO_TERM && gp_index_lookup(ix, names[0], 4) == GP_IX_NO_TERM;
	gp_index_unref(ix);
	free(names);
	free(terms);
	free(term_lens);
	free(lens);
	free(blobs);
	CHECK(ok);
	return 1;
}

/* The two work estimates: the device's (every posting of the lists) and the host's (an AND, a
 * phrase and a ranked AND walk the shortest list and seek in the others; an OR reads them all),
 * each query and term counted beside its lists, unknown terms reading nothing. */
static int test_work(void)
{
	int64_t a[100], b[10];
	for (int i = 0; i < 100; i++) a[i] = i;
	for (int i = 0; i < 10; i++) b[i] = i * 7;
	const int64_t *lists[] = {a, b};
	size_t lens[] = {100, 10};
	gp_error err;
	gp_index *ix = s9_index(2, lists, lens, NULL, &err);
	CHECK(ix);
	uint32_t terms[] = {0, 1, 1, GP_IX_NO_TERM, 7};
	uint64_t at[] = {0, 2, 5};
	gp_query_batch and = {GP_IX_AND, 2, terms, at, 0, 0}, ranked_and = {GP_IX_AND, 2, terms, at, 0, 10},
	               phrase = {GP_IX_PHRASE, 2, terms, at, 0, 0}, or = {GP_IX_OR, 2, terms, at, 0, 10};
	CHECK(gp_query_work(ix, &and) == 120 && gp_query_work(ix, &or) == 120);
	/* query 0: 1 + 2 terms + 10 x 2; query 1: its shortest list is empty (unknown terms) */
	CHECKF(gp_query_host_work(ix, &and) == 23 + 4, "%llu", (unsigned long long)gp_query_host_work(ix, &and));
	CHECK(gp_query_host_work(ix, &ranked_and) == 27 && gp_query_host_work(ix, &phrase) == 27);
	CHECK(gp_query_host_work(ix, &or) == (1 + 2 + 110) + (1 + 3 + 10));
	gp_index_unref(ix);
	return 1;
}

/* CRC-32C: the standard check value, and the instruction's answers equal the tables' on every
 * length and alignment, continued or whole. */
static int test_crc32c(void)
{
	uint8_t buf[300];
	for (size_t i = 0; i < sizeof(buf); i++) buf[i] = (uint8_t)(i * 131 + 7);
	int ok = gp_crc32c(0, (const uint8_t *)"123456789", 9) == 0xE3069283u && gp_crc32c_portable(0, (const uint8_t *)"123456789", 9) == 0xE3069283u;
	for (size_t a = 0; ok && a < 9; a++) {
		for (size_t n = 0; ok && a + n <= sizeof(buf); n += 7) {
			uint32_t whole = gp_crc32c(0, buf + a, n);
			ok = whole == gp_crc32c_portable(0, buf + a, n) && whole == gp_crc32c(gp_crc32c(0, buf + a, n / 3), buf + a + n / 3, n - n / 3);
		}
	}
	CHECK(ok);
	return 1;
}

/* A Yioop bundle's generation.txt: ACTIVE read from what PHP's serialize() writes, with the other
 * values stepped over; anything else refused at its byte. */
static int test_yioop_generation_info(void)
{
	static const struct { const char *text; int64_t active; size_t bad_at; } cases[] = {
		{"a:3:{s:6:\"ACTIVE\";i:4;s:21:\"LAST_DICTIONARY_SHARD\";i:3;s:7:\"CURRENT\";i:4;}", 4, 0},
		{"a:4:{s:7:\"CURRENT\";N;s:1:\"x\";b:1;s:1:\"y\";d:-0.5;s:6:\"ACTIVE\";i:0;}\n", 0, 0},
		{"a:2:{s:1:\"s\";s:4:\"a;b}\";s:6:\"ACTIVE\";i:12;}", 12, 0},
		{"a:1:{s:6:\"ACTIVE\";i:-1;}", -1, 18},
		{"a:2:{s:1:\"b\";b:1;s:6:\"ACTIVE\";i:+7;}", 7, 0},
		{"a:2:{s:1:\"b\";b:7;s:6:\"ACTIVE\";i:7;}", -1, 13},
		{"a:1:{s:6:\"ACTIVE\";i:1x;}", -1, 18},
		{"a:1:{s:6:\"ACTIVE\";a:0:{}}", -1, 18},
		{"a:1:{s:7:\"ACTIVE\";i:1;}", -1, 5},
		{"a:1:{s:6:\"ACTIVE\";i:1;", -1, 22},
		{"a:1:{s:6:\"ACTIVE\";i:1;}}", -1, 23},
		{"a:1:{i:0;i:1;}", -1, 5},
		{"a:0:{}", -1, 0},
		{"", -1, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t active;
		gp_error err;
		int rc = gp_yioop_generation_info(cases[i].text, strlen(cases[i].text), &active, &err);
		if (cases[i].active >= 0) CHECKF(rc == GP_OK && active == cases[i].active, "case %zu: %s", i, err.rule);
		else CHECKF(rc == GP_EFORMAT && err.offset == cases[i].bad_at, "case %zu: rc %d at %zu: %s", i, rc, err.offset, err.rule);
	}
	return 1;
}

int main(void)
{
	run("an index saved and loaded is the same index", test_save_load);
	run("distinct docs by a bitmap and by a union of the lists", test_doc_count);
	run("OR over an empty list and an unknown term", test_empty_lists);
	run("a ranked batch without doc lengths, a ranked count and an unknown operator refused", test_batch_refused);
	run("the budget with and without a face", test_budget_face);
	run("index file sections that overlap are refused", test_sections_apart);
	run("the dictionary finds every term of any bytes", test_dictionary);
	run("CRC-32C by the instruction and by tables", test_crc32c);
	run("the device's and the host's work of a batch", test_work);
	run("a Yioop bundle's generation.txt", test_yioop_generation_info);
	return summary();
}
