/* Synthetic corpus for bench/index_bench.php: docs of Zipf-distributed terms, written as a
 * gpupost index file (MOD9 postings with positions), a query log drawn by term frequency and,
 * where asked, the documents as text (one line of tokens each) for SQLite FTS5 and Xapian.
 *
 *   gen_corpus DOCS TOKENS_PER_DOC VOCABULARY INDEX_FILE QUERY_LOG [TEXT_FILE]
 *
 * Terms are "t<rank>"; a doc's length is uniform in [L/2, 3L/2]; the token stream is generated
 * twice from one seed (counting, then placing), so memory is 8 bytes per token. Queries: 10,000
 * AND queries of 2-4 terms, each the term of a random token (so drawn by frequency) outside the
 * 100 most frequent terms (the stop words a search engine's users leave out), and 10,000
 * phrases: 2-3 consecutive tokens at a random place of a random doc (stop words included). The
 * index file holds each doc's length (BM25's, for ranked queries); it is version 2, or version 1
 * with GEN_FILE_VERSION=1 in the environment. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../index/gp_index.h"
#include "../codec/gp_mod9.h"

#define STOP_WORDS 100
static uint64_t rng_state;
static void *must(void *p);

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Zipf (s = 1) over the vocabulary by Vose's alias method: one draw, one table lookup. */
static uint32_t vocab, *alias;
static double *prob;

static void zipf_init(void)
{
	double sum = 0, *p = must(malloc((size_t)vocab * sizeof(double)));
	uint32_t *small = must(malloc((size_t)vocab * sizeof(uint32_t))), *large = must(malloc((size_t)vocab * sizeof(uint32_t)));
	size_t ns = 0, nl = 0;
	prob = must(malloc((size_t)vocab * sizeof(double)));
	alias = must(malloc((size_t)vocab * sizeof(uint32_t)));
	for (uint32_t i = 0; i < vocab; i++) sum += 1.0 / (i + 1.0);
	for (uint32_t i = 0; i < vocab; i++) {
		p[i] = vocab / (sum * (i + 1.0));
		if (p[i] < 1.0) small[ns++] = i; else large[nl++] = i;
	}
	while (ns && nl) {
		uint32_t s = small[--ns], l = large[--nl];
		prob[s] = p[s];
		alias[s] = l;
		p[l] -= 1.0 - p[s];
		if (p[l] < 1.0) small[ns++] = l; else large[nl++] = l;
	}
	while (nl) prob[large[--nl]] = 1.0;
	while (ns) prob[small[--ns]] = 1.0;
	free(p);
	free(small);
	free(large);
}

static uint32_t zipf(void)
{
	uint64_t r = rng();
	uint32_t i = (uint32_t)((r >> 32) * vocab >> 32);
	return (double)(r & 0xFFFFFFFFu) / 4294967296.0 < prob[i] ? i : alias[i];
}

/* Each doc's tokens from a seed of its own, so that any doc can be generated again alone. */
static void doc_seed(uint64_t seed, uint32_t d)
{
	rng_state = seed + (uint64_t)d * 0xD1B54A32D192ED03ull;
}

static uint32_t doc_len(uint32_t mean)
{
	return mean / 2 + (uint32_t)(rng() % (mean + 1));
}

static int write_file(void *f, const void *bytes, size_t len)
{
	return fwrite(bytes, 1, len, (FILE *)f) == len ? 0 : -1;
}

static void *must(void *p)
{
	if (!p) {
		fprintf(stderr, "gen_corpus: out of memory\n");
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	if (argc < 6 || strtoul(argv[3], NULL, 10) <= STOP_WORDS) {
		fprintf(stderr, "usage: gen_corpus DOCS TOKENS_PER_DOC VOCABULARY INDEX_FILE QUERY_LOG [TEXT_FILE]\n");
		return 2;
	}
	uint32_t docs = (uint32_t)strtoul(argv[1], NULL, 10), mean = (uint32_t)strtoul(argv[2], NULL, 10);
	vocab = (uint32_t)strtoul(argv[3], NULL, 10);
	const uint64_t seed = 20261125;
	zipf_init();

	/* pass 1: tokens per term */
	uint64_t *count = must(calloc((size_t)vocab + 1, sizeof(uint64_t))), tokens = 0;
	for (uint32_t d = 0; d < docs; d++) {
		doc_seed(seed, d);
		for (uint32_t n = doc_len(mean), p = 0; p < n; p++) count[zipf()]++;
	}
	for (uint32_t t = 0; t < vocab; t++) {
		uint64_t c = count[t];
		count[t] = tokens;
		tokens += c;
	}
	count[vocab] = tokens;
	/* pass 2: each term's (doc, position) in doc order */
	uint32_t *tdoc = must(malloc(tokens * sizeof(uint32_t))), *tpos = must(malloc(tokens * sizeof(uint32_t)));
	uint64_t *fill = must(malloc((size_t)vocab * sizeof(uint64_t)));
	memcpy(fill, count, (size_t)vocab * sizeof(uint64_t));
	for (uint32_t d = 0; d < docs; d++) {
		doc_seed(seed, d);
		for (uint32_t n = doc_len(mean), p = 0; p < n; p++) {
			uint32_t t = zipf();
			tdoc[fill[t]] = d;
			tpos[fill[t]++] = p + 1;
		}
	}
	free(fill);
	/* MOD9 postings per term */
	uint8_t *blobs = must(malloc(tokens * 8 + 64));
	size_t *blob_at = must(malloc(((size_t)vocab + 1) * sizeof(size_t))), used = 0, n_terms = 0;
	char *names = must(malloc((size_t)vocab * 12));
	size_t *name_len = must(malloc((size_t)vocab * sizeof(size_t)));
	const char **term_ptr = must(malloc((size_t)vocab * sizeof(char *)));
	const uint8_t **blob_ptr = must(malloc((size_t)vocab * sizeof(uint8_t *)));
	size_t *lens = must(malloc((size_t)vocab * sizeof(size_t)));
	int64_t pos[4096];
	uint32_t vals[4097];
	uint64_t postings = 0;
	for (uint32_t t = 0; t < vocab; t++) {
		if (count[t] == count[t + 1]) continue;
		blob_at[n_terms] = used;
		for (uint64_t i = count[t]; i < count[t + 1];) {
			uint32_t d = tdoc[i];
			size_t k = 0;
			while (i < count[t + 1] && tdoc[i] == d) {
				if (k < 4096) pos[k++] = tpos[i];
				i++;
			}
			const char *why;
			size_t nv = gp_mod9_posting_values(d, pos, k, 0, vals, &why);
			if (nv == 0) {
				fprintf(stderr, "gen_corpus: %s\n", why);
				return 1;
			}
			used += gp_mod9_encode_values(vals, nv, blobs + used);
			postings++;
		}
		name_len[n_terms] = (size_t)snprintf(names + 12 * n_terms, 12, "t%u", t);
		term_ptr[n_terms] = names + 12 * n_terms;
		n_terms++;
	}
	for (size_t i = 0; i < n_terms; i++) {
		blob_ptr[i] = blobs + blob_at[i];
		lens[i] = (i + 1 < n_terms ? blob_at[i + 1] : used) - blob_at[i];
	}
	gp_index *ix;
	gp_error err;
	if (gp_index_build(GP_IX_MOD9, n_terms, term_ptr, name_len, blob_ptr, lens, NULL, &ix, &err) != GP_OK) {
		fprintf(stderr, "gen_corpus: %s\n", err.rule);
		return 1;
	}
	/* each doc's length in tokens, for BM25 (ranked queries): the docs regenerated */
	uint32_t *doc_ids = must(malloc(((size_t)docs + 1) * sizeof(uint32_t))), *doc_lens = must(malloc(((size_t)docs + 1) * sizeof(uint32_t)));
	for (uint32_t d = 0; d < docs; d++) {
		doc_seed(seed, d);
		doc_ids[d] = d;
		doc_lens[d] = doc_len(mean);
	}
	if (gp_index_set_lengths(ix, doc_ids, doc_lens, docs, 1.2, 0.75, NULL, &err) != GP_OK) {
		fprintf(stderr, "gen_corpus: %s\n", err.rule);
		return 1;
	}
	free(doc_ids);
	free(doc_lens);
	/* GEN_FILE_VERSION=1: the old layout, for comparing the two */
	const char *version = getenv("GEN_FILE_VERSION");
	FILE *f = fopen(argv[4], "wb");
	if (!f || gp_index_save(ix, version && *version == '1' ? 1 : GP_INDEX_FILE_VERSION, write_file, f, &err) != GP_OK || fclose(f) != 0) {
		perror(argv[4]);
		return 1;
	}
	fprintf(stderr, "gen_corpus: %u docs, %llu tokens, %zu terms, %llu postings, %.1f MB of lists -> %s\n", docs,
	        (unsigned long long)tokens, n_terms, (unsigned long long)ix->n_postings, used / 1e6, argv[4]);
	gp_index_unref(ix);
	free(blobs);

	/* queries: AND terms drawn as tokens are (by frequency); phrases from the token stream */
	FILE *q = fopen(argv[5], "w");
	if (!q) return perror(argv[5]), 1;
	rng_state = seed ^ 0x5EEDu;
	for (int i = 0; i < 10000; i++) {
		fputs("and", q);
		for (uint64_t k = 2 + rng() % 3; k > 0; k--) {
			uint64_t at = count[STOP_WORDS] + rng() % (tokens - count[STOP_WORDS]);
			uint32_t lo = 0, hi = vocab;   /* the term whose tokens hold `at` */
			while (hi - lo > 1) {
				uint32_t mid = lo + (hi - lo) / 2;
				if (count[mid] <= at) lo = mid; else hi = mid;
			}
			fprintf(q, " t%u", lo);
		}
		fputc('\n', q);
	}
	/* phrases: runs of 2-3 tokens at the start of 10,000 random docs, regenerated */
	uint32_t *pick = must(calloc(docs, sizeof(uint32_t)));
	for (uint32_t picked = 0; picked < (docs < 10000 ? docs : 10000);) {
		uint32_t d = (uint32_t)(rng() % docs);
		if (!pick[d]) {
			pick[d] = 2 + (uint32_t)(rng() % 2);
			picked++;
		}
	}
	FILE *text = argc > 6 ? fopen(argv[6], "w") : NULL;
	if (argc > 6 && !text) return perror(argv[6]), 1;
	for (uint32_t d = 0; d < docs; d++) {
		if (!text && !pick[d]) continue;
		doc_seed(seed, d);
		uint32_t n = doc_len(mean), from = n > pick[d] ? (uint32_t)(((uint64_t)d * 2654435761u) % (n - pick[d] + 1)) : 0;
		int phrase = pick[d] && pick[d] <= n;
		if (phrase) fputs("phrase", q);
		for (uint32_t p = 0; p < n; p++) {
			uint32_t t = zipf();
			if (text) fprintf(text, p ? " t%u" : "t%u", t);
			if (phrase && p >= from && p < from + pick[d]) fprintf(q, " t%u", t);
		}
		if (phrase) fputc('\n', q);
		if (text) fputc('\n', text);
	}
	free(pick);
	fclose(q);
	if (text) fclose(text);
	return 0;
}
