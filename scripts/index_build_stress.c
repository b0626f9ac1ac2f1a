/* Stress for the index build's workers (index/gp_index.c on the host pool, codec/gp_pool.c),
 * run by scripts/pool-stress.sh under ThreadSanitizer: S9 and MOD9 indexes (lists with equal docs
 * in a row, which the build merges, among them) built by 2 to 16 workers, each checked against
 * the one a single worker builds, array for array; and lists with two bad lists, where every
 * build must name the first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../index/gp_index.h"
#include "../codec/gp_mod9.h"
#include "../codec/gp_s9.h"

#define N_LISTS 160

static uint64_t rng = 88172645463325252ull;
static uint32_t next_rand(uint32_t below)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % below);
}

static uint8_t *blobs[N_LISTS];
static size_t lens[N_LISTS];
static char names[N_LISTS][16];
static const char *terms[N_LISTS];
static size_t term_lens[N_LISTS];

static void s9_list(size_t t)
{
	size_t n = next_rand(t % 23 == 0 ? 30000 : 3000);
	int64_t *docs = malloc((n + 1) * sizeof(int64_t)), d = next_rand(10);
	for (size_t i = 0; i < n; i++) docs[i] = d += next_rand(40) + (t % 3 ? 1 : 0);   /* equal docs where t % 3 == 0 */
	const char *why;
	size_t at;
	blobs[t] = malloc(gp_s9_encode_bound(n));
	lens[t] = gp_s9_encode(docs, n, 1, blobs[t], &why, &at);
	if (!lens[t]) abort();
	free(docs);
}

static void mod9_list(size_t t)
{
	size_t n = 1 + next_rand(t % 23 == 0 ? 20000 : 800), len = 0, cap = 64;
	uint8_t *blob = malloc(cap);
	int64_t doc = next_rand(5);
	for (size_t i = 0; i < n; i++) {
		int64_t pos[8];
		uint32_t values[9];
		size_t k = 1 + next_rand(6);
		for (size_t j = 0, p = 0; j < k; j++) pos[j] = (int64_t)(p += 1 + next_rand(30));
		const char *why;
		size_t nv = gp_mod9_posting_values(doc, pos, k, 0, values, &why);
		if (!nv) abort();
		if (len + gp_mod9_encode_bound(nv) > cap) blob = realloc(blob, cap = 2 * (len + gp_mod9_encode_bound(nv)));
		len += gp_mod9_encode_values(values, nv, blob + len);
		doc += next_rand(t % 4 == 0 ? 2 : 50) + (t % 4 == 0 ? 0 : 1);   /* equal docs where t % 4 == 0 */
	}
	blobs[t] = blob;
	lens[t] = len;
}

static gp_index *build(int format, const char *threads, gp_error *err, int *rc)
{
	gp_index *ix = NULL;
	setenv("GPUPOST_BUILD_THREADS", threads, 1);
	*rc = gp_index_build(format, N_LISTS, terms, term_lens, (const uint8_t *const *)blobs, lens, NULL, &ix, err);
	return ix;
}

#define SAME(a, b, n) (memcmp((a), (b), (n)) == 0)
static int same_index(const gp_index *a, const gp_index *b)
{
	uint64_t n = a->n_terms;
	return a->n_postings == b->n_postings && a->n_positions == b->n_positions && a->n_docs == b->n_docs &&
	       a->max_doc == b->max_doc && SAME(a->list_at, b->list_at, (n + 1) * 8) &&
	       SAME(a->docs, b->docs, a->n_postings * 4) && SAME(a->merged, b->merged, n) &&
	       SAME(a->blob_at, b->blob_at, (n + 1) * 8) && SAME(a->blobs, b->blobs, a->blob_at[n]) &&
	       (!a->positional || (SAME(a->pos_at, b->pos_at, (a->n_postings + 1) * 8) &&
	                           SAME(a->positions, b->positions, a->n_positions * 4)));
}

int main(void)
{
	static const char *const counts[] = {"2", "3", "4", "8", "16"};
	int failed = 0;
	for (size_t t = 0; t < N_LISTS; t++) {
		snprintf(names[t], sizeof(names[t]), "t%zu", t);
		terms[t] = names[t];
		term_lens[t] = strlen(names[t]);
	}
	for (int format = GP_IX_MOD9; format <= GP_IX_S9; format++) {
		for (size_t t = 0; t < N_LISTS; t++) {
			free(blobs[t]);
			if (format == GP_IX_MOD9) mod9_list(t);
			else s9_list(t);
		}
		gp_error err;
		int rc;
		gp_index *one = build(format, "1", &err, &rc);
		if (rc != GP_OK) {
			fprintf(stderr, "format %d: one worker: %s\n", format, err.rule);
			return 1;
		}
		for (int round = 0; round < 4; round++) {
			for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
				gp_index *many = build(format, counts[c], &err, &rc);
				if (rc != GP_OK || !same_index(one, many)) {
					fprintf(stderr, "format %d, %s workers: not the index one worker builds\n", format, counts[c]);
					failed = 1;
				}
				gp_index_unref(many);
			}
		}
		printf("index build, format %d: %llu postings, %llu positions, the same from 1 to 16 workers (20 builds)\n",
		       format, (unsigned long long)one->n_postings, (unsigned long long)one->n_positions);
		gp_index_unref(one);
	}
	/* two bad lists: the first is named (S9 blobs of falling docs fail when decoded, a cut blob
	 * when measured: the measured one is named first, as one worker finds it) */
	static const struct { size_t first, second; int cut_second; } bad[] = {{3, 90, 0}, {5, 6, 0}, {140, 7, 1}};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		for (size_t t = 0; t < N_LISTS; t++) {
			free(blobs[t]);
			s9_list(t);
		}
		const int64_t falling[2] = {9, 5};
		const char *why;
		size_t at;
		for (size_t j = 0; j < 2; j++) {
			size_t t = j ? bad[k].second : bad[k].first;
			blobs[t] = realloc(blobs[t], gp_s9_encode_bound(2));
			lens[t] = gp_s9_encode(falling, 2, 0, blobs[t], &why, &at);
		}
		if (bad[k].cut_second) lens[bad[k].second] -= 1;
		const size_t named = bad[k].cut_second ? bad[k].second : bad[k].first;
		for (int round = 0; round < 4; round++) {
			for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
				gp_error err;
				int rc;
				gp_index *ix = build(GP_IX_S9, counts[c], &err, &rc);
				if (rc == GP_OK || err.blob != named) {
					fprintf(stderr, "bad lists %zu and %zu, %s workers: list %zu named, not %zu\n", bad[k].first,
					        bad[k].second, counts[c], rc == GP_OK ? (size_t)-1 : err.blob, named);
					failed = 1;
				}
				gp_index_unref(ix);
			}
		}
	}
	printf("index build: the first bad list named by every build\n");
	for (size_t t = 0; t < N_LISTS; t++) free(blobs[t]);
	return failed;
}
